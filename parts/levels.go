package parts

import "math"

// LevelStride separates the draw orders of a layered map's levels: an
// entry of level n at base order z draws at z + n·LevelStride, above
// everything of the levels below. It is larger than any base order a part
// or a map layer uses.
const LevelStride = 100

// LevelZ is the draw order of base order z on a level.
func LevelZ(z, level int) int { return z + LevelStride*max(level, 0) }

// OccluderZ is the base draw order of a layer's volume (its sides and
// raised top): above the track marks, bombs, bodies, tanks and smoke of
// its own level (base orders 1 to 4), because the volume rises between the
// viewer and what stands behind it, and below everything of the next level.
const OccluderZ = 5

// RenderLevel is the level a body at height h (levels) whose level is
// level is drawn on: a falling body keeps the level it left until it
// lands, and is drawn among the lower level's bodies from half way down.
func RenderLevel(level int, h float64) int {
	if !(h >= 0) {
		h = 0
	}
	return max(0, min(level, int(math.Round(min(h, 1e6)))))
}

// Height is where something stands: its level, and its height above the
// ground in levels (fractional on a ramp or in a fall).
type Height struct {
	Level int
	H     float64
}

// maxBlasts bounds the remembered detonation points.
const maxBlasts = 32

type blast struct {
	x, y float64
	at   Height
}

// Levels is what the parts of one scene share about heights: the map's
// level height, where each actor stands (its parts write it as its rows
// arrive), and where the last bombs went off, so that the effects an actor
// causes start at the actor's height. It is bounded: actors are keyed by a
// game id, detonations kept in a ring.
type Levels struct {
	levelHeight float64
	actors      map[uint32]actor
	blasts      [maxBlasts]blast
	nBlasts     int
	nextBlast   int
}

// NewLevels returns an empty book for a flat map.
func NewLevels() *Levels { return &Levels{actors: map[uint32]actor{}} }

// actor is what the book knows of one actor: its height, and where it is
// on the map once its part has said.
type actor struct {
	at     Height
	x, y   float64
	placed bool
}

// SetLevelHeight records the map's level height in world units (0 or less:
// a flat map, where no height is read from world units).
func (l *Levels) SetLevelHeight(h float64) {
	if !(h > 0) || math.IsInf(h, 0) {
		h = 0
	}
	l.levelHeight = h
}

// Levels converts a height in world units above the ground into levels.
func (l *Levels) Levels(worldZ float64) float64 {
	if l.levelHeight <= 0 || !(worldZ > 0) {
		return 0
	}
	return min(worldZ/l.levelHeight, MaxHeight)
}

// MaxHeight bounds a drawn height in levels (the highest level of a map is
// 7); absurd values from a row are clamped to it.
const MaxHeight = 8

// SetActor records where actor id stands.
func (l *Levels) SetActor(id uint32, at Height) {
	a := l.actors[id]
	a.at = at
	l.actors[id] = a
}

// Place records where on the map actor id is (world units); a point that
// is not a number is not recorded.
func (l *Levels) Place(id uint32, x, y float64) {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return
	}
	a := l.actors[id]
	a.x, a.y, a.placed = x, y, true
	l.actors[id] = a
}

// Where reports where on the map actor id is; ok is false while its part
// has not placed it (or it left): a map part that reacts to the own actor
// (a roof over it) reads it.
func (l *Levels) Where(id uint32) (x, y float64, ok bool) {
	a := l.actors[id]
	return a.x, a.y, a.placed
}

// ForgetActor drops an actor that left.
func (l *Levels) ForgetActor(id uint32) { delete(l.actors, id) }

// Actor reports where actor id stands (the ground when it is unknown).
func (l *Levels) Actor(id uint32) Height { return l.actors[id].at }

// Blasted records a detonation at a point.
func (l *Levels) Blasted(x, y float64, at Height) {
	l.blasts[l.nextBlast] = blast{x: x, y: y, at: at}
	l.nextBlast = (l.nextBlast + 1) % maxBlasts
	l.nBlasts = min(l.nBlasts+1, maxBlasts)
}

// BlastAt reports the height of the latest detonation within r world units
// of a point (the ground when there is none).
func (l *Levels) BlastAt(x, y, r float64) Height {
	for i := range l.nBlasts {
		b := &l.blasts[(l.nextBlast-1-i+2*maxBlasts)%maxBlasts]
		if math.Hypot(b.x-x, b.y-y) <= r {
			return b.at
		}
	}
	return Height{}
}
