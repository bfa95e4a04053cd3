package view

import (
	"image"
	"math"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"vimpclient/hud"
)

// --- auth form (z 8) ---

const (
	authTitleSize = 24
	authSize      = 16
	authSmall     = 12
	authHelpSize  = 14
)

func (v *View) drawAuth(dst *ebiten.Image, f *hud.AuthForm, w, h, now float64) {
	v.fill(dst, hud.Rect{W: w, H: h}, colPage)
	f.WrapErrors(v, w)
	g := f.Layout(w, h)
	v.fill(dst, g.Card, rgb(0x2c, 0x2c, 0x2c))
	v.stroke(dst, g.Card, 1, rgb(0x99, 0x99, 0x99))
	title := f.Title
	if title == "" {
		title = "VIMP"
	}
	title = v.ellipsis(title, true, authTitleSize, g.Title.W)
	v.text(dst, title, true, authTitleSize, g.Title.X+(g.Title.W-v.textW(title, true, authTitleSize))/2, g.Title.Y+6, colWhite)
	for i, e := range f.ErrorLines() {
		v.text(dst, v.ellipsis(e, false, authSmall+2, g.Errors.W), false, authSmall+2, g.Errors.X, g.Errors.Y+float64(i)*hud.AuthErrorH+2, colError)
	}
	focused := f.FocusedField()
	caretOn := math.Mod(now, 1000) < 600
	for _, row := range g.Rows {
		fd := &f.Fields[row.Field]
		isFocus := focused == fd
		labelY := row.Label.Y + (row.Label.H-authSize*1.2)/2
		if fd.Error != "" {
			labelY = row.Label.Y - 2
			v.text(dst, v.ellipsis(fd.Error, false, authSmall, row.Label.W-6), false, authSmall, row.Label.X, row.Label.Y+row.Label.H-authSmall*1.2+2, colError)
		}
		v.text(dst, v.ellipsis(fd.Label, false, authSize, row.Label.W-6), false, authSize, row.Label.X, labelY, colChatText)
		border := rgb(0x66, 0x66, 0x66)
		if isFocus {
			border = colCmdBorder
		}
		if fd.Error != "" {
			border = colError
		}
		c := row.Control
		ty := c.Y + (c.H-authSize*1.2)/2
		switch fd.Control {
		case "text":
			v.fill(dst, c, rgb(0x11, 0x11, 0x11))
			v.stroke(dst, c, 2, border)
			tx, room := c.X+6, c.W-16
			if fd.Numeric { // − and + at the ends, the number between
				v.drawStepper(dst, c, ty)
				tx, room = c.X+hud.AuthStepW+6, c.W-2*hud.AuthStepW-12
			}
			val := fd.Value
			for v.textW(val, false, authSize) > room && len(val) > 0 {
				_, n := utf8.DecodeRuneInString(val)
				val = val[n:]
			}
			v.text(dst, val, false, authSize, tx, ty, colWhite)
			if isFocus && caretOn {
				cx := tx + v.textW(val, false, authSize) + 1
				v.fill(dst, hud.Rect{X: cx, Y: c.Y + 6, W: 2, H: c.H - 12}, colWhite)
			}
		case "select":
			v.fill(dst, c, rgb(0x11, 0x11, 0x11))
			v.stroke(dst, c, 2, border)
			v.text(dst, "<", true, authSize, c.X+6, ty, colChatText)
			v.text(dst, ">", true, authSize, c.X+c.W-16, ty, colChatText)
			val := v.ellipsis(fd.ValueLabel(), false, authSize, c.W-40)
			v.text(dst, val, false, authSize, c.X+(c.W-v.textW(val, false, authSize))/2, ty, colWhite)
		case "checkbox":
			box := hud.Rect{X: c.X, Y: c.Y + (c.H-20)/2, W: 20, H: 20}
			v.fill(dst, box, rgb(0x11, 0x11, 0x11))
			v.stroke(dst, box, 2, border)
			if fd.Checked {
				v.fill(dst, hud.Rect{X: box.X + 5, Y: box.Y + 5, W: 10, H: 10}, colWhite)
			}
		case "radio":
			if isFocus {
				v.stroke(dst, c, 2, border)
			}
			for k, cr := range row.Choices {
				cx, cy := (cr.X+12)*v.s, (cr.Y+cr.H/2)*v.s
				// Drawn into the button's own square: an anti-aliased
				// vector draw clears and composites offscreen images the
				// size of its destination, twice its pixels.
				rr := 9*v.s + 2
				btn := dst.SubImage(image.Rect(int(cx-rr), int(cy-rr), int(cx+rr)+1, int(cy+rr)+1)).(*ebiten.Image)
				vector.StrokeCircle(btn, float32(cx), float32(cy), float32(7*v.s), float32(2*v.s), colChatText, true)
				if fd.Choices[k] == fd.Value {
					vector.DrawFilledCircle(btn, float32(cx), float32(cy), float32(4*v.s), colWhite, true)
				}
				label := fd.Choices[k]
				if k < len(fd.ChoiceLabels) {
					label = fd.ChoiceLabels[k]
				}
				v.text(dst, v.ellipsis(label, false, authSize-2, cr.W-26), false, authSize-2, cr.X+24, cr.Y+(cr.H-(authSize-2)*1.2)/2, colWhite)
			}
		}
	}
	start := rgb(0, 0x66, 0x66)
	if f.StartFocused() {
		start = colCmdBorder
	}
	if f.Sent() {
		start = rgb(0x44, 0x44, 0x44)
	}
	v.fill(dst, g.Start, start)
	v.stroke(dst, g.Start, 2, colWhite)
	v.text(dst, "Start", true, authSize, g.Start.X+(g.Start.W-v.textW("Start", true, authSize))/2, g.Start.Y+(g.Start.H-authSize*1.2)/2, colWhite)
	for i, sec := range f.Sections {
		r := g.Sections[i]
		v.box(dst, r, 4, 1, rgb(0x44, 0x44, 0x44), rgb(0x99, 0x99, 0x99))
		y := r.Y + 6
		if sec.Heading != "" {
			hd := v.ellipsis(sec.Heading, true, authHelpSize+1, r.W-12)
			v.text(dst, hd, true, authHelpSize+1, r.X+(r.W-v.textW(hd, true, authHelpSize+1))/2, y, colWhite)
			y += hud.AuthHeadingH
		}
		for _, l := range sec.Lines {
			if l.Separator {
				v.fill(dst, hud.Rect{X: r.X + 8, Y: y + 5, W: r.W - 16, H: 1}, rgb(0x99, 0x99, 0x99))
				y += hud.AuthSepH
			} else {
				keys := l.Keys
				kw := 0.0
				if keys != "" {
					keys = v.ellipsis(keys, true, authHelpSize, r.W*0.5)
					v.text(dst, keys, true, authHelpSize, r.X+8, y, colWhite)
					kw = v.textW(keys+" - ", true, authHelpSize)
					v.text(dst, "-", false, authHelpSize, r.X+8+v.textW(keys+" ", true, authHelpSize), y, colChatText)
				}
				v.text(dst, v.ellipsis(l.Text, false, authHelpSize, r.W-16-kw), false, authHelpSize, r.X+8+kw, y, colChatText)
				y += hud.AuthLineH
			}
			if l.Last {
				y += hud.AuthLastGap
			}
		}
	}
}

// WrapAuthError implements hud.ErrorWrapper in the error area's font.
func (v *View) WrapAuthError(line string, maxW float64) []string {
	return v.wrap(line, false, authSmall+2, maxW, 0)
}

// drawStepper draws a numeric field's − and + buttons at the ends of c.
func (v *View) drawStepper(dst *ebiten.Image, c hud.Rect, ty float64) {
	for _, b := range [2]struct {
		x     float64
		label string
	}{{c.X, "−"}, {c.X + c.W - hud.AuthStepW, "+"}} {
		r := hud.Rect{X: b.x + 2, Y: c.Y + 2, W: hud.AuthStepW - 4, H: c.H - 4}
		v.fill(dst, r, rgb(0x33, 0x33, 0x33))
		v.text(dst, b.label, true, authSize, r.X+(r.W-v.textW(b.label, true, authSize))/2, ty, colChatText)
	}
}
