package gamemap

import (
	"errors"
	"math"
	"strings"
	"testing"

	"vimpclient/testkit/capturetest"
)

const poolMini = `{"setId":"c1","scale":0.6,"step":32,
 "map":[[0,1,2],[3,4,1]],
 "layers":{"1":[0,2,4],"2":[1],"4":[3]},
 "spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32],[96,0,32,32],[128,0,32,32]]},
 "physicsStatic":[1],
 "physicsDynamic":[{"position":[10,20],"angle":90,"width":96,"height":96,"density":20,"img":"b1.png","layer":3,"linearDamping":8,"angularDamping":16},
                   {"position":[0,0],"angle":0,"width":32,"height":32,"img":"b1.png"}],
 "respawns":{"team1":[[1,2,0]],"team2":[[3,4,180]]},"extra":true}`

func TestParsePoolMiniShape(t *testing.T) {
	m, err := Parse([]byte(poolMini))
	if err != nil {
		t.Fatal(err)
	}
	if m.SetID != "c1" || m.Scale != 0.6 || m.Step != 32 || m.Sheet != "tiles.png" || len(m.Frames) != 5 {
		t.Fatalf("header: %+v", m)
	}
	g := m.Levels[0]
	if g.Cols != 3 || g.Rows != 2 || g.Tile(1, 0) != 1 || g.Tile(0, 1) != 3 {
		t.Fatalf("grid: %+v", g)
	}
	if len(g.Layers) != 3 || g.Layers[0].Key != "1" || g.Layers[1].Z != 2 || g.Layers[2].Z != 4 {
		t.Fatalf("layers: %+v", g.Layers)
	}
	if !Contains(g.Solid, 1) || Contains(g.Solid, 0) {
		t.Fatalf("solid: %v", g.Solid)
	}
	d := m.Dynamic
	if len(d) != 2 || d[0].Layer != 3 || d[1].Layer != DefaultBodyLayer || d[0].AngleDeg != 90 || d[0].Density != 20 ||
		d[0].LinearDamping != 8 || d[0].AngularDamping != 16 || d[1].LinearDamping != 0 || d[1].AngularDamping != DefaultAngularDamping {
		t.Fatalf("dynamic: %+v", d)
	}
	if w, h := m.WorldSize(); math.Abs(w-57.6) > 1e-9 || math.Abs(h-38.4) > 1e-9 {
		t.Fatalf("world size %v x %v", w, h)
	}
	if len(m.Respawns) != 2 || m.Respawns[0].Name != "team1" || m.Respawns[1].Name != "team2" ||
		m.Spawns("team2")[0] != (Spawn{X: 3, Y: 4, AngleDeg: 180}) || m.Spawns("nobody") != nil {
		t.Fatalf("respawns: %+v", m.Respawns)
	}
	if m.Layered() || m.MapLevels().Layered() || m.LevelHeight != m.CellWorld() {
		t.Fatalf("a map without levels is flat: levels %d, level height %v", len(m.Levels), m.LevelHeight)
	}
	if m.Game != nil {
		t.Fatalf("game data %s", m.Game)
	}
}

func TestParseLayered(t *testing.T) {
	m := mustParse(t, bridgeMap(t))
	if m.Scale != 1 || len(m.Levels) != 2 || !m.Layered() {
		t.Fatalf("levels: %+v", m.Levels)
	}
	l1 := m.Levels[1]
	if l1.Index != 1 || l1.Cols != 10 || l1.Rows != 7 || l1.Tile(4, 2) != tSlab ||
		!Contains(l1.Solid, tRailing) || !Contains(l1.Floor, tSlab) || len(m.Levels[0].Floor) != 0 {
		t.Fatalf("level 1: %+v", l1)
	}
	if len(l1.Layers) != 2 || l1.Layers[1].Key != "4" || l1.Layers[1].Volume != 0.35 || l1.Layers[0].Volume != 0 ||
		m.Levels[0].Layers[1].Volume != 1 {
		t.Fatalf("layers and volumes: %+v / %+v", m.Levels[0].Layers, l1.Layers)
	}
	if len(m.Ramps) != 1 || m.Ramps[0] != (Ramp{Tile: tRampEast, Dir: East, From: 0, To: 1}) {
		t.Fatalf("ramps: %+v (from/to default to 0/1)", m.Ramps)
	}
	if m.Dynamic[0].Level != 0 || m.Dynamic[1].Level != 1 || string(m.Dynamic[1].Game) != `{"prop":"crate"}` {
		t.Fatalf("bodies: %+v", m.Dynamic)
	}
	if string(m.Game) != `{"surfaces":{"0":{"2":"oil"}}}` {
		t.Fatalf("game data %s, want it as declared", m.Game)
	}
	sp := m.Spawns("team1")
	want := []struct {
		level    int
		declared bool
	}{{0, false}, {1, true}, {0, true}, {1, false}}
	for i, w := range want {
		if sp[i].HasLevel != w.declared || m.SpawnLevel(sp[i]) != w.level {
			t.Errorf("spawn %d %+v: level %d, want %d (declared %v)", i, sp[i], m.SpawnLevel(sp[i]), w.level, w.declared)
		}
	}
}

