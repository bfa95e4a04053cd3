package tanks

import (
	"math"

	"vimpclient/gamemap"
	"vimpclient/internal/angle"
)

// Crate surface: friction 0.2, restitution 0, as the host sets it.
const (
	CrateFriction    = 0.2
	CrateRestitution = 0
)

// Crate is a dynamic map body as the simulation sees it: a box whose
// centre is offset from the MAP_DATA corner by half its size in its own
// rotated frame.
type Crate struct {
	Body           Body
	LinearDamping  float32
	AngularDamping float32
	Level          int // the level it rests on
}

// Geometry is the part of a map that the simulation reads, in world units:
// the terrain (every level's glued wall blocks and the ramp guards) and the
// crates at their map positions. The host builds its world and the client's
// predictor its replica from the same parsed map with NewGeometry, so both
// collide against the same blocks and crates; Levels is the map's layered
// geometry both read.
type Geometry struct {
	Scale   float32
	Cell    float32
	Terrain *Terrain
	Walls   *Walls // the ground's, Terrain.Walls(0)
	Crates  []Crate
	Levels  *gamemap.MapLevels
}

// NewGeometry takes the simulation geometry from a parsed map.
func NewGeometry(m *gamemap.Map) *Geometry {
	scale := m.Scale
	g := &Geometry{Scale: float32(scale), Cell: float32(m.CellWorld()), Levels: m.MapLevels()}
	g.Terrain = NewTerrain(g.Levels)
	g.Walls = g.Terrain.Walls(0)
	for _, c := range m.Dynamic {
		w, h := float32(c.Width*scale), float32(c.Height*scale)
		a := float32(c.AngleDeg * math.Pi / 180)
		ox, oy := float32(c.X*scale), float32(c.Y*scale)
		s64, c64 := math.Sincos(float64(a))
		s, co := float32(s64), float32(c64)
		b := Body{X: ox + co*w/2 - s*h/2, Y: oy + s*w/2 + co*h/2, Angle: angle.Normalize(a), HalfW: w / 2, HalfH: h / 2,
			Friction: CrateFriction, Restitution: CrateRestitution}
		density := float32(c.Density)
		if density <= 0 {
			density = 1
		}
		b.SetMass(density)
		g.Crates = append(g.Crates, Crate{Body: b, LinearDamping: float32(c.LinearDamping),
			AngularDamping: float32(c.AngularDamping), Level: c.Level})
	}
	return g
}

// Corner returns the MAP_DATA origin of a crate body (its rotated top-left
// corner), the x, y its snapshot row carries.
func (b *Body) Corner() (float32, float32) {
	s64, c64 := math.Sincos(float64(b.Angle))
	s, c := float32(s64), float32(c64)
	return b.X - (c*b.HalfW - s*b.HalfH), b.Y - (s*b.HalfW + c*b.HalfH)
}

// Rest is a crate's level state at its map position: standing on its level.
func (c *Crate) Rest() LevelState { return LevelState{Level: c.Level, Z: float32(c.Level)} }
