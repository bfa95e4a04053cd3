package tanks

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/capturetest"
)

// coreParams022Raw is prediction.coreParams of a real tanks 0.22 host's
// CONFIG_DATA.
func coreParams022Raw(t testing.TB) json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		Prediction struct {
			CoreParams json.RawMessage `json:"coreParams"`
		} `json:"prediction"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	return top.Prediction.CoreParams
}

// coreParams022 reads a real tanks 0.22 host's coreParams.
func coreParams022(t testing.TB) CoreParams {
	t.Helper()
	c, err := ParseCoreParams(coreParams022Raw(t))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// airRules are the level rules of the 0.22 fixture.
func airRules(t testing.TB) LevelRules {
	r := DefaultLevelRules()
	c := coreParams022(t)
	c.Levels.Apply(&r)
	return r
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Fatalf("%s = %v, want %v ± %v", what, got, want, tol)
	}
}

// g = 2/fallTime² = 2/0.35² = 16.3265306 levels/s².
func TestAirGravity(t *testing.T) {
	r := airRules(t)
	if !r.Air.On {
		t.Fatal("a levels block turns ballistic flight on")
	}
	near(t, "gravity", float64(r.Air.Gravity), 16.3265306, 1e-4)
	near(t, "launch factor", float64(r.Air.LaunchFactor), 0.35, 1e-7)
	near(t, "clearance", float64(r.Air.Clearance), 0.45, 1e-7)
	if d := DefaultLevelRules(); d.Air.On {
		t.Fatal("the 0.13 rules have no ballistic flight")
	}
}

// climbTo drives a point tank up the ramp of rampMap to its top edge
// (x = 59.5) and returns the state there.
func climbTo(t *testing.T, r *LevelRules, vx float32) LevelState {
	t.Helper()
	l := rampMap(t).MapLevels()
	var s LevelState
	for x := float32(5); x <= 59.5; x += 0.5 {
		r.StepMoving(&s, l, x, 25, vx, 0, 0, 0, 0, Step, true)
	}
	if s.Stance != Climbing || s.Level != 1 {
		t.Fatalf("at the top of the ramp: %+v", s)
	}
	return s
}

// Leaving the top of rampMap's ramp (slope 10/40 = 0.25, levelHeight 10)
// at 200 u/s: vz = 0.25·200/10·0.35 = 1.75 levels/s, below the 3.5 cap.
// The first step of flight: vz' = 1.75 − g/120 = 1.6139456, and
// z = 1 + (1.75 + 1.6139456)/2/120 = 1.0140164. Back on the slab when
// 1.75·t − g·t²/2 < 0: t > 2·1.75/g = 0.214375 s, the 26th step.
func TestRampLaunch(t *testing.T) {
	r := airRules(t)
	l := rampMap(t).MapLevels()
	s := climbTo(t, &r, 200)
	r.StepMoving(&s, l, 60.5, 25, 200, 0, 0, 0, 0, Step, true)
	if s.Stance != Falling || s.From != 1 || s.To != 1 || s.Z != 1 {
		t.Fatalf("launch: %+v", s)
	}
	near(t, "launch vz", float64(s.VZ), 1.75, 1e-5)
	if s.InputLocked() == false || s.Reach().Walls == 0 {
		t.Fatalf("a flight below the clearance locks the drive and meets walls: %+v", s.Reach())
	}
	r.StepMoving(&s, l, 62, 25, 200, 0, 0, 0, 0, Step, true)
	near(t, "vz after a step", float64(s.VZ), 1.6139456, 1e-5)
	near(t, "z after a step", float64(s.Z), 1.0140164, 1e-6)
	for n := 2; n <= 25; n++ {
		r.StepMoving(&s, l, 62+float32(n), 25, 200, 0, 0, 0, 0, Step, true)
		if s.Stance != Falling {
			t.Fatalf("landed after %d steps, want 26: %+v", n, s)
		}
	}
	near(t, "peak", float64(s.Peak), 1+1.75*1.75/(2*16.3265306), 2e-3)
	if s.ClearWalls {
		t.Fatal("a 0.09-level arc stays under the 0.45 clearance")
	}
	r.StepMoving(&s, l, 88, 25, 200, 0, 0, 0, 0, Step, true)
	if s.Stance != Standing || s.Level != 1 || s.Z != 1 || s.VZ != 0 {
		t.Fatalf("landing on the slab: %+v", s)
	}
}

// 30 u/s gives vz = 0.25·30/10·0.35 = 0.2625 < minLaunchVz 0.35: the tank
// rolls onto the slab. 500 u/s gives 4.375, capped at maxLaunchVz 3.5.
// Under the 0.13 rules nothing launches.
func TestRampLaunchThresholds(t *testing.T) {
	r := airRules(t)
	l := rampMap(t).MapLevels()
	s := climbTo(t, &r, 30)
	r.StepMoving(&s, l, 60.5, 25, 30, 0, 0, 0, 0, Step, true)
	if s.Stance != Standing || s.Level != 1 {
		t.Fatalf("slow exit: %+v", s)
	}
	s = climbTo(t, &r, 500)
	r.StepMoving(&s, l, 60.5, 25, 500, 0, 0, 0, 0, Step, true)
	if s.Stance != Falling {
		t.Fatalf("fast exit: %+v", s)
	}
	near(t, "capped vz", float64(s.VZ), 3.5, 1e-6)
	old := DefaultLevelRules()
	s = climbTo(t, &old, 500)
	old.StepMoving(&s, l, 60.5, 25, 500, 0, 0, 0, 0, Step, true)
	if s.Stance != Standing || s.Level != 1 {
		t.Fatalf("0.13 exit: %+v", s)
	}
}

// Off the slab's open east end (x ≥ 100) a tank falls from rest:
// z = 1 − g·t²/2. After 41 steps (t = 0.341667 s) z = 0.0470522 and
// vz = −g·t = −5.578231; the ground is reached at t = 0.35 s (step 42).
// A crate keeps the linear fall of fallTime per level.
func TestEdgeFall(t *testing.T) {
	r := airRules(t)
	l := rampMap(t).MapLevels()
	s := LevelState{Level: 1, Z: 1}
	r.StepMoving(&s, l, 105, 25, 0, 0, 0, 0, 0, Step, true)
	if s.Stance != Falling || s.VZ != 0 || s.Z != 1 || s.To != 0 {
		t.Fatalf("off the edge: %+v", s)
	}
	for n := 1; n <= 41; n++ {
		r.StepMoving(&s, l, 105, 25, 0, 0, 0, 0, 0, Step, true)
	}
	near(t, "z after 41 steps", float64(s.Z), 0.0470522, 1e-4)
	near(t, "vz after 41 steps", float64(s.VZ), -5.578231, 1e-4)
	var land Landing
	for i := 0; i < 2 && !land.Landed; i++ {
		land = r.StepMoving(&s, l, 105, 25, 0, 0, 0, 0, 0, Step, true)
	}
	if s.Stance != Standing || s.Level != 0 || s.Z != 0 || !land.Landed || land.Height != 1 {
		t.Fatalf("landed: %+v %+v", s, land)
	}
	// A drop of one level costs 30·(1 − 0.5) = 15.
	if d := r.Air.LandingDamage(land); d != 15 {
		t.Fatalf("landing damage %v", d)
	}
	// A crate: linear from its first step, z = 1 − t/0.35: 0.5 after 21.
	c := LevelState{Level: 1, Z: 1}
	for n := 0; n < 21; n++ {
		r.Step(&c, l, 105, 25, 0, 0, 0, Step, false)
	}
	near(t, "crate z", float64(c.Z), 1-21.0/120/0.35, 1e-5)
}

// A tank thrown up from the ground at 8 levels/s under the slab's cells
// (x = 75) rises past level 1 (peak 8²/2g = 1.96) and lands on the slab
// when it falls through z = 1 over its floor: 8t − g·t²/2 = 1 on the way
// down at t = 0.83292 s, the 100th step. Above 0.45 levels it meets no
// walls.
func TestJumpOntoHigherSlab(t *testing.T) {
	r := airRules(t)
	l := rampMap(t).MapLevels()
	s := LevelState{Stance: Falling, VZ: 8, From: 0, To: 0}
	cleared := false
	for n := 1; n <= 99; n++ {
		r.StepMoving(&s, l, 75, 25, 0, 0, 0, 0, 0, Step, true)
		if s.Stance != Falling {
			t.Fatalf("landed after %d steps: %+v", n, s)
		}
		if s.ClearWalls {
			cleared = true
			if r := s.Reach(); !r.Air || r.OnLevel(0) || r.Meets(Reach{}) {
				t.Fatalf("a body over the clearance meets things: %+v", r)
			}
		}
	}
	if !cleared {
		t.Fatal("the flight never cleared the walls")
	}
	r.StepMoving(&s, l, 75, 25, 0, 0, 0, 0, 0, Step, true)
	if s.Stance != Standing || s.Level != 1 {
		t.Fatalf("landing on the higher slab: %+v", s)
	}
}

// RestoreFrom takes the prediction when it has the frame's level and
// height; else a height below the level is a fall from rest with its
// phase at whole steps: 0.5 levels down is t = sqrt(2·0.5/g) = 0.2475 s,
// 29.7 steps, so 30 steps: z = 1 − g·0.25²/2 = 0.4897959, vz = −4.0816327.
func TestRestoreFlight(t *testing.T) {
	r := airRules(t)
	l := rampMap(t).MapLevels()
	h := l.LevelHeight()
	pred := LevelState{Level: 1, Z: 1.2, Stance: Falling, VZ: 0.5, From: 1, To: 1, Peak: 1.2, SlickLeft: 0.5, SlickType: 3}
	if s := r.RestoreFrom(l, 75, 25, 1, 1.2*h, Step, true, &pred); s != pred {
		t.Fatalf("a matching prediction is kept: %+v", s)
	}
	s := r.RestoreFrom(l, 105, 25, 1, 0.5*h, Step, true, nil)
	if s.Stance != Falling || s.From != 1 || s.To != 0 {
		t.Fatalf("fall restored: %+v", s)
	}
	near(t, "restored z", float64(s.Z), 0.4897959, 1e-5)
	near(t, "restored vz", float64(s.VZ), -4.0816327, 1e-5)
	// On the ramp at x = 45 (surface 0.625) without a prediction: a climb,
	// not a flight.
	if s := r.RestoreFrom(l, 45, 25, 1, 0.625*h, Step, true, nil); s.Stance != Climbing || s.Z != 0.625 {
		t.Fatalf("a climb restored: %+v", s)
	}
	s = r.RestoreFrom(l, 75, 25, 1, 1.3*h, Step, true, &LevelState{SlickLeft: 0.25, SlickType: 2})
	if s.Stance != Falling || s.VZ != 0 || s.Peak != s.Z || s.SlickLeft != 0.25 || s.SlickType != 2 {
		t.Fatalf("flight restored at its peak, residue kept: %+v", s)
	}
}

// The price of a landing: 30 a level above 0.5 levels, at most 100. The
// ramp jump's 0.094-level arc is free; a drop of five levels costs
// min(30·4.5, 100) = 100.
func TestLandingDamage(t *testing.T) {
	r := airRules(t)
	for _, c := range []struct{ h, want float32 }{{0.094, 0}, {0.5, 0}, {1, 15}, {2, 45}, {5, 100}} {
		if d := r.Air.LandingDamage(Landing{Landed: true, Height: c.h}); math.Abs(float64(d-c.want)) > 1e-4 {
			t.Errorf("a drop of %v: %v, want %v", c.h, d, c.want)
		}
	}
	if r.Air.LandingDamage(Landing{Height: 3}) != 0 {
		t.Error("no landing, no damage")
	}
	old := DefaultLevelRules()
	if old.Air.LandingDamage(Landing{Landed: true, Height: 3}) != 0 {
		t.Error("the 0.13 rules have no fall damage")
	}
}

// The hull's lean, gain 2: on a grade of 0.25 east, heading east, pitch
// atan(0.5) = 0.4636476 and no roll; heading south the grade lies across
// the hull, −0.25·sin + 0·cos = −0.25, so roll atan(−0.5) = −0.4636476. A
// grade of 1 is capped at 0.6. In the air at 2 levels/s the pitch is
// 2·0.12 = 0.24. From 0 towards 0.4 at 60 Hz one step is 0.4·12/60 = 0.08.
func TestTilt(t *testing.T) {
	tl := coreParams022(t).Levels.Tilt
	lv := LevelState{Stance: Climbing, Slope: [2]float32{0.25, 0}}
	p, r := tl.Target(&lv, 1, 0)
	near(t, "pitch", float64(p), 0.4636476, 1e-6)
	near(t, "roll", float64(r), 0, 1e-9)
	p, r = tl.Target(&lv, 0, 1)
	near(t, "pitch across", float64(p), 0, 1e-7)
	near(t, "roll across", float64(r), -0.4636476, 1e-6)
	steep := LevelState{Stance: Climbing, Slope: [2]float32{1, 0}}
	if p, _ := tl.Target(&steep, 1, 0); p != 0.6 {
		t.Fatalf("capped pitch %v", p)
	}
	air := LevelState{Stance: Falling, VZ: 2, Slope: [2]float32{0.25, 0}}
	p, r = tl.Target(&air, 1, 0)
	near(t, "air pitch", float64(p), 0.24, 1e-6)
	if r != 0 {
		t.Fatal("roll in the air")
	}
	near(t, "approach", float64(tl.Approach(0, 0.4, 1.0/60)), 0.08, 1e-6)
	if p, r := tl.Target(&LevelState{}, 1, 0); p != 0 || r != 0 {
		t.Fatal("a lean on flat ground")
	}
}

// In a ballistic flight the keys move the turret only: 200 u/s east with
// the throttle at 0.5 and forward and left held becomes 200/(1 + 3/120) =
// 195.12195 after a step, x grows by 200/120, the throttle stays 0.5, and
// the gun turns 3/120 to the left. Under the 0.13 rules a fall brakes and
// grips as before.
func TestFlightIgnoresTheTracks(t *testing.T) {
	r := airRules(t)
	m := M1()
	tk := Tank{X: 10, VX: 200, Throttle: 0.5}
	lv := LevelState{Stance: Falling, VZ: 1, SlickLeft: 1, SlickType: 1, BoostLeft: 1, BoostFactor: 2}
	m.MoveOnGround(&tk, KeyForward|KeyLeft|KeyGunLeft, Step, &lv, &r, nil)
	near(t, "vx", float64(tk.VX), 195.12195, 1e-3)
	near(t, "x", float64(tk.X), 10+200.0/120, 1e-4)
	if tk.Throttle != 0.5 || tk.AngVel != 0 || tk.EngineLoad != 0 {
		t.Fatalf("flight %+v", tk)
	}
	near(t, "gun", float64(tk.Gun), -3.0/120, 1e-6)
	near(t, "slick", float64(lv.SlickLeft), 1-1.0/120, 1e-6)
	near(t, "hold", float64(lv.BoostLeft), 1-1.0/120, 1e-6)
	old := DefaultLevelRules()
	tk = Tank{X: 10, VX: 200, Throttle: 0.5}
	lv = LevelState{Stance: Falling}
	m.MoveOnGround(&tk, KeyForward, Step, &lv, &old, nil)
	if tk.Throttle == 0.5 {
		t.Fatal("the 0.13 fall keeps its old step")
	}
}
