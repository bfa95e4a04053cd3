package tanks

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"vimpclient/gamemap"
	"vimpclient/internal/jsonobj"
)

// A hitscan shot of tanks 0.22 flies at the height of the shooter's gun:
// the ground and the rays are flat, but a ramp is a slope, and a shot
// stops on a ramp's embankment that rises above it, and passes over a
// tank whose turret top stays below it. The host cuts its shots with
// these functions and the predictor its local tracers.

// BulletLine is a shot's height along its ray, in levels: Base + Rate·t,
// t the distance from the muzzle's foot along the ray (world units).
type BulletLine struct {
	Base, Rate float32
}

// At is the height at distance t.
func (b BulletLine) At(t float32) float32 { return b.Base + b.Rate*t }

// NewBulletLine is the shot of a hull at height z (levels) on the slope
// slope (the level state's, zero off a ramp) fired along the unit (dx,
// dy), its gun barrel world units above the floor and its muzzle muzzle
// units ahead of the hull's centre: a hull on a slope tilts with it, so
// the shot rises or falls with the grade along the shot.
func NewBulletLine(z float32, slope [2]float32, dx, dy, barrel, muzzle, levelHeight float32) BulletLine {
	if !(levelHeight > 0) {
		return BulletLine{Base: z}
	}
	rate := (slope[0]*dx + slope[1]*dy) / levelHeight
	return BulletLine{Base: z + barrel/levelHeight + rate*muzzle, Rate: rate}
}

// TankReaches reports whether a tank at height z (levels), its turret top
// top world units above its floor, reaches a shot at height h.
func TankReaches(z, top, levelHeight, h float32) bool {
	if !(levelHeight > 0) || !(top > 0) {
		return true
	}
	return z+top/levelHeight >= h
}

// How a shot ends on an embankment.
const (
	// ShotSlope: the slope under the shot rose above it.
	ShotSlope = 2
	// ShotFace: the shot met an embankment's side or end, entered from
	// outside below its top.
	ShotFace = 3
)

// entryEps is how close to the start of the ray an entry into a run still
// counts as entered from outside (world units).
const entryEps = 1e-3

// slab is where the ray o + d·t is inside [lo, hi] along one axis.
func slab(o, d, lo, hi float32) (float32, float32, bool) {
	if abs32(d) < 1e-9 {
		if o >= lo && o <= hi {
			return float32(math.Inf(-1)), float32(math.Inf(1)), true
		}
		return 0, 0, false
	}
	a, b := (lo-o)/d, (hi-o)/d
	if a > b {
		a, b = b, a
	}
	return a, b, true
}

// EmbankmentHit is where the shot line b, fired from (ox, oy) along the
// unit (dx, dy) on the floor of level, first meets a ramp embankment
// between t0 and t1: the runs whose lower level is that floor. Along a
// run the slope and the shot are both linear, so the point is exact:
// entering a run from outside below its surface is a face; inside, the
// slope rising above the shot is a slope hit. A run's top end does not
// stop a shot: past it lies the slab.
func EmbankmentHit(l *gamemap.MapLevels, ox, oy, dx, dy, t0, t1 float32, level int, b BulletLine) (t float32, code int, ok bool) {
	if l == nil {
		return 0, 0, false
	}
	for ri := range l.Runs() {
		run := &l.Runs()[ri]
		if min(run.From, run.To) != level {
			continue
		}
		span := run.Max - run.Min
		if !(span > 0) {
			continue
		}
		ao, ad, co, cd := ox, dx, oy, dy
		if run.Axis == 1 {
			ao, ad, co, cd = oy, dy, ox, dx
		}
		a0, a1, ok1 := slab(ao, ad, run.Min, run.Max)
		c0, c1, ok2 := slab(co, cd, run.CrossMin, run.CrossMax)
		if !ok1 || !ok2 {
			continue
		}
		tin, tout := max(t0, a0, c0), min(t1, a1, c1)
		if !(tin <= tout) {
			continue
		}
		surface := func(t float32) float32 {
			p := min(max((ao+ad*t-run.Min)/span, 0), 1)
			if run.Sign < 0 {
				p = 1 - p
			}
			return float32(run.From) + float32(run.To-run.From)*p
		}
		gapIn, gapOut := surface(tin)-b.At(tin), surface(tout)-b.At(tout)
		var ht float32
		var hc int
		switch {
		case gapIn > 0:
			ht, hc = tin, ShotSlope
			if max(a0, c0) >= t0-entryEps {
				hc = ShotFace
			}
		case gapOut > 0:
			ht, hc = tin+(-gapIn)/(gapOut-gapIn)*(tout-tin), ShotSlope
		default:
			continue
		}
		if !ok || ht < t {
			t, code, ok = ht, hc, true
		}
	}
	return t, code, ok
}

// ShotLine is the line of a shot of this model from a tank in level state
// s on the map l, along the unit (dx, dy), its muzzle muzzle units ahead
// of the hull's centre. ok is false when the shot flies flat: a model
// without a barrel height (tanks 0.13), or a map without levels.
func (m *Model) ShotLine(s *LevelState, l *gamemap.MapLevels, dx, dy, muzzle float32) (BulletLine, bool) {
	if !(m.BarrelHeight > 0) || s == nil || l == nil || !l.Layered() {
		return BulletLine{}, false
	}
	return NewBulletLine(s.Z, s.Slope, dx, dy, m.BarrelHeight, muzzle, l.LevelHeight()), true
}

// ShotFloor is the floor a shot of a tank in level state s starts over:
// the level under its height (on a ramp, the run's lower level).
func ShotFloor(s *LevelState) int {
	return max(int(math.Floor(float64(s.Z+levelEpsilon))), 0)
}

// WallHeights are the heights of a map's wall tiles, by level, in levels
// (the map's game.wallHeights): a shot passes over a wall lower than it.
type WallHeights struct {
	byLevel [gamemap.MaxLevels]map[int]float32
}

// maxWallTiles bounds the tiles of one level of game.wallHeights.
const maxWallTiles = 256

// NewWallHeights reads game.wallHeights of a map (nil when it has none).
// Entries that are not a level, a tile and a height in [0, MaxLevels] are
// dropped; malformed JSON is an error.
func NewWallHeights(m *gamemap.Map) (*WallHeights, error) {
	if m == nil {
		return nil, nil
	}
	levels, err := gameLevels(m, "wallHeights")
	if err != nil || levels == nil {
		return nil, err
	}
	w := &WallHeights{}
	for _, lm := range levels {
		lv, err := strconv.Atoi(lm.Name)
		if err != nil || lv < 0 || lv >= gamemap.MaxLevels {
			continue
		}
		tiles, err := jsonobj.Members(lm.Value, maxWallTiles)
		if err != nil {
			return nil, fmt.Errorf("game.wallHeights.%s: %w", lm.Name, err)
		}
		for _, tm := range tiles {
			tile, err := strconv.Atoi(tm.Name)
			var h float64
			if err != nil || json.Unmarshal(tm.Value, &h) != nil || !(h >= 0 && h <= gamemap.MaxLevels) {
				continue
			}
			if w.byLevel[lv] == nil {
				w.byLevel[lv] = map[int]float32{}
			}
			w.byLevel[lv][tile] = float32(h)
		}
	}
	return w, nil
}

// Height is the height of tile on level, if the map declares one.
func (w *WallHeights) Height(level, tile int) (float32, bool) {
	if w == nil || level < 0 || level >= gamemap.MaxLevels {
		return 0, false
	}
	h, ok := w.byLevel[level][tile]
	return h, ok
}
