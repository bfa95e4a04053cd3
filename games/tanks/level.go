package tanks

import (
	"math"

	"vimpclient/gamemap"
)

// LevelRules are the tank game's rules on top of a layered map's geometry:
// how a body climbs a ramp, how it falls off a slab edge and how a slope
// pulls at a tank. The host steps every tank and crate through them and
// the predictor steps the own tank through the same functions, so a level
// change can never be predicted differently from how the host decides it.
type LevelRules struct {
	// Fall is the trajectory of a body off a slab edge (mapFallTime per
	// level).
	Fall gamemap.FallModel
	// ClimbGravity pulls a tank down a ramp: the drive loses
	// grade·ClimbGravity world units/s² (and gains it downhill).
	ClimbGravity float32
	// ClimbSpeedLoss lowers the top speed uphill to
	// MaxForward·(1 − ClimbSpeedLoss·grade), never below MinClimbSpeed of it.
	ClimbSpeedLoss float32
	// EntryRise is the height difference, in levels, between a body and the
	// ramp surface under it below which the body drives onto the ramp.
	// Both ends of a run meet their level's floor, so a body arrives there
	// level with the ramp and climbs; the side of a run's middle stands half
	// a level or more away from either level, so a body that got there
	// (the guards keep it out) drives across it as a flat cell.
	EntryRise float32
	// Air is the ballistic flight of tanks 0.22 (coreParams.levels); its
	// zero value keeps the falls on the linear Fall of tanks 0.13.
	Air AirRules
}

// AirRules are the ballistic flight rules: a body off a slab edge or off a
// ramp's top falls under Gravity, a tank leaving a ramp it climbed keeps
// the vertical speed the slope gave it and flies, and one flying higher
// than Clearance above its take-off level passes over walls.
type AirRules struct {
	On bool
	// Gravity in levels/s² (2/fallTime²: a fall from rest off one level
	// lasts fallTime).
	Gravity float32
	// LaunchFactor is the share of the vertical speed on the ramp
	// (slope·velocity/levelHeight, levels/s) a launch keeps; MinLaunchVZ
	// is the least launch speed that flies (levels/s), MaxLaunchVZ caps it
	// (0: no cap).
	LaunchFactor, MinLaunchVZ, MaxLaunchVZ float32
	// Clearance is the height above the take-off level, in levels, from
	// which a flying body meets no walls.
	Clearance float32
	// FallDamage, FreeHeight and MaxFallDamage price a landing
	// (LandingDamage).
	FallDamage, FreeHeight, MaxFallDamage float32
}

// Landing is a ballistic flight's end on a step: Height is the arc's drop
// in levels, from its peak to the floor it landed on.
type Landing struct {
	Landed bool
	Height float32
}

// LandingDamage is what a landing costs a tank's health: FallDamage per
// level of the drop above FreeHeight, at most MaxFallDamage. A hop back
// onto its own slab, below FreeHeight, is free.
func (a *AirRules) LandingDamage(l Landing) float32 {
	if !l.Landed {
		return 0
	}
	return min(a.FallDamage*max(l.Height-a.FreeHeight, 0), a.MaxFallDamage)
}

// MinClimbSpeed is the share of the top speed a tank keeps on the steepest
// ramp, so a ramp whose levelHeight is far larger than its run stays
// climbable.
const MinClimbSpeed = 0.25

// DefaultLevelRules are the rules of the tanks game: falls of
// gamemap.DefaultFallTime per level, the slope's pull and speed loss, and
// entry within half a level.
func DefaultLevelRules() LevelRules {
	return LevelRules{Fall: gamemap.DefaultFall(), ClimbGravity: 500, ClimbSpeedLoss: 0.5, EntryRise: 0.5}
}

// Stance is how a body stands on a layered map.
type Stance uint8

// Stances.
const (
	// Standing: on the floor of its level (the ground has floor
	// everywhere), or on a ramp cell it drives across as a flat cell.
	Standing Stance = iota
	// Climbing: on a ramp it drove onto at one of its ends, its height
	// following the ramp surface.
	Climbing
	// Falling: off a slab edge, on its way down to the floor below.
	Falling
)

func (s Stance) String() string {
	switch s {
	case Standing:
		return "standing"
	case Climbing:
		return "climbing"
	case Falling:
		return "falling"
	}
	return "stance?"
}

