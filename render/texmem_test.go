package render

import (
	"context"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// The renderer's own textures are counted against their budgets (the chunk
// cache's, the decal pages') by what the graphics driver holds for them:
// the next power of two a side, which is the pixels' own bytes for a whole
// chunk and a decal page.
func TestOwnTexturesHoldTheirPixels(t *testing.T) {
	sides := []struct {
		name string
		px   int
	}{{"baked chunk", chunkPx}, {"decal page", decalPagePx}, {"part of a chunk", 96}}
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
	if textureSide(chunkPx) != chunkPx || textureSide(decalPagePx) != decalPagePx {
		t.Errorf("a chunk (%d) or a decal page (%d) is not a power of two a side", chunkPx, decalPagePx)
	}
	for i, s := range sides {
		if want := int64(4 * textureSide(s.px) * textureSide(s.px)); got[i] != want {
			t.Errorf("a %s (%d² pixels) holds %d texture bytes, want %d", s.name, s.px, got[i], want)
		}
	}
}
