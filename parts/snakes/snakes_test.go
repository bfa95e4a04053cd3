package snakes

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

const partsConfig = `{"gameSets":{"s1":["Snake"],"cr":["Crystal"],"c1":["Arena"]},
 "entitiesOnCanvas":{"Arena":"vimp","Snake":"vimp","Crystal":"vimp"}}`

func setup(t *testing.T) (*parts.Scene, *clientcore.Schema) {
	sc, s, _ := setupSound(t)
	return sc, s
}

func setupSound(t *testing.T) (*parts.Scene, *clientcore.Schema, *partstest.Sounds) {
	b, err := os.ReadFile(partstest.Shared(t, "conformance/schemas/snakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	g := Game()
	pc, _ := parts.ParsePartsConfig(json.RawMessage(partsConfig))
	snd := &partstest.Sounds{}
	sc, err := parts.NewScene(parts.SceneOptions{Game: g, Generic: generic.Factory{}, Tex: partstest.NewTextures(g.Bake(func() float64 { return 0.5 })),
		Rand: partstest.Seq(3), Sound: snd, Canvases: []string{"vimp"}}, s, pc)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Fallbacks) != 0 {
		t.Fatalf("snakes schema fell back: %v", sc.Fallbacks)
	}
	sc.SetLocal(2, true)
	return sc, s, snd
}

func TestSnakeCues(t *testing.T) {
	sc, s, snd := setupSound(t)
	s1 := s.Key("s1")
	apply := func(id uint32, row []float32) {
		sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: s1, Rows: []clientcore.Row{{ID: id, Null: row == nil, Fields: row}}}}})
	}
	mine, other := snakeRow(t, s1, 100, 50, 0, 0), snakeRow(t, s1, 300, 50, 1, 0)
	apply(2, mine)
	apply(5, other)
	rowtest.Set(t, s1, other, "crystals", 9)
	apply(5, other) // a remote snake's pickup is silent
	rowtest.Set(t, s1, mine, "crystals", 5)
	apply(2, mine) // 4 -> 5: the local pickup
	if len(snd.Calls) != 1 || snd.Calls[0].Name != "pickup" || snd.Calls[0].D.X != 100 {
		t.Fatalf("pickup cue %+v", snd.Calls)
	}
	sc.Clear([]string{"s1"}, false) // a CLEAR is silent
	if len(snd.Calls) != 1 {
		t.Fatalf("clear played %+v", snd.Calls)
	}
	apply(5, nil) // a remote snake's death is silent
	if len(snd.Calls) != 1 {
		t.Fatalf("remote death played %+v", snd.Calls)
	}
	apply(2, mine)
	apply(2, nil) // the local snake dies
	if len(snd.Calls) != 2 {
		t.Fatalf("local death: %+v, want one more cue", snd.Calls)
	}
	if c := snd.Calls[1]; c.Name != "death" || c.D.X != 100 {
		t.Fatalf("death cue %+v", snd.Calls)
	}
	// Once the scene is told of no local player (a spectator), the same
	// snake's pickup and death are silent.
	sc.SetLocal(2, false)
	apply(2, mine)
	rowtest.Set(t, s1, mine, "crystals", 6)
	apply(2, mine)
	apply(2, nil)
	if len(snd.Calls) != 2 {
		t.Fatalf("spectator cues %+v", snd.Calls)
	}
}

// snakeRow is an s1 row by field name: a straight spine from (x0, y0)
// towards -x, radius 20, 4 crystals.
func snakeRow(t testing.TB, s1 *clientcore.KeySchema, x0, y0 float64, colour, boost int) []float32 {
	t.Helper()
	vals := map[string]float64{"angle": 0, "radius": 20, "crystals": 4, "color": float64(colour), "boost": float64(boost)}
	for i := range 16 {
		vals["p"+strconv.Itoa(i)+"x"] = x0 - float64(i)*10
		vals["p"+strconv.Itoa(i)+"y"] = y0
	}
	return rowtest.Row(t, s1, vals)
}

