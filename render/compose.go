package render

import (
	"encoding/binary"
	"image"
	"math"
)

// bakeCell is one cell of a chunk being baked: where it lands in the
// chunk's image (pixels, fractional) and what it shows, a rectangle of the
// sheet's CPU copy or a fill.
type bakeCell struct {
	x0, y0, x1, y1 float64
	src            image.Rectangle // empty: fill
	fill           [4]uint8        // premultiplied
}

// pixels is the pixels the cell covers, px0 ≤ x < px1 and py0 ≤ y < py1:
// those whose centre lies inside it.
func (c *bakeCell) pixels() (px0, py0, px1, py1 int) {
	return int(math.Ceil(c.x0 - 0.5)), int(math.Ceil(c.y0 - 0.5)), int(math.Ceil(c.x1 - 0.5)), int(math.Ceil(c.y1 - 0.5))
}

// compose renders cells into a chunk image's pixels (w×h, premultiplied
// RGBA, cleared first) on the CPU, from sheet. A pixel belongs to a cell
// when its centre lies inside it, and samples the nearest texel, as a GPU
// draws a quad; cells do not overlap, so each pixel is written once.
//
// The texel column of each pixel column is worked out once per cell, and a
// row that samples the same texel row as the one above it is a copy of
// that row: most of a chunk is copied in runs, not pixel by pixel.
func compose(pix []byte, w, h int, cells []bakeCell, sheet *image.RGBA) {
	pix = pix[:w*h*4]
	clear(pix)
	stride := w * 4
	var cols [chunkPx]int32 // the texel column of each pixel column of a cell
	for i := range cells {
		c := &cells[i]
		px0, py0, px1, py1 := c.pixels()
		px0, py0, px1, py1 = max(0, px0), max(0, py0), min(w, px1), min(h, py1)
		if px1 <= px0 || py1 <= py0 {
			continue
		}
		if c.src.Empty() {
			row := pix[py0*stride+px0*4 : py0*stride+px1*4]
			for x := 0; x < len(row); x += 4 {
				row[x], row[x+1], row[x+2], row[x+3] = c.fill[0], c.fill[1], c.fill[2], c.fill[3]
			}
			for y := py0 + 1; y < py1; y++ {
				copy(pix[y*stride+px0*4:y*stride+px1*4], row)
			}
			continue
		}
		if sheet == nil || !c.src.In(sheet.Bounds()) {
			continue
		}
		sw, sh := float64(c.src.Dx()), float64(c.src.Dy())
		kx, ky := sw/(c.x1-c.x0), sh/(c.y1-c.y0)
		run := true // the cell's columns sample consecutive texels
		for x := px0; x < px1; x++ {
			sx := c.src.Min.X + min(c.src.Dx()-1, max(0, int(math.Floor((float64(x)+0.5-c.x0)*kx))))
			cols[x-px0] = int32(sx)
			run = run && int(cols[0])+x-px0 == sx
		}
		lastSy := -1
		for y := py0; y < py1; y++ {
			sy := c.src.Min.Y + min(c.src.Dy()-1, max(0, int(math.Floor((float64(y)+0.5-c.y0)*ky))))
			drow := pix[y*stride+px0*4 : y*stride+px1*4]
			switch {
			case sy == lastSy:
				copy(drow, pix[(y-1)*stride+px0*4:(y-1)*stride+px1*4])
			case run:
				s := sheet.Pix[sy*sheet.Stride+int(cols[0])*4:]
				copy(drow, s[:len(drow)])
			default:
				srow := sheet.Pix[sy*sheet.Stride:]
				for i, sx := range cols[:px1-px0] {
					binary.LittleEndian.PutUint32(drow[i*4:], binary.LittleEndian.Uint32(srow[sx*4:]))
				}
			}
			lastSy = sy
		}
	}
}
