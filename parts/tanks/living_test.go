package tanks

import (
	"encoding/json"
	"image"
	"math"
	"testing"

	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
	"vimpclient/testkit/partstest"
)

// Downtown's animations as its game data declares them: water cycles four
// frames at 4 a second, the boost plates two at 2, and a conveyor's
// chevrons move with its belt, 60 world units a second over 12.8-unit
// cells of four frames: 18.75 frames a second.
func TestParseAnimsDowntown(t *testing.T) {
	m := downtownMap(t)
	var game animGame
	if err := json.Unmarshal(m.Game, &game); err != nil {
		t.Fatal(err)
	}
	a := parseAnims(m, game)
	if len(a) != 5 {
		t.Fatalf("%d animated tiles, want 5", len(a))
	}
	for tile, want := range map[int]struct {
		frames []int
		fps    float64
	}{6: {[]int{6, 21, 22, 23}, 4}, 8: {[]int{8, 24, 25, 26}, 18.75}, 9: {[]int{9, 27, 28, 29}, 18.75}, 10: {[]int{10, 30}, 2}, 11: {[]int{11, 31}, 2}} {
		got := a[tile]
		if got == nil || len(got.frames) != len(want.frames) || math.Abs(got.fps-want.fps) > 1e-9 {
			t.Errorf("tile %d: %+v, want %+v", tile, got, want)
			continue
		}
		for i := range want.frames {
			if got.frames[i] != want.frames[i] {
				t.Errorf("tile %d frames %v, want %v", tile, got.frames, want.frames)
				break
			}
		}
	}
}

// animMap is a 4×4 map of 10-unit cells whose sheet has 8 frames of 8 px
// in a row, the ground drawing tiles 1 and 2 in layer 1, tile 1 in the
// top row.
func animMap(game string) *gamemap.Map {
	g := make([]int32, 16)
	copy(g, []int32{1, 1, 2, 2})
	m := &gamemap.Map{Scale: 1, Step: 10, Sheet: "sheet.png", Game: []byte(game),
		Levels: []gamemap.Level{{Cols: 4, Rows: 4, Grid: g, Layers: []gamemap.Layer{{Key: "1", Z: 1, Tiles: []int{1, 2}}}}}}
	for i := range 8 {
		m.Frames = append(m.Frames, [4]float64{float64(8 * i), 0, 8, 8})
	}
	return m
}

// Animation data is from the network: an animation that names frames the
// sheet lacks, has no rate, too many frames or another kind leaves its tile
// still, and rates are bounded.
func TestParseAnimsTolerates(t *testing.T) {
	m := animMap("")
	var game animGame
	err := json.Unmarshal([]byte(`{"animatedTiles":{
		"1":{"kind":"frames","frames":[1,2],"fps":1e9},
		"2":{"kind":"frames","frames":[2,9],"fps":2},
		"3":{"kind":"frames","frames":[3],"fps":0},
		"4":{"kind":"spin","frames":[4],"fps":1},
		"5":{"kind":"frames","frames":[5,6],"speed":-50},
		"x":{"kind":"frames","frames":[1],"fps":1},
		"99":{"kind":"frames","frames":[1],"fps":1},
		"6":{"kind":"frames","frames":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"fps":1},
		"7":{"kind":"frames","frames":[1.5],"fps":1}}}`), &game)
	if err != nil {
		t.Fatal(err)
	}
	a := parseAnims(m, game)
	if len(a) != 2 || a[1] == nil || a[1].fps != maxAnimFps || a[5] == nil || a[5].fps != 10 {
		t.Fatalf("animations %v", a)
	}
}