func TestSnakeCrystalArena(t *testing.T) {
	sc, s := setup(t)
	m, err := gamemap.Parse([]byte(`{"setId":"c1","scale":1,"step":128,"physicsStatic":[],"physicsDynamic":[],"layers":{"1":[1]},"map":[[1,1],[1,1]]}`))
	if err != nil {
		t.Fatal(err)
	}
	sc.SetMap(m)
	s1, cr := s.Key("s1"), s.Key("cr")
	sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{
		{Schema: s1, Rows: []clientcore.Row{{ID: 2, Fields: snakeRow(t, s1, 200, 100, 13, 1)}}},
		{Schema: cr, Rows: []clientcore.Row{{ID: 77, Fields: rowtest.Row(t, cr, map[string]float64{"x": 30, "y": 40, "tier": 2, "color": 7})}}},
	}})
	var g partstest.Gfx
	g.Rect = parts.Rect{W: 256, H: 256}
	sc.Stage("vimp").Draw(&g)
	// Arena: void quad, floor disc, 3 rings, edge ring; crystal image; snake: halo, body, inner, head, 2×(eye, pupil).
	kinds := ""
	for _, op := range g.Ops {
		kinds += op.Kind[:1]
	}
	if kinds != "qdrrrr"+"i"+"ppp"+"ddddd" {
		t.Fatalf("draw order %q", kinds)
	}
	arena := g.Ops[1]
	if arena.X != 128 || arena.Y != 128 || arena.R != 128 {
		t.Fatalf("arena disc %+v", arena)
	}
	if edge := g.Ops[5]; edge.R != 123 {
		t.Fatalf("edge band centre radius %v", edge.R)
	}
	gem := g.Ops[6]
	if c := parts.RGB(0x9ad0ff); gem.C != c { // colour 7 mod 6 = 1
		t.Fatalf("crystal tint %+v", gem.C)
	}
	if sx := math.Hypot(gem.M.A, gem.M.B); math.Abs(sx-20.0/32) > 1e-9 {
		t.Fatalf("crystal scale %v", sx)
	}
	if rot := math.Atan2(gem.M.B, gem.M.A); math.Abs(rot-70*math.Pi/180) > 1e-9 {
		t.Fatalf("crystal rotation %v", rot)
	}
	halo, body, inner := g.Ops[7], g.Ops[8], g.Ops[9]
	if halo.R != 52 || body.R != 40 || math.Abs(inner.R-24.8) > 1e-9 || body.C != parts.RGB(0xff9f1c) { // colour 13 mod 12 = 1
		t.Fatalf("snake strokes %+v %+v %+v", halo, body, inner)
	}
	if math.Abs(float64(inner.C.R)-math.Round(0xff*0.55)/255) > 1e-6 || inner.C.A != 0.45 {
		t.Fatalf("inner stroke colour %+v", inner.C)
	}
	if head := g.Ops[10]; head.X != 200 || head.Y != 100 || head.R != 20 {
		t.Fatalf("head %+v", head)
	}
	if eye := g.Ops[11]; math.Abs(eye.X-(200+0.42*20)) > 1e-9 || math.Abs(eye.Y-(100-10)) > 1e-9 {
		t.Fatalf("first eye %+v", eye)
	}
	// Null rows remove; the arena stays on a partial CLEAR.
	sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{
		{Schema: s1, Rows: []clientcore.Row{{ID: 2, Null: true}}},
	}})
	sc.Clear([]string{"s1", "cr"}, false)
	if sc.Stage("vimp").Len() != 1 {
		t.Fatalf("left %d entries, want the arena only", sc.Stage("vimp").Len())
	}
}

func TestCatmullRomEndpoints(t *testing.T) {
	var p [spinePoints]parts.Vec
	for i := range p {
		p[i] = parts.Vec{X: float64(i) * 3, Y: float64(i * i)}
	}
	var out [smoothLen]parts.Vec
	catmullRom(&p, &out)
	if out[0] != p[0] || out[smoothLen-1] != p[15] || out[4] != p[1] || out[8] != p[2] {
		t.Fatalf("curve misses its control points: %v %v %v", out[0], out[4], out[60])
	}
	// Straight evenly spaced x: the curve interpolates linearly in x.
	if math.Abs(out[6].X-4.5) > 1e-9 {
		t.Fatalf("midpoint x %v", out[6].X)
	}
}

