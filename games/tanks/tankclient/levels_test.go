package tankclient

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/host/packer"
	"vimpclient/internal/angle"
	"vimpclient/snapschema"
	"vimpclient/testkit/rowtest"
)

// pilot drives a tank around the bridge map towards waypoints chosen at
// random among the places where levels matter (the ramp feet, the bridge,
// the gap in its north railing, the sides of the ramps, the road under
// it), with random key flips on top and a reverse when it is stuck: long
// random input sequences that climb, cross, fall and bump into guards.
type pilot struct {
	rng     *rand.Rand
	cell    float32
	route   [][2]float32
	target  [2]float32
	since   int
	stuck   int
	reverse int
	flip    string
	flipFor int
	held    map[string]bool
}

// bridgeRoutes are the pilot's routes, in cells: up a ramp and across,
// off the gap in the north railing, off a ramp's side half way up, under
// the bridge along the road, into a ramp's rails from the side, and back.
var bridgeRoutes = [][][2]float32{
	{{2, 16}, {5, 16}, {16, 15.5}, {30, 16}, {46, 16}},
	{{45, 15.5}, {42, 15.5}, {30, 15}, {16, 16}, {2, 16}},
	{{2, 16}, {5, 16}, {16, 15.5}, {21.5, 15.5}, {21.5, 10}},
	{{45, 16}, {42, 16}, {28, 15.5}, {21, 15}, {21, 9}},
	{{2, 15.5}, {5, 15.5}, {9.5, 15.5}, {9.5, 10}},
	{{45, 16.5}, {42, 16.5}, {38.5, 16.5}, {38.5, 22}},
	{{24, 5}, {24, 27}},
	{{23, 27}, {23, 5}},
	{{9, 11}, {9, 20}},
	{{39, 21}, {39, 11}},
}

func (p *pilot) pick() {
	if len(p.route) == 0 {
		p.route = bridgeRoutes[p.rng.IntN(len(bridgeRoutes))]
	}
	w := p.route[0]
	p.route = p.route[1:]
	p.target = [2]float32{(w[0] + 0.5) * p.cell, (w[1] + 0.5) * p.cell}
	p.since = 0
}

// keys returns the key states wanted for a tank in state s.
func (p *pilot) keys(s *tanks.Tank) map[string]bool {
	want := map[string]bool{}
	p.since++
	dx, dy := p.target[0]-s.X, p.target[1]-s.Y
	if dx*dx+dy*dy < 12*12 || p.since > 120*12 {
		p.pick()
	}
	speed := math.Hypot(float64(s.VX), float64(s.VY))
	if speed < 5 && s.Throttle > 0.9 {
		p.stuck++
	} else {
		p.stuck = 0
	}
	if p.stuck > 120 {
		p.reverse, p.stuck = 60+p.rng.IntN(60), 0
	}
	switch {
	case p.reverse > 0:
		p.reverse--
		want["back"], want["left"] = true, true
	default:
		turn := angle.Normalize(float32(math.Atan2(float64(dy), float64(dx))) - s.Angle)
		want["forward"] = abs(turn) < 0.9
		if turn > 0.15 {
			want["right"] = true
		} else if turn < -0.15 {
			want["left"] = true
		}
	}
	if p.flipFor > 0 {
		p.flipFor--
		want[p.flip] = !want[p.flip]
	} else if p.rng.IntN(400) == 0 {
		p.flip, p.flipFor = motionKeys[p.rng.IntN(len(motionKeys))], 10+p.rng.IntN(50)
	}
	return want
}

