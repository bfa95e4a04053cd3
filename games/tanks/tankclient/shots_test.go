package tankclient

import (
	"encoding/json"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/predict"
	"vimpclient/testkit/rowtest"
)

// hostSchemaGame builds the game from the embedded host's CONFIG_DATA,
// active, with the own tank (id 3) alive at (100, 100).
func hostSchemaGame(t testing.TB) (*Game, *clientcore.Schema) {
	e := newEmbedded(t, nil)
	g := newGame(t, e)
	g.SetActive(true)
	g.OnServerState(&clientcore.PlayerBlock{GameID: 3, State: [8]float32{100, 100}}, 1000, 0, 1000)
	g.TrackFrame(3, true, ownRow(t, e.schema, 3, 3))
	return g, e.schema
}

// m1Row is a size-2 tank's m1 row at (x, y), by field name.
func m1Row(t testing.TB, s *clientcore.Schema, x, y, cond, team float64) []float32 {
	t.Helper()
	return rowtest.Row(t, s.Key("m1"), map[string]float64{"x": x, "y": y, "condition": cond, "size": 2, "team": team})
}

func ownRow(t testing.TB, s *clientcore.Schema, id uint32, cond float64) *clientcore.EventFrame {
	t.Helper()
	return &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: s.Key("m1"),
		Rows: []clientcore.Row{{ID: id, Fields: m1Row(t, s, 100, 100, cond, 1)}}}}}
}

// tracer is a w1 row shot by author.
func tracer(t testing.TB, s *clientcore.Schema, author float64) clientcore.Row {
	t.Helper()
	return clientcore.Row{Fields: rowtest.Row(t, s.Key("w1"), map[string]float64{"startX": 1, "startY": 2, "endX": 3, "endY": 4,
		"bodyX": 5, "bodyY": 6, "wasHit": 1, "shooterId": author})}
}

func TestOwnTracerSuppressed(t *testing.T) {
	g, s := hostSchemaGame(t)
	g.ApplyInput(1, true, "fire", 1000)
	sp := g.TakeSpawns()
	if len(sp) != 1 || sp[0].Blocks[0].Key() != "w1" {
		t.Fatalf("spawns %+v", sp)
	}
	w1 := s.Key("w1")
	row := sp[0].Blocks[0].Rows[0].Fields
	get := func(row []float32, name string) float32 { return rowtest.Get(t, w1, row, name) }
	// Muzzle 4.4 ahead of the hull centre at angle 0; shooter id last.
	if sx := get(row, "startX"); sx != 104.4 && (sx < 104.39 || sx > 104.41) || get(row, "startY") != 100 || get(row, "shooterId") != 3 || get(row, "bodyX") != 100 {
		t.Fatalf("tracer row %v", row)
	}
	g.ApplyInput(2, true, "fire", 1005) // cooldown 10 ms: refused
	if len(g.TakeSpawns()) != 0 {
		t.Fatal("fired within the cooldown")
	}
	f := &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: s.Key("w1"), Rows: []clientcore.Row{tracer(t, s, 3), tracer(t, s, 5), tracer(t, s, 3)}}}}
	orig := f.Blocks[0].Rows
	g.FilterFrame(f, 3, true, 1100)
	rows := f.Blocks[0].Rows
	// The first own row is the duplicate; the second own row was not
	// predicted (no pending tracer left) and is kept.
	if len(rows) != 2 || get(rows[0].Fields, "shooterId") != 5 || get(rows[1].Fields, "shooterId") != 3 {
		t.Fatalf("filtered %+v", rows)
	}
	if len(orig) != 3 || get(orig[0].Fields, "shooterId") != 3 {
		t.Fatal("the frame's own storage was edited")
	}
	// A tracer pending for more than 2 s is forgotten: the host's row then
	// stays.
	g.ApplyInput(3, true, "fire", 2000)
	g.TakeSpawns()
	f = &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: s.Key("w1"), Rows: []clientcore.Row{tracer(t, s, 3)}}}}
	g.FilterFrame(f, 3, true, 4001)
	if len(f.Blocks[0].Rows) != 1 {
		t.Fatal("an expired pending tracer suppressed a row")
	}
}

