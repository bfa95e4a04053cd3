package tanks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"vimpclient/gamemap"
	"vimpclient/internal/jsonobj"
)

// SurfaceMap is which surface lies on each cell of each level of a map:
// the map's game.surfaces names tiles of a level's grid, the rules say
// what the names mean. The host and the predictor build it with
// NewSurfaceMap from the same parsed map and rules, and sample it through
// the same functions.
type SurfaceMap struct {
	Rules      *SurfaceRules
	cols, rows int
	tile       float32
	cells      [][]uint8 // by level, row-major: 0 none, k the type index + 1
	dirs       [][]uint8 // by level: a directed cell's arrow (dirNone otherwise)
	// Dropped counts the game.surfaces entries that could not be used (an
	// unknown level, tile or type name, a missing or unknown arrow).
	Dropped int
}

// Arrow codes of a directed cell.
const (
	dirNone uint8 = iota
	dirNorth
	dirSouth
	dirWest
	dirEast
)

func dirCode(name string) uint8 {
	switch name {
	case "north":
		return dirNorth
	case "south":
		return dirSouth
	case "west":
		return dirWest
	case "east":
		return dirEast
	}
	return dirNone
}

// dirVec is an arrow's unit vector (north is −y, as for ramps).
func dirVec(code uint8) (float32, float32) {
	switch code {
	case dirNorth:
		return 0, -1
	case dirSouth:
		return 0, 1
	case dirWest:
		return -1, 0
	case dirEast:
		return 1, 0
	}
	return 0, 0
}

// maxSurfaceTiles bounds the tile entries of one level of game.surfaces.
const maxSurfaceTiles = 256

// NewSurfaceMap reads the surfaces of a map's game data under rules. It
// returns nil when the map declares none or rules is nil: the motion then
// takes the neutral path, exactly the motion without surfaces. Entries it
// cannot use are dropped and counted; malformed JSON is an error.
func NewSurfaceMap(m *gamemap.Map, rules *SurfaceRules) (*SurfaceMap, error) {
	if m == nil || rules == nil || len(m.Levels) == 0 {
		return nil, nil
	}
	levels, err := gameLevels(m, "surfaces")
	if err != nil || levels == nil {
		return nil, err
	}
	g := &m.Levels[0]
	sm := &SurfaceMap{Rules: rules, cols: g.Cols, rows: g.Rows, tile: float32(m.CellWorld()),
		cells: make([][]uint8, len(m.Levels)), dirs: make([][]uint8, len(m.Levels))}
	any := false
	for _, lm := range levels {
		lv, err := strconv.Atoi(lm.Name)
		if err != nil || lv < 0 || lv >= len(m.Levels) || m.Levels[lv].Cols != sm.cols || m.Levels[lv].Rows != sm.rows {
			sm.Dropped++
			continue
		}
		tiles, err := jsonobj.Members(lm.Value, maxSurfaceTiles)
		if err != nil {
			return nil, fmt.Errorf("game.surfaces.%s: %w", lm.Name, err)
		}
		for _, tm := range tiles {
			tile, err := strconv.Atoi(tm.Name)
			if err != nil || tile < math.MinInt32 || tile > math.MaxInt32 {
				sm.Dropped++
				continue
			}
			k, dir, ok := resolveSurface(rules, tm.Value)
			if !ok {
				sm.Dropped++
				continue
			}
			if sm.cells[lv] == nil {
				sm.cells[lv] = make([]uint8, sm.cols*sm.rows)
				sm.dirs[lv] = make([]uint8, sm.cols*sm.rows)
			}
			for i, v := range m.Levels[lv].Grid {
				if int(v) == tile {
					sm.cells[lv][i], sm.dirs[lv][i] = k, dir
					any = true
				}
			}
		}
	}
	if !any && sm.Dropped == 0 {
		return nil, nil
	}
	return sm, nil
}

