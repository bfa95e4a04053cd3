package tanks

import (
	"image"
	"math"
	"testing"

	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
	"vimpclient/testkit/partstest"
)

// roofGfx lights the scene and keeps the floor area of each level's light
// map as it was last drawn, allocating nothing.
type roofGfx struct {
	partstest.Gfx
	floor [8]float64
}

func (g *roofGfx) AddLight(parts.Light) {}
func (g *roofGfx) DrawLightMap(m *parts.LightMap) {
	a := 0.0
	for _, r := range m.Floor {
		a += r.W * r.H
	}
	g.floor[m.Level] = a
}
func (g *roofGfx) Lit() bool { return true }

// near reports whether a and b are equal but for rounding.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }

// roofScene is downtown's map parts with the own tank (id 1) known to the
// scene; the sheet is loaded.
func roofScene(t testing.TB) (*parts.Ctx, *gamemap.Map, *roofBoard, *night) {
	m := downtownMap(t)
	tex := partstest.NewTextures(map[string]*image.RGBA{})
	tex.Loaded[m.Sheet] = [2]int{512, 96}
	c := &parts.Ctx{Stage: parts.NewStage("vimp"), Tex: tex, Sky: &parts.Sky{}, Levels: parts.NewLevels(),
		Local: &parts.Local{ID: 1, Known: true}}
	static := tiles.Build(c, m)
	buildLiving(c, m, static)
	b := buildRoofs(c, m, static)
	if b == nil {
		t.Fatal("downtown has no roofs")
	}
	n, _ := buildNight(c, m).(*night)
	if n == nil {
		t.Fatal("downtown is not a night map")
	}
	n.withRoofs(b, m)
	return c, m, b, n
}

// Downtown's roofs are its tile 13 on level 1: eight buildings' roofs, the
// first over cells (4..10, 3..7), each taken out of the tile layer that
// bakes the level and drawn by the roofs instead.
func TestRoofsDowntown(t *testing.T) {
	_, m, b, _ := roofScene(t)
	if len(b.roofs) != 8 {
		t.Fatalf("%d roofs, want 8", len(b.roofs))
	}
	cell := m.CellWorld()
	area := func(r *roof) (a float64) {
		for _, x := range r.runs {
			a += x.W * x.H
		}
		return a
	}
	if r := &b.roofs[0]; r.level != 1 || !near(area(r), 35*cell*cell) || len(r.runs) != 5 ||
		!near(r.runs[0].X, 4*cell) || !near(r.runs[0].Y, 3*cell) || !near(r.runs[0].W, 7*cell) || !near(r.runs[0].H, cell) {
		t.Errorf("first roof %+v", *r)
	}
	if i, ok := b.over(1, 5.5*cell, 4.5*cell); !ok || i != 0 {
		t.Errorf("cell (5, 4) is under roof %d (%v), want the first", i, ok)
	}
	if _, ok := b.over(1, 12.5*cell, 4.5*cell); ok {
		t.Error("cell (12, 4) is under a roof")
	}
	// level 1's roof layer (layer 2) leaves the roof cells to the roofs
	for _, l := range m.Levels[1].Layers {
		if l.Z != 2 {
			continue
		}
		found := false
		for _, rl := range b.layers {
			st := rl.layer.Static()
			if _, ok := st.At(5, 4, true); ok {
				t.Error("the tile layer still bakes roof cell (5, 4)")
			}
			if _, ok := rl.at(5, 4, true); !ok {
				t.Error("the roof has no picture of cell (5, 4)")
			}
			found = true
		}
		if !found {
			t.Error("no roof layer")
		}
	}
}

// The roof over the own tank fades to see-through in about 200 ms, and
// back when the tank leaves; every other roof stays opaque. A tank on the
// roof's own level is on it, not under it; another tank under a roof, or
// an own tank the scene does not know, leaves it opaque. While a roof is
// not opaque its cells leave its level's light map.
func TestRoofFadesOverOwnTank(t *testing.T) {
	c, m, b, _ := roofScene(t)
	cell := m.CellWorld()
	g := &roofGfx{}
	g.Rect = parts.Rect{W: 2000, H: 2000}
	c.Stage.Draw(g)
	full := g.floor[1]
	step := func(ms float64) {
		for ; ms > 0; ms -= 16 {
			b.Step(16)
		}
	}
	alphas := func() (first, rest float64) {
		rest = 1
		for i := 1; i < len(b.roofs); i++ {
			rest = min(rest, b.roofs[i].alpha)
		}
		return b.roofs[0].alpha, rest
	}
	c.Levels.SetActor(2, parts.Height{})
	c.Levels.Place(2, 5.5*cell, 4.5*cell) // not the own tank
	step(300)
	if a, _ := alphas(); a != 1 {
		t.Errorf("another tank under the first roof: alpha %v, want opaque", a)
	}
	c.Levels.SetActor(1, parts.Height{})
	c.Levels.Place(1, 5.5*cell, 4.5*cell)
	step(96)
	if a, rest := alphas(); !(a > roofSeeThrough && a < 1) || rest != 1 {
		t.Errorf("96 ms under the first roof: alpha %v (others %v), want it fading, the others opaque", a, rest)
	}
	step(160)
	if a, rest := alphas(); a != roofSeeThrough || rest != 1 {
		t.Errorf("256 ms under the first roof: alpha %v (others %v), want %v, the others opaque", a, rest, roofSeeThrough)
	}
	c.Stage.Draw(g)
	if want := full - 35*cell*cell; !near(g.floor[1], want) {
		t.Errorf("level 1's light map covers %v of floor, want %v: all but the see-through roof", g.floor[1], want)
	}
	c.Levels.Place(1, 12.5*cell, 4.5*cell) // out from under it
	step(256)
	if a, _ := alphas(); a != 1 {
		t.Errorf("256 ms after leaving: alpha %v, want opaque", a)
	}
	c.Stage.Draw(g)
	if !near(g.floor[1], full) {
		t.Errorf("level 1's light map covers %v of floor, want all of it, %v", g.floor[1], full)
	}
	c.Levels.SetActor(1, parts.Height{Level: 1, H: 1}) // on the roof's level
	c.Levels.Place(1, 5.5*cell, 4.5*cell)
	step(256)
	if a, _ := alphas(); a != 1 {
		t.Errorf("a tank on the roof's level: alpha %v, want opaque", a)
	}
	c.Levels.SetActor(1, parts.Height{})
	c.Local.Known = false
	step(256)
	if a, _ := alphas(); a != 1 {
		t.Errorf("no own tank known: alpha %v, want opaque", a)
	}
}