func TestOwnBombAliasAndExpiry(t *testing.T) {
	g, s := hostSchemaGame(t)
	g.SyncPanelItems([]string{"wa:w2", "w2:1"})
	g.ApplyInput(1, true, "fire", 1000)
	sp := g.TakeSpawns()
	if len(sp) != 1 || sp[0].Blocks[0].Key() != "w2" || sp[0].Blocks[0].Rows[0].Local != 1 {
		t.Fatalf("bomb spawn %+v", sp)
	}
	w2 := s.Key("w2")
	get := func(row []float32, name string) float32 { return rowtest.Get(t, w2, row, name) }
	if f := sp[0].Blocks[0].Rows[0].Fields; get(f, "x") != 100 || get(f, "size") != 8 || get(f, "time") != 300 || get(f, "ownerId") != 3 {
		t.Fatalf("bomb row %v", f)
	}
	g.ApplyInput(2, true, "fire", 1200) // ammo spent: refused
	if len(g.TakeSpawns()) != 0 {
		t.Fatal("fired without ammo")
	}
	bomb := func(id uint32, null bool, owner float64) clientcore.Row {
		if null {
			return clientcore.Row{ID: id, Null: true}
		}
		return clientcore.Row{ID: id, Fields: rowtest.Row(t, w2, map[string]float64{"x": 101, "y": 99, "size": 8, "time": 300, "ownerId": owner})}
	}
	f := &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: w2, Rows: []clientcore.Row{bomb(77, false, 3), bomb(78, false, 4)}}}}
	g.FilterFrame(f, 3, true, 1100)
	rows := f.Blocks[0].Rows
	if rows[0].Local != 1 || rows[1].Local != 0 {
		t.Fatalf("confirmation not renamed: %+v", rows)
	}
	f = &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: w2, Rows: []clientcore.Row{bomb(77, true, 0)}}}}
	g.FilterFrame(f, 3, true, 1400)
	if r := f.Blocks[0].Rows[0]; !r.Null || r.Local != 1 {
		t.Fatalf("detonation not renamed: %+v", r)
	}
	if len(g.shots.aliases) != 0 {
		t.Fatal("alias kept after the null")
	}
	// A bomb the host never confirms is removed after 2 s by an injected
	// null in the next frame, even one without a w2 block.
	g.SyncPanelItems([]string{"w2"})
	g.ApplyInput(3, true, "fire", 2000)
	if sp := g.TakeSpawns(); len(sp) != 1 || sp[0].Blocks[0].Rows[0].Local != 2 {
		t.Fatalf("second bomb %+v", sp)
	}
	f = &clientcore.EventFrame{}
	g.FilterFrame(f, 3, true, 3000)
	if len(f.Blocks) != 0 {
		t.Fatal("injected before expiry")
	}
	g.FilterFrame(f, 3, true, 4001)
	if len(f.Blocks) != 1 || f.Blocks[0].Schema != w2 || !f.Blocks[0].Rows[0].Null || f.Blocks[0].Rows[0].Local != 2 {
		t.Fatalf("expired bomb not removed: %+v", f.Blocks)
	}
	f = &clientcore.EventFrame{}
	g.FilterFrame(f, 3, true, 4100)
	if len(f.Blocks) != 0 {
		t.Fatal("null injected twice")
	}
}