// On the layered bridge map the predictor's step reproduces the host's
// tank bit for bit over long random driving (up and down the ramps, across
// the bridge, off its edges, into the guards, under it), its level and
// height equal the host's own row in every frame, and the level state
// rebuilt from that row alone (RestoreLevel) is the one the prediction
// carries, field for field: the replay after any player block steps on
// from exactly the host's state. Every crate the predictor steps matches
// the host's, level included.
func TestBridgeParity(t *testing.T) {
	e := newEmbeddedOn(t, nil, 0, "bridge")
	g := newGame(t, e)
	key := e.schema.Key("m1")
	var own struct {
		level, z float32
		ok       bool
	}
	e.out.onFrame = func(f *clientcore.Frame) {
		own.ok = false
		for _, b := range f.Blocks {
			if b.Schema != key {
				continue
			}
			for _, r := range b.Rows {
				if f.HasPlayer && r.ID == uint32(f.Player.GameID) && !r.Null {
					own.level, own.z, own.ok = rowtest.Get(t, key, r.Fields, rowtest.RoleLevel), rowtest.Get(t, key, r.Fields, rowtest.RoleZ), true
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
	if g.levels == nil {
		t.Fatal("the game does not predict levels on the bridge map")
	}
	v := e.out.player.State
	g.st = tanks.Tank{X: v[0], Y: v[1], Angle: v[2], VX: v[3], VY: v[4], AngVel: v[5], Gun: v[6], Throttle: v[7], Centering: e.out.player.Centering}
	dt := g.pred.DT()
	g.lv = g.cfg.Levels.Restore(g.levels, g.st.X, g.st.Y, int(own.level), own.z, dt, true)

	pl := &pilot{rng: rand.New(rand.NewPCG(9, 10)), cell: g.levels.TileSize(), held: map[string]bool{}}
	pl.pick()
	var held, shots uint32
	seq := uint32(0)
	var hostCrates []tanks.Body
	var hostLevels []tanks.LevelState
	var stances [3]int
	compared, level1, falls, landings, crateCompared, crateOff := 0, 0, 0, 0, 0, 0
	for tick := 0; tick < 120*300; tick++ {
		want := pl.keys(&g.st)
		for _, name := range motionKeys {
			if want[name] == pl.held[name] {
				continue
			}
			pl.held[name] = want[name]
			kb, _ := g.pred.Lookup(name)
			seq++
			e.m.Keys(1, fmt.Sprintf("%d:%s:%s", seq, map[bool]string{true: "down", false: "up"}[want[name]], name))
			switch {
			case kb.OneShot:
				if want[name] {
					shots |= kb.Bit
				}
			case want[name]:
				held |= kb.Bit
			default:
				held &^= kb.Bit
			}
		}
		before, prev := e.out.players, g.lv
		e.step()
		g.Step(predictInput(held|shots), dt)
		shots = 0
		stances[g.lv.Stance]++
		if g.lv.Level == 1 && g.lv.Stance == tanks.Standing {
			level1++
		}
		if prev.Stance != tanks.Falling && g.lv.Stance == tanks.Falling {
			falls++
		}
		if prev.Stance == tanks.Falling && g.lv.Stance != tanks.Falling {
			landings++
		}
		hostCrates = e.m.CrateBodies(hostCrates[:0])
		hostLevels = e.m.CrateLevels(hostLevels[:0])
		for i := range g.crates.crates {
			c := &g.crates.crates[i]
			if !c.predicted {
				continue
			}
			got, want := c.pose(), hostCrates[i]
			for j, pair := range [6][2]float32{{got.x, want.X}, {got.y, want.Y}, {got.angle, want.Angle},
				{got.vx, want.VX}, {got.vy, want.VY}, {got.w, want.AngVel}} {
				if math.Float32bits(pair[0]) != math.Float32bits(pair[1]) {
					t.Fatalf("tick %d crate %d: component %d: predicted %v, host %v", tick, i, j, pair[0], pair[1])
				}
			}
			if !sameLevel(c.lv, hostLevels[i]) {
				t.Fatalf("tick %d crate %d: predicted level %+v, host %+v", tick, i, c.lv, hostLevels[i])
			}
			crateCompared++
			if c.lv.Level != c.rest.Level || c.lv.Stance != tanks.Standing {
				crateOff++
			}
		}
		if e.out.players == before {
			continue
		}
		p := &e.out.player
		if i, got := stateDiff(g.st, p); i >= 0 {
			t.Fatalf("tick %d: component %d differs: predicted %v, host %v (level %+v)", tick, i, got, p.State, g.lv)
		}
		if !own.ok {
			t.Fatalf("tick %d: no own row", tick)
		}
		// The rows carry the height in levels.
		if g.lv.Level != int(own.level) || packer.Round2(g.lv.Z) != own.z {
			t.Fatalf("tick %d: predicted level %d height %v, the host's row %v %v (%+v)", tick, g.lv.Level, g.lv.Z, own.level, own.z, g.lv)
		}
		if r := g.cfg.Levels.Restore(g.levels, p.State[0], p.State[1], int(own.level), own.z*g.levels.LevelHeight(), dt, true); !sameLevel(r, g.lv) {
			t.Fatalf("tick %d: restored from the row %+v, predicted %+v", tick, r, g.lv)
		}
		compared++
	}
	t.Logf("%d player blocks compared bit for bit; steps standing %d (on the bridge %d), climbing %d, falling %d; "+
		"%d falls, %d landings; %d predicted crate states compared, %d off their rest", compared,
		stances[tanks.Standing], level1, stances[tanks.Climbing], stances[tanks.Falling], falls, landings, crateCompared, crateOff)
	if compared < 8000 || level1 < 3000 || stances[tanks.Climbing] < 1000 || falls < 5 || landings < 5 || crateOff < 1000 {
		t.Fatal("too little coverage of the levels")
	}
}

// sameLevel compares level states field for field, heights by their bits.
func sameLevel(a, b tanks.LevelState) bool {
	return a.Level == b.Level && a.Stance == b.Stance && a.FallSteps == b.FallSteps &&
		math.Float32bits(a.Z) == math.Float32bits(b.Z) &&
		math.Float32bits(a.Slope[0]) == math.Float32bits(b.Slope[0]) && math.Float32bits(a.Slope[1]) == math.Float32bits(b.Slope[1])
}

// bridgeGame is the game on the bridge map from the embedded host's
// CONFIG_DATA, active, with the own tank (id 3) alive at (x, y).
func bridgeGame(t testing.TB, schema *clientcore.Schema, x, y float32) (*Game, *embedded) {
	t.Helper()
	e := newEmbeddedOn(t, nil, 0, "bridge")
	if schema == nil {
		schema = e.schema
	}
	cfg, err := ParseConfig(e.pred)
	if err != nil {
		t.Fatal(err)
	}
	g := New(schema, cfg)
	if err := g.LoadMap(e.mapRaw); err != nil {
		t.Fatal(err)
	}
	g.SetActive(true)
	g.OnServerState(&clientcore.PlayerBlock{GameID: 3, State: [8]float32{x, y}}, 1000, 0, 1000)
	g.TrackFrame(3, true, &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: schema.Key("m1"),
		Rows: []clientcore.Row{{ID: 3, Fields: m1Row(t, schema, float64(x), float64(y), 3, 1)}}}}})
	return g, e
}

// A host whose tank rows carry no height (no z and level in m1) gets
// today's flat prediction on a layered map: no levels, the ground's walls
// alone, the tank driving through a ramp as a flat cell. The embedded
// host's rows carry them, and the game predicts levels.
func TestFlatSchemaKeepsFlatPrediction(t *testing.T) {
	layered, e := bridgeGame(t, nil, 67.2, 307.2)
	if layered.levels == nil || !layered.row.Layered() {
		t.Fatal("the embedded host's schema does not turn levels on")
	}
	var doc map[string]map[string]any
	var top map[string]json.RawMessage
	if err := json.Unmarshal(e.m.ConfigData(), &top); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(top["snapshot"], &doc); err != nil {
		t.Fatal(err)
	}
	fields := doc["m1"]["fields"].([]any)
	doc["m1"]["fields"] = append(fields[:3:3], fields[5:]...) // without z and level (indices 3 and 4)
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	flatSchema, err := clientcore.ParseSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	flat, _ := bridgeGame(t, flatSchema, 67.2, 307.2)
	if flat.levels != nil || flat.row.Layered() || flat.terrain.Walls(1) != nil {
		t.Fatal("a flat host's rows turned levels on")
	}
	for _, g := range []*Game{layered, flat} {
		now := 1000.0
		g.ApplyInput(1, true, "forward", now)
		for i := 0; i < 60; i++ { // one second: up the ramp
			now += 1000.0 / 60
			g.Update(now)
		}
	}
	if lv := layered.Level(); lv.Stance != tanks.Climbing || lv.Z <= 0 {
		t.Fatalf("the layered prediction is not climbing: %+v at %+v", lv, layered.State())
	}
	if lv := flat.Level(); lv != (tanks.LevelState{}) {
		t.Fatalf("the flat prediction left the ground: %+v", lv)
	}
	// The slope holds the layered tank back; the flat one drives on.
	if !(layered.State().X < flat.State().X) {
		t.Fatalf("layered x %v, flat x %v", layered.State().X, flat.State().X)
	}
	tail, _, ok := layered.Overlay(3, true, nil)
	if !ok || rowtest.Get(t, tail[0].Schema, tail[0].Fields, rowtest.RoleZ) != layered.lv.Z ||
		rowtest.Get(t, tail[0].Schema, tail[0].Fields, rowtest.RoleLevel) != float32(layered.lv.Level) {
		t.Fatalf("the own record does not carry the predicted height: %+v", tail)
	}
}

// The embedded host's tank and crate rows agree with the game's records of
// them, both ways: m1 and c1 with z and level by their roles.
func TestHostKeyRecords(t *testing.T) {
	e := newEmbeddedOn(t, nil, 0, "bridge")
	for _, c := range []struct {
		key  string
		bind func(*clientcore.Binder)
	}{
		{"m1", func(b *clientcore.Binder) { tanks.BindTankRow(b.Positions()) }},
		{"c1", func(b *clientcore.Binder) { tanks.BindCrateRow(b.Positions()) }},
	} {
		// The layered dialect of the older engine has no vertical speed
		// or tilt (tanks 0.21's fields): only those may be absent.
		var m []string
		for _, d := range rowtest.Mismatch(e.schema.Key(c.key), c.bind) {
			if !strings.HasSuffix(d, "(optional), the key lacks it") || !(strings.Contains(d, " vz ") || strings.Contains(d, " pitch ") || strings.Contains(d, " roll ")) {
				m = append(m, d)
			}
		}
		if len(m) != 0 {
			t.Errorf("%s: %v", c.key, m)
		}
	}
	for _, key := range []string{"m1", "c1"} {
		if k := e.schema.Key(key); k.Fields[3].Role != snapschema.RoleZ || k.Fields[4].Role != snapschema.RoleLevel {
			t.Fatalf("%s is not layered: %+v", key, k.Fields)
		}
	}
}

// Crates take their level and height from their rows: a crate drawn on the
// bridge stands on level 1 and a tank on the road under it does not
// capture it; a crate row in the middle of a fall is read as that fall.
func TestCrateLevelsFromRows(t *testing.T) {
	g, _ := bridgeGame(t, nil, 422.4, 390) // on the road, south of the slab, facing south
	g.OnServerState(&clientcore.PlayerBlock{GameID: 3, State: [8]float32{422.4, 390, math.Pi / 2}}, 1100, 0, 1100)
	cs := &g.crates
	k := cs.key
	if k == nil || !cs.f.Layered() {
		t.Fatal("the crate rows are not layered")
	}
	b := clientcore.NewBinder(k)
	zf, lf := b.Role(snapschema.RoleZ), b.Role(snapschema.RoleLevel)
	h := float32(1) // the rows' heights are in levels: level 1's floor
	row := func(x, y, z, level float32) []float32 {
		r := rowtest.Row(t, k, map[string]float64{"x": float64(x), "y": float64(y), "angle": 0})
		zf.Set(r, z)
		lf.Set(r, level)
		return r
	}
	c := &cs.crates[4] // on the bridge
	half := c.sim.HalfW
	// Drawn right above the tank's path: (422.4, 380) is under the slab's
	// south railing row, the crate's centre on level 1 just north of it.
	cx, cy := float32(422.4), float32(340)
	hot := &clientcore.Hot{Dynamics: []clientcore.Record{{Schema: k, ID: 4, Fields: row(cx-half, cy-half, h, 1)}}}
	g.ObserveHot(hot)
	if c.lv != (tanks.LevelState{Level: 1, Z: 1}) {
		t.Fatalf("crate on the bridge: %+v", c.lv)
	}
	now := 1100.0
	g.ApplyInput(1, true, "back", now) // north, under the bridge, below the crate
	for i := 0; i < 120; i++ {
		now += 1000.0 / 60
		g.Update(now)
		g.ObserveHot(hot)
		if c.predicted {
			t.Fatalf("a ground tank captured a bridge crate at %+v", g.State())
		}
	}
	if g.State().Y > cy {
		t.Fatalf("the tank did not drive under the crate: %+v", g.State())
	}
	// Half way through a fall off the slab (a level in mapFallTime).
	r := &g.cfg.Levels
	fall := tanks.LevelState{Level: 1, Stance: tanks.Falling, FallSteps: 20, Z: r.Fall.ZAt(1, 0, 20*tanks.Step)}
	g.ObserveHot(&clientcore.Hot{Dynamics: []clientcore.Record{{Schema: k, ID: 5, Fields: row(420-half, 230-half, packer.Round2(fall.Z), 1)}}})
	if got := cs.crates[5].lv; !sameLevel(got, fall) {
		t.Fatalf("falling crate read as %+v, want %+v", got, fall)
	}
}

// The bridge scenario through a delaying proxy (50–150 ms each way): from
// the first team1 spawn, forward up the ramp, across and down the other
// side. The host put the tank on the bridge, the predicted level agreed
// with the host's rows at nearly every check, the prediction error stays
// small and nothing snapped.
func TestDelayedBridgeCrossing(t *testing.T) {
	s := &session{t: t, local: 1000, hostSkew: 5e11}
	s.down = &link{rng: rand.New(rand.NewPCG(31, 1))}
	s.up = &link{rng: rand.New(rand.NewPCG(31, 2))}
	s.e = newEmbeddedOn(t, func(m hostMsg) { s.down.send(s.local, m, "") }, 0, "bridge")
	s.e.now = s.local + s.hostSkew
	s.core = clientcore.New(s.e.schema, clientcore.Options{})
	s.g = newGame(t, s.e)
	s.core.SetGame(s.g)
	s.nextHost, s.nextDraw = s.local, s.local
	s.run(2000)
	s.key(true, "forward")
	s.run(3400)
	s.key(false, "forward")
	s.run(2000)
	r, _ := s.core.Prediction()
	loc, sum := r.Local, r.Summary
	t.Logf("bridge crossing: %+v; local %+v", sum, loc)
	if !r.HasLocal || loc.MaxLevel < 1 || loc.Level != 0 || loc.X < 42*19.2 {
		t.Fatalf("the tank did not cross the bridge: %+v", loc)
	}
	if sum.Samples < 150 || sum.ErrorP95 > 2 || sum.Snaps != 0 || loc.LevelChecks < 150 || loc.LevelMismatches > loc.LevelChecks/50 {
		t.Fatalf("prediction figures %+v, levels %+v", sum, loc)
	}
}

// On the bridge map a render tick (steps with the level rules, the
// overlay, the drawn world) and a reconciliation with the own row's height
// (the check, the rebuilt level state, the replay) allocate nothing.
func TestBridgeTickAllocatesNothing(t *testing.T) {
	g, e := bridgeGame(t, nil, 67.2, 307.2)
	s := e.schema
	g.ApplyInput(1, true, "forward", 1000)
	own := m1Row(t, s, 120, 307.2, 3, 1)
	rowtest.Set(t, s.Key("m1"), own, rowtest.RoleZ, 0.04) // a twenty-fifth of the way up the ramp, in levels
	rows := []clientcore.Row{{ID: 3, Fields: own}, {ID: 5, Fields: m1Row(t, s, 300, 300, 3, 2)}}
	frame := clientcore.Frame{HasPlayer: true, Player: clientcore.PlayerBlock{GameID: 3, State: [8]float32{120, 307.2, 0, 200}},
		Blocks: []clientcore.Block{{Schema: s.Key("m1"), Rows: rows}}}
	crate := rowtest.Row(t, s.Key("c1"), map[string]float64{"x": 500, "y": 500})
	hot := &clientcore.Hot{Flags: clientcore.HotGame, Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 5, Fields: rows[1].Fields}},
		Dynamics: []clientcore.Record{{Schema: s.Key("c1"), ID: 4, Fields: crate}}}
	tail := make([]clientcore.Record, 0, 4)
	now := 1000.0
	allocs := testing.AllocsPerRun(200, func() {
		now += 1000.0 / 60
		g.ObserveHot(hot)
		g.Update(now)
		tail, _, _ = g.Overlay(3, true, tail[:0])
		frame.ServerTime = now
		g.BeginReconcile(&frame)
		g.OnServerState(&frame.Player, now, 0, now+20)
		g.FinishReconcile()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per tick", allocs)
	}
	if g.Level().Stance != tanks.Climbing {
		t.Fatalf("not on the ramp: %+v", g.Level())
	}
}

// BenchmarkBridgeUpdateOverlay is BenchmarkUpdateOverlay with the level
// rules at work: the own tank climbing the bridge's west ramp.
func BenchmarkBridgeUpdateOverlay(b *testing.B) {
	g, _ := bridgeGame(b, nil, 100, 307.2)
	g.ApplyInput(1, true, "forward", 1000)
	tail := make([]clientcore.Record, 0, 4)
	now := 1000.0
	b.ReportAllocs()
	for b.Loop() {
		now += 1000.0 / 60
		if g.State().X > 200 { // back to the foot of the ramp
			g.OnServerState(&clientcore.PlayerBlock{GameID: 3, State: [8]float32{100, 307.2}}, now, 0, now)
		}
		g.Update(now)
		tail, _, _ = g.Overlay(3, true, tail[:0])
	}
}
