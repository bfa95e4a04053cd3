package render

import (
	"image"
	"image/color"
	"testing"
)

// A chunk composed on the CPU shows what drawing its cells would: each
// pixel takes the texel under its centre, fills cover their part, cells
// scaled by a fraction sample nearest, and nothing spills past a cell.
func TestComposeSamplesNearest(t *testing.T) {
	sheet := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for x := range 4 {
		sheet.SetRGBA(x, 0, color.RGBA{uint8(10 * (x + 1)), 0, 0, 255})
		sheet.SetRGBA(x, 1, color.RGBA{0, uint8(10 * (x + 1)), 0, 255})
	}
	pix := make([]byte, chunkPx*chunkPx*4)
	at := func(x, y int) color.RGBA {
		i := (y*chunkPx + x) * 4
		return color.RGBA{pix[i], pix[i+1], pix[i+2], pix[i+3]}
	}
	compose(pix, []bakeCell{
		{x0: 0, y0: 0, x1: 4, y1: 2, src: image.Rect(0, 0, 4, 2)},            // 1:1
		{x0: 10, y0: 0, x1: 18, y1: 4, src: image.Rect(0, 0, 4, 2)},          // ×2
		{x0: 20, y0: 0, x1: 21.5, y1: 1, fill: [4]uint8{255, 255, 255, 255}}, // covers pixel 20 only (21's centre is past 21.5? no: 21.5 > 21.5 is false)
		{x0: 30.6, y0: 0.4, x1: 32.4, y1: 1.6, fill: [4]uint8{1, 2, 3, 4}},   // centres 31 and 31.5 → pixels 31; row 1 (1.5 in [0.4,1.6))
		{x0: -8, y0: -8, x1: 2, y1: 2, src: image.Rect(0, 0, 4, 2)},          // cut by the chunk's corner
		{x0: 600, y0: 0, x1: 700, y1: 10, fill: [4]uint8{9, 9, 9, 9}},        // outside
		{x0: 40, y0: 0, x1: 44, y1: 2, src: image.Rect(2, 0, 6, 2)},          // outside the sheet: skipped
	}, sheet)
	if c := at(2, 1); c != (color.RGBA{0, 30, 0, 255}) {
		t.Errorf("1:1 texel %v", c)
	}
	if c := at(13, 3); c != (color.RGBA{0, 20, 0, 255}) {
		t.Errorf("×2 texel at (13,3) %v, want the sheet's (1,1)", c)
	}
	if at(20, 0).R != 255 || at(21, 0).A != 0 {
		t.Errorf("fill edges %v %v", at(20, 0), at(21, 0))
	}
	if at(31, 1) != (color.RGBA{1, 2, 3, 4}) || at(31, 0) != (color.RGBA{1, 2, 3, 4}) || at(30, 1).A != 0 || at(32, 1).A != 0 || at(31, 2).A != 0 {
		t.Errorf("fractional fill: %v %v %v %v %v", at(30, 1), at(31, 1), at(32, 1), at(31, 0), at(31, 2))
	}
	// The cut cell spans -8..2 for 4 texels: pixel (0, 0)'s centre 0.5 is
	// 8.5 in, texel 3.4 across and 1.7 down: texel (3, 1).
	if c := at(0, 0); c != (color.RGBA{0, 40, 0, 255}) {
		t.Errorf("cut cell texel %v", c)
	}
	if at(40, 0).A != 0 {
		t.Errorf("a cell outside the sheet drew %v", at(40, 0))
	}
}

// BenchmarkCompose composes one chunk of 16×16 tiles of 32 px from a sheet,
// as a tile layer at source resolution is baked.
func BenchmarkCompose(b *testing.B) {
	sheet := image.NewRGBA(image.Rect(0, 0, 128, 64))
	var cells []bakeCell
	for y := range 16 {
		for x := range 16 {
			f := (x + y) % 4
			cells = append(cells, bakeCell{x0: float64(x * 32), y0: float64(y * 32), x1: float64(x*32 + 32), y1: float64(y*32 + 32),
				src: image.Rect(f*32, 0, f*32+32, 32)})
		}
	}
	pix := make([]byte, chunkPx*chunkPx*4)
	b.SetBytes(int64(len(pix)))
	b.ReportAllocs()
	for b.Loop() {
		compose(pix, cells, sheet)
	}
}
