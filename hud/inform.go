package hud

import (
	"strings"

	"vimpclient/protocol"
)

// GameInformMs is how long a game informer text stays.
const GameInformMs = 3000

// GameInformAnimMs is the length of the appear animation.
const GameInformAnimMs = 800

// GameInform is the transparent round-start / victory / game-over text.
type GameInform struct {
	list  []string
	Text  string
	Shown bool
	At    float64 // when the current text arrived
}

// NewGameInform makes the informer for gameInform.list.
func NewGameInform(list []string) *GameInform { return &GameInform{list: list} }

// Receive shows the text of code at now; a second message restarts the timer.
func (g *GameInform) Receive(inf protocol.Inform, now float64) {
	g.Text = ""
	if inf.Code >= 0 && inf.Code < len(g.list) {
		g.Text = strings.ToUpper(cleanText(fill(g.list[inf.Code], inf.Params)))
	}
	g.Shown, g.At = true, now
}

// Update hides the text once its time is over.
func (g *GameInform) Update(now float64) {
	if g.Shown && now-g.At >= GameInformMs {
		g.Shown = false
	}
}

// TechInform is the opaque black screen with its text.
type TechInform struct {
	list     []string
	Text     string
	Shown    bool
	terminal bool
}

// NewTechInform makes the black screen with the engine's default texts; it
// starts hidden.
func NewTechInform() *TechInform { return &TechInform{list: protocol.DefaultTechInform()} }

// SetList replaces the texts with CONFIG_DATA's techInformList.
func (t *TechInform) SetList(list []string) {
	if len(list) > 0 {
		t.list = list
	}
}

// Receive applies TECH_INFORM_DATA: show the text of the code, or hide.
func (t *TechInform) Receive(m protocol.TechInform) {
	if m.Hide {
		t.Shown = false
		return
	}
	text := "Unknown error"
	if m.Code < len(t.list) {
		text = fill(t.list[m.Code], m.Params)
	}
	t.show(text, m.Terminal())
}

// Disconnected shows a close reason unless a terminal text is already shown.
func (t *TechInform) Disconnected(reason string) {
	if t.Shown && t.terminal {
		return
	}
	t.show(reason, true)
}

// Reset forgets everything for a new connection.
func (t *TechInform) Reset() { t.Shown, t.terminal, t.Text = false, false, "" }

func (t *TechInform) show(text string, terminal bool) {
	t.Text = normaliseTech(text)
	t.Shown = true
	t.terminal = terminal
}

// normaliseTech keeps line breaks, collapses runs of spaces and drops the
// leading spaces of each line, as the browser's white-space rules do.
func normaliseTech(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.Join(strings.Fields(cleanText(strings.ReplaceAll(l, "\t", " "))), " ")
		lines[i] = l
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}
