package tankclient

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/host/match"
	"vimpclient/host/packer"
	"vimpclient/internal/jsonobj"
	"vimpclient/testkit/capturetest"
	"vimpclient/testkit/rowtest"
)

// drive22 is a scripted drive on downtown: where the own tank spawns (the
// map's unscaled units and degrees) and what it holds when.
type drive22 struct {
	name    string
	spawn   [4]float64 // x, y, angle, level
	presses []press22
	ms      float64 // how long the drive lasts
	// expect is the surface the predicted tank must have driven on ("jump":
	// a launch and a landing on level 1).
	expect string
}

// press22 sets the held keys from a time on.
type press22 struct {
	at   float64 // ms after the start
	held []string
}

// The drives cover the map's 0.22 features, each from a spawn point of
// its own (cells of 32 source units, the map's scale 0.4):
//   - jump: from the west base along row 35 over the east boost plate
//     (columns 18–19), up the ramp (20–23) and off its top onto the
//     parking roof (level 1);
//   - ford: north from the south bank over the north boost plate
//     (47–48 × 64–65) and through the canal's water (rows 55–61);
//   - oil: east into the crossroads' oil patch (45–50 × 34–37) and a hard
//     right turn on it, then off it with the residue;
//   - conveyor: standing on the east belt (6–17 × 11–12), then driving
//     along and across it;
//   - sand: east into the building site's sand (63–72 × 9–15) and a turn;
//   - ledge: north off the overpass (level 1) through the gap in its
//     railing (columns 38–40 of row 20): a fall from rest to the street;
//   - fence: one shot breaks the building site's fence in front (hp 30,
//     a shot 40), and the tank drives through its debris.
var drives22 = []drive22{
	{"jump", [4]float64{304, 1136, 0, 0}, []press22{{0, []string{"forward"}}, {3500, nil}}, 5000, "jump"},
	{"ford", [4]float64{1536, 2192, -90, 0}, []press22{{0, []string{"forward"}}, {2500, []string{"forward", "left"}}, {2900, []string{"forward"}}, {3800, nil}}, 5000, "water"},
	{"oil", [4]float64{1168, 1152, 0, 0}, []press22{{0, []string{"forward"}}, {700, []string{"forward", "right"}}, {1600, []string{"right"}}, {2200, []string{"back"}}, {3200, nil}}, 5000, "oil"},
	{"conveyor", [4]float64{336, 384, 90, 0}, []press22{{0, nil}, {1500, []string{"left"}}, {1900, []string{"forward"}}, {2800, []string{"back", "right"}}, {3600, nil}}, 5000, "conveyor"},
	{"sand", [4]float64{1936, 400, 0, 0}, []press22{{0, []string{"forward"}}, {1500, []string{"forward", "left"}}, {2300, []string{"back"}}, {3300, nil}}, 4500, "sand"},
	{"ledge", [4]float64{1264, 720, -90, 1}, []press22{{0, []string{"forward"}}, {1200, []string{"forward", "right"}}, {1700, nil}}, 3000, "fall"},
	{"fence", [4]float64{2016, 336, -90, 0}, []press22{{0, nil}, {400, []string{"fire"}}, {430, nil}, {800, []string{"forward"}}, {2500, nil}}, 3500, "debris"},
}

