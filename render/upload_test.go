package render

import (
	"image"
	"runtime"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// frameFunc is a test game whose every frame runs draw.
type frameFunc func(screen *ebiten.Image, frame int)

func (frameFunc) Update() error                           { return nil }
func (f frameFunc) Draw(screen *ebiten.Image)             {}
func (frameFunc) LayoutF(w, h float64) (float64, float64) { return w, h }

// Textures written and not drawn yet (chunks baked ahead of the view, an
// atlas before its first use) do not keep their pixels in the Go heap:
// 48 chunk-sized images (12 MiB of pixels) uploaded, none of them drawn,
// leave at most 3 MiB in the heap once the frame is over (12 MiB before
// the uploader: Ebiten kept each image's pixels until it was drawn).
func TestUploadedPixelsLeaveTheHeap(t *testing.T) {
	const n, side = 48, chunkPx
	var up uploader
	imgs := make([]*ebiten.Image, 0, n)
	pix := make([]byte, side*side*4)
	for i := range pix {
		pix[i] = byte(i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := run(t, frameFunc(nil), 4, func(_ *ebiten.Image, frame int) {
		if frame != 0 {
			return
		}
		for range n {
			img := newOwnImage(side, side)
			up.write(img, pix)
			imgs = append(imgs, img)
		}
	}); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	const bound = 3 << 20 // what Ebiten's pool keeps of 16 KiB strips, and the images' own bookkeeping
	if grew > bound {
		t.Errorf("the heap kept %.1f MiB after uploading %d MiB of pixels, want at most %d MiB", float64(grew)/(1<<20), n*side*side*4>>20, bound>>20)
	}
	// The textures hold what was written.
	got := make([]byte, 4*4)
	imgs[n-1].SubImage(image.Rect(0, 0, 4, 1)).(*ebiten.Image).ReadPixels(got)
	for i, b := range got {
		if b != pix[i] {
			t.Fatalf("pixel byte %d is %d after the upload, want %d", i, b, pix[i])
		}
	}
	for _, img := range imgs {
		img.Deallocate()
	}
}
