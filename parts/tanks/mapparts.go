package tanks

import (
	"image"
	"image/color"
	"math"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
)

// MapFactory is the Map part class: static tile layers from MAP_DATA and
// the crates moved by the map set's rows.
type MapFactory struct{}

type mapBinding struct{ x, y, angle clientcore.BoundField }

// Bind implements parts.Factory.
func (MapFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	b := clientcore.NewBinder(k)
	mb := &mapBinding{x: b.Require("x"), y: b.Require("y"), angle: b.Require("angle")}
	b.Ignore("vx", "vy", "angvel")                                              // used by prediction only
	b.IgnoreRoles(clientcore.RoleZ, clientcore.RoleLevel, clientcore.RoleState) // a layered map's bodies: drawn flat here
	return mb, b.Complete()
}

// New implements parts.Binding: crates exist only through MAP_DATA, so a
// row for an unknown crate creates nothing.
func (b *mapBinding) New(*parts.Ctx, uint32, []float32) parts.Part { return nil }

// BuildMap implements parts.MapBuilder.
func (b *mapBinding) BuildMap(c *parts.Ctx, m *gamemap.Map) ([]parts.Part, map[uint32]parts.Part) {
	static := tiles.Build(c, m)
	dyn := map[uint32]parts.Part{}
	for i, body := range m.Dynamic {
		cr := &Crate{b: b, c: c, scale: m.Scale, body: body, X: body.X * m.Scale, Y: body.Y * m.Scale, Angle: body.AngleDeg * math.Pi / 180}
		if body.Img != "" {
			cr.tex = c.Tex.Asset(body.Img)
		}
		cr.h = c.Stage.Add(body.Layer, cr)
		dyn[uint32(i)] = cr
	}
	return static, dyn
}

// Crate is one dynamic map body, drawn from its top-left origin.
type Crate struct {
	b           *mapBinding
	c           *parts.Ctx
	scale       float64
	body        gamemap.Body
	X, Y, Angle float64
	tex         parts.Tex
	h           parts.Handle
}

// Update implements parts.Part: rows are in world units.
func (cr *Crate) Update(row []float32) {
	cr.X, cr.Y, cr.Angle = cr.b.x.Float64(row), cr.b.y.Float64(row), cr.b.angle.Float64(row)
}

// Step implements parts.Part.
func (cr *Crate) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (cr *Crate) Destroy() { cr.c.Stage.Remove(cr.h) }

var crateFallback = parts.RGB(0x8b6a3e)

// Draw implements parts.Drawable.
func (cr *Crate) Draw(g parts.Gfx) {
	w, h := cr.body.Width*cr.scale, cr.body.Height*cr.scale
	if tw, th, ok := cr.c.Tex.Size(cr.tex); ok && tw > 0 && th > 0 {
		m := parts.Identity().Scale(w/float64(tw), h/float64(th)).Rotate(cr.Angle).Translate(cr.X, cr.Y)
		g.Image(cr.tex, parts.Rect{W: float64(tw), H: float64(th)}, m, parts.White())
		return
	}
	g.Quad(parts.Identity().Scale(w, h).Rotate(cr.Angle).Translate(cr.X, cr.Y), crateFallback)
}

// MapRadarFactory is the MapRadar part class: wall tiles on the radar.
type MapRadarFactory struct{}

type mapRadarBinding struct{}

// Bind implements parts.Factory; MapRadar reads no row fields.
func (MapRadarFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	b := clientcore.NewBinder(k)
	b.Ignore("x", "y", "angle", "vx", "vy", "angvel")
	b.IgnoreRoles(clientcore.RoleZ, clientcore.RoleLevel, clientcore.RoleState)
	return mapRadarBinding{}, b.Complete()
}

// New implements parts.Binding: dynamic instances draw nothing on the radar.
func (mapRadarBinding) New(*parts.Ctx, uint32, []float32) parts.Part { return nil }

// BuildMap implements parts.MapBuilder: one image, 2 px per cell, with the
// top-left pixel white for every wall tile (a white square of side step/2).
func (mapRadarBinding) BuildMap(c *parts.Ctx, m *gamemap.Map) ([]parts.Part, map[uint32]parts.Part) {
	lv := &m.Levels[0]
	if lv.Cols == 0 || lv.Rows == 0 {
		return nil, nil
	}
	img := image.NewRGBA(image.Rect(0, 0, 2*lv.Cols, 2*lv.Rows))
	walls := tiles.Lookup(m.Static)
	for row := range lv.Rows {
		for col := range lv.Cols {
			if tiles.In(walls, lv.Tile(col, row)) {
				img.SetRGBA(2*col, 2*row, color.RGBA{255, 255, 255, 255})
			}
		}
	}
	r := &MapRadar{c: c, tex: c.Tex.Register("tanks.mapradar", img), w: float64(img.Bounds().Dx()), h: float64(img.Bounds().Dy()), k: m.CellWorld() / 2}
	r.hd = c.Stage.Add(2, r)
	return []parts.Part{r}, nil
}

// MapRadar draws the walls on the radar.
type MapRadar struct {
	c       *parts.Ctx
	tex     parts.Tex
	w, h, k float64
	hd      parts.Handle
}

// Update implements parts.Part.
func (r *MapRadar) Update([]float32) {}

// Step implements parts.Part.
func (r *MapRadar) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (r *MapRadar) Destroy() { r.c.Stage.Remove(r.hd) }

// Draw implements parts.Drawable.
func (r *MapRadar) Draw(g parts.Gfx) {
	g.Image(r.tex, parts.Rect{W: r.w, H: r.h}, parts.Identity().Scale(r.k, r.k), parts.White())
}