// game22 is a tanks 0.22 game for the embedded host: the match's own
// layered CONFIG_DATA with the real 0.22 coreParams in its prediction,
// and downtown (MAP_DATA of tanks 0.22) with one team1 spawn point, the
// drive's.
func game22(t testing.TB, spawn [4]float64) *match.GameData {
	t.Helper()
	m, err := match.New(match.Config{Log: quiet(), Map: "bridge", Dialect: match.Dialect013})
	if err != nil {
		t.Fatal(err)
	}
	core := capture022(t, "prediction", "coreParams")
	cfg := setMember(t, m.ConfigData(), "prediction", func(p json.RawMessage) json.RawMessage {
		p = setMember(t, p, "coreParams", func(json.RawMessage) json.RawMessage { return core })
		// The gun's and the turret top's heights of the 0.22 m1.
		return setMember(t, p, "models", func(ms json.RawMessage) json.RawMessage {
			return setMember(t, ms, "m1", func(m1 json.RawMessage) json.RawMessage {
				m1 = setMember(t, m1, "barrelHeight", func(json.RawMessage) json.RawMessage { return json.RawMessage("2.4") })
				return setMember(t, m1, "turretTop", func(json.RawMessage) json.RawMessage { return json.RawMessage("3") })
			})
		})
	})
	// The map dynamics rows carry the props' state byte after the level,
	// as tanks 0.21 lays them out.
	cfg = setMember(t, cfg, "snapshot", func(snap json.RawMessage) json.RawMessage {
		return setMember(t, snap, "c1", func(c1 json.RawMessage) json.RawMessage {
			var k map[string]any
			if err := json.Unmarshal(c1, &k); err != nil {
				t.Fatal(err)
			}
			f := k["fields"].([]any)
			k["fields"] = append(f[:5:5], append([]any{map[string]any{"name": "state", "ty": "u8", "role": "state"}}, f[5:]...)...)
			k["optionalFrom"] = 6
			out, err := json.Marshal(k)
			if err != nil {
				t.Fatal(err)
			}
			return out
		})
	})
	raw, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "maps", "downtown.json"))
	if err != nil {
		t.Fatal(err)
	}
	var mp map[string]json.RawMessage
	if err := json.Unmarshal(raw, &mp); err != nil {
		t.Fatal(err)
	}
	sp, _ := json.Marshal(map[string]any{"team1": [][4]float64{spawn}, "team2": [][4]float64{{2768, 784, 180, 0}}})
	mp["respawns"] = sp
	text, err := json.Marshal(mp)
	if err != nil {
		t.Fatal(err)
	}
	return &match.GameData{Config: cfg, Maps: []match.MapData{{Name: "downtown", Text: text}}}
}

