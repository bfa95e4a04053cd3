// Package parts holds the entity renderers ("parts") and the dispatcher that
// creates, updates and removes them from the client core's output. Parts draw
// through the Gfx interface, so their logic is tested without a display; the
// Ebiten backend lives in package render.
package parts

import (
	"image"
	"math"
)

// Color is a non-premultiplied colour with channels in [0, 1].
type Color struct{ R, G, B, A float32 }

// RGB returns an opaque colour from 0xRRGGBB.
func RGB(hex uint32) Color {
	return Color{float32(hex>>16&0xff) / 255, float32(hex>>8&0xff) / 255, float32(hex&0xff) / 255, 1}
}

// WithAlpha returns c with alpha a.
func (c Color) WithAlpha(a float64) Color { c.A = float32(a); return c }

// White is opaque white (no tint).
var white = Color{1, 1, 1, 1}

// White returns opaque white, the neutral tint.
func White() Color { return white }

// Vec is a 2D point or vector in world units.
type Vec struct{ X, Y float64 }

// Affine maps (x, y) to (A·x + C·y + TX, B·x + D·y + TY).
type Affine struct{ A, B, C, D, TX, TY float64 }

// Identity is the identity transform.
func Identity() Affine { return Affine{A: 1, D: 1} }

// Then returns the transform applying m first, then n.
func (m Affine) Then(n Affine) Affine {
	return Affine{
		A: n.A*m.A + n.C*m.B, B: n.B*m.A + n.D*m.B,
		C: n.A*m.C + n.C*m.D, D: n.B*m.C + n.D*m.D,
		TX: n.A*m.TX + n.C*m.TY + n.TX, TY: n.B*m.TX + n.D*m.TY + n.TY,
	}
}

// Scale appends a scale.
func (m Affine) Scale(sx, sy float64) Affine { return m.Then(Affine{A: sx, D: sy}) }

// Rotate appends a rotation by a radians (clockwise on screen, y down).
func (m Affine) Rotate(a float64) Affine {
	s, c := math.Sincos(a)
	return m.Then(Affine{A: c, B: s, C: -s, D: c})
}

// Translate appends a translation.
func (m Affine) Translate(x, y float64) Affine { m.TX += x; m.TY += y; return m }

// Apply maps a point.
func (m Affine) Apply(x, y float64) (float64, float64) {
	return m.A*x + m.C*y + m.TX, m.B*x + m.D*y + m.TY
}

// Tex is a texture handle resolved by the backend.
type Tex uint16

// NoTex is the zero handle: nothing to draw.
const NoTex Tex = 0

// Rect is an axis-aligned rectangle.
type Rect struct{ X, Y, W, H float64 }

// Gfx is the drawing surface of one canvas for one frame. Coordinates are
// world units; the backend applies the canvas's stage transform. Calls must
// not retain their slice arguments.
type Gfx interface {
	// Image draws the source rectangle src of tex, with its top-left corner
	// mapped by m from texture pixels to world units, tinted (multiplied) by c.
	Image(tex Tex, src Rect, m Affine, c Color)
	// Quad fills the unit square [0,1]² mapped by m.
	Quad(m Affine, c Color)
	// Disc fills a circle.
	Disc(x, y, r float64, c Color)
	// Ring strokes a circle of radius r with width w centred on the line.
	Ring(x, y, r, w float64, c Color)
	// Polyline strokes pts with round caps and joins.
	Polyline(pts []Vec, width float64, c Color)
	// Label draws a short text centred at (x, y), h world units tall.
	Label(s string, x, y, h float64, c Color)
	// View is the world rectangle visible at the current height (for
	// culling); its centre is the camera centre.
	View() Rect
	// Elevate sets the height, in levels above the ground, at which the
	// calls that follow draw, until the next Elevate (a stage sets 0 before
	// each of its entries): what stands higher is drawn nearer the viewer,
	// as Project says.
	Elevate(h float64)
	// Mesh draws triangles whose vertices each stand at their own height
	// (a ramp's slope, a wall's sides), textured from tex (texture pixels)
	// and tinted by c; tex NoTex fills them with c.
	Mesh(tex Tex, vs []MeshVertex, is []uint16, c Color)
	// Static draws a static layer at the current height. The backend may
	// render the layer once, in pieces, and draw those pieces afterwards.
	Static(l *StaticLayer)
	// Decals draws a decal layer at the current height, first painting
	// the marks left on it since it was last drawn (Take). The backend
	// keeps the painted ground and fades it as the layer says.
	Decals(l *DecalLayer)
}

// MeshVertex is one vertex of Gfx.Mesh: a world point at a height in
// levels, and the texture point drawn there.
type MeshVertex struct {
	X, Y, H float64
	U, V    float64
}

// Shear is the 2.5D height projection's strength: a point h levels above
// the ground is drawn h·Shear of its distance from the camera centre
// further out, and whatever stands there is scaled by 1 + h·Shear, so a
// body on a slab moves and grows exactly as the slab does.
const Shear = 0.22

// Project returns where a world point h levels above the ground is drawn
// (in ground world units) for the camera centre cam.
func Project(x, y, h float64, cam Vec) (float64, float64) {
	k := h * Shear
	return x + (x-cam.X)*k, y + (y-cam.Y)*k
}

// Centre is the centre of a rectangle: the camera centre of a Gfx view.
func (r Rect) Centre() Vec { return Vec{X: r.X + r.W/2, Y: r.Y + r.H/2} }

// Textures gives parts their images.
type Textures interface {
	// Baked returns a texture produced by the game's bakers.
	Baked(name string) (Tex, bool)
	// Asset returns the handle of an image file under the host's assets
	// (assetsBase + "img/" + file), requesting it if needed.
	Asset(file string) Tex
	// Register adds an image built at run time (e.g. from MAP_DATA); a
	// second call with the same name replaces it.
	Register(name string, img *image.RGBA) Tex
	// Size reports a texture's size; ok is false while it is not loaded
	// (or was refused), in which case the part draws its procedural fallback.
	Size(t Tex) (w, h int, ok bool)
	// Bake installs the game's procedural textures by name, replacing what
	// an earlier bake installed; Baked finds them.
	Bake(imgs map[string]*image.RGBA)
}

// NoTextures stands in for textures where nothing is drawn (a headless
// session's parts still run for their sounds): every image is "not loaded",
// which parts answer with their procedural fallback.
type NoTextures struct{}

func (NoTextures) Baked(string) (Tex, bool)         { return NoTex, false }
func (NoTextures) Asset(string) Tex                 { return NoTex }
func (NoTextures) Register(string, *image.RGBA) Tex { return NoTex }
func (NoTextures) Size(Tex) (int, int, bool)        { return 0, 0, false }
func (NoTextures) Bake(map[string]*image.RGBA)      {}
