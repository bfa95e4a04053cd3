package view

import (
	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
	"vimpclient/hud/serverbrowser"
)

// drawAccount draws the sign-in line: the state in words (or the paste
// field while it is open) and the account buttons on its right.
func (v *View) drawAccount(dst *ebiten.Image, b *serverbrowser.Browser, s hud.Rect, a serverbrowser.AccountGeom, now float64) {
	textW := s.W - 16
	if a.SignIn.W > 0 {
		textW = a.SignIn.X - s.X - 24
	} else if a.SignOut.W > 0 {
		textW = a.SignOut.X - s.X - 24
	}
	const size = browserHintSize + 1
	switch {
	case b.Pasting():
		field := hud.Rect{X: s.X + 12, Y: s.Y, W: textW + 4, H: s.H - 2}
		v.box(dst, field, 4, 1, colFieldFill, colCmdBorder)
		line := v.ellipsis(b.PasteText(), false, size, field.W-20)
		v.text(dst, line, false, size, field.X+6, s.Y+3, colWhite)
		if int(now/530)%2 == 0 {
			v.fill(dst, hud.Rect{X: field.X + 8 + v.textW(line, false, size), Y: s.Y + 4, W: 1.5, H: s.H - 10}, colWhite)
		}
	case b.SigningIn():
		line := v.ellipsis("Signing in in your browser… P pastes a token instead · Esc cancels", false, size, textW-30)
		v.text(dst, line, false, size, s.X+14, s.Y+3, colGold)
		v.dots(dst, s.X+20+v.textW(line, false, size), s.Y+9, now)
	default:
		col := colGold
		switch b.SignIn.State {
		case serverbrowser.SignedIn:
			col = colOn
		case serverbrowser.SignInExpired, serverbrowser.SignInBad:
			col = colError
		}
		v.text(dst, v.ellipsis(b.SignInText(), false, size, textW), false, size, s.X+14, s.Y+3, col)
	}
	if a.SignIn.W > 0 {
		v.button(dst, a.SignIn, "Sign in (S)", !b.SigningIn())
	}
	if a.Paste.W > 0 {
		v.button(dst, a.Paste, "Paste token (P)", !b.Pasting())
	}
	if a.SignOut.W > 0 {
		v.button(dst, a.SignOut, "Sign out (O)", true)
	}
}