// LevelState is where a body is on a layered map. The zero value stands on
// the ground, which is all a flat map ever has.
type LevelState struct {
	// Level is the level the body is on: the one it stands on, the nearest
	// to its height while it climbs, the one it left while it falls.
	Level int
	// Z is the height in levels above the ground (0 the ground, 1 the first
	// slab), fractional on a ramp and in a fall.
	Z      float32
	Stance Stance
	// FallSteps counts the fixed steps of a fall: its phase as a whole
	// number, so that a replica that restores the fall from a frame
	// (LevelRules.Restore) continues it on the very steps the host does.
	FallSteps int32
	// Slope is the uphill gradient of the ramp under a climbing body, as a
	// vector (the ramp's direction times its slope): the grade under a
	// heading h is Slope·h. Zero unless climbing.
	Slope [2]float32
	// VZ is a ballistic flight's vertical speed (levels/s, up positive);
	// From is the level it took off from, To the level it aims to land on
	// (the cell it touches down on decides), Peak its highest point.
	VZ       float32
	From, To int
	Peak     float32
	// ClearWalls: flying Clearance or more above From, it meets no walls.
	ClearWalls bool
	// SlickLeft is the seconds of a slick surface's residue left on the
	// tracks, SlickType the surface's type index + 1 (0: none).
	SlickLeft float32
	SlickType uint8
	// BoostLeft is the seconds of a boost plate's hold left, BoostFactor
	// the top speed's factor while it lasts.
	BoostLeft, BoostFactor float32
}

// traction is the part of a level state that belongs to the tracks, not
// to the level: it survives every change of stance.
type traction struct {
	slickLeft, boostLeft, boostFactor float32
	slickType                         uint8
}

func (s *LevelState) traction() traction {
	return traction{s.SlickLeft, s.BoostLeft, s.BoostFactor, s.SlickType}
}

func (s *LevelState) setTraction(t traction) {
	s.SlickLeft, s.BoostLeft, s.BoostFactor, s.SlickType = t.slickLeft, t.boostLeft, t.boostFactor, t.slickType
}

// Airborne reports whether the body falls or flies.
func (s *LevelState) Airborne() bool { return s.Stance == Falling }

// InputLocked reports whether the body ignores its drive keys: a falling
// tank has no ground under its tracks.
func (s *LevelState) InputLocked() bool { return s.Stance == Falling }

// Grade is the slope under the heading (cos, sin) of angle: positive
// uphill, 0 off a ramp.
func (s *LevelState) Grade(c, sn float32) float32 {
	if s.Stance != Climbing {
		return 0
	}
	return s.Slope[0]*c + s.Slope[1]*sn
}

// levelEpsilon is the margin, in levels, within which a climbing body's
// height counts as being on a level: at the very ends of a run it meets
// that level's things only, as a body standing there does.
const levelEpsilon = 1e-3

// Reach is which parts of the layered world a body meets in the contacts
// of one step: a standing body its level's walls, bodies and ramp guards,
// a climbing one the walls and bodies of the levels its height lies
// between (the guards let it through), a falling one the walls down to the
// ground and nothing else.
func (s *LevelState) Reach() Reach {
	switch s.Stance {
	case Climbing:
		lo := int(math.Floor(float64(s.Z + levelEpsilon)))
		hi := int(math.Ceil(float64(s.Z - levelEpsilon)))
		m := levelBits(lo, hi)
		return Reach{Walls: m, Bodies: m}
	case Falling:
		if s.ClearWalls {
			return Reach{Air: true}
		}
		return Reach{Walls: levelBits(0, s.Level)}
	}
	b := levelBits(s.Level, s.Level)
	return Reach{Walls: b, Bodies: b, Guards: b}
}

// levelBits is the mask of levels lo..hi, clipped to the map levels.
func levelBits(lo, hi int) uint8 {
	lo, hi = max(lo, 0), min(hi, gamemap.MaxLevels-1)
	var m uint8
	for l := lo; l <= hi; l++ {
		m |= 1 << l
	}
	return m
}

// Reach says, level by level, what a body's contacts include: bit n of
// Walls the wall blocks of level n, of Guards the ramp guards that hold
// bodies of level n, and two bodies meet when their Bodies share a bit.
// The zero Reach is the ground's, so the bodies of a flat world need not
// set one.
type Reach struct {
	Walls, Bodies, Guards uint8
	// Air: the body flies over everything and meets nothing.
	Air bool
}

// groundReach is what the zero Reach stands for.
var groundReach = Reach{Walls: 1, Bodies: 1, Guards: 1}

