// Package generic draws any vimp game it does not know: each hot entity as a
// labelled disc with a heading tick, each event row as a short-lived marker.
// Fields are found by name once, when the schema arrives.
package generic

import (
	"math"
	"strconv"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/snapschema"
)

// markerMs is how long an event marker stays.
const markerMs = 1000

// Factory is the generic part class.
type Factory struct{}

type binding struct {
	key         string
	list        bool
	x, y        clientcore.BoundField
	angle, team clientcore.BoundField
	hasPos      bool
}

// find binds the first of the names the key has (unbound when none).
func find(b *clientcore.Binder, names ...string) clientcore.BoundField {
	for _, n := range names {
		if f := b.Optional(n, 0); f.Bound() {
			return f
		}
	}
	return clientcore.BoundField{}
}

// Bind implements parts.Factory; it never fails.
func (Factory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	fb := clientcore.NewBinder(k)
	b := &binding{
		key:   k.Name,
		list:  k.Kind == snapschema.KindList16,
		x:     find(fb, "x", "posX", "px", "p0x", "startX", "endX"),
		y:     find(fb, "y", "posY", "py", "p0y", "startY", "endY"),
		angle: find(fb, "angle", "rotation", "heading", "dir"),
		team:  find(fb, "team", "color", "colour", "teamId", "side"),
	}
	b.hasPos = b.x.Bound() && b.y.Bound()
	return b, nil
}

// Generic reports that this binding is the generic renderer.
func (*binding) Generic() bool { return true }

var palette = [8]parts.Color{
	parts.RGB(0xff5566), parts.RGB(0x77eedd), parts.RGB(0xffee55), parts.RGB(0x9bde3c),
	parts.RGB(0x5468ff), parts.RGB(0xb15cff), parts.RGB(0xff9f1c), parts.RGB(0xf7f7f7),
}

// New implements parts.Binding.
func (b *binding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	if !b.hasPos {
		return nil // nothing positional to show
	}
	e := &Entity{b: b, c: c, label: b.key + ":" + strconv.FormatUint(uint64(id), 10), life: -1}
	if b.list {
		e.life = markerMs
	}
	e.Update(row)
	z := 3
	if b.list {
		z = 4
	}
	e.h = c.Stage.Add(z, e)
	return e
}

// Entity is one generic entity or event marker.
type Entity struct {
	b        *binding
	c        *parts.Ctx
	label    string
	X, Y     float64
	Angle    float64
	hasAngle bool
	colour   parts.Color
	life     float64 // remaining ms for markers, <0 for entities
	h        parts.Handle
	line     [2]parts.Vec
}

// Update implements parts.Part.
func (e *Entity) Update(row []float32) {
	e.X, e.Y = e.b.x.Float64(row), e.b.y.Float64(row)
	e.hasAngle = e.b.angle.Bound()
	e.Angle = e.b.angle.Float64(row)
	e.colour = palette[0]
	if e.b.team.Bound() {
		t := e.b.team.Float64(row)
		if t >= 0 && t < 1e9 {
			e.colour = palette[int(t)%len(palette)]
		}
	}
}

// Step implements parts.Part.
func (e *Entity) Step(dt float64) bool {
	if e.life < 0 {
		return true
	}
	e.life -= dt
	return e.life > 0
}

// Destroy implements parts.Part.
func (e *Entity) Destroy(parts.Removal) { e.c.Stage.Remove(e.h) }

// Draw implements parts.Drawable: sizes follow the view so every game is
// readable whatever its world scale.
func (e *Entity) Draw(g parts.Gfx) {
	v := g.View()
	r := v.W / 160
	if e.life >= 0 {
		g.Ring(e.X, e.Y, r*(1.5-e.life/markerMs), r/4, e.colour.WithAlpha(e.life/markerMs))
		return
	}
	g.Disc(e.X, e.Y, r, e.colour)
	if e.hasAngle {
		s, c := math.Sincos(e.Angle)
		e.line[0] = parts.Vec{X: e.X, Y: e.Y}
		e.line[1] = parts.Vec{X: e.X + c*r*2, Y: e.Y + s*r*2}
		g.Polyline(e.line[:], r/4, parts.White())
	}
	g.Label(e.label, e.X, e.Y-r*2, r*1.2, parts.White())
}