// setMember replaces (or adds) the member name of a JSON object, keeping
// the members' order.
func setMember(t testing.TB, obj json.RawMessage, name string, f func(json.RawMessage) json.RawMessage) json.RawMessage {
	t.Helper()
	ms, err := jsonobj.Members(obj, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i := range ms {
		if ms[i].Name == name {
			ms[i].Value, found = f(ms[i].Value), true
		}
	}
	if !found {
		ms = append(ms, jsonobj.Member{Name: name, Value: f(nil)})
	}
	out := []byte{'{'}
	for i, m := range ms {
		if i > 0 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(m.Name)
		out = append(append(append(out, k...), ':'), m.Value...)
	}
	return append(out, '}')
}

// keys22 are the keys the drives press.
var keys22 = append(append([]string(nil), motionKeys...), "fire")

// heldAt is the keys a drive holds at ms.
func (d *drive22) heldAt(ms float64) map[string]bool {
	held := map[string]bool{}
	for _, p := range d.presses {
		if p.at > ms {
			break
		}
		held = map[string]bool{}
		for _, k := range p.held {
			held[k] = true
		}
	}
	return held
}

// features22 counts what a drive went through.
type features22 struct {
	surfaces           map[string]int // steps on each surface type (under the centre)
	launches, landings int
	held, cleared      int // steps with a boost hold; steps over the walls
	level1             int
	debris             int // the map's bodies the rows say are debris
}

func (f *features22) observe(g *Game, prev tanks.LevelState) {
	if ty, ok := g.surfaces.TypeAt(g.lv.Level, g.st.X, g.st.Y); ok && !g.lv.Airborne() {
		f.surfaces[ty.Name]++
	}
	if !prev.Airborne() && g.lv.Airborne() && g.lv.VZ > 0 {
		f.launches++
	}
	if prev.Airborne() && !g.lv.Airborne() {
		f.landings++
	}
	if g.lv.BoostLeft > 0 {
		f.held++
	}
	if g.lv.ClearWalls {
		f.cleared++
	}
	if g.lv.Level == 1 && !g.lv.Airborne() {
		f.level1++
	}
	f.debris = 0
	for i := range g.crates.crates {
		if g.crates.crates[i].debris {
			f.debris++
		}
	}
}

// On downtown under the 0.22 rules the predictor's step reproduces the
// host's tank bit for bit through every scripted drive (boost plates and
// their hold, the ramp launch and the landing on the roof, water, oil and
// its residue, a belt, sand), and the level and height it predicts are
// the host's own row's in every frame.
func TestDowntownParity(t *testing.T) {
	for _, v := range variants22 {
		t.Run(v.name, func(t *testing.T) { downtownParity(t, v) })
	}
}

// variant22 is a tanks 0.22 game the drives run on: its data, and how
// much longer than on the first its drives take (a slower tank).
type variant22 struct {
	name  string
	game  func(testing.TB, [4]float64) *match.GameData
	scale float64
}

// The drives run on the match's own layered 0.13 config given the 0.22
// coreParams, and on the match's 0.22 dialect (the real config: m1 of
// size 3 at 130 u/s, shots from a 2.4-unit gun, the 0.22 rows).
var variants22 = []variant22{{"coreParams", game22, 1}, {"dialect022", realGame22, 2}}

// drive is d slowed down by the variant's scale.
func (v *variant22) drive(d drive22) drive22 {
	d.ms *= v.scale
	d.presses = append([]press22(nil), d.presses...)
	for i := range d.presses {
		d.presses[i].at *= v.scale
	}
	return d
}

// realGame22 is downtown under the match's own 0.22 CONFIG_DATA, with one
// team1 spawn point, the drive's.
func realGame22(t testing.TB, spawn [4]float64) *match.GameData {
	t.Helper()
	m, err := match.New(match.Config{Log: quiet(), Dialect: match.Dialect022})
	if err != nil {
		t.Fatal(err)
	}
	g := game22(t, spawn)
	g.Config = m.ConfigData()
	return g
}

func downtownParity(t *testing.T, v variant22) {
	total := features22{surfaces: map[string]int{}}
	for _, d := range drives22 {
		d := v.drive(d)
		t.Run(d.name, func(t *testing.T) {
			e := newEmbeddedWith(t, nil, match.Config{Game: v.game(t, d.spawn)})
			g := newGame(t, e)
			if g.surfaces == nil || !g.cfg.Levels.Air.On || g.levels == nil {
				t.Fatalf("the game does not predict the 0.22 rules: surfaces %v, air %v, levels %v", g.surfaces != nil, g.cfg.Levels.Air.On, g.levels != nil)
			}
			key := e.schema.Key("m1")
			var own struct {
				level, z float32
				ok       bool
			}
			e.out.onFrame = func(f *clientcore.Frame) {
				own.ok = false
				for _, b := range f.Blocks {
					for _, r := range b.Rows {
						// The props' state bytes reach the game with the
						// frame, as in a session (the steps here run in
						// lockstep with the host's, so nothing else of the
						// rows is taken).
						if b.Schema == g.crates.key && int(r.ID) < len(g.crates.crates) {
							g.crates.markDebris(&g.crates.crates[r.ID], r.Fields)
						}
						if b.Schema == key && f.HasPlayer && r.ID == uint32(f.Player.GameID) && !r.Null {
							// The row's height is in levels.
							own.level, own.z, own.ok = g.row.Level.Get(r.Fields), g.row.Z.Get(r.Fields)*g.levels.LevelHeight(), true
						}
					}
				}
			}
			for i := 0; i < 8; i++ {
				e.step()
			}
			if e.out.players == 0 || !own.ok {
				t.Fatal("no player block with the own row")
			}
			v := e.out.player.State
			g.st = tanks.Tank{X: v[0], Y: v[1], Angle: v[2], VX: v[3], VY: v[4], AngVel: v[5], Gun: v[6], Throttle: v[7], Centering: e.out.player.Centering}
			dt := g.pred.DT()
			g.lv = g.cfg.Levels.Restore(g.levels, g.st.X, g.st.Y, int(own.level), own.z, dt, true)
			f := features22{surfaces: map[string]int{}}
			held := map[string]bool{}
			var keys, shots uint32
			seq := uint32(0)
			compared := 0
			start := e.m.CrateBodies(nil)
			for tick := 0; float64(tick)*1000/120 < d.ms; tick++ {
				want := d.heldAt(float64(tick) * 1000 / 120)
				for _, name := range keys22 {
					if want[name] == held[name] {
						continue
					}
					held[name] = want[name]
					kb, _ := g.pred.Lookup(name)
					seq++
					e.m.Keys(1, fmt.Sprintf("%d:%s:%s", seq, map[bool]string{true: "down", false: "up"}[want[name]], name))
					switch {
					case kb.OneShot:
						if want[name] {
							shots |= kb.Bit
						}
					case want[name]:
						keys |= kb.Bit
					default:
						keys &^= kb.Bit
					}
				}
				before, prev := e.out.players, g.lv
				e.step()
				g.Step(predictInput(keys|shots), dt)
				shots = 0
				f.observe(g, prev)
				if e.out.players == before {
					continue
				}
				p := &e.out.player
				if i, got := stateDiff(g.st, p); i >= 0 {
					t.Fatalf("tick %d: component %d differs: predicted %v, host %v (level state %+v)", tick, i, got, p.State, g.lv)
				}
				if !own.ok || int(own.level) != g.lv.Level || math.Abs(float64(own.z/g.levels.LevelHeight()-packer.Round2(g.lv.Z))) > 0.0051 {
					t.Fatalf("tick %d: the host's row has level %v, z %v; predicted %+v (z %v)", tick, own.level, own.z, g.lv, g.lv.WorldZ(g.levels))
				}
				compared++
			}
			t.Logf("%s: %d player blocks equal bit for bit; %+v", d.name, compared, f)
			if float64(compared) < d.ms/1000*25 { // the host sends 30 player blocks a second
				t.Fatalf("%d blocks compared", compared)
			}
			if d.expect == "debris" {
				// The fence broke where it stood, and the tank drove
				// through where it was.
				end := e.m.CrateBodies(nil)
				moved := 0
				for i := range start {
					if g.crates.crates[i].debris && (end[i].X != start[i].X || end[i].Y != start[i].Y) {
						moved++
					}
				}
				if f.debris != 1 || moved != 0 || g.st.Y > 95 {
					t.Fatalf("debris %d (moved %d), the tank at y %v", f.debris, moved, g.st.Y)
				}
			}
			for k, n := range f.surfaces {
				total.surfaces[k] += n
			}
			total.launches += f.launches
			total.landings += f.landings
			total.held += f.held
			total.level1 += f.level1
		})
	}
	t.Logf("all drives: %+v", total)
	for _, s := range []string{"water", "oil", "conveyor", "boost", "sand"} {
		if total.surfaces[s] < 5 {
			t.Errorf("the drives spent %d steps on %s", total.surfaces[s], s)
		}
	}
	if total.launches < 1 || total.landings < 1 || total.held < 100 || total.level1 < 50 {
		t.Errorf("too little flight or hold: %+v", total)
	}
}

// The same drives against the embedded host through the delaying proxy
// (50–150 ms each way, jittered): no snap, and the own tank's error p95
// at most 0.5 world units.
func TestDelayedDowntown(t *testing.T) {
	for _, v := range variants22 {
		for _, lead := range []bool{true, false} {
			for i, d := range drives22 {
				d := v.drive(d)
				t.Run(fmt.Sprintf("%s/%s/lead=%v", v.name, d.name, lead), func(t *testing.T) { delayedDrive(t, v, d, uint64(40+i), lead) })
			}
		}
	}
}

func delayedDrive(t *testing.T, v variant22, d drive22, seed uint64, lead bool) {
	{
		{
			s := newSessionWith(t, seed, lead, match.Config{Game: v.game(t, d.spawn)})
			s.run(2000)
			f := features22{surfaces: map[string]int{}}
			prev := s.g.lv
			s.onDraw = func(*clientcore.Hot) {
				f.observe(s.g, prev)
				prev = s.g.lv
			}
			held := map[string]bool{}
			for ms := 0.0; ms < d.ms; ms += 1000.0 / 60 {
				want := d.heldAt(ms)
				for _, name := range keys22 {
					if want[name] != held[name] {
						held[name] = want[name]
						s.key(want[name], name)
					}
				}
				s.run(1000.0 / 60)
			}
			s.run(1500)
			sum := s.g.Predictor().Summary()
			t.Logf("%s through 50–150 ms each way, lead clock %v: %+v; drawn: %+v", d.name, lead, sum, f)
			if sum.Samples < 100 || sum.Snaps != 0 || !(sum.ErrorP95 <= 0.5) {
				t.Fatalf("prediction figures %+v", sum)
			}
			missed := f.surfaces[d.expect] < 3
			switch d.expect {
			case "jump":
				missed = f.launches < 1 || f.landings < 1 || f.level1 < 10
			case "debris":
				missed = f.debris != 1 || s.g.st.Y > 95 // through the broken fence
			case "fall":
				missed = f.landings < 1 || s.g.lv.Level != 0
			}
			if missed {
				t.Fatalf("the drive missed its %s: %+v", d.expect, f)
			}
		}
	}
}

// A drive of random keys on downtown under the 0.22 rules, through the
// proxy: no snap.
func TestDelayedDowntownRandom(t *testing.T) {
	s := newSessionWith(t, 77, true, match.Config{Game: game22(t, drives22[0].spawn)})
	s.run(2000)
	rng := rand.New(rand.NewPCG(5, 6))
	names := []string{"forward", "back", "left", "right"}
	held := map[string]bool{}
	for i := 0; i < 50; i++ {
		n := names[rng.IntN(len(names))]
		held[n] = !held[n]
		s.key(held[n], n)
		s.run(100 + 400*rng.Float64())
	}
	sum := s.g.Predictor().Summary()
	t.Logf("random driving on downtown, 0.22 rules: %+v", sum)
	if sum.Samples < 200 || sum.Snaps != 0 {
		t.Fatalf("prediction figures %+v", sum)
	}
}

// downtownGame is the tanks game of a 0.22 match on downtown, its own tank
// seeded at a drive's spawn on the ford's boost plate approach.
func downtownGame(tb testing.TB) *Game {
	e := newEmbeddedWith(tb, nil, match.Config{Game: game22(tb, drives22[1].spawn)})
	g := newGame(tb, e)
	for i := 0; i < 8; i++ {
		e.step()
	}
	v := e.out.player.State
	g.st = tanks.Tank{X: v[0], Y: v[1], Angle: v[2], VX: v[3], VY: v[4], AngVel: v[5], Gun: v[6], Throttle: v[7]}
	return g
}

// BenchmarkDowntownStep is one fixed step of the own tank under the 0.22
// rules: surfaces under the tracks, the boost look-back, the contacts and
// the level rules.
func BenchmarkDowntownStep(b *testing.B) {
	g := downtownGame(b)
	start, lv := g.st, g.lv
	in := predictInput(tanks.KeyForward | tanks.KeyLeft)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%240 == 0 {
			g.st, g.lv = start, lv
		}
		g.Step(in, tanks.Step)
		i++
	}
}

