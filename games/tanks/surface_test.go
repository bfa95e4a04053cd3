package tanks

import (
	"encoding/json"
	"math"
	"testing"

	"vimpclient/gamemap"
)

// surfaceMap is a 10×10 map of 10-unit cells whose ground grid is given
// by fill, with game.surfaces naming the surface tiles.
func surfaceMap(t testing.TB, fill func(col, row int) int, surfaces string) *gamemap.Map {
	t.Helper()
	grid := make([][]int, 10)
	for r := range grid {
		grid[r] = make([]int, 10)
		for c := range grid[r] {
			grid[r][c] = fill(c, r)
		}
	}
	raw, err := json.Marshal(map[string]any{"step": 10, "scale": 1, "map": grid, "physicsStatic": []int{1},
		"game": json.RawMessage(`{"surfaces":` + surfaces + `}`)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newSurfaces(t testing.TB, m *gamemap.Map) *SurfaceMap {
	t.Helper()
	sm, err := NewSurfaceMap(m, coreParams022(t).Surfaces)
	if err != nil || sm == nil {
		t.Fatalf("surface map: %v %v", sm, err)
	}
	return sm
}

func TestCoreParams(t *testing.T) {
	c := coreParams022(t)
	s := c.Surfaces
	if s == nil || len(s.Types) != 6 {
		t.Fatalf("surfaces: %+v", s)
	}
	names := ""
	for _, ty := range s.Types {
		names += ty.Name + " "
	}
	if names != "boost conveyor mud oil sand water " {
		t.Fatalf("types by name: %q", names)
	}
	if i, ok := s.Type("conveyor"); !ok || s.Types[i].Kind != SurfaceConveyor || s.Types[i].Belt != 60 || s.Types[i].Accel != 1 {
		t.Fatalf("conveyor: %+v", s.Types[i])
	}
	if i, ok := s.Type("boost"); !ok || s.Types[i].Kind != SurfaceBoost || s.Types[i].BoostDV != 350 || s.Types[i].MinEntrySpeed != 20 ||
		s.Types[i].BoostTime != 1.2 || s.Types[i].BoostSpeedFactor != 3.6 {
		t.Fatalf("boost: %+v", s.Types[i])
	}
	if i, ok := s.Type("oil"); !ok || s.Types[i].SlickTime != 1.5 || s.Types[i].AngularDrag != -0.5 {
		t.Fatalf("oil: %+v", s.Types[i])
	}
	if _, ok := s.Type("lava"); ok {
		t.Fatal("an unknown name")
	}
	// A 0.13 config: nothing.
	if c, err := ParseCoreParams(nil); err != nil || c.Levels != nil || c.Surfaces != nil {
		t.Fatalf("no coreParams: %+v %v", c, err)
	}
	for _, bad := range []string{
		`{"levels":{"fallTime":0}}`,
		`{"levels":{"rampLaunchFactor":-1}}`,
		`{"levels":{"jumpClearance":"high"}}`,
		`{"surfaces":{"types":{"x":{"belt":5,"boostDv":3}}}}`,
		`{"surfaces":{"types":{"x":{"boostDv":3,"boostMaxSpeed":5}}}}`,
		`{"surfaces":{"types":{"x":{"minEntrySpeed":5}}}}`,
		`{"surfaces":{"types":{"x":{"accel":1e9}}}}`,
		`{"surfaces":{"types":{"x":{},"x":{}}}}`,
		`{"surfaces":{"types":[]}}`,
		`[1]`,
	} {
		if _, err := ParseCoreParams(json.RawMessage(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// Mud (tile 42) on rows 0–4; a hull at (50, 50) heading east, half sizes
// 8×6: the left track samples y = 50 − 0.75·6 = 45.5 (row 4, mud), the
// right y = 54.5 (row 5, asphalt). AccelL = 0.45, AccelR = 1; the means of
// four points: drag (2+2+0+0)/4 = 1, maxSpeed (0.4+0.4+1+1)/4 = 0.7, grip
// (0.9+0.9+1+1)/4 = 0.95, turn (0.7+0.7+1+1)/4 = 0.85.
func TestTankMixSplitsTheTracks(t *testing.T) {
	sm := newSurfaces(t, surfaceMap(t, func(c, r int) int {
		if r < 5 {
			return 42
		}
		return 0
	}, `{"0":{"42":"mud"}}`))
	m := sm.TankMix(0, 50, 50, 0, 8, 6)
	want := SurfaceMix{AccelL: 0.45, AccelR: 1, MaxSpeed: 0.7, Drag: 1, Grip: 0.95, Brake: 1, Turn: 0.85}
	for _, f := range [][3]float32{{m.AccelL, want.AccelL}, {m.AccelR, want.AccelR}, {m.MaxSpeed, want.MaxSpeed},
		{m.Drag, want.Drag}, {m.Grip, want.Grip}, {m.Brake, want.Brake}, {m.Turn, want.Turn}, {m.BeltX, 0}, {m.AngularDrag, 0}} {
		if math.Abs(float64(f[0]-f[1])) > 1e-6 {
			t.Fatalf("mix %+v, want %+v", m, want)
		}
	}
	if n := sm.TankMix(0, 50, 85, 0, 8, 6); n != NeutralMix {
		t.Fatalf("asphalt: %+v", n)
	}
	// Full throttle forward on the split: the left track pulls less, the
	// hull yaws towards it: (0.45 − 1)·1·1000·0.004/120 = −0.0183333.
	mod := M1()
	tk := Tank{X: 50, Y: 50, Throttle: 1}
	lv := LevelState{}
	mod.MoveOnGround(&tk, KeyForward, Step, &lv, nil, sm)
	near(t, "yaw", float64(tk.AngVel), -0.0183333/(1+100.0/120), 1e-6)
}

// Sand everywhere: from rest at full throttle one step gives
// a = 1000·1·0.6 = 600, Δv = 5, damped 5/(1 + 3/120) = 4.8780488; on
// asphalt 1000/120/1.025 = 8.1300813.
func TestSandStep(t *testing.T) {
	sm := newSurfaces(t, surfaceMap(t, func(int, int) int { return 41 }, `{"0":{"41":"sand"}}`))
	mod := M1()
	tk, lv := Tank{X: 50, Y: 50, Throttle: 1}, LevelState{}
	mod.MoveOnGround(&tk, KeyForward, Step, &lv, nil, sm)
	near(t, "sand vx", float64(tk.VX), 4.8780488, 1e-5)
	tk = Tank{X: 50, Y: 50, Throttle: 1}
	mod.MoveOn(&tk, KeyForward, Step, nil, nil)
	near(t, "asphalt vx", float64(tk.VX), 8.1300813, 1e-5)
	// The top speed on sand: the drive stops pushing at 260·0.55 = 143.
	tk = Tank{X: 50, Y: 50, Throttle: 1, VX: 150}
	mod.MoveOnGround(&tk, KeyForward, Step, &lv, nil, sm)
	// no traction; drag −150·1.2/120 = −1.5: (150 − 1.5)/1.025.
	near(t, "over the sand limit", float64(tk.VX), 148.5/1.025, 1e-3)
}

// A tank at rest on an east belt (60 u/s). Heading east with no keys the
// coasting brake acts on the speed relative to the belt, −60:
// a = −0.3·(−60) = 18, Δv = 0.15, damped 0.1463415. Heading south the
// belt is lateral: Δv = 60·20/120 = 10 east, damped 9.7560976.
func TestConveyor(t *testing.T) {
	sm := newSurfaces(t, surfaceMap(t, func(int, int) int { return 45 }, `{"0":{"45":{"type":"conveyor","dir":"east"}}}`))
	mod := M1()
	tk, lv := Tank{X: 50, Y: 50}, LevelState{}
	mod.MoveOnGround(&tk, 0, Step, &lv, nil, sm)
	near(t, "along the belt", float64(tk.VX), 0.1463415, 1e-6)
	tk = Tank{X: 50, Y: 50, Angle: math.Pi / 2}
	mod.MoveOnGround(&tk, 0, Step, &lv, nil, sm)
	near(t, "across the belt", float64(tk.VX), 9.7560976, 1e-4)
	// A west belt drags the other way; a belt on level 0 does nothing to
	// a tank on level 1.
	tk = Tank{X: 50, Y: 50, Angle: math.Pi / 2}
	up := LevelState{Level: 1, Z: 1}
	mod.MoveOnGround(&tk, 0, Step, &up, nil, sm)
	if tk.VX != 0 {
		t.Fatalf("a level-1 tank over a ground belt moved: %+v", tk)
	}
}

// A boost plate (east: 350 u/s push, 480 cap, 20 entry) on columns 5–6.
func TestBoost(t *testing.T) {
	sm := newSurfaces(t, surfaceMap(t, func(c, _ int) int {
		if c == 5 || c == 6 {
			return 47
		}
		return 0
	}, `{"0":{"47":{"type":"boost","dir":"east"}}}`))
	cases := []struct {
		x, vx, want float32
	}{
		{50.5, 100, 350}, // entering from column 4: the full push
		{50.5, 250, 230}, // cut to 480 − 250
		{50.5, 500, 0},   // already past the cap
		{50.5, 10, 0},    // below the entry speed
		{55, 100, 0},     // came from the same plate
		{65, 100, 0},     // column 6 from column 6: still the same plate
		{60.5, 100, 0},   // column 6 from column 5: the same plate
		{59.5, -100, 0},  // against the arrow
	}
	for _, c := range cases {
		dx, dy := sm.BoostDV(0, c.x, 50, c.vx, 0, Step)
		if dx != c.want || dy != 0 {
			t.Errorf("at x %v, vx %v: push %v, %v, want %v", c.x, c.vx, dx, dy, c.want)
		}
	}
	if dx, _ := sm.BoostDV(1, 50.5, 50, 100, 0, Step); dx != 0 {
		t.Error("a plate of level 0 pushed a level-1 body")
	}
	// Driven through: one push. From x = 45 at 100 u/s.
	mod := M1()
	tk, lv := Tank{X: 45, Y: 50, VX: 100, Throttle: 1}, LevelState{}
	pushes := 0
	for i := 0; i < 30; i++ {
		v := tk.VX
		mod.MoveOnGround(&tk, KeyForward, Step, &lv, nil, sm)
		if tk.VX-v > 50 {
			pushes++
		}
	}
	if pushes != 1 {
		t.Fatalf("%d pushes crossing the plate", pushes)
	}
}

// Oil (tile 44) on columns 0–4 with slickTime 1.5. On it the residue is
// full and the mix is the oil's; after leaving, with steps of 0.75 s, the
// first step has t = 1.5/1.5 = 1 (grip 0.08), the second t = 0.5: grip
// 1 + (0.08 − 1)·0.5 = 0.54, turn 1 + 0.6·0.5 = 1.3, angular drag −0.25;
// the third is asphalt and the residue is gone.
func TestOilResidue(t *testing.T) {
	sm := newSurfaces(t, surfaceMap(t, func(c, _ int) int {
		if c < 5 {
			return 44
		}
		return 0
	}, `{"0":{"44":"oil"}}`))
	step := func(s *LevelState, x float32) SurfaceMix {
		return sm.ApplySlick(s, x, 50, 0, 4, 3, sm.TankMix(s.Level, x, 50, 0, 4, 3), 0.75)
	}
	var s LevelState
	on := step(&s, 25)
	if on.Grip != 0.08 || s.SlickLeft != 1.5 || s.SlickType == 0 {
		t.Fatalf("on oil: %+v %+v", on, s)
	}
	first := step(&s, 80)
	near(t, "grip, first step off", float64(first.Grip), 0.08, 1e-6)
	half := step(&s, 80)
	near(t, "grip at half", float64(half.Grip), 0.54, 1e-6)
	near(t, "turn at half", float64(half.Turn), 1.3, 1e-6)
	near(t, "angular drag at half", float64(half.AngularDrag), -0.25, 1e-6)
	near(t, "accel at half", float64(half.AccelL), 0.675, 1e-6)
	if half.MaxSpeed != 1 {
		t.Fatal("the residue leaves the top speed")
	}
	if n := step(&s, 80); n != NeutralMix || s.SlickLeft != 0 || s.SlickType != 0 {
		t.Fatalf("after slickTime: %+v %+v", n, s)
	}
	// The residue survives the level rules' steps on a flat map.
	s = LevelState{SlickLeft: 1, SlickType: 4}
	r := DefaultLevelRules()
	r.Step(&s, sm2flat(t), 80, 50, 0, 4, 3, Step, true)
	if s.SlickLeft != 1 || s.SlickType != 4 {
		t.Fatalf("residue lost by a level step: %+v", s)
	}
}

func sm2flat(t testing.TB) *gamemap.MapLevels {
	return surfaceMap(t, func(int, int) int { return 0 }, `{}`).MapLevels()
}

// Neutral ground, and a map without surfaces, step bit for bit as MoveOn.
func TestNeutralGroundIsMoveOn(t *testing.T) {
	sm := newSurfaces(t, surfaceMap(t, func(c, _ int) int {
		if c == 0 {
			return 41
		}
		return 0
	}, `{"0":{"41":"sand"}}`))
	mod := M1()
	a, b := Tank{X: 50, Y: 50}, Tank{X: 50, Y: 50}
	var la, lb LevelState
	keys := []uint32{KeyForward, KeyForward | KeyLeft, KeyForward | KeyRight | KeyGunLeft, 0, KeyBack, KeyBack | KeyLeft, KeyGunCenter}
	for i := 0; i < 120; i++ {
		k := keys[i%len(keys)]
		mod.MoveOn(&a, k, Step, &la, nil)
		mod.MoveOnGround(&b, k, Step, &lb, nil, sm)
		if a.X < 20 || a != b {
			t.Fatalf("step %d: %+v vs %+v", i, a, b)
		}
	}
	if m, err := NewSurfaceMap(surfaceMap(t, func(int, int) int { return 0 }, `{}`), coreParams022(t).Surfaces); m != nil || err != nil {
		t.Fatalf("no surfaces: %v %v", m, err)
	}
}

// Entries it cannot use are dropped and counted; a map still reads.
func TestSurfaceMapDrops(t *testing.T) {
	m := surfaceMap(t, func(c, _ int) int { return 40 + c%5 }, `{"0":{"40":"lava","41":{"type":"conveyor"},"42":{"type":"sand","dir":"east"},"43":"mud","x":"sand"},"7":{"44":"oil"}}`)
	sm, err := NewSurfaceMap(m, coreParams022(t).Surfaces)
	if err != nil || sm == nil || sm.Dropped != 5 {
		t.Fatalf("drops: %+v %v", sm, err)
	}
	if ty, ok := sm.TypeAt(0, 35, 5); !ok || ty.Name != "mud" {
		t.Fatalf("mud at column 3: %v", ty)
	}
	if _, err := NewSurfaceMap(surfaceMap(t, func(int, int) int { return 0 }, `[1]`), coreParams022(t).Surfaces); err == nil {
		t.Fatal("surfaces that are not an object")
	}
}

func FuzzCoreParams(f *testing.F) {
	f.Add([]byte(`{"levels":{"fallTime":0.35,"rampLaunchFactor":0.35},"surfaces":{"types":{"oil":{"grip":0.08,"slickTime":1.5},"b":{"boostDv":1,"boostMaxSpeed":2,"minEntrySpeed":0}}}}`))
	f.Add([]byte(`{"surfaces":{"trackSampleX":2}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := ParseCoreParams(raw)
		if err != nil {
			return
		}
		if c.Surfaces != nil && len(c.Surfaces.Types) > maxSurfaceTypes {
			t.Fatalf("%d types", len(c.Surfaces.Types))
		}
		if c.Levels != nil {
			var r LevelRules
			c.Levels.Apply(&r)
			if !(r.Air.Gravity > 0) || math.IsInf(float64(r.Air.Gravity), 0) {
				t.Fatalf("gravity %v", r.Air.Gravity)
			}
		}
	})
}

func FuzzSurfaceMap(f *testing.F) {
	f.Add([]byte(`{"0":{"41":"sand","45":{"type":"conveyor","dir":"west"}},"1":{"44":"oil"}}`))
	f.Add([]byte(`{"0":{"47":{"type":"boost","dir":"north"},"-1":"mud"}}`))
	f.Add([]byte(`{"0":[]}`))
	rules := coreParams022(f).Surfaces
	f.Fuzz(func(t *testing.T, surfaces []byte) {
		if !json.Valid(surfaces) {
			return
		}
		raw, _ := json.Marshal(map[string]any{"step": 10, "scale": 1, "map": [][]int{{41, 45}, {47, 44}},
			"game": json.RawMessage(`{"surfaces":` + string(surfaces) + `}`)})
		m, err := gamemap.Parse(raw)
		if err != nil {
			return
		}
		sm, err := NewSurfaceMap(m, rules)
		if err != nil || sm == nil {
			return
		}
		mod := M1()
		tk, lv := Tank{X: 5, Y: 5, VX: 50}, LevelState{}
		for i := 0; i < 4; i++ {
			mod.MoveOnGround(&tk, KeyForward, Step, &lv, nil, sm)
		}
		if !(tk.X == tk.X) || !(tk.VX == tk.VX) {
			t.Fatalf("NaN: %+v", tk)
		}
	})
}

// The 0.22 plate holds: entering at 100 u/s the push is min(350, 480 −
// 100) = 350, the hold (1.2 s, factor 3.6) starts on the same step, so the
// top speed is 260·3.6 and the damping is cancelled: v = 100 + 1000/120 +
// 350 = 458.3333 undamped, i.e. (458.3333 + 100·3/120)/1.025 = 449.5935.
// The next step, still on the plate, has no push: v = 449.5935 +
// (1000/120)/1.025 = 457.7236, and 1.2 − 1/120 s of hold left.
func TestBoostHold(t *testing.T) {
	sm := newSurfaces(t, surfaceMap(t, func(c, _ int) int {
		if c == 5 || c == 6 {
			return 47
		}
		return 0
	}, `{"0":{"47":{"type":"boost","dir":"east"}}}`))
	mod := M1()
	tk, lv := Tank{X: 50.5, Y: 50, VX: 100, Throttle: 1}, LevelState{}
	mod.MoveOnGround(&tk, KeyForward, Step, &lv, nil, sm)
	near(t, "vx after the push", float64(tk.VX), 449.5935, 1e-3)
	if lv.BoostLeft != 1.2 || lv.BoostFactor != 3.6 {
		t.Fatalf("hold: %+v", lv)
	}
	mod.MoveOnGround(&tk, KeyForward, Step, &lv, nil, sm)
	near(t, "vx held", float64(tk.VX), 457.7236, 1e-3)
	near(t, "hold left", float64(lv.BoostLeft), 1.2-1.0/120, 1e-6)
	// The hold survives a level step and runs out after 1.2 s.
	r := DefaultLevelRules()
	r.Step(&lv, sm2flat(t), tk.X, tk.Y, 0, 4, 3, Step, true)
	if lv.BoostLeft == 0 {
		t.Fatal("hold lost by a level step")
	}
	for i := 0; i < 144; i++ {
		DecayBoost(&lv, Step)
	}
	if lv.BoostLeft != 0 || lv.BoostFactor != 1 {
		t.Fatalf("hold after 1.2 s: %+v", lv)
	}
}

// Map bodies: on an east belt (60 u/s, coupling 4, no drag) a crate at
// rest gains 60·4/120 = 2 u/s in a step; on sand (drag 1.2) one at
// 100 u/s loses 100·1.2/120 = 1; entering an east plate at 100 u/s it
// is pushed by min(350, 480 − 100) = 350; in the air nothing acts.
func TestPushBody(t *testing.T) {
	belt := newSurfaces(t, surfaceMap(t, func(int, int) int { return 45 }, `{"0":{"45":{"type":"conveyor","dir":"east"}}}`))
	b := Body{X: 50, Y: 50}
	belt.PushBody(&b, &LevelState{}, 6, Step)
	near(t, "belt", float64(b.VX), 2, 1e-5)
	sand := newSurfaces(t, surfaceMap(t, func(int, int) int { return 41 }, `{"0":{"41":"sand"}}`))
	b = Body{X: 50, Y: 50, VX: 100}
	sand.PushBody(&b, &LevelState{}, 6, Step)
	near(t, "sand", float64(b.VX), 99, 1e-4)
	plate := newSurfaces(t, surfaceMap(t, func(c, _ int) int {
		if c == 5 {
			return 47
		}
		return 0
	}, `{"0":{"47":{"type":"boost","dir":"east"}}}`))
	b = Body{X: 50.5, Y: 50, VX: 100}
	plate.PushBody(&b, &LevelState{}, 6, Step)
	near(t, "plate", float64(b.VX), 450, 1e-4)
	b = Body{X: 50, Y: 50}
	belt.PushBody(&b, &LevelState{Stance: Falling}, 6, Step)
	if b.VX != 0 {
		t.Fatal("a falling body on a belt")
	}
	(*SurfaceMap)(nil).PushBody(&b, &LevelState{}, 6, Step)
}