// resolveSurface reads one tile's entry: a type name, or {type, dir}. A
// directed type (conveyor, boost) needs an arrow, a plain one takes none.
func resolveSurface(rules *SurfaceRules, raw json.RawMessage) (k, dir uint8, ok bool) {
	var name, dirName string
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if json.Unmarshal(raw, &name) != nil {
			return 0, 0, false
		}
	} else {
		var full struct {
			Type string `json:"type"`
			Dir  string `json:"dir"`
		}
		if json.Unmarshal(raw, &full) != nil {
			return 0, 0, false
		}
		name, dirName = full.Type, full.Dir
	}
	i, found := rules.Type(name)
	if !found {
		return 0, 0, false
	}
	directed := rules.Types[i].Kind != SurfacePlain
	dir = dirCode(dirName)
	if directed != (dir != dirNone) || (!directed && dirName != "") {
		return 0, 0, false
	}
	return uint8(i + 1), dir, true
}

// cell is the type index + 1 and arrow of the cell of level under (x, y),
// k 0 for none (off the grid included).
func (sm *SurfaceMap) cell(level int, x, y float32) (k, dir uint8) {
	if !(x >= 0) || !(y >= 0) || level < 0 || level >= len(sm.cells) || sm.cells[level] == nil || !(sm.tile > 0) {
		return 0, 0
	}
	cx, cy := int(x/sm.tile), int(y/sm.tile)
	if cx >= sm.cols || cy >= sm.rows {
		return 0, 0
	}
	i := cy*sm.cols + cx
	return sm.cells[level][i], sm.dirs[level][i]
}

// TypeAt returns the surface type under (x, y) on level.
func (sm *SurfaceMap) TypeAt(level int, x, y float32) (*SurfaceType, bool) {
	if sm == nil {
		return nil, false
	}
	k, _ := sm.cell(level, x, y)
	if k == 0 {
		return nil, false
	}
	return &sm.Rules.Types[k-1], true
}

// SurfaceMix is the blend of surfaces under a hull for one step.
type SurfaceMix struct {
	AccelL, AccelR float32 // each track's traction
	MaxSpeed       float32
	Drag           float32 // 1/s, on the speed relative to the ground
	AngularDrag    float32 // 1/s
	Grip, Brake    float32
	Turn           float32
	BeltX, BeltY   float32 // the ground's own speed (a conveyor's belt)
}

// NeutralMix is asphalt: the motion with it is the motion without
// surfaces.
var NeutralMix = SurfaceMix{AccelL: 1, AccelR: 1, MaxSpeed: 1, Grip: 1, Brake: 1, Turn: 1}

type pointSample struct {
	accel, maxSpeed, drag, angDrag, grip, brake, turn, beltX, beltY float32
}

var neutralPoint = pointSample{accel: 1, maxSpeed: 1, grip: 1, brake: 1, turn: 1}

func (sm *SurfaceMap) point(level int, x, y float32) pointSample {
	k, dir := sm.cell(level, x, y)
	if k == 0 {
		return neutralPoint
	}
	t := &sm.Rules.Types[k-1]
	p := pointSample{accel: t.Accel, maxSpeed: t.MaxSpeed, drag: t.Drag, angDrag: t.AngularDrag,
		grip: t.Grip, brake: t.Brake, turn: t.Turn}
	if t.Kind == SurfaceConveyor {
		dx, dy := dirVec(dir)
		p.beltX, p.beltY = dx*t.Belt, dy*t.Belt
	}
	return p
}

// TrackPoints are the four points the tracks sample, in world units: left
// front, left rear, right front, right rear. The left track is the hull's
// −y side (north when heading east), the side a left turn turns to.
func (sm *SurfaceMap) TrackPoints(x, y, angle, hw, hh float32) [4][2]float32 {
	s64, c64 := math.Sincos(float64(angle))
	s, c := float32(s64), float32(c64)
	along, side := sm.Rules.TrackSampleX*hw, sm.Rules.TrackSampleY*hh
	w := func(fx, fy float32) [2]float32 { return [2]float32{x + c*fx - s*fy, y + s*fx + c*fy} }
	return [4][2]float32{w(along, -side), w(-along, -side), w(along, side), w(-along, side)}
}

