package render

import (
	"context"
	"testing"
)

// Warm draws once: the fade shader is compiled by then, so the first frame
// that fades decals does not compile it, and a second call draws nothing.
func TestWarmDrawsOnce(t *testing.T) {
	r := New(context.Background(), Options{})
	screen := newOwnImage(320, 180)
	defer screen.Deallocate()
	if r.gfx.decals.shader != nil {
		t.Fatal("the fade shader compiled before Warm")
	}
	if !r.Warm(screen) {
		t.Fatal("the first Warm did not draw")
	}
	if r.gfx.decals.shader == nil && !r.gfx.decals.failed {
		t.Fatal("no fade shader after Warm")
	}
	if r.Warm(screen) {
		t.Fatal("a second Warm drew again")
	}
}

// Warm on the start screen (nothing baked) leaves no atlas behind: the
// one it drew with is let go, and the first shapes drawn after build one
// that draws them.
func TestWarmLeavesNoAtlas(t *testing.T) {
	r := New(context.Background(), Options{})
	screen := newOwnImage(320, 180)
	defer screen.Deallocate()
	if !r.Warm(screen) {
		t.Fatal("the first Warm did not draw")
	}
	if r.gfx.tex.atl != nil {
		t.Fatal("Warm kept the atlas it made for itself")
	}
	a := r.gfx.tex.shapes()
	if a == nil || a.img == nil || a.white.Empty() {
		t.Fatal("no atlas built after Warm")
	}
}