func TestShotGatesAndResets(t *testing.T) {
	g, _ := hostSchemaGame(t)
	g.TrackFrame(3, true, ownRow(t, g.schema, 3, 0)) // wreck
	g.ApplyInput(1, true, "fire", 1000)
	if len(g.TakeSpawns()) != 0 || !g.pred.Frozen() {
		t.Fatal("a wreck fired")
	}
	g.TrackFrame(3, true, ownRow(t, g.schema, 3, 2))
	g.ApplyInput(2, true, "nextWeapon", 1000)
	if g.shots.current != 1 {
		t.Fatal("weapon cycle")
	}
	g.ApplyInput(3, true, "prevWeapon", 1000)
	g.ApplyInput(4, true, "prevWeapon", 1000)
	if g.shots.current != 1 {
		t.Fatal("weapon cycle wrap")
	}
	g.SetActive(false)
	if g.shots.current != 0 || g.pred.HasState() {
		t.Fatal("key set change kept the weapon or the state")
	}
	if _, _, ok := g.Overlay(3, true, nil); ok {
		t.Fatal("overlay without a state")
	}
	g.SetActive(true)
	g.OnServerState(&clientcore.PlayerBlock{GameID: 3, State: [8]float32{50, 60, 1}}, 2000, 0, 2000)
	tail, cam, ok := g.Overlay(3, true, nil)
	get := func(name string) float32 { return rowtest.Get(t, g.schema.Key("m1"), tail[0].Fields, name) }
	if !ok || cam != [2]float32{50, 60} || len(tail) != 1 || tail[0].Key() != "m1" || tail[0].ID != 3 ||
		len(tail[0].Fields) != len(g.schema.Key("m1").Fields) || get("angle") != 1 || get("condition") != 2 || get("size") != 2 {
		t.Fatalf("overlay %v %v %+v", ok, cam, tail)
	}
	g.Reset()
	if _, _, ok := g.Overlay(3, true, nil); ok {
		t.Fatal("overlay after CLEAR")
	}
	// A force-reset camera resets the predictor.
	g.OnServerState(&clientcore.PlayerBlock{GameID: 3, State: [8]float32{50, 60}}, 3000, 0, 3000)
	g.TrackFrame(3, true, &clientcore.EventFrame{HasCamera: true, Camera: clientcore.FrameCamera{ForceReset: true}})
	if g.pred.HasState() {
		t.Fatal("force-reset kept the state")
	}
}

func TestParseConfigTanks(t *testing.T) {
	e := newEmbedded(t, nil)
	cfg, err := ParseConfig(e.pred)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Weapons) != 2 || cfg.Weapons[0].Name != "w1" || cfg.Weapons[1].Name != "w2" || !cfg.Weapons[1].Explosive ||
		cfg.Weapons[0].FireRate != 0.01 || len(cfg.Models) != 1 || cfg.Models[0].CurrentWeapon != "w1" {
		t.Fatalf("%+v", cfg)
	}
	if cfg.Models[0].Motion.MaxForward != 260 || cfg.Models[0].Motion.Density != 200 {
		t.Fatalf("model %+v", cfg.Models[0].Motion)
	}
	if cfg.Levels.Fall.TimePerLevel != 0.35 {
		t.Fatalf("the host's mapFallTime: %+v", cfg.Levels)
	}
	if c, err := ParseConfig([]byte(`{"mapFallTime":0.5}`)); err != nil || c.Levels.Fall.TimePerLevel != 0.5 || c.Levels.ClimbGravity == 0 {
		t.Fatalf("mapFallTime 0.5: %+v %v", c.Levels, err)
	}
	if c, err := ParseConfig([]byte(`{}`)); err != nil || c.Levels != tanks.DefaultLevelRules() {
		t.Fatalf("no mapFallTime: %+v %v", c.Levels, err)
	}
	for _, bad := range []string{`{"models":[]}`, `{"weapons":{"w1":{"fireRate":-1}}}`, `{"models":{"m1":{"size":0}}}`,
		`{"models":{"m1":{"size":1e400}}}`, `{"weapons":{"a":{},"a":{}}}`, `{"mapFallTime":-0.1}`, `{"mapFallTime":"slow"}`, `{"mapFallTime":61}`} {
		if _, err := ParseConfig([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"timeStep":8.333333333333334,"playerKeys":{"fire":{"key":128,"type":1}},"models":{"m1":{"currentWeapon":"w1","size":2,"damping":{"linear":3}}},"weapons":{"w1":{"type":"hitscan","fireRate":0.01},"w2":{"type":"explosive","time":300}}}`))
	f.Add([]byte(`{"models":{"m1":{"fixture":{"density":-1}}}}`))
	f.Add([]byte(`{"weapons":null}`))
	f.Add([]byte(`{"mapFallTime":0.5}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := ParseConfig(b)
		if err != nil {
			return
		}
		if len(cfg.Models) > maxModels || len(cfg.Weapons) > maxWeapons {
			t.Fatalf("tables too long: %d %d", len(cfg.Models), len(cfg.Weapons))
		}
		if _, err := json.Marshal(cfg.Weapons); err != nil {
			t.Fatal(err)
		}
	})
}

