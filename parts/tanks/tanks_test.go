package tanks

import (
	"encoding/json"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/snapschema"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

// partsConfig is tanks' CONFIG_DATA parts section.
const partsConfig = `{"gameSets":{"c1":["Map","MapRadar"],"c2":["Map"],"m1":["Tank","TankRadar","Smoke","Tracks"],
 "w1":["ShotEffect"],"w2":["Bomb"],"w2e":["ExplosionEffect"]},
 "entitiesOnCanvas":{"Map":"vimp","MapRadar":"radar","TankRadar":"radar","Tank":"vimp","ShotEffect":"vimp",
 "Bomb":"vimp","ExplosionEffect":"vimp","Smoke":"vimp","Tracks":"vimp"}}`

func loadSchema(t testing.TB) *clientcore.Schema {
	b, err := os.ReadFile(partstest.Shared(t, "conformance/schemas/tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type fixture struct {
	scene *parts.Scene
	tex   *partstest.Textures
	game  *parts.Game
	snd   *partstest.Sounds
}

// baked is computed once per test binary: baking is deterministic for a
// given seed and slow under the race detector.
var baked = sync.OnceValue(func() map[string]*image.RGBA { return Bake(partstest.Seq(7)) })

func newFixture(t testing.TB, schema *clientcore.Schema) *fixture {
	rnd := partstest.Seq(7)
	g := Game(rnd)
	tex := partstest.NewTextures(baked())
	pc, err := parts.ParsePartsConfig(json.RawMessage(partsConfig))
	if err != nil {
		t.Fatal(err)
	}
	snd := &partstest.Sounds{}
	sc, err := parts.NewScene(parts.SceneOptions{Game: g, Generic: generic.Factory{}, Tex: tex, Sound: snd,
		Rand: rnd, Canvases: []string{"vimp", "radar"}}, schema, pc)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{scene: sc, tex: tex, game: g, snd: snd}
}

// tankRow is an m1 row of a size-2 tank, by field name.
func tankRow(t testing.TB, s *clientcore.Schema, x, y, angle, gun float64, cond, team int) []float32 {
	t.Helper()
	return rowtest.Row(t, s.Key("m1"), map[string]float64{"x": x, "y": y, "angle": angle, "gunRotation": gun,
		"condition": float64(cond), "size": 2, "team": float64(team)})
}

// tracerRow is a w1 row, by field name.
func tracerRow(t testing.TB, s *clientcore.Schema, sx, sy, ex, ey, bx, by, hit, shooter float64) []float32 {
	t.Helper()
	return rowtest.Row(t, s.Key("w1"), map[string]float64{"startX": sx, "startY": sy, "endX": ex, "endY": ey,
		"bodyX": bx, "bodyY": by, "wasHit": hit, "shooterId": shooter})
}

// bombRow is a w2 row of a size-8 bomb with a 300 ms fuse, by field name.
func bombRow(t testing.TB, s *clientcore.Schema, x, y, owner float64) []float32 {
	t.Helper()
	return rowtest.Row(t, s.Key("w2"), map[string]float64{"x": x, "y": y, "size": 8, "time": 300, "ownerId": owner})
}

// blastRow is a w2e row, by field name.
func blastRow(t testing.TB, s *clientcore.Schema, x, y, radius float64) []float32 {
	t.Helper()
	return rowtest.Row(t, s.Key("w2e"), map[string]float64{"x": x, "y": y, "radius": radius})
}

func frame(blocks ...clientcore.Block) *clientcore.EventFrame {
	return &clientcore.EventFrame{Blocks: blocks}
}

func block(s *clientcore.Schema, key string, rows ...clientcore.Row) clientcore.Block {
	return clientcore.Block{Schema: s.Key(key), Rows: rows}
}

func TestSchemaBindsEveryPart(t *testing.T) {
	f := newFixture(t, loadSchema(t))
	if len(f.scene.Fallbacks) != 0 {
		t.Fatalf("tanks schema fell back: %v", f.scene.Fallbacks)
	}
	if !f.game.Recognise(map[string]string{"Map": "vimp", "MapRadar": "radar", "TankRadar": "radar", "Tank": "vimp",
		"ShotEffect": "vimp", "Bomb": "vimp", "ExplosionEffect": "vimp", "Smoke": "vimp", "Tracks": "vimp"}) {
		t.Fatal("fingerprint not recognised")
	}
	if f.game.Recognise(map[string]string{"Arena": "vimp", "Snake": "vimp", "Crystal": "vimp"}) {
		t.Fatal("snakes recognised as tanks")
	}
}

// A part that reads a field the schema lacks falls back to the generic
// renderer with a clear reason; a field no part knows (a newer host's) is
// read past, and the part draws as before.
func TestSchemaMismatchFallsBack(t *testing.T) {
	s := loadSchema(t)
	m1 := s.Key("m1")
	m1.Fields = append(m1.Fields, snapschema.Field{Name: "shield", Type: snapschema.TypeU8}) // a newer game version
	w2 := s.Key("w2")
	w2.Fields = w2.Fields[:3] // lost size, time, ownerId
	f := newFixture(t, s)
	joined := strings.Join(f.scene.Fallbacks, "\n")
	for _, want := range []string{"w2/Bomb", `missing field "size"`, `missing field "author id (ownerId)"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("fallbacks lack %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "m1/") {
		t.Errorf("an added field took the tank down:\n%s", joined)
	}
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 3, Fields: rowtest.Row(t, m1, map[string]float64{"x": 1, "y": 2, "condition": 3, "size": 2, "team": 1, "shield": 9})}),
		block(s, "w2", clientcore.Row{ID: 4, Fields: rowtest.Row(t, w2, map[string]float64{"x": 5, "y": 6})})))
	counts, _ := f.scene.Counts()
	if counts["Tank"] != 1 || counts["Bomb"] != 0 || counts["generic"] != 1 {
		t.Fatalf("counts %v: want the tank drawn by Tank, the bomb by the generic renderer", counts)
	}
}

func TestCreateUpdateRemove(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	sc := f.scene
	sc.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 3, Fields: tankRow(t, s, 100, 50, 0.5, 0.2, 3, 1)},
		clientcore.Row{ID: 9, Null: true})))
	counts, _ := sc.Counts()
	for _, p := range []string{"Tank", "TankRadar", "Smoke", "Tracks"} {
		if counts[p] != 1 {
			t.Fatalf("%s count %d after creation: %v", p, counts[p], counts)
		}
	}
	if sc.Stage("vimp").Len() != 3 || sc.Stage("radar").Len() != 1 {
		t.Fatalf("stage sizes vimp %d radar %d", sc.Stage("vimp").Len(), sc.Stage("radar").Len())
	}
	// A hot record updates (and would create) the tank.
	hot := &clientcore.Hot{Flags: clientcore.HotGame, Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 3,
		Fields: tankRow(t, s, 110, 60, 0.5, 0.2, 3, 1)}}}
	sc.ApplyHot(hot)
	var g partstest.Gfx
	g.Rect = parts.Rect{X: 0, Y: 0, W: 400, H: 300}
	sc.Stage("vimp").Draw(&g)
	// Tracks (z1) first, then the hull and gun of the tank (z3), then smoke (z4, none yet).
	if len(g.Ops) != 2 || f.tex.Name(g.Ops[0].Tex) != "tank.body.1" || f.tex.Name(g.Ops[1].Tex) != "tank.gun.1" {
		t.Fatalf("tank draw ops: %+v", g.Ops)
	}
	if math.Abs(g.Ops[0].X-110) > 1e-9 || math.Abs(g.Ops[0].Y-60) > 1e-9 {
		t.Fatalf("hull centre at %v,%v want 110,60", g.Ops[0].X, g.Ops[0].Y)
	}
	// The hull is 8×6 u: the texture's x axis is scaled by size/10 = 0.2 and rotated by angle.
	if sx := math.Hypot(g.Ops[0].M.A, g.Ops[0].M.B); math.Abs(sx-0.2) > 1e-9 || math.Abs(math.Atan2(g.Ops[0].M.B, g.Ops[0].M.A)-0.5) > 1e-6 {
		t.Fatalf("hull transform %+v", g.Ops[0].M)
	}
	if a := math.Atan2(g.Ops[1].M.B, g.Ops[1].M.A); math.Abs(a-0.7) > 1e-6 {
		t.Fatalf("gun angle %v want hull+gun 0.7", a)
	}
	// Team 2 and destroyed re-texture on the next row (after the scorch
	// its death in view leaves under it).
	sc.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 3, Fields: tankRow(t, s, 110, 60, 0.5, 0.2, 0, 2)})))
	g.Ops = g.Ops[:0]
	sc.Stage("vimp").Draw(&g)
	if len(g.Ops) < 2 || !strings.HasPrefix(f.tex.Name(g.Ops[0].Tex), "scorch.") || f.tex.Name(g.Ops[1].Tex) != "tank.destroyed" {
		t.Fatalf("wreck not drawn over its scorch: %+v", g.Ops[:min(len(g.Ops), 3)])
	}
	// The condition change burst smoke.
	sc.Step(16)
	g.Ops = g.Ops[:0]
	sc.Stage("vimp").Draw(&g)
	smoke := 0
	for _, op := range g.Ops {
		if f.tex.Name(op.Tex) == "smoke" {
			smoke++
		}
	}
	if smoke < 3 {
		t.Fatalf("wreck burst smoke particles %d want >= 3", smoke)
	}
	// A null row removes every part of the tank.
	sc.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 3, Null: true})))
	counts, _ = sc.Counts()
	if len(counts) != 0 || sc.Stage("vimp").Len() != 0 || sc.Stage("radar").Len() != 0 {
		t.Fatalf("after removal: %v vimp %d radar %d", counts, sc.Stage("vimp").Len(), sc.Stage("radar").Len())
	}
}

func TestEffectsEndByThemselves(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	sc := f.scene
	sc.ApplyFrame(frame(
		block(s, "w1", clientcore.Row{ID: 0, Fields: tracerRow(t, s, 0, 0, 300, 0, 0, 0, 1, 3)},
			clientcore.Row{ID: 1, Fields: tracerRow(t, s, 0, 0, 10, 10, 0, 0, 0, 3)}),
		block(s, "w2", clientcore.Row{ID: 1000, Fields: bombRow(t, s, 5, 5, 3)}),
		block(s, "w2e", clientcore.Row{ID: 0, Fields: blastRow(t, s, 5, 5, 50)}),
	))
	counts, effects := sc.Counts()
	if effects != 3 || counts["Bomb"] != 1 {
		t.Fatalf("effects %d counts %v", effects, counts)
	}
	sc.Step(16)
	var g partstest.Gfx
	g.Rect = parts.Rect{X: -100, Y: -100, W: 500, H: 300}
	sc.Stage("vimp").Draw(&g)
	labels := 0
	for _, op := range g.Ops {
		if op.Kind == "label" && op.Label == "0" {
			labels++
		}
	}
	if labels != 1 {
		t.Fatalf("bomb countdown label missing: %+v", g.Ops)
	}
	// The bomb detonates (null row); effects run out after the 20 s crater.
	sc.ApplyFrame(frame(block(s, "w2", clientcore.Row{ID: 1000, Null: true})))
	_, effects = sc.Counts()
	sawDebris := false
	for range 100 {
		sc.Step(100)
		g.Ops = g.Ops[:0]
		sc.Stage("vimp").Draw(&g)
		for _, op := range g.Ops {
			if f.tex.Name(op.Tex) == "impact" {
				sawDebris = true
			}
		}
	}
	if !sawDebris {
		t.Fatal("hit tracer left no debris")
	}
	for range 160 {
		sc.Step(100)
	}
	// What stays on the stage is the ground's decal layer the crater was
	// painted on.
	if _, effects = sc.Counts(); effects != 0 || sc.Stage("vimp").Len() != 1 {
		t.Fatalf("effects left after 26 s: %d, stage %d", effects, sc.Stage("vimp").Len())
	}
}

// A blast on the ground paints its crater once onto the ground's held
// decal layer, which shows it whole for 16 s and fades it out over 4; the
// part draws only its flash and smoke, and ends once they are gone.
func TestCraterGoesOnTheGroundsDecalLayer(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	sc := f.scene
	sc.ApplyFrame(frame(block(s, "w2e", clientcore.Row{ID: 0, Fields: blastRow(t, s, 5, 5, 50)})))
	sc.Step(16)
	var g partstest.Gfx
	g.Rect = parts.Rect{X: -100, Y: -100, W: 500, H: 300}
	sc.Stage("vimp").Draw(&g)
	var layers []partstest.Op
	for _, op := range g.Ops {
		if op.Kind == "decals" {
			layers = append(layers, op)
		}
		if op.Kind == "image" && strings.HasPrefix(f.tex.Name(op.Tex), "funnel.") {
			t.Errorf("crater drawn as a sprite: %+v", op)
		}
	}
	if len(layers) != 1 || len(layers[0].Decals) != 1 {
		t.Fatalf("decal layers drawn %+v, want one with the crater", layers)
	}
	l, d := layers[0].Layer, layers[0].Decals[0]
	if l != sc.Stage("vimp").HeldDecals(drawZ(2, parts.Height{}), 0, craterMs-craterFadeMs, craterFadeMs) || l.H != 0 {
		t.Errorf("crater on layer %+v, not the ground's held layer at the crater's order", l)
	}
	if cx, cy := d.M.Apply(funnelSide/2, funnelSide/2); math.Abs(cx-5) > 1e-6 || math.Abs(cy-5) > 1e-6 ||
		!strings.HasPrefix(f.tex.Name(d.Tex), "funnel.") || math.Abs(float64(d.C.A)-craterAlpha) > 1e-6 {
		t.Errorf("crater centred at (%v, %v), %s, alpha %v", cx, cy, f.tex.Name(d.Tex), d.C.A)
	}
	if l.Scale(15900) != 1 || math.Abs(l.Scale(18000)-0.5) > 1e-9 || l.Scale(20000) != 0 {
		t.Errorf("crater shows %v at 15.9 s, %v at 18 s, %v at 20 s", l.Scale(15900), l.Scale(18000), l.Scale(20000))
	}
	for range 70 {
		sc.Step(100)
	}
	if _, effects := sc.Counts(); effects != 0 {
		t.Errorf("%d effects 7 s after the blast: its smoke is long gone", effects)
	}
}

const testMap = `{"setId":"c1","scale":0.6,"step":32,"map":[[1,1,1,1],[1,0,3,1],[1,2,0,1],[1,1,1,1]],
 "layers":{"1":[0,2,4],"2":[1],"4":[3]},"spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32],[96,0,32,32],[128,0,32,32]]},
 "physicsStatic":[1],"physicsDynamic":[{"position":[40,40],"angle":0,"width":32,"height":32,"img":"b1.png","layer":3}]}`

func TestMapLayersCratesRadarAndClear(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	sc := f.scene
	m, err := gamemap.Parse([]byte(testMap))
	if err != nil {
		t.Fatal(err)
	}
	f.tex.Loaded["tiles.png"] = [2]int{544, 288}
	sc.SetMap(m)
	if sc.Stage("vimp").Len() != 4 || sc.Stage("radar").Len() != 1 { // 3 layers + 1 crate; radar walls
		t.Fatalf("map stages vimp %d radar %d", sc.Stage("vimp").Len(), sc.Stage("radar").Len())
	}
	var g partstest.Gfx
	g.Rect = parts.Rect{W: 1000, H: 1000}
	sc.Stage("vimp").Draw(&g)
	// Three static layers in z order, the crate (z3) between them with no
	// image: its fallback quad. Of the 16 cells, layer 1 draws the 3 floor
	// tiles, layer 2 the 12 walls, layer 4 the roof, each with its frame.
	var kinds []string
	for _, op := range g.Ops {
		kinds = append(kinds, op.Kind)
	}
	if strings.Join(kinds, " ") != "static static quad static" {
		t.Fatalf("map ops %v", kinds)
	}
	for i, want := range map[int]struct {
		n      int
		frameX float64
	}{0: {3, 0}, 1: {12, 32}, 3: {1, 96}} {
		cells := partstest.Cells(g.Ops[i].Static, true)
		if len(cells) != want.n || cells[0].Src.X != want.frameX || cells[0].Src.W != 32 {
			t.Fatalf("layer op %d: %d cells, first %+v", i, len(cells), cells)
		}
	}
	// A c1 row moves the crate (world units, origin at the top-left corner).
	sc.ApplyFrame(frame(block(s, "c1", clientcore.Row{ID: 0, Fields: rowtest.Row(t, s.Key("c1"), map[string]float64{"x": 50, "y": 60})})))
	g.Ops = g.Ops[:0]
	sc.Stage("vimp").Draw(&g)
	if q := g.Ops[2]; q.M.TX != 50 || q.M.TY != 60 {
		t.Fatalf("crate at %v,%v", q.M.TX, q.M.TY)
	}
	// Round-start CLEAR keeps the map.
	sc.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 1, Fields: tankRow(t, s, 1, 1, 0, 0, 3, 1)})))
	sc.Clear([]string{"m1", "w1", "w2", "w2e"}, false)
	if sc.Stage("vimp").Len() != 4 || sc.Stage("radar").Len() != 1 {
		t.Fatalf("partial clear touched the map: %d", sc.Stage("vimp").Len())
	}
	sc.Clear(nil, true)
	if sc.Stage("vimp").Len() != 0 || sc.Stage("radar").Len() != 0 {
		t.Fatal("full clear left parts")
	}
	// Without the sprite sheet the layers draw procedural tiles.
	f.tex.Loaded = map[string][2]int{}
	f2 := newFixture(t, s)
	f2.scene.SetMap(m)
	g.Ops = g.Ops[:0]
	f2.scene.Stage("vimp").Draw(&g)
	for _, op := range g.Ops {
		if op.Kind != "static" {
			continue
		}
		for _, c := range partstest.Cells(op.Static, false) {
			if c.Src.W != 0 || c.Fill.A != 1 {
				t.Fatalf("missing sheet drew %+v", c)
			}
		}
	}
}

// Every frame of the engine's own conformance vectors (random and extreme
// values, NaN and infinities included), decoded by the client core, goes
// through the parts without a panic, and every effect ends.
func TestConformanceFramesThroughParts(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	dir := partstest.Shared(t, "conformance/frames/tanks")
	names, err := filepath.Glob(filepath.Join(dir, "*.bin"))
	if err != nil || len(names) < 100 {
		t.Fatalf("frames: %d, %v", len(names), err)
	}
	dec := clientcore.NewDecoder(s)
	var fr clientcore.Frame
	var g partstest.Gfx
	g.Rect = parts.Rect{X: -1e4, Y: -1e4, W: 2e4, H: 2e4}
	applied := 0
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := dec.Decode(b, &fr); err != nil {
			continue
		}
		f.scene.ApplyFrame(&clientcore.EventFrame{Blocks: fr.Blocks, HasCamera: fr.HasCamera, Camera: fr.Camera})
		f.scene.Step(16)
		g.Ops = g.Ops[:0]
		f.scene.Stage("vimp").Draw(&g)
		f.scene.Stage("radar").Draw(&g)
		applied++
	}
	if applied < 100 {
		t.Fatalf("only %d frames decoded", applied)
	}
	for range 300 {
		f.scene.Step(100)
	}
	if _, effects := f.scene.Counts(); effects != 0 {
		t.Fatalf("%d effects never ended", effects)
	}
}

func TestBakedTextures(t *testing.T) {
	tex := Bake(partstest.Seq(1))
	// The turret centre (drawing origin) is the team colour; the hull rim is grey.
	gun := tex["tank.gun.1"]
	if c := gun.RGBAAt(gunOX, gunOY); c.R != 0x55 || c.G != 0x22 || c.B != 0x22 || c.A != 255 {
		t.Fatalf("gun origin colour %v", c)
	}
	if c := tex["tank.gun.2"].RGBAAt(gunOX+15, gunOY); c.R != 0x22 || c.G != 0x55 {
		t.Fatalf("team 2 barrel colour %v", c)
	}
	body := tex["tank.body.1"]
	if c := body.RGBAAt(0, 0); c.R != 0x55 || c.A != 255 {
		t.Fatalf("hull corner %v", c)
	}
	if c := body.RGBAAt(20, 15); c.R != 0xee {
		t.Fatalf("hull centre %v", c)
	}
	if b := tex["bomb"]; b.RGBAAt(0, 0).R != 255 || b.RGBAAt(10, 10).R != 0x0f {
		t.Fatal("bomb texture")
	}
	if e := tex["explosion"]; e.Bounds().Dx() != 116 || e.RGBAAt(58, 58).A != 255 || e.RGBAAt(0, 0).A != 0 {
		t.Fatalf("explosion texture %v centre %v", e.Bounds(), e.RGBAAt(58, 58))
	}
	if s := tex["smoke"]; s.Bounds().Dx() != 14 {
		t.Fatalf("smoke side %d", s.Bounds().Dx())
	}
	if d := tex["radar.2"]; d.RGBAAt(8, 8).G != 0x55 || d.RGBAAt(8, 3).R != 0xee {
		t.Fatalf("radar dot %v %v", d.RGBAAt(8, 8), d.RGBAAt(8, 3))
	}
}

func BenchmarkBake(b *testing.B) {
	for b.Loop() {
		Bake(partstest.Seq(1))
	}
}

func TestSounds(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	sc, snd := f.scene, f.snd
	row := tankRow(t, s, 10, 20, 0, 0, 3, 1)
	sc.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 3, Fields: row})))
	if len(snd.Calls) != 1 || snd.Calls[0].Name != "tankEngine" || snd.Calls[0].D.Rate != 1 || snd.Calls[0].D.VolumeScale != 0.9 || snd.Calls[0].D.X != 10 {
		t.Fatalf("engine registration %+v", snd.Calls)
	}
	rowtest.Set(t, s.Key("m1"), row, "engineLoad", 2) // full strain: rate 1.1 + 0.08, volume 0.5·1.0 (scale 1)
	sc.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 3, Fields: row})))
	if c := snd.Calls[len(snd.Calls)-1]; c.Op != "update" || math.Abs(c.D.Rate-1.18) > 1e-9 || c.D.VolumeScale != 1 {
		t.Fatalf("engine update %+v", c)
	}
	row[7] = 0 // wreck: the engine stops, the tank explodes
	sc.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 3, Fields: row})))
	if c := snd.Calls[len(snd.Calls)-1]; c.Op != "unregister" || c.ID != snd.Calls[0].ID {
		t.Fatalf("wreck kept its engine: %+v", snd.Calls)
	}
	if c := snd.Calls[len(snd.Calls)-2]; c.Op != "register" || c.Name != "tankExplosion" || c.D.X != 10 || c.D.Y != 20 {
		t.Fatalf("no explosion where the tank died: %+v", snd.Calls)
	}
	snd.Calls = nil
	sc.ApplyFrame(frame(
		block(s, "w1", clientcore.Row{Fields: tracerRow(t, s, 0, 0, 10, 0, 7, 8, 0, 3)}),
		block(s, "w2", clientcore.Row{ID: 5, Fields: bombRow(t, s, 1, 2, 3)}),
		block(s, "w2e", clientcore.Row{Fields: blastRow(t, s, 4, 5, 50)}),
	))
	names := map[string]parts.SoundData{}
	for _, c := range snd.Calls {
		names[c.Name] = c.D
	}
	if d, ok := names["shot"]; !ok || d.X != 7 || d.Y != 8 {
		t.Errorf("shot sound at the shooter's body: %+v", snd.Calls)
	}
	if _, ok := names["bombHasBeenPlanted"]; !ok {
		t.Errorf("no planted sound: %+v", snd.Calls)
	}
	if d, ok := names["explosion"]; !ok || d.X != 4 {
		t.Errorf("no explosion sound: %+v", snd.Calls)
	}
	sc.ApplyFrame(frame(block(s, "w2", clientcore.Row{ID: 5, Null: true})))
	if c := snd.Calls[len(snd.Calls)-1]; c.Op != "release" {
		t.Errorf("detonation did not release the planted sound: %+v", c)
	}
}

// The colour-blind-safe palette bakes the team textures in dark orange and
// dark blue; the standard one is the game's own.
func TestBakeTeamsPalettes(t *testing.T) {
	safe := BakeTeams(PaletteColorBlind)
	if len(safe) != 4 {
		t.Fatalf("%d textures", len(safe))
	}
	if c := safe["tank.gun.1"].RGBAAt(gunOX, gunOY); c.R != 0x8a || c.G != 0x4f || c.B != 0x00 {
		t.Fatalf("team 1 gun %v", c)
	}
	if c := safe["radar.2"].RGBAAt(8, 8); c.R != 0x1f || c.G != 0x4f || c.B != 0x8a {
		t.Fatalf("team 2 radar dot %v", c)
	}
	if c := BakeTeams("standard")["tank.gun.2"].RGBAAt(gunOX, gunOY); c.R != 0x22 || c.G != 0x55 {
		t.Fatalf("standard team 2 gun %v", c)
	}
}