func FuzzBuildLiving(f *testing.F) {
	f.Add([]byte(`{"animatedTiles":{"1":{"kind":"frames","frames":[1,2,3],"fps":4}},"decals":[{"cell":[1,1],"level":0,"layer":1,"frame":7,"kind":"rotate","rps":1.5}]}`))
	f.Add([]byte(`{"animatedTiles":{"2":{"kind":"frames","frames":[0],"speed":1e308}},"decals":[{"cell":[9e99,-1],"kind":"rotate"},null,7]}`))
	f.Fuzz(func(t *testing.T, game []byte) {
		tex := partstest.NewTextures(map[string]*image.RGBA{})
		tex.Loaded["sheet.png"] = [2]int{64, 8}
		c := &parts.Ctx{Stage: parts.NewStage("vimp"), Tex: tex}
		p := buildLiving(c, animMap(string(game)), nil)
		if p == nil {
			return
		}
		p.Step(16)
		g := &partstest.Gfx{Rect: parts.Rect{W: 40, H: 40}}
		c.Stage.Draw(g)
		p.Destroy(parts.Swept)
	})
}

// An animated cell shows its animation's frame at the time, over the
// baked layer; a still tile's cell is not drawn again; a rotating decal
// turns at its rate about its cell's centre.
func TestLivingDrawsFramesAndTurns(t *testing.T) {
	m := animMap(`{"animatedTiles":{"1":{"kind":"frames","frames":[3,4],"fps":2}},
		"decals":[{"cell":[2,3],"level":0,"layer":1,"frame":7,"kind":"rotate","rps":0.25}]}`)
	tex := partstest.NewTextures(map[string]*image.RGBA{})
	c := &parts.Ctx{Stage: parts.NewStage("vimp"), Tex: tex}
	tex.Loaded["sheet.png"] = [2]int{64, 8}
	p := buildLiving(c, m, nil)
	if p == nil {
		t.Fatal("nothing lives")
	}
	draw := func() []partstest.Op {
		g := &partstest.Gfx{Rect: parts.Rect{W: 40, H: 40}}
		c.Stage.Draw(g)
		return g.Ops
	}
	ops := draw()
	if len(ops) != 3 {
		t.Fatalf("%d drawing calls, want two animated cells and a decal: %+v", len(ops), ops)
	}
	if ops[0].Src.X != 24 || ops[1].Src.X != 24 {
		t.Errorf("at 0 ms the cells show %v, %v, want frame 3 (x 24)", ops[0].Src, ops[1].Src)
	}
	p.Step(600) // 1.2 frames at 2 a second
	ops = draw()
	if ops[0].Src.X != 32 {
		t.Errorf("at 600 ms the cell shows %v, want frame 4 (x 32)", ops[0].Src)
	}
	p.Step(400) // 1 s: a quarter turn
	ops = draw()
	d := ops[2]
	// The decal's image corner (0, 0) turned a quarter about (25, 35).
	x, y := d.M.Apply(0, 0)
	if math.Abs(x-30) > 1e-9 || math.Abs(y-30) > 1e-9 {
		t.Errorf("after 1 s the decal's corner is at (%.2f, %.2f), want (30, 30): a quarter turn", x, y)
	}
}

// A flat tile layer draws its animated cells itself, right after its
// tiles and before its ramps, so that a ramp rising over them hides them.
func TestLivingCellsUnderTheRamps(t *testing.T) {
	m := animMap(`{"animatedTiles":{"1":{"kind":"frames","frames":[3,4],"fps":2}}}`)
	tex := partstest.NewTextures(map[string]*image.RGBA{})
	tex.Loaded["sheet.png"] = [2]int{64, 8}
	c := &parts.Ctx{Stage: parts.NewStage("vimp"), Tex: tex}
	static := tiles.Build(c, m)
	before := c.Stage.Len()
	if buildLiving(c, m, static) == nil {
		t.Fatal("nothing lives")
	}
	if c.Stage.Len() != before || static[0].(*tiles.TileLayer).Over == nil {
		t.Fatalf("the layer does not draw its animated cells: %d entries, were %d", c.Stage.Len(), before)
	}
	g := &partstest.Gfx{Rect: parts.Rect{W: 40, H: 40}}
	c.Stage.Draw(g)
	if len(g.Ops) != 3 || g.Ops[0].Kind != "static" || g.Ops[1].Kind != "image" || g.Ops[2].Kind != "image" {
		t.Errorf("ops %+v, want the layer's tiles then its two animated cells", g.Ops)
	}
}
