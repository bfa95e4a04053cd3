package hud

import (
	"math"
	"strconv"
	"strings"

	"vimpclient/protocol"
)

// Bar timings of the round-start refill.
const (
	barFillWaitMs = 500
	barFillRunMs  = 500
	TitleWaveMs   = 2000
)

// PanelCell is one panel cell's state.
type PanelCell struct {
	Field  PanelField
	Shown  bool
	Text   string // value and time cells; weapon cells show their number
	Label  string // what a non-bar cell shows: "NAME: TEXT", upper case
	Active bool   // weapon cell with the active look
	// Hidden cells are never shown: the game's own look hides them (see
	// GameLook.HiddenCells).
	Hidden bool
	Value  float64
	// bar refill state
	filling   bool
	fillStart float64
	pending   bool
	pendValue float64
}

// Panel is the HUD strip: a title and one cell per schema field.
type Panel struct {
	schema    PanelSchema
	Cells     []PanelCell
	Title     string
	WaveStart float64 // round start of the title wave; NaN when none ran
	Unknown   int     // entries with an unknown wire key, ignored
	// ReducedMotion skips the title wave and the bar refill: updates paint
	// directly, as the browser does for users who prefer reduced motion.
	ReducedMotion bool
}

// NewPanel makes the panel for schema with every cell hidden.
func NewPanel(s PanelSchema) *Panel {
	p := &Panel{schema: s, Title: "VIMP", WaveStart: math.NaN()}
	for _, f := range s.Fields {
		p.Cells = append(p.Cells, PanelCell{Field: f})
	}
	return p
}

// SetTitle sets the game title from AUTH_DATA (VIMP when empty).
func (p *Panel) SetTitle(t string) {
	t = cleanText(t)
	if t == "" {
		t = "VIMP"
	}
	p.Title = t
}

func (p *Panel) cell(name string) *PanelCell {
	for i := range p.Cells {
		if p.Cells[i].Field.Name == name {
			return &p.Cells[i]
		}
	}
	return nil
}

// Apply applies one PANEL_DATA message.
func (p *Panel) Apply(entries []protocol.PanelCell, now float64) {
	for _, e := range entries {
		name, ok := p.schema.Keys[e.Key]
		if !ok {
			p.Unknown++
			continue
		}
		c := p.cell(name)
		if name == "activeWeapon" {
			if !e.Set {
				if c != nil {
					c.Shown = false
				}
				continue
			}
			active := p.schema.Keys[e.Value]
			for i := range p.Cells {
				if p.Cells[i].Field.Type == "weapon" {
					p.Cells[i].Active = p.Cells[i].Field.Name == active
				}
			}
			continue
		}
		if c == nil {
			continue
		}
		if !e.Set {
			c.Shown = false
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(e.Value), 64)
		if err != nil || math.IsInf(v, 0) {
			v = math.NaN()
		}
		switch c.Field.Type {
		case "time":
			c.Text = FormatTime(v)
			c.Value = v
		case "bar":
			if c.filling {
				c.pending, c.pendValue = true, v
			} else {
				c.Value = v
			}
		default:
			c.Value = v
			c.Text = formatValue(v, e.Value)
		}
		c.Label = strings.ToUpper(c.Field.Name + ": " + c.Text)
		c.Shown = !c.Hidden
	}
}

// Hide marks the cells of the named fields hidden (and no others).
func (p *Panel) Hide(names []string) {
	for i := range p.Cells {
		c := &p.Cells[i]
		c.Hidden = false
		for _, n := range names {
			if c.Field.Name == n {
				c.Hidden = true
			}
		}
		if c.Hidden {
			c.Shown = false
		}
	}
}

// maxCellText bounds the text a non-numeric panel value shows.
const maxCellText = 24

// formatValue is a value cell's text: the number as the engine writes it,
// or, for a value that is not a number (a mode name such as "BOOST"), the
// text itself, cleaned and bounded, where the engine would show NaN.
func formatValue(v float64, raw string) string {
	if !math.IsNaN(v) {
		return formatNumber(v)
	}
	t := []rune(cleanText(strings.TrimSpace(raw)))
	if len(t) == 0 {
		return "NaN"
	}
	if len(t) > maxCellText {
		t = append(t[:maxCellText-1], '…')
	}
	return string(t)
}

