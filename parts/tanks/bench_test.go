package tanks

import (
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/snapschema"
	"vimpclient/testkit/rowtest"
)

// countGfx counts drawing calls without keeping them.
type countGfx struct {
	n    int
	view parts.Rect
}

func (g *countGfx) Image(parts.Tex, parts.Rect, parts.Affine, parts.Color)    { g.n++ }
func (g *countGfx) Quad(parts.Affine, parts.Color)                            { g.n++ }
func (g *countGfx) Disc(float64, float64, float64, parts.Color)               { g.n++ }
func (g *countGfx) Ring(float64, float64, float64, float64, parts.Color)      { g.n++ }
func (g *countGfx) Polyline([]parts.Vec, float64, parts.Color)                { g.n++ }
func (g *countGfx) Label(string, float64, float64, float64, parts.Color)      { g.n++ }
func (g *countGfx) View() parts.Rect                                          { return g.view }
func (g *countGfx) Elevate(float64)                                           {}
func (g *countGfx) Mesh(parts.Tex, []parts.MeshVertex, []uint16, parts.Color) { g.n++ }
func (g *countGfx) Static(*parts.StaticLayer)                                 { g.n++ }
func (g *countGfx) Decals(l *parts.DecalLayer)                                { g.n++; l.Take() }

// BenchmarkHeavySceneParts runs the heavy scene (32 tanks in every
// condition, 40 bombs, 20 tracers, 10 explosions, 64 crates, smoke and
// tracks) through the parts: one tick (hot records for every tank and
// crate, animations) and one draw per op. Target: 0 allocs/op.
func BenchmarkHeavySceneParts(b *testing.B) { benchHeavyParts(b, loadSchema(b), false) }

// BenchmarkHeavySceneNewerParts is the heavy scene of a newer host: the
// tanks' rows carry pitch and roll (tilted, lit hulls, exhaust), the
// quarter of them that are wrecks die in view (explosions, then fire and
// smoke), and a quarter of the crates break in view.
func BenchmarkHeavySceneNewerParts(b *testing.B) { benchHeavyParts(b, newerSchema(b), true) }

func benchHeavyParts(b *testing.B, s *clientcore.Schema, newer bool) {
	f := newFixture(b, s)
	f.snd.Quiet = true
	sc := f.scene
	m, err := gamemap.Parse([]byte(heavyMap()))
	if err != nil {
		b.Fatal(err)
	}
	f.tex.Loaded["tiles.png"] = [2]int{160, 32}
	sc.SetMap(m)
	m1, c1 := s.Key("m1"), s.Key("c1")
	var tanks, bombs, tracers, blasts []clientcore.Row
	for i := range 32 {
		tanks = append(tanks, clientcore.Row{ID: uint32(i), Fields: tankRow(b, s, 250+float64(i%8)*20, 160+float64(i/8)*20, 0.1*float64(i), 0.2, i%4, 1+i%2)})
		if newer {
			rowtest.Set(b, s.Key("m1"), tanks[i].Fields, "pitch", 0.02*float64(i%7))
			rowtest.Set(b, s.Key("m1"), tanks[i].Fields, "roll", -0.03*float64(i%5))
		}
	}
	var alive []clientcore.Row
	if newer { // every tank is seen alive first: the wrecks die in view
		for _, r := range tanks {
			fl := append([]float32(nil), r.Fields...)
			rowtest.Set(b, s.Key("m1"), fl, "condition", 3)
			alive = append(alive, clientcore.Row{ID: r.ID, Fields: fl})
		}
		sc.ApplyFrame(frame(block(s, "m1", alive...)))
	}
	for i := range 40 {
		bombs = append(bombs, clientcore.Row{ID: uint32(1000 + i), Fields: rowtest.Row(b, s.Key("w2"),
			map[string]float64{"x": 240 + float64(i%10)*18, "y": 150 + float64(i/10)*25, "size": 8, "time": 300, "ownerId": 1})})
	}
	for i := range 20 {
		tracers = append(tracers, clientcore.Row{ID: uint32(i), Fields: rowtest.Row(b, s.Key("w1"), map[string]float64{
			"startX": 260, "startY": 170 + float64(i), "endX": 420, "endY": 250 + float64(i), "bodyX": 260, "bodyY": 170, "wasHit": 1, "shooterId": 2})})
	}
	for i := range 10 {
		blasts = append(blasts, clientcore.Row{ID: uint32(i), Fields: rowtest.Row(b, s.Key("w2e"), map[string]float64{"x": 260 + float64(i)*15, "y": 230, "radius": 50})})
	}
	sc.ApplyFrame(frame(block(s, "m1", tanks...), block(s, "w1", tracers...), block(s, "w2", bombs...), block(s, "w2e", blasts...)))
	hot := &clientcore.Hot{Flags: clientcore.HotGame}
	for i, r := range tanks {
		fl := append([]float32(nil), r.Fields...)
		rowtest.Set(b, m1, fl, "engineLoad", 1.5) // strain: tracks every tick
		hot.Actors = append(hot.Actors, clientcore.Record{Schema: m1, ID: uint32(i), Fields: fl})
	}
	for i := range 64 {
		hot.Dynamics = append(hot.Dynamics, clientcore.Record{Schema: c1, ID: uint32(i),
			Fields: rowtest.Row(b, c1, map[string]float64{"x": float64(120 + (i%8)*54), "y": float64(120 + (i/8)*54), "angle": 0.1})})
	}
	if newer { // the crates are seen whole, then a quarter of them break
		sc.ApplyHot(hot)
		state := clientcore.NewBinder(c1).Role(snapschema.RoleState)
		for i := range hot.Dynamics {
			if i%4 == 0 {
				state.Set(hot.Dynamics[i].Fields, crateDestroyed)
			}
		}
	}
	g := &countGfx{view: parts.Rect{X: 128, Y: 92, W: 384, H: 216}}
	x := clientcore.NewBinder(m1).Require("x")
	tick := func() {
		for i := range hot.Actors {
			x.Set(hot.Actors[i].Fields, x.Get(hot.Actors[i].Fields)+0.5) // moving
		}
		sc.ApplyHot(hot)
		sc.Step(16.7)
		g.n = 0
		sc.Stage("vimp").Draw(g)
		sc.Stage("radar").Draw(g)
	}
	for range 200 { // reach steady state: particle pools, track marks
		tick()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		tick()
	}
	b.ReportMetric(float64(g.n), "draws/frame")
}

func heavyMap() string {
	grid := "["
	for y := range 40 {
		if y > 0 {
			grid += ","
		}
		grid += "["
		for x := range 60 {
			if x > 0 {
				grid += ","
			}
			if x == 0 || y == 0 || x == 59 || y == 39 {
				grid += "1"
			} else {
				grid += "0"
			}
		}
		grid += "]"
	}
	grid += "]"
	dyn := "["
	for i := range 64 {
		if i > 0 {
			dyn += ","
		}
		dyn += `{"position":[200,200],"angle":0,"width":32,"height":32,"img":"b1.png","layer":3}`
	}
	dyn += "]"
	return `{"setId":"c1","scale":0.6,"step":32,"map":` + grid + `,"layers":{"1":[0,2,4],"2":[1],"4":[3]},
	 "spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32],[96,0,32,32],[128,0,32,32]]},
	 "physicsStatic":[1],"physicsDynamic":` + dyn + `}`
}
