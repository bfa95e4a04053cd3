// Package icon draws vimpclient's application icon (a tank under a
// crosshair on a rounded olive square) at any size, and packs it the way
// each desktop wants it: PNG files for Linux, an ICO for Windows and an
// ICNS for macOS.
//
// The icon is drawn in code rather than kept as an image file so that
// every size is sharp, every build makes the same bytes, and its source is
// this file.
package icon

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
)

// samplesPerSide is the supersampling grid per pixel side (its square
// per pixel): finer for small sizes, where a pixel's edge shows most.
func samplesPerSide(size int) int {
	if size > 256 {
		return 2
	}
	return 4
}

// shape reports whether the point (x, y), in units of the icon's side
// (0..1, y down), is inside.
type shape func(x, y float64) bool

// layer is one shape painted in one colour (or image).
type layer struct {
	inside shape
	paint  image.Image
}

var (
	olive     = color.RGBA{0x3b, 0x57, 0x2b, 0xff}
	oliveDark = color.RGBA{0x1f, 0x30, 0x17, 0xff}
	track     = color.RGBA{0x1a, 0x1c, 0x16, 0xff}
	hull      = color.RGBA{0xc4, 0xb0, 0x72, 0xff}
	turret    = color.RGBA{0x94, 0x83, 0x50, 0xff}
	sight     = color.RGBA{0xf0, 0x5a, 0x28, 0xff}
)

// Draw returns the icon at size×size pixels (size ≥ 1).
func Draw(size int) *image.NRGBA {
	if size < 1 {
		size = 1
	}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for _, l := range layers(size) {
		draw.DrawMask(img, img.Bounds(), l.paint, image.Point{}, coverage(size, l.inside), image.Point{}, draw.Over)
	}
	return img
}

func layers(size int) []layer {
	ring := func(x, y float64) bool {
		d := math.Hypot(x-0.5, y-0.5)
		return d >= 0.355 && d <= 0.395
	}
	ticks := func(x, y float64) bool {
		dx, dy := math.Abs(x-0.5), math.Abs(y-0.5)
		return (dx <= 0.018 && dy >= 0.30 && dy <= 0.47) || (dy <= 0.018 && dx >= 0.30 && dx <= 0.47)
	}
	return []layer{
		{roundRect(0.02, 0.02, 0.98, 0.98, 0.18), gradient(size, olive, oliveDark)},
		{func(x, y float64) bool {
			return roundRect(0.24, 0.27, 0.36, 0.79, 0.04)(x, y) || roundRect(0.64, 0.27, 0.76, 0.79, 0.04)(x, y)
		}, image.NewUniform(track)},
		{roundRect(0.31, 0.32, 0.69, 0.74, 0.05), image.NewUniform(hull)},
		{func(x, y float64) bool {
			return math.Hypot(x-0.5, y-0.55) <= 0.13 || (math.Abs(x-0.5) <= 0.035 && y >= 0.13 && y <= 0.55)
		}, image.NewUniform(turret)},
		{func(x, y float64) bool { return ring(x, y) || ticks(x, y) }, image.NewUniform(sight)},
	}
}

// roundRect is the rectangle (x0, y0)-(x1, y1) with corners of radius r.
func roundRect(x0, y0, x1, y1, r float64) shape {
	return func(x, y float64) bool {
		if x < x0 || x > x1 || y < y0 || y > y1 {
			return false
		}
		cx := math.Min(math.Max(x, x0+r), x1-r)
		cy := math.Min(math.Max(y, y0+r), y1-r)
		return math.Hypot(x-cx, y-cy) <= r
	}
}

// gradient is a vertical blend from top to bottom over size pixels.
func gradient(size int, top, bottom color.RGBA) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, 1, size))
	for y := range size {
		t := (float64(y) + 0.5) / float64(size)
		mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-t) + float64(b)*t)) }
		img.SetNRGBA(0, y, color.NRGBA{mix(top.R, bottom.R), mix(top.G, bottom.G), mix(top.B, bottom.B), 0xff})
	}
	return &repeatX{img}
}

// repeatX extends a one-pixel-wide image sideways.
type repeatX struct{ col *image.NRGBA }

func (r *repeatX) ColorModel() color.Model { return color.NRGBAModel }
func (r *repeatX) Bounds() image.Rectangle {
	return image.Rect(-1<<20, r.col.Rect.Min.Y, 1<<20, r.col.Rect.Max.Y)
}
func (r *repeatX) At(_, y int) color.Color { return r.col.At(0, y) }

// coverage is the anti-aliased mask of in at size×size: each pixel's alpha
// is the share of its sub-points inside.
func coverage(size int, in shape) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, size, size))
	samples := samplesPerSide(size)
	n := samples * samples
	for py := range size {
		for px := range size {
			hits := 0
			for sy := range samples {
				for sx := range samples {
					x := (float64(px) + (float64(sx)+0.5)/float64(samples)) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/float64(samples)) / float64(size)
					if in(x, y) {
						hits++
					}
				}
			}
			m.Pix[py*m.Stride+px] = uint8((hits*255 + n/2) / n)
		}
	}
	return m
}

// PNG is the icon at size×size, PNG-encoded.
func PNG(size int) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, Draw(size)); err != nil {
		return nil, fmt.Errorf("icon: png %d: %w", size, err)
	}
	return b.Bytes(), nil
}