func (r Reach) effective() Reach {
	if r.Air {
		return Reach{Air: true}
	}
	if r == (Reach{}) {
		return groundReach
	}
	return r
}

// OnLevel reports whether things of level (a shot, a blast) meet the body.
func (r Reach) OnLevel(level int) bool {
	return level >= 0 && level < gamemap.MaxLevels && r.effective().Bodies&(1<<level) != 0
}

// Meets reports whether two bodies collide with each other: their Reach
// shares a level.
func (r Reach) Meets(o Reach) bool { return r.effective().Bodies&o.effective().Bodies != 0 }

// Supported reports whether a body stands on level's floor: its centre or
// any corner of its box (half sizes hw along the heading, hh across) is
// over floor. A tank half over the edge hangs there and can still back
// onto the slab.
func Supported(l *gamemap.MapLevels, level int, x, y, angle, hw, hh float32) bool {
	if l.HasFloor(level, x, y) {
		return true
	}
	s64, c64 := math.Sincos(float64(angle))
	s, c := float32(s64), float32(c64)
	for _, k := range [4][2]float32{{hw, hh}, {hw, -hh}, {-hw, hh}, {-hw, -hh}} {
		if l.HasFloor(level, x+k[0]*c-k[1]*s, y+k[0]*s+k[1]*c) {
			return true
		}
	}
	return false
}

// Step moves a body's level state on by one fixed step of dt seconds, after
// the step's motion and contacts left its centre at (x, y) with heading
// angle and half sizes hw, hh. climbs is false for map bodies: they are
// pushed, not driven, and keep their level on a ramp cell. A flat map (l
// nil or without levels) keeps the zero state.
//
// The rules, in order: a falling body goes on falling along the FallModel
// and lands once it reaches the floor below it; a body on a ramp cell whose
// height differs from the ramp surface there by less than EntryRise climbs
// (its height is the surface's, its level the nearest one on the run); any
// other body stands on its level, and one standing above the ground without
// floor under it starts to fall.
func (r *LevelRules) Step(s *LevelState, l *gamemap.MapLevels, x, y, angle, hw, hh, dt float32, climbs bool) {
	r.StepMoving(s, l, x, y, 0, 0, angle, hw, hh, dt, climbs)
}

// StepMoving is Step for a body moving at (vx, vy) world units/s at the
// end of the step: under ballistic rules (Air.On) a tank that leaves the
// top of a ramp it climbed keeps the vertical speed the slope gave it and
// flies. A slick residue and a boost hold in s survive every change of
// stance.
func (r *LevelRules) StepMoving(s *LevelState, l *gamemap.MapLevels, x, y, vx, vy, angle, hw, hh, dt float32, climbs bool) Landing {
	tr := s.traction()
	landing := r.stepLevel(s, l, x, y, vx, vy, angle, hw, hh, dt, climbs)
	s.setTraction(tr)
	return landing
}

func (r *LevelRules) stepLevel(s *LevelState, l *gamemap.MapLevels, x, y, vx, vy, angle, hw, hh, dt float32, climbs bool) Landing {
	if l == nil || !l.Layered() {
		*s = LevelState{}
		return Landing{}
	}
	s.Level = min(max(s.Level, 0), l.LevelCount()-1)
	air := r.Air.On && climbs // map bodies keep the linear fall
	if s.Stance == Falling {
		if air {
			return r.fly(s, l, x, y, dt)
		}
		s.FallSteps++
		r.fall(s, l, x, y, dt)
		return Landing{}
	}
	if climbs {
		if smp, ok := l.RampAt(x, y); ok {
			low, high := min(smp.From, smp.To), max(smp.From, smp.To)
			zc := rampHeight(&smp)
			if s.Level >= low && s.Level <= high && abs32(zc-s.Z) < r.EntryRise {
				*s = climbing(&smp, zc)
				return Landing{}
			}
		}
	}
	launched, slope := s.Stance == Climbing, s.Slope
	*s = LevelState{Level: s.Level, Z: float32(s.Level)}
	if air && launched && r.launch(s, l, x, y, vx, vy, slope) {
		return Landing{}
	}
	if s.Level >= 1 && !Supported(l, s.Level, x, y, angle, hw, hh) {
		if air {
			s.Stance, s.From, s.To, s.Peak = Falling, s.Level, l.LandingLevel(s.Level, x, y), float32(s.Level)
			return Landing{}
		}
		s.Stance, s.FallSteps = Falling, 1
		r.fall(s, l, x, y, dt)
	}
	return Landing{}
}

