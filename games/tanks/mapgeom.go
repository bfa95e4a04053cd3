package tanks

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Limits on MAP_DATA geometry: beyond them a map is refused rather than
// allocated (the largest bundled tanks map is 210×150 cells, 76 crates).
const (
	MaxMapCells  = 1 << 20
	MaxMapCrates = 256 // indexedNoNull8 slots
)

// Crate surface and default damping (game-tanks.md §5.1).
const (
	CrateFriction       = 0.2
	CrateRestitution    = 0
	CrateAngularDamping = 0.01
)

// Crate is a dynamic map body as the simulation sees it: a box whose
// centre is offset from the MAP_DATA corner by half its size in its own
// rotated frame.
type Crate struct {
	Body           Body
	LinearDamping  float32
	AngularDamping float32
}

// Geometry is the part of MAP_DATA that the simulation reads: the glued
// wall blocks and the crates at their map positions, in world units.
type Geometry struct {
	Scale  float32
	Cell   float32
	Walls  *Walls
	Crates []Crate
}

type mapData struct {
	Scale          *float64          `json:"scale"`
	Step           float64           `json:"step"`
	Grid           [][]int           `json:"map"`
	PhysicsStatic  []int             `json:"physicsStatic"`
	PhysicsDynamic []json.RawMessage `json:"physicsDynamic"`
}

type crateData struct {
	Position       [2]float64 `json:"position"`
	Angle          float64    `json:"angle"`
	Width          float64    `json:"width"`
	Height         float64    `json:"height"`
	Density        float64    `json:"density"`
	LinearDamping  *float64   `json:"linearDamping"`
	AngularDamping *float64   `json:"angularDamping"`
}

// DefaultMapScale applies when MAP_DATA carries no scale.
const DefaultMapScale = 0.3

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// ParseGeometry reads the simulation geometry from a MAP_DATA payload. The
// host builds its world and the client's predictor its replica with this
// one function, so both collide against the same blocks and crates.
func ParseGeometry(raw []byte) (*Geometry, error) {
	var md mapData
	if err := json.Unmarshal(raw, &md); err != nil {
		return nil, fmt.Errorf("map geometry: %w", err)
	}
	scale := DefaultMapScale
	if md.Scale != nil {
		scale = *md.Scale
	}
	if !finite(scale, md.Step) || scale <= 0 || md.Step <= 0 || scale*md.Step > 1e4 || scale*md.Step < 1e-3 {
		return nil, errors.New("map geometry: step·scale must lie in [0.001, 10000]")
	}
	cells := 0
	for _, r := range md.Grid {
		cells += len(r)
	}
	if cells > MaxMapCells || len(md.Grid) > MaxMapCells {
		return nil, fmt.Errorf("map geometry: %d cells, limit %d", cells, MaxMapCells)
	}
	if len(md.PhysicsDynamic) > MaxMapCrates {
		return nil, fmt.Errorf("map geometry: %d crates, limit %d", len(md.PhysicsDynamic), MaxMapCrates)
	}
	g := &Geometry{Scale: float32(scale), Cell: float32(md.Step * scale)}
	g.Walls = NewWalls(md.Grid, md.PhysicsStatic, g.Cell)
	for i, rc := range md.PhysicsDynamic {
		var c crateData
		if err := json.Unmarshal(rc, &c); err != nil {
			return nil, fmt.Errorf("map geometry: crate %d: %w", i, err)
		}
		if !finite(c.Position[0], c.Position[1], c.Angle, c.Width, c.Height, c.Density) || c.Width <= 0 || c.Height <= 0 {
			return nil, fmt.Errorf("map geometry: crate %d: bad size or position", i)
		}
		w, h := float32(c.Width*scale), float32(c.Height*scale)
		a := float32(c.Angle * math.Pi / 180)
		ox, oy := float32(c.Position[0]*scale), float32(c.Position[1]*scale)
		s64, c64 := math.Sincos(float64(a))
		s, co := float32(s64), float32(c64)
		b := Body{X: ox + co*w/2 - s*h/2, Y: oy + s*w/2 + co*h/2, Angle: Normalize(a), HalfW: w / 2, HalfH: h / 2,
			Friction: CrateFriction, Restitution: CrateRestitution}
		density := float32(c.Density)
		if density <= 0 {
			density = 1
		}
		b.SetMass(density)
		cr := Crate{Body: b, AngularDamping: CrateAngularDamping}
		if c.LinearDamping != nil && finite(*c.LinearDamping) {
			cr.LinearDamping = float32(max(0, *c.LinearDamping))
		}
		if c.AngularDamping != nil && finite(*c.AngularDamping) {
			cr.AngularDamping = float32(max(0, *c.AngularDamping))
		}
		g.Crates = append(g.Crates, cr)
	}
	return g, nil
}

// Corner returns the MAP_DATA origin of a crate body (its rotated top-left
// corner), the x, y its snapshot row carries.
func (b *Body) Corner() (float32, float32) {
	s64, c64 := math.Sincos(float64(b.Angle))
	s, c := float32(s64), float32(c64)
	return b.X - (c*b.HalfW - s*b.HalfH), b.Y - (s*b.HalfW + c*b.HalfH)
}