func TestGemBaker(t *testing.T) {
	img := bakeGem()
	if c := img.RGBAAt(32, 32); c.A != 255 {
		t.Fatalf("inner hexagon %v", c)
	}
	if c := img.RGBAAt(32, 10); c.A < 200 || c.A > 225 { // outer hexagon at alpha 0.85
		t.Fatalf("outer hexagon %v", c)
	}
	if c := img.RGBAAt(1, 1); c.A != 0 {
		t.Fatalf("corner %v", c)
	}
}

// The snakes game bounds the camera's look-ahead at the engine's at cruise
// speed: factor 30 (the engine's default) × 260 units/s ÷ 60 updates a second.
func TestMaxLookAhead(t *testing.T) {
	if g := Game(); g.MaxLookAhead != 30*260.0/60 {
		t.Fatalf("look-ahead bound %v, want 130", g.MaxLookAhead)
	}
}

// The snakes view follows the head past the map's square edges.
func TestPastMapEdge(t *testing.T) {
	if !Game().PastMapEdge {
		t.Fatal("the snakes view is held inside the map")
	}
}

// With names on, the own snake is outlined and every snake whose player
// the scoreboard names carries the name above its head; with names off,
// neither is drawn.
func TestSnakeNamesAndOwnMark(t *testing.T) {
	for _, show := range []bool{true, false} {
		b, err := os.ReadFile(partstest.Shared(t, "conformance/schemas/snakes.json"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := clientcore.ParseSchema(b)
		if err != nil {
			t.Fatal(err)
		}
		g := Game()
		pc, _ := parts.ParsePartsConfig(json.RawMessage(partsConfig))
		people := &parts.People{Show: show}
		people.SetNames(map[uint32]string{2: "Ann", 5: "Bob"})
		sc, err := parts.NewScene(parts.SceneOptions{Game: g, Generic: generic.Factory{}, Tex: partstest.NewTextures(g.Bake(func() float64 { return 0.5 })),
			Canvases: []string{"vimp"}, People: people}, s, pc)
		if err != nil {
			t.Fatal(err)
		}
		sc.SetLocal(2, true)
		s1 := s.Key("s1")
		sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: s1, Rows: []clientcore.Row{
			{ID: 2, Fields: snakeRow(t, s1, 100, 300, 0, 0)}, {ID: 5, Fields: snakeRow(t, s1, 400, 300, 1, 0)}, {ID: 9, Fields: snakeRow(t, s1, 700, 300, 2, 0)}}}}})
		var gfx partstest.Gfx
		gfx.Rect = parts.Rect{W: 1000, H: 1000}
		sc.Stage("vimp").Draw(&gfx)
		labels := map[string]partstest.Op{}
		outlines := 0
		for _, op := range gfx.Ops {
			switch {
			case op.Kind == "label":
				labels[op.Label] = op
			case op.Kind == "polyline" && op.R == 2*(20+ownOutline):
				outlines++
				if op.X != 100 {
					t.Errorf("the outline is on the snake at x %v, not the own one", op.X)
				}
			}
		}
		if !show {
			if len(labels) != 0 || outlines != 0 {
				t.Fatalf("names off: labels %v, %d outlines", labels, outlines)
			}
			continue
		}
		if outlines != 1 || len(labels) != 2 {
			t.Fatalf("names on: labels %v, %d outlines; want Ann and Bob, one outline", labels, outlines)
		}
		if ann := labels["Ann"]; ann.X != 100 || ann.Y >= 300-20 || ann.C != ownNameColour {
			t.Fatalf("own label %+v: not above the own head in the own colour", ann)
		}
		if bob := labels["Bob"]; bob.X != 400 || bob.Y >= 300-20 || bob.C != nameColour {
			t.Fatalf("other label %+v", bob)
		}
	}
}