// The local tracer stops at the first crate or tank on its way (their
// newest authoritative poses), and reports a hit.
func TestTracerRay(t *testing.T) {
	g, s := hostSchemaGame(t)
	if g.crates.key == nil || len(g.crates.crates) == 0 {
		t.Fatal("no crates from MAP_DATA")
	}
	// Tank 5 (size 2: half length 4) at x = 150 on the own tank's line of
	// fire; crate 0 moved to x = 130 (corner; 28.8 wide: centre 144.4).
	m1 := clientcore.Block{Schema: s.Key("m1"), Rows: []clientcore.Row{{ID: 5, Fields: m1Row(t, s, 150, 100, 3, 2)}}}
	w1 := s.Key("w1")
	fire := func(seq uint32, now float64) (endX, hit float32) {
		g.ApplyInput(seq, true, "fire", now)
		sp := g.TakeSpawns()
		if len(sp) != 1 {
			t.Fatalf("no tracer")
		}
		row := sp[0].Blocks[0].Rows[0].Fields
		return rowtest.Get(t, w1, row, "endX"), rowtest.Get(t, w1, row, "wasHit")
	}
	g.crates.crates = g.crates.crates[:1]
	g.BeginReconcile(&clientcore.Frame{HasPlayer: true, Player: clientcore.PlayerBlock{GameID: 3}, Blocks: []clientcore.Block{m1}})
	g.crates.crates[0].sim.X = 1e6 // out of the way
	end, hit := fire(1, 1000)
	if end < 145.9 || end > 146.1 || hit != 1 {
		t.Fatalf("tracer against the tank ends at %v hit %v", end, hit)
	}
	half := float64(g.crates.crates[0].sim.HalfW)
	c1 := clientcore.Block{Schema: g.crates.key, Rows: []clientcore.Row{{ID: 0, Fields: rowtest.Row(t, g.crates.key, map[string]float64{"x": 130, "y": 100 - half})}}}
	g.BeginReconcile(&clientcore.Frame{HasPlayer: true, Player: clientcore.PlayerBlock{GameID: 3}, Blocks: []clientcore.Block{c1}})
	end, _ = fire(2, 1100)
	if end < 129.9 || end > 130.1 {
		t.Fatalf("tracer against the crate ends at %v", end)
	}
}

// Level 1 of the divergence detector: the predicted 8-float state against
// the block, angle wrapped.
func TestTanksDivergence(t *testing.T) {
	g, _ := hostSchemaGame(t)
	c, err := predict.ParseDivergence([]byte(`{"thresholds":[0.5,0.5,0.05],"angles":[2,6]}`))
	if err != nil {
		t.Fatal(err)
	}
	g.EnableDivergence(c)
	g.OnServerState(&clientcore.PlayerBlock{GameID: 3, LastInputSeq: 4, State: [8]float32{100.2, 100, 0}}, 1100, 0, 1100)
	g.OnServerState(&clientcore.PlayerBlock{GameID: 3, LastInputSeq: 5, State: [8]float32{101, 100, 0}}, 1200, 0, 1200)
	rep := g.TakeDivergence()
	if rep.Samples != 2 || rep.Violations != 1 || rep.Records[0].Source != "state" || rep.Records[0].InputSeq != 5 ||
		len(rep.Records[0].Predicted) != 8 || rep.Records[0].Exceeded[0] != 0 || rep.Records[0].Replayed == nil {
		t.Fatalf("%+v", rep)
	}
}

func TestFromConfig(t *testing.T) {
	e := newEmbedded(t, nil)
	g, err := FromConfig(e.schema, e.pred)
	if err != nil || g.key == nil || g.key.Name != "m1" {
		t.Fatalf("tanks config: %v", err)
	}
	s, err := clientcore.ParseSchema([]byte(`{"version":5,"port":5,"keys":{"m1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"x","ty":"f32","interp":"lerp"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromConfig(s, e.pred); err == nil {
		t.Fatal("a one-field m1 taken for a tank")
	}
	g, _ = hostSchemaGame(t)
	g.SyncPanel("wa", "w2", true)
	g.SyncPanel("w2", "0", true)
	if g.shots.current != 1 || !g.shots.ammoKnown[1] || g.shots.ammo[1] != 0 {
		t.Fatalf("panel cells: %+v", g.shots)
	}
}
