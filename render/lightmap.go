package render

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
)

// Light maps. A night map's level is darkened by multiplying what has been
// drawn by a light map: the ambient colour (over everything on the ground,
// over the level's floor above it, white elsewhere) plus the level's
// lights, added. The map is smooth, so it is rendered at lightRes of the
// canvas's resolution into one image kept from frame to frame (made again
// only when the canvas's size changes), and stretched over the canvas with
// a multiplying blend: a few drawing calls and no allocation a frame.

const (
	// lightRes is the light map's resolution as a fraction of the canvas's.
	lightRes = 0.5
	// maxLights bounds the lights of one canvas's drawing pass (the game's
	// render config allows 96); lights past it are left out.
	maxLights = 96
	// lightTexPx is the side of each light shape in the light texture.
	lightTexPx = 128
)

// blendMultiply multiplies the destination's colour by the source's and
// keeps the destination's alpha.
var blendMultiply = ebiten.Blend{
	BlendFactorSourceRGB:        ebiten.BlendFactorDestinationColor,
	BlendFactorSourceAlpha:      ebiten.BlendFactorZero,
	BlendFactorDestinationRGB:   ebiten.BlendFactorZero,
	BlendFactorDestinationAlpha: ebiten.BlendFactorOne,
	BlendOperationRGB:           ebiten.BlendOperationAdd,
	BlendOperationAlpha:         ebiten.BlendOperationAdd,
}

// lighting is the renderer's light map state: the lights of the drawing
// pass, the shapes they are drawn with and the image the map is rendered
// into.
type lighting struct {
	off    bool // the player turned lighting off: every map is drawn by day
	lights []parts.Light
	img    *ebiten.Image // the light map, lightRes of the canvas
	shapes *ebiten.Image // a round pool at (0, 0), a cone at (lightTexPx, 0)
	add    batch         // lights, added
	op     ebiten.DrawImageOptions
	// the fills' colours as Fill takes them, made once per colour
	ambient  parts.Color
	ambientC color.Color
	whiteC   color.Color
}

func newLighting(d *drawer) lighting {
	l := lighting{lights: make([]parts.Light, 0, maxLights), add: newBatch(d), whiteC: color.White}
	l.add.op.Blend = ebiten.BlendLighter
	l.op.Blend = blendMultiply
	l.op.Filter = ebiten.FilterLinear
	return l
}

// release frees the light map's images.
func (l *lighting) release() {
	for _, img := range []**ebiten.Image{&l.img, &l.shapes} {
		if *img != nil {
			(*img).Deallocate()
			*img = nil
		}
	}
}

// lightShapes draws the two light shapes, white and premultiplied: a round
// pool falling off smoothly to its rim, and a cone from the middle of its
// left edge to its right edge whose light fades along it and towards its
// sides. A cone's texel (u, v), u along it and v across it in [−1, 1], is
// lit when |v| < u: its sides are the texture's diagonals, and a quad
// stretched to a light's length and spread draws any cone.
func lightShapes() *image.RGBA {
	const n = lightTexPx
	img := image.NewRGBA(image.Rect(0, 0, 2*n, n))
	set := func(x, y int, a float64) {
		v := uint8(math.Round(255 * min(1, max(0, a))))
		i := y*img.Stride + x*4
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = v, v, v, v
	}
	for y := range n {
		for x := range n {
			dx, dy := (float64(x)+0.5)/n*2-1, (float64(y)+0.5)/n*2-1
			if d := math.Sqrt(dx*dx + dy*dy); d < 1 {
				set(x, y, (1-d)*(1-d)) // no plateau at the centre, nothing at the rim
			}
			u, v := (float64(x)+0.5)/n, math.Abs(dy)
			if v < u {
				side := 1 - (v/u)*(v/u)
				along := (1 - u) * (1 - u) * math.Min(1, u*8) // soft at the lamp, fading to its reach
				set(n+x, y, along*side)
			}
		}
	}
	return img
}

// AddLight implements parts.Lighter.
func (g *gfx) AddLight(l parts.Light) {
	if g.light.off || len(g.light.lights) >= maxLights || !(l.Intensity > 0) {
		return
	}
	g.light.lights = append(g.light.lights, l)
}

// Lit implements parts.Lighter.
func (g *gfx) Lit() bool { return !g.light.off }