// TankMix blends the surfaces under a hull on level: each track's traction
// from its two points, everything else the mean of the four.
func (sm *SurfaceMap) TankMix(level int, x, y, angle, hw, hh float32) SurfaceMix {
	pts := sm.TrackPoints(x, y, angle, hw, hh)
	var p [4]pointSample
	for i, q := range pts {
		p[i] = sm.point(level, q[0], q[1])
	}
	avg := func(f func(*pointSample) float32) float32 { return (f(&p[0]) + f(&p[1]) + f(&p[2]) + f(&p[3])) * 0.25 }
	return SurfaceMix{
		AccelL: (p[0].accel + p[1].accel) * 0.5, AccelR: (p[2].accel + p[3].accel) * 0.5,
		MaxSpeed:    avg(func(q *pointSample) float32 { return q.maxSpeed }),
		Drag:        avg(func(q *pointSample) float32 { return q.drag }),
		AngularDrag: avg(func(q *pointSample) float32 { return q.angDrag }),
		Grip:        avg(func(q *pointSample) float32 { return q.grip }),
		Brake:       avg(func(q *pointSample) float32 { return q.brake }),
		Turn:        avg(func(q *pointSample) float32 { return q.turn }),
		BeltX:       avg(func(q *pointSample) float32 { return q.beltX }),
		BeltY:       avg(func(q *pointSample) float32 { return q.beltY }),
	}
}

// ApplySlick carries a slick surface's grip loss past its edge: while a
// track point stands on a type with SlickTime the residue is full (the
// longest of them) and mix is left as it is; after leaving, the residue
// t = left/SlickTime pulls traction, grip, braking and turning towards the
// slick type's and fades linearly over SlickTime. Top speed, drag and belt
// are not touched. The residue lives in s (SlickLeft, SlickType).
func (sm *SurfaceMap) ApplySlick(s *LevelState, x, y, angle, hw, hh float32, mix SurfaceMix, dt float32) SurfaceMix {
	var best uint8
	var bestTime float32
	for _, q := range sm.TrackPoints(x, y, angle, hw, hh) {
		k, _ := sm.cell(s.Level, q[0], q[1])
		if k == 0 {
			continue
		}
		if t := sm.Rules.Types[k-1].SlickTime; t > 0 && (best == 0 || t > bestTime) {
			best, bestTime = k, t
		}
	}
	if best != 0 {
		s.SlickLeft, s.SlickType = bestTime, best
		return mix
	}
	if s.SlickLeft <= 0 || s.SlickType == 0 {
		return mix
	}
	if int(s.SlickType) > len(sm.Rules.Types) { // a state from another map's rules
		s.SlickLeft, s.SlickType = 0, 0
		return mix
	}
	p := &sm.Rules.Types[s.SlickType-1]
	if !(p.SlickTime > 0) {
		return mix
	}
	t := s.SlickLeft / p.SlickTime
	lerp := func(from, to float32) float32 { return from + (to-from)*t }
	out := mix
	out.AccelL = min(mix.AccelL, lerp(1, p.Accel))
	out.AccelR = min(mix.AccelR, lerp(1, p.Accel))
	out.AngularDrag = min(mix.AngularDrag, lerp(0, p.AngularDrag))
	out.Grip = min(mix.Grip, lerp(1, p.Grip))
	out.Brake = min(mix.Brake, lerp(1, p.Brake))
	if turn := lerp(1, p.Turn); p.Turn >= 1 {
		out.Turn = max(mix.Turn, turn)
	} else {
		out.Turn = min(mix.Turn, turn)
	}
	DecaySlick(s, dt)
	return out
}