// launch starts the flight of a tank that just left a ramp it climbed:
// the slope times its velocity, over the level height, is its vertical
// speed in levels/s, of which LaunchFactor is kept (capped at MaxLaunchVZ
// when that is set); below MinLaunchVZ it rolls on. The flight starts at
// the level's height and aims at the tank's own slab, or at the floor
// below when it left over an edge.
func (r *LevelRules) launch(s *LevelState, l *gamemap.MapLevels, x, y, vx, vy float32, slope [2]float32) bool {
	h := l.LevelHeight()
	if !(h > 0) {
		return false
	}
	vz := (slope[0]*vx + slope[1]*vy) / h * r.Air.LaunchFactor
	if r.Air.MaxLaunchVZ > 0 {
		vz = min(vz, r.Air.MaxLaunchVZ)
	}
	if !(vz >= r.Air.MinLaunchVZ) {
		return false
	}
	to := s.Level
	if !l.HasFloor(s.Level, x, y) {
		to = l.LandingLevel(s.Level, x, y)
	}
	s.Stance, s.VZ, s.From, s.To, s.Peak = Falling, vz, s.Level, to, float32(s.Level)
	return true
}

// fly moves a ballistic flight on by one step: the height along the
// parabola (the mean of the vertical speeds before and after the step,
// which samples the parabola exactly at whole steps), then the landing.
// Nothing lands while it still rises. Falling through a whole level from
// above onto that level's floor lands there (a jump onto a higher slab);
// otherwise it lands on reaching the level it aims at, or the floor below
// that when the cell it is over has none.
func (r *LevelRules) fly(s *LevelState, l *gamemap.MapLevels, x, y, dt float32) Landing {
	prevZ := s.Z
	next := s.VZ - r.Air.Gravity*dt
	z := prevZ + (s.VZ+next)*0.5*dt
	s.VZ, s.Z, s.Peak, s.Slope = next, z, max(s.Peak, z), [2]float32{}
	s.ClearWalls = z >= float32(s.From)+r.Air.Clearance
	if s.VZ > 0 {
		return Landing{}
	}
	to := min(max(s.To, 0), l.LevelCount()-1)
	target := to
	if !l.HasFloor(to, x, y) {
		target = l.LandingLevel(to, x, y)
	}
	crossed := float32(math.Floor(float64(z))) + 1
	land := -1
	if crossed > float32(s.From) && prevZ >= crossed && crossed < float32(l.LevelCount()) && l.HasFloor(int(crossed), x, y) {
		land = int(crossed)
	} else if z <= float32(target) {
		land = target
	}
	if land < 0 {
		return Landing{}
	}
	peak := s.Peak
	*s = LevelState{Level: land, Z: float32(land)}
	return Landing{Landed: true, Height: max(peak-float32(land), 0)}
}

// rampHeight is the ramp surface's height in levels at a sample.
func rampHeight(smp *gamemap.RampSample) float32 {
	return float32(smp.From) + float32(smp.To-smp.From)*smp.Progress
}

// climbing is the state of a body climbing the ramp of smp at height z.
func climbing(smp *gamemap.RampSample, z float32) LevelState {
	low, high := min(smp.From, smp.To), max(smp.From, smp.To)
	lv := min(max(int(math.Round(float64(z))), low), high)
	return LevelState{Level: lv, Z: z, Stance: Climbing, Slope: [2]float32{smp.Dir[0] * smp.Slope, smp.Dir[1] * smp.Slope}}
}

// fall places a falling body FallSteps steps into its fall from Level, or
// lands it on the floor below.
func (r *LevelRules) fall(s *LevelState, l *gamemap.MapLevels, x, y, dt float32) {
	target := fallTarget(l, s.Level, s.Z, x, y)
	from, to := float32(s.Level), float32(target)
	e := float32(s.FallSteps) * dt
	if e >= r.Fall.Duration(from-to) {
		*s = LevelState{Level: target, Z: to}
		return
	}
	s.Z = r.Fall.ZAt(from, to, e)
}

// fallTarget is the floor a body falling from level from, now at height z,
// lands on: the highest level below from and not above z with floor at the
// point, else the ground.
func fallTarget(l *gamemap.MapLevels, from int, z, x, y float32) int {
	top := min(from-1, int(math.Floor(float64(z))))
	for lv := top; lv >= 1; lv-- {
		if l.HasFloor(lv, x, y) {
			return lv
		}
	}
	return 0
}

