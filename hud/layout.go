package hud

import (
	"math"

	"vimpclient/hud/geom"
)

// Rect is a rectangle in logical pixels; the models laid out beside the
// HUD (the server browser, the start screen, the settings overlay) use the
// same one.
type Rect = geom.Rect

// Auth form metrics in logical pixels.
const (
	AuthCardMaxW  = 480
	AuthTitleH    = 44
	AuthErrorH    = 20
	AuthRowH      = 40
	AuthStartH    = 40
	AuthHeadingH  = 24
	AuthLineH     = 20
	AuthLastGap   = 10
	AuthSepH      = 11
	AuthPad       = 16
	AuthSectionGp = 10
	AuthStepW     = 28 // a numeric field's − and + buttons
)

// AuthRow is the geometry of one visible field.
type AuthRow struct {
	Field   int // index in AuthForm.Fields
	Row     Rect
	Label   Rect
	Control Rect
	Choices []Rect // radio options, side by side
}

// AuthGeom is the auth form's layout for one window size; views draw it and
// clicks are resolved against it, so both agree by construction.
type AuthGeom struct {
	Card     Rect
	Title    Rect
	Errors   Rect
	Rows     []AuthRow
	Start    Rect
	Sections []Rect
}

// authCardW is the form card's width in a w-wide window.
func authCardW(w float64) float64 { return math.Min(AuthCardMaxW, w-20) }

// Layout computes the form's geometry for a w×h window.
func (f *AuthForm) Layout(w, h float64) AuthGeom {
	var g AuthGeom
	cw := authCardW(w)
	x := (w - cw) / 2
	inner := cw - 2*AuthPad
	errs := float64(len(f.ErrorLines())) * AuthErrorH
	ch := AuthPad + AuthTitleH + errs
	vis := f.Focusables()
	ch += float64(len(vis))*AuthRowH + 8 + AuthStartH + 8
	secH := make([]float64, len(f.Sections))
	for i, s := range f.Sections {
		hgt := 12.0
		if s.Heading != "" {
			hgt += AuthHeadingH
		}
		for _, l := range s.Lines {
			switch {
			case l.Separator:
				hgt += AuthSepH
			default:
				hgt += AuthLineH
			}
			if l.Last {
				hgt += AuthLastGap
			}
		}
		secH[i] = hgt
		ch += hgt + AuthSectionGp
	}
	ch += AuthPad
	y := math.Max(10, (h-ch)/2)
	g.Card = Rect{X: x, Y: y, W: cw, H: ch}
	cy := y + AuthPad
	g.Title = Rect{X: x + AuthPad, Y: cy, W: inner, H: AuthTitleH}
	cy += AuthTitleH
	g.Errors = Rect{X: x + AuthPad, Y: cy, W: inner, H: errs}
	cy += g.Errors.H
	for _, i := range vis {
		r := AuthRow{Field: i, Row: Rect{X: x + AuthPad, Y: cy, W: inner, H: AuthRowH}}
		r.Label = Rect{X: x + AuthPad, Y: cy + 4, W: inner * 0.4, H: AuthRowH - 8}
		r.Control = Rect{X: x + AuthPad + inner*0.4, Y: cy + 4, W: inner * 0.6, H: AuthRowH - 8}
		if fd := &f.Fields[i]; fd.Control == "radio" && len(fd.Choices) > 0 {
			n := float64(len(fd.Choices))
			for k := range fd.Choices {
				r.Choices = append(r.Choices, Rect{X: r.Control.X + float64(k)*r.Control.W/n, Y: r.Control.Y, W: r.Control.W / n, H: r.Control.H})
			}
		}
		g.Rows = append(g.Rows, r)
		cy += AuthRowH
	}
	cy += 8
	g.Start = Rect{X: x + (cw-160)/2, Y: cy, W: 160, H: AuthStartH}
	cy += AuthStartH + 8
	for _, hgt := range secH {
		g.Sections = append(g.Sections, Rect{X: x + AuthPad, Y: cy, W: inner, H: hgt})
		cy += hgt + AuthSectionGp
	}
	return g
}

// Click handles a mouse press at (x, y) in a w×h window: it focuses the row
// hit and acts on its control; a click on Start reports submit.
func (f *AuthForm) Click(w, h, x, y float64) (submit bool) {
	g := f.Layout(w, h)
	if g.Start.Contains(x, y) {
		f.Focus = len(f.Focusables())
		return true
	}
	for _, r := range g.Rows {
		if !r.Row.Contains(x, y) {
			continue
		}
		f.FocusField(r.Field)
		fd := &f.Fields[r.Field]
		switch fd.Control {
		case "radio":
			for k, c := range r.Choices {
				if c.Contains(x, y) {
					f.Choose(r.Field, k)
				}
			}
		case "select":
			if r.Control.Contains(x, y) {
				if x < r.Control.X+r.Control.W/3 {
					f.Step(-1)
				} else {
					f.Step(1)
				}
			}
		case "checkbox":
			if r.Control.Contains(x, y) {
				f.Step(0)
			}
		case "text":
			// A numeric field's − and + buttons sit at its ends.
			if fd.Numeric && r.Control.Contains(x, y) {
				switch {
				case x < r.Control.X+AuthStepW:
					f.Step(-1)
				case x >= r.Control.X+r.Control.W-AuthStepW:
					f.Step(1)
				}
			}
		}
		return false
	}
	return false
}
