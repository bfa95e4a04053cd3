// Package bake draws the games' procedural textures on the CPU with
// anti-aliasing (4x4 supersampling) into plain RGBA images, so the textures
// are deterministic and tested without a display.
package bake

import (
	"image"
	"math"
)

// P is a point in texture pixels.
type P struct{ X, Y float64 }

// Canvas is an RGBA image being drawn (premultiplied, as image.RGBA is).
type Canvas struct {
	Img *image.RGBA
}

// New returns a transparent w×h canvas.
func New(w, h int) *Canvas { return &Canvas{Img: image.NewRGBA(image.Rect(0, 0, w, h))} }

const ss = 4 // samples per axis

// cover calls inside for the 16 sample points of every pixel in the box and
// blends colour rgb at alpha·coverage.
func (c *Canvas) cover(x0, y0, x1, y1 float64, rgb uint32, alpha float64, inside func(x, y float64) bool) {
	b := c.Img.Bounds()
	ix0, iy0 := max(b.Min.X, int(math.Floor(x0))), max(b.Min.Y, int(math.Floor(y0)))
	ix1, iy1 := min(b.Max.X, int(math.Ceil(x1))), min(b.Max.Y, int(math.Ceil(y1)))
	for py := iy0; py < iy1; py++ {
		for px := ix0; px < ix1; px++ {
			n := 0
			for sy := range ss {
				for sx := range ss {
					if inside(float64(px)+(float64(sx)+0.5)/ss, float64(py)+(float64(sy)+0.5)/ss) {
						n++
					}
				}
			}
			if n > 0 {
				c.blend(px, py, rgb, alpha*float64(n)/(ss*ss))
			}
		}
	}
}

func (c *Canvas) blend(x, y int, rgb uint32, a float64) {
	i := c.Img.PixOffset(x, y)
	p := c.Img.Pix[i : i+4 : i+4]
	sr := float64(rgb>>16&0xff) * a
	sg := float64(rgb>>8&0xff) * a
	sb := float64(rgb&0xff) * a
	k := 1 - a
	p[0] = uint8(math.Round(sr + float64(p[0])*k))
	p[1] = uint8(math.Round(sg + float64(p[1])*k))
	p[2] = uint8(math.Round(sb + float64(p[2])*k))
	p[3] = uint8(math.Round(255*a + float64(p[3])*k))
}

// Rect fills an axis-aligned rectangle.
func (c *Canvas) Rect(x, y, w, h float64, rgb uint32, alpha float64) {
	c.cover(x, y, x+w, y+h, rgb, alpha, func(px, py float64) bool {
		return px >= x && px < x+w && py >= y && py < y+h
	})
}

// Disc fills a circle.
func (c *Canvas) Disc(cx, cy, r float64, rgb uint32, alpha float64) {
	c.cover(cx-r, cy-r, cx+r, cy+r, rgb, alpha, func(px, py float64) bool {
		dx, dy := px-cx, py-cy
		return dx*dx+dy*dy <= r*r
	})
}

// Polygon fills a polygon (even-odd rule).
func (c *Canvas) Polygon(pts []P, rgb uint32, alpha float64) {
	x0, y0, x1, y1 := bounds(pts, 0)
	c.cover(x0, y0, x1, y1, rgb, alpha, func(px, py float64) bool { return inPolygon(pts, px, py) })
}

// Stroke strokes the closed outline of pts with width w; offset shifts the
// band: 0 centred, +w/2 outside-ish (approximated by widening), used for the
// "edge outside" details.
func (c *Canvas) Stroke(pts []P, w float64, rgb uint32, alpha float64, closed bool) {
	x0, y0, x1, y1 := bounds(pts, w)
	hw := w / 2
	n := len(pts)
	last := n - 1
	if closed {
		last = n
	}
	// Each segment's box, grown by the half width and a margin far above
	// rounding: a sample outside it is farther than hw from the segment,
	// so the distance (most of the time a stroke takes) is only worked
	// out for the segments near the sample, and the coverage is the same.
	const margin = 1e-6
	boxes := make([][4]float64, max(last, 0))
	for i := range boxes {
		a, b := pts[i], pts[(i+1)%n]
		pad := hw + margin
		boxes[i] = [4]float64{min(a.X, b.X) - pad, min(a.Y, b.Y) - pad, max(a.X, b.X) + pad, max(a.Y, b.Y) + pad}
	}
	c.cover(x0, y0, x1, y1, rgb, alpha, func(px, py float64) bool {
		for i := range boxes {
			if bx := &boxes[i]; px < bx[0] || py < bx[1] || px > bx[2] || py > bx[3] {
				continue
			}
			if segDist(px, py, pts[i], pts[(i+1)%n]) <= hw {
				return true
			}
		}
		return false
	})
}

// Line strokes one segment with square ends.
func (c *Canvas) Line(a, b P, w float64, rgb uint32, alpha float64) {
	c.Stroke([]P{a, b}, w, rgb, alpha, false)
}

func bounds(pts []P, pad float64) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	return x0 - pad, y0 - pad, x1 + pad, y1 + pad
}

func inPolygon(pts []P, x, y float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		a, b := pts[i], pts[j]
		if (a.Y > y) != (b.Y > y) && x < (b.X-a.X)*(y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

func segDist(x, y float64, a, b P) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((x-a.X)*dx+(y-a.Y)*dy)/l2))
	}
	return math.Hypot(x-a.X-t*dx, y-a.Y-t*dy)
}

// Blur applies a separable Gaussian blur of standard deviation sigma.
func (c *Canvas) Blur(sigma float64) {
	if sigma <= 0 {
		return
	}
	r := int(math.Ceil(3 * sigma))
	k := make([]float64, 2*r+1)
	sum := 0.0
	for i := range k {
		d := float64(i - r)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	b := c.Img.Bounds()
	w, h := b.Dx(), b.Dy()
	src := make([]float64, w*h*4)
	for i := range src {
		src[i] = float64(c.Img.Pix[i])
	}
	tmp := make([]float64, len(src))
	pass := func(in, out []float64, dx, dy int) {
		for y := range h {
			for x := range w {
				var acc [4]float64
				for i, kv := range k {
					sx, sy := x+(i-r)*dx, y+(i-r)*dy
					if sx < 0 || sy < 0 || sx >= w || sy >= h {
						continue
					}
					o := (sy*w + sx) * 4
					for ch := range 4 {
						acc[ch] += in[o+ch] * kv
					}
				}
				o := (y*w + x) * 4
				copy(out[o:o+4], acc[:])
			}
		}
	}
	pass(src, tmp, 1, 0)
	pass(tmp, src, 0, 1)
	for i, v := range src {
		c.Img.Pix[i] = uint8(math.Round(math.Max(0, math.Min(255, v))))
	}
}

// BlurredCircle is the engine's blurred-circle baker: margin ⌈4·blur⌉,
// side 2·(radius + margin), a disc of radius at the centre, blurred with
// σ = 1.29·blur. Consumers scale by the content diameter 2·radius.
func BlurredCircle(radius, blur float64, rgb uint32) *image.RGBA {
	m := math.Ceil(4 * blur)
	side := int(2 * (radius + m))
	c := New(side, side)
	c.Disc(float64(side)/2, float64(side)/2, radius, rgb, 1)
	c.Blur(1.29 * blur)
	return c.Img
}

// Pts builds points from x, y pairs.
func Pts(xy ...float64) []P {
	out := make([]P, len(xy)/2)
	for i := range out {
		out[i] = P{X: xy[2*i], Y: xy[2*i+1]}
	}
	return out
}
