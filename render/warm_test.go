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
