package render

import (
	"image"
	"image/draw"

	"github.com/hajimehoshi/ebiten/v2"
)

// stripBytes is the most pixel bytes one upload hands Ebiten. Ebiten copies
// every WritePixels into a buffer from a process-wide pool that keeps a few
// dozen of them, of whatever size they were, for as long as the process
// lives: one 4 MiB atlas or a burst of 256 KiB chunks would stay in the Go
// heap for good. What stays grows with the strip (about 1.5 MiB at 16 KiB,
// 4 MiB at 64 KiB, measured after 12 MiB of uploads); a 256 KiB chunk is
// 16 strips of 16 rows.
const stripBytes = 16 << 10

// uploader puts CPU pixels into textures so that the Go heap does not keep
// them. Ebiten holds the pixels written to an image in a buffer of its own
// until that image is next drawn to or drawn from: a chunk baked ahead of
// the view, or an atlas not drawn yet, would keep its pixels in the heap
// as well as in the texture. The uploader draws one pixel of each image it
// wrote onto a 1×1 sink, which hands the pixels to the driver at the end of
// the frame and their buffers back to Ebiten's pool.
type uploader struct {
	sink *ebiten.Image
	op   ebiten.DrawImageOptions
}

// write replaces img's pixels with pix (premultiplied RGBA, rows of img's
// width, img's height of them) in strips of at most stripBytes.
func (u *uploader) write(img *ebiten.Image, pix []byte) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 || len(pix) < w*h*4 {
		return
	}
	rows := max(1, stripBytes/(w*4))
	if rows >= h {
		img.WritePixels(pix[:w*h*4])
	} else {
		for y := 0; y < h; y += rows {
			y1 := min(y+rows, h)
			strip := img.SubImage(image.Rect(b.Min.X, b.Min.Y+y, b.Max.X, b.Min.Y+y1)).(*ebiten.Image)
			strip.WritePixels(pix[y*w*4 : y1*w*4])
		}
	}
	if u.sink == nil {
		u.sink = ebiten.NewImageWithOptions(image.Rect(0, 0, 1, 1), &ebiten.NewImageOptions{Unmanaged: true})
	}
	u.sink.DrawImage(img.SubImage(image.Rect(b.Min.X, b.Min.Y, b.Min.X+1, b.Min.Y+1)).(*ebiten.Image), &u.op)
}

// imageFrom makes a texture of src's pixels (own: a texture of its own
// rather than a place on Ebiten's shared atlas).
func (u *uploader) imageFrom(src image.Image, own bool) *ebiten.Image {
	b := src.Bounds()
	rgba, ok := src.(*image.RGBA)
	if !ok || rgba.Stride != b.Dx()*4 {
		rgba = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(rgba, rgba.Bounds(), src, b.Min, draw.Src)
	}
	img := ebiten.NewImageWithOptions(image.Rect(0, 0, b.Dx(), b.Dy()), &ebiten.NewImageOptions{Unmanaged: own})
	u.write(img, rgba.Pix)
	return img
}