// DecaySlick runs a slick residue down by one step; at zero it is
// forgotten.
func DecaySlick(s *LevelState, dt float32) {
	s.SlickLeft = max(s.SlickLeft-dt, 0)
	if s.SlickLeft <= 0 {
		s.SlickType = 0
	}
}

// BoostDV is a boost plate's push for a body on level at (x, y) with the
// velocity (vx, vy) of the start of the step: the cell under it is a plate
// with an arrow, the point it came from (p − v·back, back the time that
// velocity moved it over in the last step) is not a plate with the same
// arrow, and its speed along the arrow is at least MinEntrySpeed.
// The push along the arrow is BoostDV, cut so that the speed along the
// arrow does not pass BoostMaxSpeed. There is no state: the host and a
// replay decide it from the same position and velocity.
func (sm *SurfaceMap) BoostDV(level int, x, y, vx, vy, back float32) (float32, float32) {
	k, dir := sm.cell(level, x, y)
	if k == 0 || sm.Rules.Types[k-1].Kind != SurfaceBoost {
		return 0, 0
	}
	if pk, pdir := sm.cell(level, x-vx*back, y-vy*back); pk != 0 && sm.Rules.Types[pk-1].Kind == SurfaceBoost && pdir == dir {
		return 0, 0
	}
	t := &sm.Rules.Types[k-1]
	dx, dy := dirVec(dir)
	along := vx*dx + vy*dy
	if along < t.MinEntrySpeed {
		return 0, 0
	}
	gain := min(t.BoostDV, max(t.BoostMaxSpeed-along, 0))
	if gain <= 0 {
		return 0, 0
	}
	return dx * gain, dy * gain
}

// StartBoostHold starts the hold of the plate under (x, y) on the step a
// push fired there; a plate without BoostTime leaves a running hold alone.
func (sm *SurfaceMap) StartBoostHold(s *LevelState, x, y float32) {
	k, _ := sm.cell(s.Level, x, y)
	if k == 0 {
		return
	}
	if t := &sm.Rules.Types[k-1]; t.Kind == SurfaceBoost && t.BoostTime > 0 {
		s.BoostLeft, s.BoostFactor = t.BoostTime, t.BoostSpeedFactor
	}
}

// DecayBoost runs a boost hold down by one step; at zero its factor goes
// back to 1.
func DecayBoost(s *LevelState, dt float32) {
	if s.BoostLeft <= 0 {
		return
	}
	s.BoostLeft = max(s.BoostLeft-dt, 0)
	if s.BoostLeft <= 0 {
		s.BoostFactor = 1
	}
}

// PushBody applies the surfaces under a map body (a crate, a barrel: no
// tracks, so the centre's cell alone) to its velocity for one step, before
// it integrates with linear damping linDamp: on a conveyor it is coupled
// to the belt, (belt − v)·(BodyBeltCoupl + drag)·dt; elsewhere the drag
// −v·drag·dt slows it; a boost plate it enters pushes it as it pushes a
// tank. Nothing in the air.
func (sm *SurfaceMap) PushBody(b *Body, lv *LevelState, linDamp, dt float32) {
	if sm == nil || lv.Airborne() {
		return
	}
	k, dir := sm.cell(lv.Level, b.X, b.Y)
	if k == 0 {
		return
	}
	t := &sm.Rules.Types[k-1]
	vx, vy := b.VX, b.VY
	if t.Kind == SurfaceConveyor {
		bx, by := dirVec(dir)
		c := (sm.Rules.BodyBeltCoupl + t.Drag) * dt
		b.VX += (bx*t.Belt - vx) * c
		b.VY += (by*t.Belt - vy) * c
	} else {
		b.VX -= vx * t.Drag * dt
		b.VY -= vy * t.Drag * dt
	}
	px, py := sm.BoostDV(lv.Level, b.X, b.Y, vx, vy, dt*(1+linDamp*dt))
	b.VX += px
	b.VY += py
}
