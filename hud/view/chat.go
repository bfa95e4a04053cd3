package view

import (
	"math"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
)

// --- chat (z 3) ---

const (
	chatSize = 14
	cmdSize  = 17
)

func (v *View) drawChat(dst *ebiten.Image, c *hud.Chat, l *hud.ScreenLayout, now float64) {
	cw, x := l.Chat.W, l.Chat.X
	// Lines bottom-up, newest last; fading lines are listed after the others
	// in the model but were older, so draw them above.
	ls := c.Lines()
	y := l.H - hud.ChatBottom
	order := v.order[:0]
	for i := range ls {
		if ls[i].Fading {
			order = append(order, i)
		}
	}
	for i := range ls {
		if !ls[i].Fading {
			order = append(order, i)
		}
	}
	v.order = order
	// Measure from the bottom: newest at the bottom; lines that would rise
	// above the chat's box are not drawn.
	bottom, widest := y, 0.0
	for k := len(order) - 1; k >= 0; k-- {
		line := &ls[order[k]]
		prefix := line.Prefix
		pw := v.textW(prefix, true, chatSize)
		wrapped := v.wrap(line.Text, false, chatSize, cw, pw)
		n := len(wrapped)
		if y-float64(n)*hud.ChatLineH < l.Chat.Y-0.5 {
			break
		}
		y -= float64(n) * hud.ChatLineH
		a := line.Alpha(now)
		nameCol, ok := TeamColor(v.palette, line.Team)
		if line.HasNameColor {
			nameCol, ok = line.NameColor, true
		}
		if line.System {
			nameCol, ok = colSystem, true
		}
		if !ok {
			nameCol = colChatText
		}
		v.shadowText(dst, prefix, true, chatSize, x, y, fade(nameCol, a))
		for i, part := range wrapped {
			lx := x
			if i == 0 {
				lx += pw
			}
			widest = max(widest, lx-x+v.textW(part, false, chatSize))
			v.shadowText(dst, part, false, chatSize, lx, y+float64(i)*hud.ChatLineH, fade(colChatText, a))
		}
	}
	if widest > 0 {
		v.drawn = append(v.drawn, hud.Rect{X: x, Y: y, W: widest, H: bottom - y})
	}
	if c.Open() {
		r := l.Command
		v.box(dst, r, 5, 3, rgba(0, 0, 0, 0.9), fade(colCmdBorder, 0.9))
		in := c.Input()
		// The newest characters stay visible: cut from the front.
		for v.textW(in, false, cmdSize) > r.W-20 && len(in) > 1 {
			_, n := utf8.DecodeRuneInString(in)
			in = in[n:]
		}
		v.text(dst, in, false, cmdSize, r.X+6, r.Y+5, colWhite)
		if math.Mod(now, 1000) < 600 { // the caret
			cx := r.X + 6 + v.textW(in, false, cmdSize) + 1
			v.fill(dst, hud.Rect{X: cx, Y: r.Y + 7, W: 2, H: r.H - 14}, colWhite)
		}
	}
}

// --- vote (z 5) ---

const (
	voteSize            = 14
	voteHintSize        = 12
	waitingLabel        = "Waiting:"
	voteX, voteY, voteW = hud.VoteX, hud.VoteY, hud.VoteW
	voteAboutLines      = 3 // the M menu's About line keeps to its column
)

func (v *View) drawVote(dst *ebiten.Image, w, queued *hud.VoteWindow, now float64) {
	inner := voteW - 16.0
	title := v.wrap(w.Title, true, voteSize, inner, 0)
	if len(title) > hud.VoteMaxTitleLines { // the vote keeps to its column
		title = title[:hud.VoteMaxTitleLines]
	}
	var about []string
	if w.About != "" {
		about = v.wrap(w.About, false, voteHintSize, inner, 0)
		if len(about) > voteAboutLines {
			about = about[:voteAboutLines]
		}
	}
	opts := w.PageLabels()
	n := len(title) + len(about) + len(opts) + 1
	if w.HasBack() {
		n++
	}
	if w.HasMore() {
		n++
	}
	if queued != nil {
		n++
	}
	r := hud.Rect{X: voteX, Y: voteY, W: voteW, H: float64(n)*hud.VoteLineH + 20}
	border := colWhite
	if w.Engine { // the platform's vote, not the host's
		border = colGold
	}
	v.box(dst, r, 5, 3, rgba(3, 100, 155, 0.5), border)
	y := r.Y + 8
	for _, t := range title {
		v.text(dst, t, true, voteSize, r.X+8, y, colWhite)
		y += hud.VoteLineH
	}
	for _, t := range about {
		v.text(dst, t, false, voteHintSize, r.X+8, y+2, colEmpty)
		y += hud.VoteLineH
	}
	y += 2
	for _, o := range opts {
		v.text(dst, v.ellipsis(o, false, voteSize, inner), false, voteSize, r.X+8, y, colWhite)
		y += hud.VoteLineH
	}
	if w.HasBack() {
		v.text(dst, "8. Back", false, voteSize, r.X+8, y, colWhite)
		y += hud.VoteLineH
	}
	if w.HasMore() {
		v.text(dst, "9. More", false, voteSize, r.X+8, y, colWhite)
		y += hud.VoteLineH
	}
	v.text(dst, "0. Exit", false, voteSize, r.X+8, y, colWhite)
	if queued != nil { // what waits behind this one
		y += hud.VoteLineH
		lw := v.textW(waitingLabel, false, voteHintSize)
		v.text(dst, waitingLabel, false, voteHintSize, r.X+8, y+2, colEmpty)
		v.text(dst, v.ellipsis(queued.Title, false, voteHintSize, inner-lw-4), false, voteHintSize, r.X+12+lw, y+2, colEmpty)
	}
	if !w.TimeOff && w.Duration > 0 {
		// The lifetime left as a thin bar on a dim track, inside the
		// padding and clear of the border: drawn against the border it read
		// as a stray thickening of the box's bottom edge.
		left := math.Max(0, math.Min(1, (w.Deadline-now)/w.Duration))
		track := hud.Rect{X: r.X + 8, Y: r.Y + r.H - 9, W: r.W - 16, H: 2}
		v.fill(dst, track, fade(colWhite, 0.25))
		track.W *= left
		v.fill(dst, track, colChatText)
	}
}