// The 0.22 step allocates nothing in steady state.
func TestDowntownStepAllocatesNothing(t *testing.T) {
	g := downtownGame(t)
	in := predictInput(tanks.KeyForward)
	g.Step(in, tanks.Step)
	met := 0
	if n := testing.AllocsPerRun(300, func() {
		g.Step(in, tanks.Step)
		if _, ok := g.surfaces.TypeAt(g.lv.Level, g.st.X, g.st.Y); ok || g.lv.BoostLeft > 0 {
			met++
		}
	}); n != 0 {
		t.Fatalf("%v allocations per step", n)
	}
	if met < 100 {
		t.Fatalf("only %d of the steps measured met a surface or a hold", met)
	}
}

// A shot from the ground up the overpass's west ramp stops on its slope,
// on the host and in the local tracer alike. The ramp rises one level
// (12.8 units) over 7 cells (89.6 units) from x = 192; the gun is 2.4
// units up, 2.4/12.8 = 0.1875 levels, which the slope reaches
// 0.1875·89.6 = 16.8 units in: the shot ends at x = 208.8 (the tank
// stands at x = 121.6 on row 24.5, inside the ramp's rows, facing east).
func TestDowntownShotOnRamp(t *testing.T) {
	s := newSessionWith(t, 91, true, match.Config{Game: game22(t, [4]float64{304, 784, 0, 0})})
	var local []float32
	s.onFrames = func(fs []clientcore.EventFrame) {
		for _, f := range fs {
			for _, b := range f.Blocks {
				if b.Schema.Name != "w1" {
					continue
				}
				for _, r := range b.Rows {
					local = append(local, rowtest.Get(t, b.Schema, r.Fields, "endX"))
				}
			}
		}
	}
	var host []float32
	key := s.e.schema.Key("w1")
	dec := clientcore.NewDecoder(s.e.schema)
	var fr clientcore.Frame
	s.e.out.sink = func(m hostMsg) {
		if m.port == clientcore.FramePort && dec.Decode(m.bytes, &fr) == nil {
			for _, b := range fr.Blocks {
				if b.Schema == key {
					for _, r := range b.Rows {
						host = append(host, rowtest.Get(t, key, r.Fields, "endX"))
					}
				}
			}
		}
		s.down.send(s.local, m, "")
	}
	s.run(2000)
	s.key(true, "fire")
	s.key(false, "fire")
	s.run(1000)
	if len(host) != 1 || len(local) != 1 {
		t.Fatalf("tracers: host %v, local %v", host, local)
	}
	if math.Abs(float64(host[0]-208.8)) > 0.05 || math.Abs(float64(local[0]-208.8)) > 0.05 {
		t.Fatalf("the shot ends at x %v on the host, %v locally; want 208.8", host[0], local[0])
	}
}