// RoundStart starts the title wave and the bar refill (GAME_INFORM code 1).
//
// A host sends the new round's panel just before the round start (the
// embedded host does, in the same tick): the bar's value at the round start
// is therefore the round's own, and the refill runs up to it unless a newer
// value arrives during the wait. Forgetting it would leave the bar empty
// until the next health update.
func (p *Panel) RoundStart(now float64) {
	if p.ReducedMotion {
		return
	}
	p.WaveStart = now
	for i := range p.Cells {
		c := &p.Cells[i]
		if c.Field.Type == "bar" {
			c.filling, c.fillStart = true, now
			c.pending, c.pendValue = c.Shown && !math.IsNaN(c.Value), c.Value
		}
	}
}

// Update ends finished refills at now.
func (p *Panel) Update(now float64) {
	for i := range p.Cells {
		c := &p.Cells[i]
		if !c.filling {
			continue
		}
		el := now - c.fillStart
		if el >= barFillWaitMs && !c.pending {
			c.filling = false // nothing arrived: the next update paints directly
			c.Value = 0
		} else if el >= barFillWaitMs+barFillRunMs {
			c.filling = false
			c.Value = c.pendValue
		}
	}
}

// Bar returns how many blocks of a bar cell are filled at now and whether
// the last one blinks.
func (c *PanelCell) Bar(now float64) (filled int, blink bool) {
	blocks := c.Field.Blocks
	if c.filling {
		el := now - c.fillStart
		if el < barFillWaitMs || !c.pending {
			return 0, false
		}
		shown, bl := barBlocks(c.pendValue, c.Field.Max, blocks)
		if shown == 0 {
			return 0, false
		}
		step := barFillRunMs / float64(shown)
		n := int((el-barFillWaitMs)/step) + 1
		if n > shown {
			n = shown
		}
		return n, bl && n == shown
	}
	return barBlocks(c.Value, c.Field.Max, blocks)
}

func barBlocks(v, max float64, blocks int) (int, bool) {
	if math.IsNaN(v) || max <= 0 {
		return 0, false
	}
	exact := v / max * float64(blocks)
	shown := int(math.Ceil(exact))
	shown = min(max0(shown), blocks)
	return shown, v > 0 && exact != math.Trunc(exact) && shown > 0
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

// BarColor is block i's fixed colour among blocks.
func BarColor(i, blocks int) [3]uint8 {
	p := 0.0
	if blocks > 1 {
		p = float64(i) / float64(blocks-1)
	}
	stops := [...]struct {
		at  float64
		rgb [3]float64
	}{
		{0, [3]float64{255, 50, 50}}, {0.25, [3]float64{255, 165, 0}}, {0.5, [3]float64{255, 255, 0}},
		{0.75, [3]float64{50, 205, 50}}, {1, [3]float64{0, 220, 220}},
	}
	for s := 1; s < len(stops); s++ {
		if p <= stops[s].at {
			a, b := stops[s-1], stops[s]
			t := (p - a.at) / (b.at - a.at)
			var out [3]uint8
			for k := range out {
				out[k] = uint8(math.Round(a.rgb[k] + (b.rgb[k]-a.rgb[k])*t))
			}
			return out
		}
	}
	return [3]uint8{0, 220, 220}
}

// FormatTime is m:ss with negative or non-numeric values shown as 0:00.
func FormatTime(v float64) string {
	if math.IsNaN(v) || v < 0 || math.IsInf(v, 0) {
		v = 0
	}
	s := int64(v)
	m := s / 60
	sec := s % 60
	out := strconv.FormatInt(m, 10) + ":"
	if sec < 10 {
		out += "0"
	}
	return out + strconv.FormatInt(sec, 10)
}

// formatNumber prints a number as JavaScript would for the usual cases.
func formatNumber(v float64) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