// restoreTolerance is how far, in levels, a height read from a frame may
// lie from the height a stance gives and still be read as that stance: the
// rows carry the height in levels rounded to two decimals.
const restoreTolerance = 0.006

// Restore rebuilds a body's level state from what a frame carries: its
// centre (x, y), its level and its height z in world units above the
// ground. A height on the ramp surface under a body of the matching level
// is a climb (climbs false: never); a height on the level is standing; a
// height below it is a fall from that level, whose phase comes back as a
// whole number of steps of dt through FallModel.ElapsedAt. The state it
// gives steps on exactly as the host's does.
func (r *LevelRules) Restore(l *gamemap.MapLevels, x, y float32, level int, z, dt float32, climbs bool) LevelState {
	return r.RestoreFrom(l, x, y, level, z, dt, climbs, nil)
}

// RestoreFrom is Restore with the state the prediction had for the
// frame's time: when that state has the frame's level and height it is
// taken whole (a flight's vertical speed, a slick residue: what a frame
// does not carry). Otherwise, under ballistic rules, a tank below its
// level is restored as a fall from rest off it (the phase from the
// height: z = level − g·t²/2 at whole steps), and one above it as a
// flight at its peak. A slick residue and a boost hold of pred are kept
// in every case.
func (r *LevelRules) RestoreFrom(l *gamemap.MapLevels, x, y float32, level int, z, dt float32, climbs bool, pred *LevelState) LevelState {
	s := r.restore(l, x, y, level, z, dt, climbs, pred)
	if pred != nil {
		s.setTraction(pred.traction())
	}
	return s
}

func (r *LevelRules) restore(l *gamemap.MapLevels, x, y float32, level int, z, dt float32, climbs bool, pred *LevelState) LevelState {
	if l == nil || !l.Layered() {
		return LevelState{}
	}
	level = min(max(level, 0), l.LevelCount()-1)
	h := l.LevelHeight()
	if !(h > 0) {
		return LevelState{Level: level, Z: float32(level)}
	}
	zl, tol := z/h, float32(restoreTolerance)
	if !(zl > -gamemap.MaxLevels && zl < gamemap.MaxLevels) { // nonsense from the wire, NaN included
		return LevelState{Level: level, Z: float32(level)}
	}
	if pred != nil && pred.Level == level && abs32(pred.Z-zl) <= tol {
		return *pred
	}
	if climbs {
		if smp, ok := l.RampAt(x, y); ok {
			zc := rampHeight(&smp)
			if c := climbing(&smp, zc); c.Level == level && abs32(zl-zc) <= tol {
				return c
			}
		}
	}
	if r.Air.On && climbs {
		if s, ok := r.restoreFlight(l, x, y, level, zl, tol, dt); ok {
			return s
		}
	}
	if zl >= float32(level)-tol || !(dt > 0) {
		return LevelState{Level: level, Z: float32(level)}
	}
	from := float32(level)
	steps := int32(math.Round(float64(r.Fall.ElapsedAt(from, 0, zl) / dt)))
	s := LevelState{Level: level, Z: zl, Stance: Falling, FallSteps: max(steps, 1)}
	target := fallTarget(l, level, zl, x, y)
	s.Z = r.Fall.ZAt(from, float32(target), float32(s.FallSteps)*dt)
	return s
}

// restoreFlight rebuilds a ballistic flight from a height off the level
// (a climb was ruled out before).
func (r *LevelRules) restoreFlight(l *gamemap.MapLevels, x, y float32, level int, zl, tol, dt float32) (LevelState, bool) {
	from := float32(level)
	switch {
	case zl > from+tol:
		to := level
		if !l.HasFloor(level, x, y) {
			to = l.LandingLevel(level, x, y)
		}
		return LevelState{Level: level, Z: zl, Stance: Falling, From: level, To: to, Peak: zl}, true
	case zl < from-tol && dt > 0 && r.Air.Gravity > 0:
		g := r.Air.Gravity
		n := float32(math.Round(math.Sqrt(float64(2*(from-zl)/g)) / float64(dt)))
		e := max(n, 1) * dt
		return LevelState{Level: level, Z: from - g*e*e/2, Stance: Falling, VZ: -g * e, From: level,
			To: l.LandingLevel(level, x, y), Peak: from}, true
	}
	return LevelState{}, false
}

// WorldZ is the body's height above the ground in world units, as the
// snapshot rows carry it.
func (s *LevelState) WorldZ(l *gamemap.MapLevels) float32 {
	if l == nil {
		return 0
	}
	return s.Z * l.LevelHeight()
}