// The real tanks 0.22 prediction config turns every 0.22 rule on: the
// flight (g = 2/0.35²), the six surfaces with the boost's hold, the three
// props, the gun's height; its m1 is the 0.22 one (size 3, 130 u/s).
func TestRealConfig022(t *testing.T) {
	cfg, err := ParseConfig(capture022(t, "prediction"))
	if err != nil {
		t.Fatal(err)
	}
	r := cfg.Levels
	if !r.Air.On || math.Abs(float64(r.Air.Gravity)-2/0.35/0.35) > 1e-3 || r.Air.MaxLaunchVZ != 3.5 || r.Air.Clearance != 0.45 {
		t.Fatalf("levels %+v", r)
	}
	s := cfg.Core.Surfaces
	if s == nil || len(s.Types) != 6 || len(cfg.Core.Props) != 3 {
		t.Fatalf("core %+v", cfg.Core)
	}
	if i, ok := s.Type("boost"); !ok || s.Types[i].BoostTime != 1.2 || s.Types[i].BoostSpeedFactor != 3.6 || s.Types[i].BoostDV != 350 {
		t.Fatalf("boost %+v", s.Types[i])
	}
	if len(cfg.Models) != 1 {
		t.Fatalf("models %+v", cfg.Models)
	}
	m := cfg.Models[0].Motion
	if m.Size != 3 || m.MaxForward != 130 || m.BarrelHeight != 2.4 || m.TurretTop != 3 || m.GunSpeed != 1.5 {
		t.Fatalf("m1 %+v", m)
	}
	// A 0.13 config: none of it.
	old, err := ParseConfig([]byte(`{"models":{"m1":{"size":2}},"mapFallTime":0.35}`))
	if err != nil || old.Levels.Air.On || old.Core.Surfaces != nil || old.Core.Props != nil || old.Models[0].Motion.BarrelHeight != 0 {
		t.Fatalf("0.13 config: %+v %v", old, err)
	}
}

