package view

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
	"vimpclient/hud/settingsmenu"
)

// --- the settings overlay (above everything) ---

const (
	settingsTitleSize = 18
	settingsHeadSize  = 13
	settingsRowSize   = 14
	settingsHintSize  = 12
)

// Colours of the overlay.
var (
	colSettingsFill = rgba(20, 24, 28, 0.96)
	colSliderFill   = rgb(0x33, 0xcc, 0xbb)
	colOn           = rgb(0x77, 0xee, 0x99)
	colFocus        = rgba(0x33, 0x99, 0x99, 0.35)
)

// settingsHint is the overlay's key line.
const settingsHint = "↑↓ choose · ←→ change · Enter toggle or bind · Del default · Esc close"

// DrawSettings draws the settings overlay over everything, dimming the game
// behind it. scale is the device scale (times the HUD scale) as for Draw.
func (v *View) DrawSettings(dst *ebiten.Image, m *settingsmenu.Menu, now, scale float64) {
	if !m.Open {
		return
	}
	if scale <= 0 {
		scale = 1
	}
	v.s = scale
	v.fonts.Poll()
	b := dst.Bounds()
	w, h := float64(b.Dx())/scale, float64(b.Dy())/scale
	v.fill(dst, hud.Rect{W: w, H: h}, rgba(0, 0, 0, 0.55))
	g := m.Layout(w, h)
	v.box(dst, g.Card, 8, 2, colSettingsFill, colCmdBorder)
	v.text(dst, "Settings", true, settingsTitleSize, g.Title.X, g.Title.Y+4, colWhite)
	if g.More[0] {
		v.text(dst, "▲ more", false, settingsHintSize, g.Title.X+g.Title.W-v.textW("▲ more", false, settingsHintSize), g.Title.Y+10, colChatText)
	}
	for _, rg := range g.Rows {
		v.drawSettingsRow(dst, m, rg, now)
	}
	f := g.Footer
	status := m.Status
	col := colGold
	if status == "" {
		status, col = "F10 opens and closes this overlay; changes apply and are saved at once", colChatText
	}
	if g.More[1] {
		more := "▼ more"
		v.text(dst, more, false, settingsHintSize, f.X+f.W-v.textW(more, false, settingsHintSize), f.Y+4, colChatText)
		status = v.ellipsis(status, false, settingsHintSize, f.W-v.textW(more, false, settingsHintSize)-10)
	} else {
		status = v.ellipsis(status, false, settingsHintSize, f.W)
	}
	v.text(dst, status, false, settingsHintSize, f.X, f.Y+4, col)
	hint := v.ellipsis(settingsHint, false, settingsHintSize, f.W)
	v.text(dst, hint, false, settingsHintSize, f.X, f.Y+24, colChatText)
}

// drawSettingsRow draws one row: a heading, or a label with its value (a
// slider's bar, a toggle's state, a binding's keys and clash).
func (v *View) drawSettingsRow(dst *ebiten.Image, m *settingsmenu.Menu, rg settingsmenu.RowGeom, now float64) {
	r := &m.Rows[rg.Index]
	row := rg.Row
	if r.Kind == settingsmenu.RowHeading {
		v.text(dst, v.ellipsis(r.Label, true, settingsHeadSize, row.W), true, settingsHeadSize, row.X, row.Y+7, colGold)
		return
	}
	focused := rg.Index == m.Focus
	if focused {
		v.box(dst, row, 4, 0, colFocus, colFocus)
	}
	ty := row.Y + (row.H-settingsRowSize*1.2)/2
	valueX := row.X + row.W*0.45
	v.text(dst, v.ellipsis(r.Label, false, settingsRowSize, valueX-row.X-16), false, settingsRowSize, row.X+8, ty, colWhite)
	switch r.Kind {
	case settingsmenu.RowSlider:
		bar := settingsmenu.SliderBar(row)
		v.fill(dst, bar, colEmpty)
		v.fill(dst, hud.Rect{X: bar.X, Y: bar.Y, W: bar.W * math.Max(0, math.Min(1, r.Fraction)), H: bar.H}, colSliderFill)
		v.text(dst, r.Value, false, settingsRowSize, row.X+row.W-8-v.textW(r.Value, false, settingsRowSize), ty, colWhite)
	case settingsmenu.RowToggle, settingsmenu.RowChoice:
		c := colChatText
		if r.Value == "On" || r.Kind == settingsmenu.RowChoice {
			c = colOn
		}
		// "‹ value ›" in three pieces: no string built per frame.
		x := valueX
		for _, part := range [3]string{"‹ ", r.Value, " ›"} {
			v.text(dst, part, false, settingsRowSize, x, ty, c)
			x += v.textW(part, false, settingsRowSize)
		}
	case settingsmenu.RowKey, settingsmenu.RowPad:
		value, c := r.Value, colWhite
		if focused && m.Capture != settingsmenu.CaptureNone {
			value = "press a key…"
			if m.Capture == settingsmenu.CapturePad {
				value = "press a gamepad button…"
			}
			// A slow pulse while the overlay waits.
			c = fade(colGold, 0.6+0.4*math.Abs(math.Sin(now/400)))
		}
		vw := v.textW(value, false, settingsRowSize)
		room := row.X + row.W - 8 - valueX
		v.text(dst, v.ellipsis(value, false, settingsRowSize, room), false, settingsRowSize, valueX, ty, c)
		if r.Conflict != "" && vw+20 < room {
			cf := v.ellipsis(r.Conflict, false, settingsHintSize, room-vw-16)
			v.text(dst, cf, false, settingsHintSize, row.X+row.W-8-v.textW(cf, false, settingsHintSize), ty+2, colError)
		}
	}
}
