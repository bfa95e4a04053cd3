package render

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
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
	compose(pix, chunkPx, chunkPx, []bakeCell{
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

// composeNaive is compose written the plain way, pixel by pixel: the
// texel of every pixel worked out from its centre on its own.
func composeNaive(pix []byte, cells []bakeCell, sheet *image.RGBA) {
	clear(pix)
	const stride = chunkPx * 4
	for i := range cells {
		c := &cells[i]
		px0 := max(0, int(math.Ceil(c.x0-0.5)))
		py0 := max(0, int(math.Ceil(c.y0-0.5)))
		px1 := min(chunkPx, int(math.Ceil(c.x1-0.5)))
		py1 := min(chunkPx, int(math.Ceil(c.y1-0.5)))
		if px1 <= px0 || py1 <= py0 {
			continue
		}
		if c.src.Empty() {
			for y := py0; y < py1; y++ {
				row := pix[y*stride+px0*4 : y*stride+px1*4]
				for x := 0; x < len(row); x += 4 {
					row[x], row[x+1], row[x+2], row[x+3] = c.fill[0], c.fill[1], c.fill[2], c.fill[3]
				}
			}
			continue
		}
		if sheet == nil || !c.src.In(sheet.Bounds()) {
			continue
		}
		sw, sh := float64(c.src.Dx()), float64(c.src.Dy())
		kx, ky := sw/(c.x1-c.x0), sh/(c.y1-c.y0)
		same := px1-px0 == c.src.Dx() && float64(px0) == c.x0 && kx == 1
		for y := py0; y < py1; y++ {
			sy := c.src.Min.Y + min(c.src.Dy()-1, max(0, int(math.Floor((float64(y)+0.5-c.y0)*ky))))
			srow := sheet.Pix[sy*sheet.Stride:]
			drow := pix[y*stride:]
			if same {
				copy(drow[px0*4:px1*4], srow[c.src.Min.X*4:c.src.Max.X*4])
				continue
			}
			for x := px0; x < px1; x++ {
				sx := c.src.Min.X + min(c.src.Dx()-1, max(0, int(math.Floor((float64(x)+0.5-c.x0)*kx))))
				copy(drow[x*4:x*4+4], srow[sx*4:sx*4+4])
			}
		}
	}
}

// gridCells lays a layer's cells over one chunk as the baker lists them: a
// grid of cells cell world units wide seen at ppu pixels a unit, the chunk
// starting at world (x0, y0), each showing a 32 px frame of a 4-frame
// sheet, every seventh a fill. The products of floats put most cell edges
// a hair off whole pixels, as on a real map.
func gridCells(cell, ppu, x0, y0 float64) []bakeCell {
	var cells []bakeCell
	span := chunkPx / ppu
	for row := int(math.Floor(y0 / cell)); float64(row)*cell < y0+span; row++ {
		for col := int(math.Floor(x0 / cell)); float64(col)*cell < x0+span; col++ {
			c := bakeCell{x0: (float64(col)*cell - x0) * ppu, y0: (float64(row)*cell - y0) * ppu,
				x1: (float64(col)*cell + cell - x0) * ppu, y1: (float64(row)*cell + cell - y0) * ppu}
			f := (col*3 + row) % 4
			if (col+row)%7 == 0 {
				c.fill = [4]uint8{byte(col), byte(row), 9, 255}
			} else {
				c.src = image.Rect(f*32, 0, f*32+32, 32)
			}
			cells = append(cells, c)
		}
	}
	return cells
}

func testSheet() *image.RGBA {
	sheet := image.NewRGBA(image.Rect(0, 0, 128, 32))
	for i := range sheet.Pix {
		sheet.Pix[i] = byte(i*7 + i/512)
	}
	return sheet
}

// compose, for all its runs and copied rows, writes what sampling every
// pixel on its own does, at whole, fractional, up- and down-scaled cell
// sizes and at chunk offsets that put cell edges anywhere.
func TestComposeMatchesPixelByPixel(t *testing.T) {
	sheet := testSheet()
	rng := rand.New(rand.NewPCG(1, 2))
	got, want := make([]byte, chunkPx*chunkPx*4), make([]byte, chunkPx*chunkPx*4)
	for _, k := range []struct{ cell, ppu float64 }{{32, 1}, {6.4, 5}, {6.4, 3.7}, {19.2, 1.25}, {6.4, 10}, {0.6 * 32, 32 / (0.6 * 32)}} {
		for range 6 {
			x0, y0 := rng.Float64()*2000, rng.Float64()*2000
			if rng.IntN(2) == 0 { // a chunk of the layer's own grid
				span := chunkPx / k.ppu
				x0, y0 = float64(rng.IntN(20))*span, float64(rng.IntN(20))*span
			}
			cells := gridCells(k.cell, k.ppu, x0, y0)
			for i := range cells { // some cells missing, as a sparse layer has
				if rng.IntN(5) == 0 {
					cells[i].x1 = cells[i].x0
				}
			}
			compose(got, chunkPx, chunkPx, cells, sheet)
			composeNaive(want, cells, sheet)
			if !bytes.Equal(got, want) {
				t.Fatalf("cell %v at %v px/unit, chunk at (%v, %v): pixels differ", k.cell, k.ppu, x0, y0)
			}
		}
	}
}

// BenchmarkComposeMap composes one chunk of a map's floor layer as the
// largest reference map bakes it (6.4-unit cells at 5 px a unit: 32 px
// cells whose edges fall a hair off whole pixels); naive is the same chunk
// sampled pixel by pixel.
func BenchmarkComposeMap(b *testing.B) {
	sheet := testSheet()
	cells := gridCells(6.4, 5, 51.2*3, 51.2*5)
	pix := make([]byte, chunkPx*chunkPx*4)
	b.Run("runs", func(b *testing.B) {
		b.SetBytes(int64(len(pix)))
		b.ReportAllocs()
		for b.Loop() {
			compose(pix, chunkPx, chunkPx, cells, sheet)
		}
	})
	b.Run("naive", func(b *testing.B) {
		b.SetBytes(int64(len(pix)))
		b.ReportAllocs()
		for b.Loop() {
			composeNaive(pix, cells, sheet)
		}
	})
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
		compose(pix, chunkPx, chunkPx, cells, sheet)
	}
}

// A chunk whose content covers part of it gets an image of about that part,
// on tightStep boundaries, and its cells moved into that image compose the
// same pixels as the part of the whole chunk: a sparse layer's chunk costs
// the bytes of what it shows. A smooth layer keeps whole chunks.
func TestTightImageComposesThePartOfTheChunk(t *testing.T) {
	if r := imageRect(image.Rect(40, 3, 97, 64), false); r != image.Rect(32, 0, 128, 64) {
		t.Errorf("image of content (40,3)-(97,64): %v", r)
	}
	if r := imageRect(image.Rect(250, 250, 256, 256), false); r != image.Rect(224, 224, chunkPx, chunkPx) {
		t.Errorf("image of a corner's content: %v", r)
	}
	if r := imageRect(image.Rect(40, 3, 97, 64), true); r != image.Rect(0, 0, chunkPx, chunkPx) {
		t.Errorf("smooth layer's image: %v", r)
	}
	sheet := testSheet()
	rng := rand.New(rand.NewPCG(3, 4))
	full := make([]byte, chunkPx*chunkPx*4)
	part := make([]byte, chunkPx*chunkPx*4)
	for range 20 {
		cells := gridCells(6.4, 5, rng.Float64()*2000, rng.Float64()*2000)
		content := image.Rectangle{}
		kept := cells[:0]
		for _, c := range cells { // a patch of cells, as a canopy layer has
			if px0, py0, _, _ := c.pixels(); px0 < 60 || py0 < 90 || px0 > 170 {
				continue
			}
			px0, py0, px1, py1 := c.pixels()
			content = content.Union(image.Rect(px0, py0, px1, py1).Intersect(image.Rect(0, 0, chunkPx, chunkPx)))
			kept = append(kept, c)
		}
		compose(full, chunkPx, chunkPx, kept, sheet)
		r := imageRect(content, false)
		if r.Dx() >= chunkPx {
			t.Fatalf("content %v got a whole chunk's image", content)
		}
		moved := append([]bakeCell(nil), kept...)
		shiftCells(moved, r.Min)
		compose(part, r.Dx(), r.Dy(), moved, sheet)
		for y := range chunkPx {
			for x := range chunkPx {
				i := (y*chunkPx + x) * 4
				var got []byte
				if (image.Point{x, y}).In(r) {
					j := ((y-r.Min.Y)*r.Dx() + x - r.Min.X) * 4
					got = part[j : j+4]
				} else {
					got = []byte{0, 0, 0, 0} // left out of the image: must be empty
				}
				if !bytes.Equal(got, full[i:i+4]) {
					t.Fatalf("image %v of content %v: pixel (%d, %d) is %v, the whole chunk's %v", r, content, x, y, got, full[i:i+4])
				}
			}
		}
	}
}
