package view

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
)

// --- scoreboard (z 7, after the panel) ---

// The scoreboard's tables and the leaderboard under them share one text
// size and line height.
const (
	statSize  = leadSize
	statLineH = leadLineH
	leadSize  = 12
	leadLineH = 18
	statPad   = 10 // above the first line and below the last
)

func tableColor(palette string, t *hud.StatTable, index int) color.RGBA {
	if t.Name == "spectators" {
		c, _ := TeamColor(palette, 3)
		return c
	}
	if c, ok := TeamColor(palette, index+1); ok {
		return c
	}
	return colChatText
}

func (v *View) drawStat(dst *ebiten.Image, s *hud.Stat, l *hud.ScreenLayout) {
	r := l.Stat
	r.H = min(r.H, statHeight(s)) // as tall as its lines, at most the room there is
	// Opaque: the table is read over whatever is under it (a round's
	// banner, the world's bright art), none of which may show through.
	v.box(dst, r, 5, 3, rgb(25, 25, 25), colWhite)
	y := r.Y + statPad
	if s.LeaderboardMode() {
		v.drawLeaderboard(dst, s, r, y)
		return
	}
	inner := r.W - 20
	y = v.statRow(dst, r, y, s.Labels, "", true, colWhite, colWhite)
	for ti := range s.Tables {
		t := &s.Tables[ti]
		col := tableColor(v.palette, t, ti)
		y += 4
		y = v.statRow(dst, r, y, t.Head, t.Title, true, col, col)
		v.fill(dst, hud.Rect{X: r.X + 10, Y: y - 2, W: inner, H: 1}, fade(col, 0.6))
		for _, rw := range t.Rows {
			cells := rw.Cells
			if t.Name == "spectators" && len(cells) > 1 {
				cells = cells[:1] // the spectators' table shows names only
			}
			own := s.Own != "" && rw.ID == s.Own
			if own {
				v.fill(dst, hud.Rect{X: r.X + 6, Y: y - 1, W: inner + 8, H: statLineH}, fade(col, 0.18))
			}
			name := col // the name in the colour the chat gives it, if any
			if len(cells) > 0 {
				if c, ok := s.NameColour(cells[0]); ok {
					name = c
				}
			}
			y = v.statRow(dst, r, y, cells, "", own, col, name)
		}
	}
	if len(s.Leader) > 0 && y+leadLineH*2 < r.Y+r.H-10 {
		y += 12
		v.fill(dst, hud.Rect{X: r.X + 10, Y: y - 6, W: inner, H: 1}, fade(colGold, 0.7))
		v.drawLeaderboard(dst, s, r, y)
	}
}

// statHeight is the scoreboard's height with every line drawStat draws.
func statHeight(s *hud.Stat) float64 {
	h := 2.0 * statPad
	if s.LeaderboardMode() {
		return h + leaderHeight(s)
	}
	h += statLineH // the column labels
	for ti := range s.Tables {
		h += 4 + statLineH + float64(len(s.Tables[ti].Rows))*statLineH
	}
	if len(s.Leader) > 0 {
		h += 12 + leaderHeight(s)
	}
	return h
}

// leaderHeight is the leaderboard's height: its title, labels and rows
// (or the line saying there are none).
func leaderHeight(s *hud.Stat) float64 {
	return leadLineH + 4 + leadLineH + float64(max(1, len(s.Leader)))*leadLineH
}

// leaderTitles are the leaderboard's headings: the title by period, and
// the three column labels (the schema's columns in the leaderboard mode).
func leaderTitle(period string) string {
	switch period {
	case "day":
		return "Leaderboard — today"
	case "month":
		return "Leaderboard — this month"
	case "all":
		return "Leaderboard — all time"
	}
	return "Leaderboard — " + hud.PeriodTitle(period)
}

var defaultLeaderLabels = []string{"#", "Player", "Score"}

