package render

import (
	"context"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// The renderer's own textures are counted by the bytes of their pixels (the
// chunk cache's and the decal pages' budgets): the graphics driver must
// hold no more than that for them, which it does only for sides that are
// powers of two.
func TestOwnTexturesHoldTheirPixels(t *testing.T) {
	sides := []struct {
		name string
		px   int
	}{{"baked chunk", chunkPx}, {"decal page", decalPagePx}}
	got := make([]int64, len(sides))
	j := &job{g: texturesGame{r: New(context.Background(), Options{})}, frames: 1, done: make(chan struct{})}
	j.each = func(*ebiten.Image, int) {
		for i, s := range sides {
			var before, after ebiten.DebugInfo
			ebiten.ReadDebugInfo(&before)
			img := newOwnImage(s.px, s.px)
			img.Fill(color.White)
			ebiten.ReadDebugInfo(&after)
			got[i] = after.TotalGPUImageMemoryUsageInBytes - before.TotalGPUImageMemoryUsageInBytes
			img.Deallocate()
		}
	}
	theDriver.jobs <- j
	<-j.done
	for i, s := range sides {
		if want := int64(4 * s.px * s.px); got[i] != want {
			t.Errorf("a %s (%d² pixels) holds %d texture bytes, want %d", s.name, s.px, got[i], want)
		}
	}
}