// The flags byte: a snake in its spawn grace (bit 1) blinks and shows no
// boost halo, even with bit 0 set; bit 0 alone is the halo at full
// opacity; the older hosts' 1 reads as the boost it always was.
func TestGraceBlinksBoostHalos(t *testing.T) {
	sc, s := setup(t)
	s1 := s.Key("s1")
	draw := func(flags int) []partstest.Op {
		sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: s1, Rows: []clientcore.Row{
			{ID: 5, Fields: snakeRow(t, s1, 200, 100, 0, flags)}}}}})
		var g partstest.Gfx
		g.Rect = parts.Rect{W: 1000, H: 1000}
		sc.Stage("vimp").Draw(&g)
		return g.Ops
	}
	halo := func(ops []partstest.Op) bool {
		for _, op := range ops {
			if op.Kind == "polyline" && op.R == 2.6*20 {
				return true
			}
		}
		return false
	}
	bodyAlpha := func(ops []partstest.Op) float32 {
		for _, op := range ops {
			if op.Kind == "polyline" && op.R == 2*20 {
				return op.C.A
			}
		}
		t.Fatal("no body stroke")
		return 0
	}
	if ops := draw(1); !halo(ops) || bodyAlpha(ops) != 1 {
		t.Fatalf("boost: halo %v, body alpha %v", halo(ops), bodyAlpha(ops))
	}
	if ops := draw(0); halo(ops) || bodyAlpha(ops) != 1 {
		t.Fatalf("cruise: halo %v, body alpha %v", halo(ops), bodyAlpha(ops))
	}
	seen := map[bool]bool{}
	var lo, hi float32 = 1, 0
	for i := range 20 {
		ops := draw(2 + i%2) // grace, with and without the boost bit
		if halo(ops) {
			t.Fatalf("a snake in grace drew the boost halo (flags %d)", 2+i%2)
		}
		a := bodyAlpha(ops)
		lo, hi = min(lo, a), max(hi, a)
		seen[a < 0.55] = true
		sc.Step(1000.0 / 60)
	}
	if !seen[true] || !seen[false] || lo < 0.25-1e-6 || hi > 0.85+1e-6 {
		t.Fatalf("grace blink: alpha from %v to %v; want a swing within [0.25, 0.85]", lo, hi)
	}
}

// The badges: the day's top ten wear diamonds along the body, in the
// snake's colour halfway to white; the month's a crown on the head; a
// snake with neither draws neither, names on or off.
func TestBadgesDrawn(t *testing.T) {
	b, err := os.ReadFile(partstest.Shared(t, "conformance/schemas/snakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	g := Game()
	pc, _ := parts.ParsePartsConfig(json.RawMessage(partsConfig))
	people := &parts.People{}
	people.SetBadges(map[uint32]parts.Badges{2: parts.BadgeDay, 5: parts.BadgeMonth, 9: parts.BadgeDay | parts.BadgeMonth})
	sc, err := parts.NewScene(parts.SceneOptions{Game: g, Generic: generic.Factory{}, Tex: partstest.NewTextures(g.Bake(func() float64 { return 0.5 })),
		Canvases: []string{"vimp"}, People: people}, s, pc)
	if err != nil {
		t.Fatal(err)
	}
	s1 := s.Key("s1")
	for _, c := range []struct {
		id             uint32
		diamonds, king bool
	}{{2, true, false}, {5, false, true}, {9, true, true}, {11, false, false}} {
		sc.Clear(nil, true)
		sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: s1, Rows: []clientcore.Row{
			{ID: c.id, Fields: snakeRow(t, s1, 400, 300, 0, 0)}}}}})
		var gfx partstest.Gfx
		gfx.Rect = parts.Rect{W: 1000, H: 1000}
		sc.Stage("vimp").Draw(&gfx)
		quads, images := 0, 0
		for _, op := range gfx.Ops {
			switch op.Kind {
			case "quad":
				quads++
				if op.C != parts.RGB(0xffa6a6) { // 0xff4d4d halfway to white
					t.Fatalf("diamond colour %+v", op.C)
				}
				if op.X > 400-20 || op.X < 400-150 || op.Y != 300 {
					t.Fatalf("diamond at %v,%v: not on the body behind the head", op.X, op.Y)
				}
			case "image":
				images++
				if op.X != 400 || op.Y != 300 {
					t.Fatalf("crown at %v,%v, not on the head", op.X, op.Y)
				}
			}
		}
		if (quads >= 3) != c.diamonds || (quads == 0) == c.diamonds || (images == 1) != c.king || images > 1 {
			t.Fatalf("snake %d: %d diamonds, %d crowns; want diamonds %v, crown %v", c.id, quads, images, c.diamonds, c.king)
		}
	}
}
