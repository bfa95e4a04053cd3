package parts

import (
	"math"
	"testing"
)

// A decal layer hands each mark to its backend once, with the alpha it has
// left by then, and a layer that is never drawn keeps a bounded queue of
// the newest marks.
func TestDecalLayerQueue(t *testing.T) {
	l := &DecalLayer{FadeRate: 0.001}
	l.Paint(1, Rect{W: 1, H: 1}, Identity(), White().WithAlpha(0.5))
	l.Paint(NoTex, Rect{W: 1, H: 1}, Identity(), White())          // nothing to paint
	l.Paint(1, Rect{W: 1, H: 1}, Identity(), White().WithAlpha(0)) // invisible
	l.Advance(200)
	l.Advance(-5)
	l.Advance(math.Inf(1))
	l.Paint(1, Rect{W: 1, H: 1}, Identity(), White().WithAlpha(0.5))
	got := l.Take()
	if len(got) != 2 || got[0].Born != 0 || got[1].Born != 200 || l.Now() != 200 {
		t.Fatalf("took %+v at %v", got, l.Now())
	}
	if a := l.Alpha(got[0]); math.Abs(a-0.3) > 1e-9 {
		t.Errorf("alpha after 200 ms %v, want 0.3", a)
	}
	if len(l.Take()) != 0 {
		t.Error("a mark was handed over twice")
	}
	for i := range 3 * maxPendingDecals {
		l.Paint(1, Rect{W: 1, H: 1}, Identity().Translate(float64(i), 0), White().WithAlpha(0.5))
	}
	p := l.Take()
	if len(p) > maxPendingDecals || len(p)+l.Dropped() != 3*maxPendingDecals || p[len(p)-1].M.TX != 3*maxPendingDecals-1 {
		t.Fatalf("queue of %d (dropped %d), newest at %v", len(p), l.Dropped(), p[len(p)-1].M.TX)
	}
}

// The parts of a stage that leave marks at one height and draw order share
// one layer, drawn among the stage's entries at that order and height, and
// the scene's steps run its clock.
func TestStageDecalsAreShared(t *testing.T) {
	s := NewStage("vimp")
	a := s.Decals(LevelZ(1, 1), 1, 0.001)
	if s.Decals(LevelZ(1, 1), 1, 0.001) != a || s.Decals(1, 0, 0.001) == a || s.Len() != 2 {
		t.Fatalf("layers not shared by height and order: %d entries", s.Len())
	}
	a.Paint(1, Rect{W: 1, H: 1}, Identity(), White())
	s.Advance(40)
	if a.Now() != 40 {
		t.Fatalf("clock at %v after 40 ms", a.Now())
	}
	var g recordGfx
	s.Draw(&g)
	if len(g.decals) != 2 || g.decals[1] != a || g.heights[1] != 1 {
		t.Fatalf("drew layers %v at heights %v", g.decals, g.heights)
	}
	s.Clear()
	if s.Len() != 0 || s.Decals(1, 0, 0.001) == a {
		t.Fatal("Clear kept a layer")
	}
}

func TestOnLevel(t *testing.T) {
	for _, c := range []struct {
		h     float64
		level int
		ok    bool
	}{{0, 0, true}, {1, 1, true}, {0.9999, 1, true}, {2.0004, 2, true}, {0.5, 0, false}, {1.01, 0, false}, {-1, 0, false}, {math.NaN(), 0, false}, {99, 0, false}} {
		if l, ok := OnLevel(c.h); l != c.level || ok != c.ok {
			t.Errorf("OnLevel(%v) = %d, %v", c.h, l, ok)
		}
	}
}

// recordGfx notes the decal layers drawn and the height of each.
type recordGfx struct {
	h       float64
	decals  []*DecalLayer
	heights []float64
}

func (g *recordGfx) Image(Tex, Rect, Affine, Color)                 {}
func (g *recordGfx) Quad(Affine, Color)                             {}
func (g *recordGfx) Disc(float64, float64, float64, Color)          {}
func (g *recordGfx) Ring(float64, float64, float64, float64, Color) {}
func (g *recordGfx) Polyline([]Vec, float64, Color)                 {}
func (g *recordGfx) Label(string, float64, float64, float64, Color) {}
func (g *recordGfx) View() Rect                                     { return Rect{W: 100, H: 100} }
func (g *recordGfx) Elevate(h float64)                              { g.h = h }
func (g *recordGfx) Mesh(Tex, []MeshVertex, []uint16, Color)        {}
func (g *recordGfx) Static(*StaticLayer)                            {}
func (g *recordGfx) Decals(l *DecalLayer) {
	l.Take()
	g.decals = append(g.decals, l)
	g.heights = append(g.heights, g.h)
}

// A held layer's marks show whole for its hold time, then scale down to
// nothing over its fade-out; the stage shares a held layer by height,
// order and times, apart from a fading one at the same height and order.
func TestHeldDecalLayer(t *testing.T) {
	s := NewStage("vimp")
	l := s.HeldDecals(2, 0, 1000, 500)
	if s.HeldDecals(2, 0, 1000, 500) != l || s.HeldDecals(2, 0, 1000, 400) == l || s.Decals(2, 0, 0) == l || !l.Held() || s.Decals(2, 0, 0).Held() {
		t.Fatal("held layers not shared by height, order and times")
	}
	for _, c := range []struct{ age, want float64 }{{0, 1}, {1000, 1}, {1250, 0.5}, {1500, 0}, {9000, 0}, {math.NaN(), 0}} {
		if got := l.Scale(c.age); !(math.Abs(got-c.want) <= 1e-9) {
			t.Errorf("Scale(%v) = %v, want %v", c.age, got, c.want)
		}
	}
	l.Paint(1, Rect{W: 1, H: 1}, Identity(), White().WithAlpha(0.4))
	l.Advance(1250)
	d := l.Take()
	if len(d) != 1 || math.Abs(l.Alpha(d[0])-0.2) > 1e-6 {
		t.Fatalf("took %+v, alpha %v after 1250 ms, want 0.2", d, l.Alpha(d[0]))
	}
}