// Off the overpass's north ledge (columns 38–40 of row 20) a tank falls
// one level to the street: 30·(1 − 0.5) = 15 of its 100 health. The ramp
// jump onto the parking roof, an arc of a tenth of a level, is free.
func TestDowntownFallDamage(t *testing.T) {
	for _, c := range []struct {
		name  string
		spawn [4]float64
		want  string
	}{
		{"ledge", [4]float64{1264, 720, -90, 1}, "h:85"},
		{"jump", drives22[0].spawn, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var health []string
			e := newEmbeddedWith(t, func(m hostMsg) {
				var items []string
				if m.port == 13 && json.Unmarshal(m.json, &items) == nil {
					for _, it := range items {
						if len(it) > 2 && it[:2] == "h:" {
							health = append(health, it)
						}
					}
				}
			}, match.Config{Game: game22(t, c.spawn)})
			for i := 0; i < 8; i++ {
				e.step()
			}
			health = health[:0]
			e.m.Keys(1, "1:down:forward")
			for i := 0; i < 120*3; i++ {
				e.step()
			}
			got := ""
			if len(health) > 0 {
				got = health[len(health)-1]
			}
			if got != c.want || len(health) > 1 {
				t.Fatalf("health items %v, want %q", health, c.want)
			}
		})
	}
}

// capture022 is the member at path of a real tanks 0.22 host's CONFIG_DATA.
func capture022(t testing.TB, path ...string) json.RawMessage {
	t.Helper()
	v, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range path {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(v, &obj); err != nil {
			t.Fatal(err)
		}
		if v = obj[name]; v == nil {
			t.Fatalf("CONFIG_DATA has no %v", path)
		}
	}
	return v
}
