package tanks

import (
	"fmt"
	"image"
	"math"

	"vimpclient/parts/bake"
)

// The textures of the newer looks: the bevel masks the hull and turret are
// lit through, the silhouette shadow of a tank in flight, the scorch a
// wreck or a destroyed prop leaves, and the splinters of a breaking prop.

// Bevel facets, in the order the masks are baked: the shape's sides
// facing its front (+x of the texture), its right (+y), its back and its
// left. A facet's mask is white where the shape's rim faces that way.
var bevelDirs = [4][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

const (
	hullBevelPx   = 6 // how far in from the hull's edge its bevel reaches
	turretBevelPx = 4
	shadowPad     = 8 // blur margin around the shadow's silhouette
	scorchSide    = 72
	scorchContent = 56 // the scorch's diameter without its blur margin
	scorchKinds   = 3
	debrisW       = 12
	debrisH       = 5
	debrisKinds   = 3
)

// bakeBevels draws the four bevel masks of a convex polygon in a w×h
// texture: inside the polygon, within width px of its rim, a pixel belongs
// to its nearest side, whose outward normal n shares the pixel among the
// masks by max(0, n·dir); the mask fades from the rim inwards. Lighting the
// four masks by how much their direction faces a light lights the rim as a
// bevel lit from that side, at any heading.
func bakeBevels(w, h int, poly []bake.P, width float64) [4]*image.RGBA {
	var out [4]*image.RGBA
	for i := range out {
		out[i] = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	cx, cy := 0.0, 0.0
	for _, p := range poly {
		cx, cy = cx+p.X, cy+p.Y
	}
	cx, cy = cx/float64(len(poly)), cy/float64(len(poly))
	for py := range h {
		for px := range w {
			x, y := float64(px)+0.5, float64(py)+0.5
			best, nx, ny := math.Inf(1), 0.0, 0.0
			inside := true
			for i := range poly {
				a, b := poly[i], poly[(i+1)%len(poly)]
				ex, ey := b.X-a.X, b.Y-a.Y
				l := math.Hypot(ex, ey)
				if l == 0 {
					continue
				}
				// the side's outward normal: the one pointing away from the centre
				ox, oy := ey/l, -ex/l
				if (a.X-cx)*ox+(a.Y-cy)*oy < 0 {
					ox, oy = -ox, -oy
				}
				d := (a.X-x)*ox + (a.Y-y)*oy // distance inside the side's line
				if d < 0 {
					inside = false
					break
				}
				if d < best {
					best, nx, ny = d, ox, oy
				}
			}
			if !inside || best >= width {
				continue
			}
			a := 1 - best/width
			for i, dir := range bevelDirs {
				k := a * max(0, nx*dir[0]+ny*dir[1])
				if k <= 0 {
					continue
				}
				v := uint8(math.Round(255 * k))
				o := out[i].PixOffset(px, py)
				out[i].Pix[o], out[i].Pix[o+1], out[i].Pix[o+2], out[i].Pix[o+3] = v, v, v, v
			}
		}
	}
	return out
}

// gunOctagon is the turret's outline in the gun texture.
func gunOctagon() []bake.P {
	return off(bake.Pts(13.3, -4.2, 4.2, -10, -4.2, -10, -13.3, -4.2, -13.3, 4.2, -4.2, 10, 4.2, 10, 13.3, 4.2), gunOX, gunOY)
}

// bakeShadow is a tank's silhouette, blurred: black, its alpha the
// silhouette's, with the hull at the texture's centre.
func bakeShadow() *image.RGBA {
	c := bake.New(hullW+2*shadowPad, hullH+2*shadowPad)
	c.Rect(shadowPad, shadowPad, hullW, hullH, 0x000000, 1)
	c.Blur(2.5)
	return c.Img
}

// bakeScorch is a burnt patch: an irregular dark blot with a darker core,
// blurred, its content scorchContent across.
func bakeScorch(rnd func() float64) *image.RGBA {
	c := bake.New(scorchSide, scorchSide)
	blob := func(r, jitter float64) []bake.P {
		pts := make([]bake.P, 18)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(len(pts))
			rr := r + (rnd()*2-1)*jitter
			pts[i] = bake.P{X: scorchSide/2 + rr*math.Cos(a), Y: scorchSide/2 + rr*math.Sin(a)}
		}
		return pts
	}
	c.Polygon(blob(scorchContent/2-4, 4), 0x14110e, 0.85)
	c.Polygon(blob(scorchContent/4, 3), 0x050403, 0.9)
	c.Blur(3)
	return c.Img
}

// bakeDebris is a splinter: a thin irregular white sliver the part tints
// with the prop's wood.
func bakeDebris(rnd func() float64) *image.RGBA {
	c := bake.New(debrisW, debrisH)
	j := func() float64 { return rnd() * 1.2 }
	c.Polygon(bake.Pts(0.5, 1+j(), debrisW-0.5, 1.5+j(), debrisW-1-j(), debrisH-1, 1+j(), debrisH-0.5), 0xffffff, 1)
	return c.Img
}

// bakeLooks adds the newer looks' textures to out.
func bakeLooks(out map[string]*image.RGBA, rnd func() float64) {
	hull := bake.Pts(0, 0, hullW, 0, hullW, hullH, 0, hullH)
	for i, m := range bakeBevels(hullW, hullH, hull, hullBevelPx) {
		out[fmt.Sprintf("tank.bevel.%d", i)] = m
	}
	for i, m := range bakeBevels(gunW, gunH, gunOctagon(), turretBevelPx) {
		out[fmt.Sprintf("tank.turretBevel.%d", i)] = m
	}
	out["tank.shadow"] = bakeShadow()
	for i := range scorchKinds {
		out[fmt.Sprintf("scorch.%d", i)] = bakeScorch(rnd)
	}
	for i := range debrisKinds {
		out[fmt.Sprintf("debris.%d", i)] = bakeDebris(rnd)
	}
}