// DrawLightMap implements parts.Lighter.
func (g *gfx) DrawLightMap(m *parts.LightMap) {
	lt := &g.light
	if lt.off || m == nil || g.dst == nil {
		return
	}
	g.b.flush() // what was drawn before is what the map darkens
	lw, lh := max(1, int(math.Ceil(g.w*lightRes))), max(1, int(math.Ceil(g.h*lightRes)))
	if lt.img == nil || lt.img.Bounds().Dx() != lw || lt.img.Bounds().Dy() != lh {
		if lt.img != nil {
			lt.img.Deallocate()
		}
		lt.img = newOwnImage(lw, lh)
	}
	if lt.shapes == nil {
		lt.shapes = ebiten.NewImageFromImage(lightShapes())
	}
	if lt.ambientC == nil || lt.ambient != m.Ambient {
		lt.ambient, lt.ambientC = m.Ambient, toColor(m.Ambient.WithAlpha(1))
	}
	saved := g.k / parts.Shear
	sx := float64(lw) / g.w // light map px per device px
	if m.Level <= 0 {
		g.d.fill(lt.img, lt.ambientC)
	} else {
		g.d.fill(lt.img, lt.whiteC)
		g.Elevate(float64(m.Level))
		for _, r := range m.Floor {
			g.ambientRect(r, m.Ambient, sx, lw, lh)
		}
		g.b.flush()
	}
	for i := range lt.lights {
		l := &lt.lights[i]
		if l.Level != m.Level {
			continue
		}
		g.Elevate(l.H)
		x, y := g.dev(l.X, l.Y)
		x, y = x*sx, y*sx
		s := g.sx * sx // light map px per world unit at the light's height
		c := premul(parts.Color{R: l.Colour.R, G: l.Colour.G, B: l.Colour.B, A: 1})
		k := float32(min(parts.ClampIntensity(l.Intensity), 4))
		c = [4]float32{c[0] * k, c[1] * k, c[2] * k, 1}
		if l.Length > 0 {
			reach := l.Length * s
			if x+reach < 0 || y+reach < 0 || x-reach > float64(lw) || y-reach > float64(lh) {
				continue
			}
			spread := min(max(l.Spread, 0.01), 1.4)
			if m.Walls != nil {
				g.coneFan(l, m.Walls, spread, sx, c)
				continue
			}
			ca, sa := math.Cos(l.Angle), math.Sin(l.Angle)
			half := l.Length * math.Tan(spread) * s
			ax, ay := ca*reach, sa*reach // along
			px, py := -sa*half, ca*half  // across
			lt.add.use(lt.img, lt.shapes, ebiten.FilterLinear)
			lt.add.quad(x-px, y-py, x+ax-px, y+ay-py, x+ax+px, y+ay+py, x+px, y+py,
				lightTexPx, 0, 2*lightTexPx, lightTexPx, c)
			continue
		}
		r := l.Radius * s
		if !(r > 0) || x+r < 0 || y+r < 0 || x-r > float64(lw) || y-r > float64(lh) {
			continue
		}
		lt.add.use(lt.img, lt.shapes, ebiten.FilterLinear)
		lt.add.quad(x-r, y-r, x+r, y-r, x+r, y+r, x-r, y+r, 0, 0, lightTexPx, lightTexPx, c)
	}
	lt.add.flush()
	for i := range m.Tops {
		tp := &m.Tops[i]
		g.Elevate(tp.H)
		g.ambientRect(tp.Rect, m.Ambient, sx, lw, lh)
	}
	g.b.flush()
	g.Elevate(saved)
	lt.op.GeoM.Reset()
	lt.op.GeoM.Scale(g.w/float64(lw), g.h/float64(lh))
	g.d.image(g.dst, lt.img, &lt.op)
}

// coneRays is how many rays a headlight's cone is cast as against its
// level's walls: its fan has one triangle fewer.
const coneRays = 12

// coneFan adds the cone of light l, half-angle spread, to the light map as
// a fan of triangles from its lamp, each ray of it cut where it enters a
// wall: the light does not pass through buildings. The fan samples the
// cone shape as the whole cone's quad would, so an open street is lit as
// before. Its vertices go into the batch's buffers: nothing is allocated.
func (g *gfx) coneFan(l *parts.Light, walls *parts.WallGrid, spread, sx float64, c [4]float32) {
	lt := &g.light
	const n = lightTexPx
	half := l.Length * math.Tan(spread) // world units across the far end
	lt.add.use(lt.img, lt.shapes, ebiten.FilterLinear)
	b := &lt.add
	base := uint32(len(b.vs))
	x, y := g.dev(l.X, l.Y)
	b.vs = append(b.vs, vertex(x*sx, y*sx, n, n/2, c))
	for i := range coneRays {
		phi := -spread + 2*spread*float64(i)/(coneRays-1)
		sp, cp := math.Sincos(phi)
		sd, cd := math.Sincos(l.Angle + phi)
		d := walls.Reach(l.X, l.Y, cd, sd, l.Length/cp)
		along, across := d*cp, d*sp
		x, y := g.dev(l.X+cd*d, l.Y+sd*d)
		b.vs = append(b.vs, vertex(x*sx, y*sx, n+n*along/l.Length, n/2+n/2*across/half, c))
		if i > 0 {
			k := base + uint32(i)
			b.is = append(b.is, base, k, k+1)
		}
	}
}

// ambientRect fills world rectangle r, at the current height, with the
// ambient colour in the light map (lw×lh, sx of the canvas's px each).
func (g *gfx) ambientRect(r parts.Rect, ambient parts.Color, sx float64, lw, lh int) {
	x0, y0 := g.dev(r.X, r.Y)
	x1, y1 := g.dev(r.X+r.W, r.Y+r.H)
	x0, y0, x1, y1 = x0*sx, y0*sx, x1*sx, y1*sx
	if x1 < 0 || y1 < 0 || x0 > float64(lw) || y0 > float64(lh) {
		return
	}
	a := g.tex.shapes()
	u, v := float64(a.white.Min.X)+1.5, float64(a.white.Min.Y)+1.5
	g.b.use(g.light.img, a.img, ebiten.FilterNearest)
	g.b.quad(x0, y0, x1, y0, x1, y1, x0, y1, u, v, u, v, premul(ambient.WithAlpha(1)))
}

// SetLighting turns the night maps' lighting on or off (the player's
// setting); off, a night map is drawn as by day.
func (r *Renderer) SetLighting(on bool) { r.gfx.light.off = !on }