// A see-through roof is drawn at its alpha, in the ambient colour at night
// (it has left its level's light map), the others opaque and white; and a
// frame of fading roofs allocates nothing.
func TestRoofDrawsAtItsAlpha(t *testing.T) {
	c, m, b, n := roofScene(t)
	cell := m.CellWorld()
	c.Levels.SetActor(1, parts.Height{})
	c.Levels.Place(1, 5.5*cell, 4.5*cell)
	for range 20 {
		b.Step(16)
	}
	g := &roofGfx{}
	g.Rect = parts.Rect{W: 2000, H: 2000}
	c.Stage.Draw(g)
	var seeThrough, opaque int
	for _, op := range g.Ops {
		if op.Kind != "image" || op.Tex != c.Tex.Asset(m.Sheet) || op.Src.X != m.Frames[13][0] || op.Src.Y != m.Frames[13][1] {
			continue
		}
		switch {
		case op.C.A == float32(roofSeeThrough) && op.C.R == n.data.ambient.R && op.C.B == n.data.ambient.B:
			seeThrough++
		case op.C == parts.White():
			opaque++
		default:
			t.Fatalf("a roof cell drawn in %v", op.C)
		}
	}
	if seeThrough != 35 || opaque != 238-35 {
		t.Errorf("%d roof cells see-through, %d opaque: want 35 and %d", seeThrough, opaque, 238-35)
	}
	lights := &n.maps[1]
	if a := testing.AllocsPerRun(50, func() {
		b.Step(16)
		n.Step(16)
		g.Ops = g.Ops[:0]
		for _, rl := range b.layers {
			rl.Draw(g)
		}
		lights.Draw(g)
	}); a != 0 {
		t.Errorf("%v allocations a frame", a)
	}
}

// Roof data is from the network: a level the map lacks, the ground, a
// key that is not a level and tiles that are not tile numbers are left
// out, and the tiles of one level are bounded.
func TestParseRoofTilesTolerates(t *testing.T) {
	for _, game := range []string{``, `{}`, `{"roofs":null}`, `{"roofs":[13]}`, `{"roofs":{"1":13}}`, `{"roofs":{"0":[5],"2":[5],"x":[5],"-1":[5]}}`} {
		if r := parseRoofTiles(tinyMap(game)); len(r) != 0 {
			t.Errorf("%s: roofs %v", game, r)
		}
	}
	r := parseRoofTiles(tinyMap(`{"roofs":{"1":[5,"x",-1,1.5,1e9,null,0]}}`))
	if len(r) != 1 || !tiles.In(r[1], 5) || len(r[1]) != 6 {
		t.Errorf("roofs %v, want level 1's tile 5 alone", r)
	}
	many := `{"roofs":{"1":[`
	for i := range 100 {
		if i > 0 {
			many += ","
		}
		many += "5"
	}
	if r := parseRoofTiles(tinyMap(many + `]}}`)); len(r) != 1 {
		t.Errorf("a long list: roofs %v", r)
	}
}

func FuzzBuildRoofs(f *testing.F) {
	f.Add([]byte(`{"roofs":{"1":[5]}}`))
	f.Add([]byte(`{"roofs":{"1":[5,5,1e300,-0]},"lighting":{"night":true}}`))
	f.Add([]byte(`{"roofs":{"1":[],"7":[5],"01":[5]}}`))
	f.Fuzz(func(t *testing.T, game []byte) {
		m := tinyMap(string(game))
		c := &parts.Ctx{Stage: parts.NewStage("vimp"), Tex: partstest.NewTextures(map[string]*image.RGBA{}), Sky: &parts.Sky{},
			Levels: parts.NewLevels(), Local: &parts.Local{ID: 1, Known: true}}
		b := buildRoofs(c, m, tiles.Build(c, m))
		if b == nil {
			return
		}
		if n, ok := buildNight(c, m).(*night); ok {
			n.withRoofs(b, m)
		}
		c.Levels.Place(1, 15, 5)
		b.Step(16)
		for i := range b.roofs {
			if r := &b.roofs[i]; r.level < 1 || r.level >= len(m.Levels) || !(r.alpha >= roofSeeThrough && r.alpha <= 1) {
				t.Fatalf("roof %+v", *r)
			}
		}
		c.Stage.Draw(&partstest.Gfx{Rect: parts.Rect{W: 40, H: 40}})
	})
}