// drawLeaderboard draws the game's global leaderboard from y down inside
// box: its heading, the column labels and one row per place, the local
// player's row highlighted.
func (v *View) drawLeaderboard(dst *ebiten.Image, s *hud.Stat, box hud.Rect, y float64) {
	inner := box.W - 20
	x := box.X + 10
	v.text(dst, leaderTitle(s.Period), true, leadSize+2, x, y, colGold)
	y += leadLineH + 4
	labels := defaultLeaderLabels
	if s.LeaderboardMode() && len(s.Labels) >= 3 {
		labels = s.Labels[:3]
	}
	placeW, scoreW := inner*0.15, inner*0.25
	nickX, scoreX := x+placeW, x+inner-scoreW
	v.text(dst, labels[0], true, leadSize, x, y, colWhite)
	v.text(dst, v.ellipsis(labels[1], true, leadSize, scoreX-nickX-6), true, leadSize, nickX, y, colWhite)
	v.text(dst, labels[2], true, leadSize, x+inner-v.textW(labels[2], true, leadSize), y, colWhite)
	y += leadLineH
	v.fill(dst, hud.Rect{X: x, Y: y - 3, W: inner, H: 1}, fade(colWhite, 0.6))
	if len(s.Leader) == 0 {
		v.text(dst, "no places yet", false, leadSize, x, y+2, colEmpty)
		return
	}
	for i := range s.Leader {
		e := &s.Leader[i]
		if y > box.Y+box.H-leadLineH-6 {
			return
		}
		col := colChatText
		if e.Self {
			v.fill(dst, hud.Rect{X: x - 4, Y: y - 2, W: inner + 8, H: leadLineH}, rgba(255, 204, 51, 0.18))
			col = colWhite
		}
		v.text(dst, e.Place, e.Self, leadSize, x, y, col)
		nick := col
		if c, ok := s.NameColour(e.Nick); ok {
			nick = c
		}
		v.text(dst, v.ellipsis(e.Nick, e.Self, leadSize, scoreX-nickX-6), e.Self, leadSize, nickX, y, nick)
		v.text(dst, e.Score, e.Self, leadSize, x+inner-v.textW(e.Score, e.Self, leadSize), y, col)
		y += leadLineH
	}
}

// statColumn is where column i of n starts in a line inner px wide, and its
// width: the engine's widths for up to five columns (the name 40 %, the
// others 15 % each); a game with more columns (snakes has six) restates
// them, as its own style sheet does: the name 34 %, the others sharing the
// rest evenly, so every column stays on the line.
func statColumn(i, n int, inner float64) (x, w float64) {
	first, other := 0.4, 0.15
	if n > 5 {
		first, other = 0.34, 0.66/float64(n-1)
	}
	if i == 0 {
		return 0, inner * first
	}
	return inner * (first + float64(i-1)*other), inner * other
}

// statRow draws one scoreboard line (first, when set, replaces cell 0), its
// first cell in fc and the others in c, and returns the next line's y;
// lines below the box are not drawn.
func (v *View) statRow(dst *ebiten.Image, box hud.Rect, y float64, cells []string, first string, bold bool, c, fc color.RGBA) float64 {
	if y > box.Y+box.H-statLineH {
		return y
	}
	inner := box.W - 20
	if first != "" {
		_, w := statColumn(0, len(cells), inner)
		v.text(dst, v.ellipsis(first, bold, statSize, w-4), bold, statSize, box.X+10, y, fc)
	}
	for i, cell := range cells {
		if i == 0 && first != "" {
			continue
		}
		x, cw := statColumn(i, len(cells), inner)
		x += box.X + 10
		if x+cw > box.X+box.W-5 {
			break
		}
		cc := c
		if i == 0 {
			cc = fc
		}
		v.text(dst, v.ellipsis(cell, bold, statSize, cw-4), bold, statSize, x, y, cc)
	}
	return y + statLineH
}