func TestLevelHeight(t *testing.T) {
	f := bridgeMap(t)
	f["levelHeight"] = 4
	m := mustParse(t, f)
	if m.LevelHeight != 4 || m.MapLevels().LevelHeight() != 4 {
		t.Fatalf("level height %v", m.LevelHeight)
	}
}

func TestSnakesArena(t *testing.T) {
	m, err := Parse([]byte(`{"setId":"c1","scale":1,"step":128,"physicsStatic":[],"physicsDynamic":[],"layers":{"1":[1]},"map":[[1,1],[1,1]],
		"respawns":{"players":[[1280,1280,90]]}}`))
	if err != nil || m.Sheet != "" || m.Levels[0].Cols != 2 || len(m.MapLevels().StaticBlocks(0)) != 0 {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestRepeatedLayerKeyKeepsItsPlace(t *testing.T) {
	m, err := Parse([]byte(`{"step":32,"map":[[0]],"layers":{"1":[0],"2":[1],"1":[5]}}`))
	if err != nil {
		t.Fatal(err)
	}
	ls := m.Levels[0].Layers
	if len(ls) != 2 || ls[0].Key != "1" || ls[0].Tiles[0] != 5 || ls[1].Key != "2" {
		t.Fatalf("layers %+v", ls)
	}
}

func TestRejects(t *testing.T) {
	for _, in := range []string{
		``, `[]`, `{"step":0,"map":[]}`, `{"step":32,"scale":-1}`, `{"map":[[0]]}`,
		`{"step":32,"layers":[1]}`,
		`{"step":32,"map":[[0,1],[0]]}`,
		`{"step":32,"map":[[0.5]]}`,
		`{"step":32,"map":[[3000000000]]}`,
		`{"step":32,"map":[["a"]]}`,
		`{"step":32,"spriteSheet":{"img":"../etc/passwd","frames":[]}}`,
		`{"step":32,"spriteSheet":{"img":"http://x/y.png","frames":[]}}`,
		`{"step":32,"spriteSheet":{"img":"a.png","frames":[[1,2,3]]}}`,
		`{"step":32,"physicsDynamic":[{"position":[1],"width":1,"height":1}]}`,
		`{"step":32,"physicsDynamic":[{"position":[1,2],"width":0,"height":1}]}`,
		`{"step":32,"physicsDynamic":[{"position":[1,2],"width":1,"height":1,"linearDamping":-1}]}`,
		`{"step":32,"physicsDynamic":[{"position":[1,2],"width":1,"height":1,"img":"/abs.png"}]}`,
		`{"step":32,"physicsDynamic":[{"width":1,"height":1}]}`,
		`{"step":32,"respawns":{"team1":[[1,2]]}}`,
		`{"step":32,"game":[1]}`,
		`{"step":32,"map":[[4]],"ramps":[{"tile":4,"dir":"up"}]}`,
		`{"step":32,"map":[[4]],"ramps":[{"dir":"east"}]}`,
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("accepted %s", in)
		}
	}
}

func TestErrorsNameTheirField(t *testing.T) {
	_, err := Parse([]byte(`{"step":32,"map":[[0,1],[0]]}`))
	if err == nil || !strings.Contains(err.Error(), "map") || !strings.Contains(err.Error(), "row 1") {
		t.Fatalf("ragged grid: %v", err)
	}
	_, err = Parse([]byte(`{"step":32,"scale":2000}`))
	var le *LimitError
	if !errors.As(err, &le) || le.Field != "scale" {
		t.Fatalf("scale: %v", err)
	}
}

// Every MAP_DATA the upstream engine sent in the recorded sessions parses.
func TestCapturedMapsParse(t *testing.T) {
	n := 0
	for _, name := range []string{"minigame-dedicated.jsonl", "minigame-two-clients.jsonl", "minigame-error-probes.jsonl"} {
		for _, l := range capturetest.Filter(capturetest.Load(t, name), "", "s2c", 3) {
			m, err := Parse(l.Payload)
			if err != nil {
				t.Fatalf("%s at %v ms: %v", name, l.Ms, err)
			}
			if m.SetID == "" || len(m.Levels) != 1 {
				t.Fatalf("%s: %+v", name, m)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no MAP_DATA in the captures")
	}
	t.Logf("%d captured maps", n)
}
