package hud

import (
	"image/color"

	"vimpclient/hud/plaintext"
	"vimpclient/protocol"
)

// ChatFadeMs is how long a removed line takes to fade out.
const ChatFadeMs = 2000

// ChatMaxInput is the command line's length limit in runes.
const ChatMaxInput = 60

// maxChatText bounds one displayed line; the host cuts player lines to 60
// characters, templates can be longer but not without limit.
const maxChatText = 512

// defaultChatMessages are the client's English texts for the engine's
// chat codes (groups s, v, m, c, n), used entry by entry when the game has
// no text of its own: a newer engine's codes (the host changes and the
// change-host vote of lobby rooms) read well against a game that names
// none of them.
var defaultChatMessages = map[string][]string{
	"s": {
		"Team {0} is full. Your current team: {1}",
		"Your team: {0}",
		"Your new team: {0}",
		"Your new status: spectator",
		"⚔️  {0} killed {1}",
		"⚡ {0} joined the game",
		"👋  {0} left the game",
		"The room has a new host",
		"You are no longer hosting: your connection was lost",
		"The room has a new host: the previous one was lagging",
		"The room has a new host: the previous one went inactive",
		"The room has a new host: the previous one's connection was poor",
	},
	"v": {
		"A vote has been created",
		"Voting has started",
		"Your vote has been accepted",
		"Voting is temporarily unavailable",
		"Vote passed",
		"Vote failed",
		"To ask for a new host, type /changehost",
		"You are the host: hand the room over from the room menu",
		"The master server cannot be reached",
		"A host vote was held a moment ago: try again later",
		"No other player can take over as host",
		"A host vote is already under way",
		"A host vote cannot be held right now",
		"The vote for a new host passed ({0} of {1})",
		"The vote for a new host failed ({0} of {1})",
		"The host vote was cancelled",
	},
	"m": {"Current map: {0}", "Next map: {0}"},
	"c": {"Command not found", "Your rank: {0}"},
	"n": {"That name cannot be used", "{0} is now called {1}"},
}

// ChatLine is one shown line.
type ChatLine struct {
	Name   string // "System" for system lines
	Prefix string // Name + ": ", drawn bold before the text
	Text   string
	Team   int // colour of the name; 0 with System for system lines
	// NameColor is the colour the game gave the author's name, when
	// HasNameColor; the team's colour is used otherwise.
	NameColor    color.RGBA
	HasNameColor bool
	System       bool // no team: the name is drawn red
	expires      float64
	Fading       bool
	FadeAt       float64 // when fading started
}

// Alpha is the line's opacity at now (1 until it starts fading).
func (l *ChatLine) Alpha(now float64) float64 {
	if !l.Fading {
		return 1
	}
	a := 1 - (now-l.FadeAt)/ChatFadeMs
	if a < 0 {
		return 0
	}
	return a
}

// Chat is the chat overlay: the listed lines with their lifetimes, a bounded
// history and the command line.
type Chat struct {
	params  ChatParams
	lines   []ChatLine // listed lines then fading ones, oldest first
	history []ChatLine
	// historyBytes is what the history's texts hold (see lineBytes).
	historyBytes int
	input        []rune
	open         bool
	// inputText caches string(input) until the next edit.
	inputText  string
	inputDirty bool
	Dropped    int // template messages without a text
	Silenced   int // template messages the game gave an empty text
}

// NewChat makes the chat for params.
func NewChat(p ChatParams) *Chat { return &Chat{params: p} }

// Lines are the lines to draw, oldest first (fading ones included).
func (c *Chat) Lines() []ChatLine { return c.lines }

// Open reports whether the command line is open.
func (c *Chat) Open() bool { return c.open }

// Input is the command line's text; it is built once per change, so a
// view reads it every frame without allocating.
func (c *Chat) Input() string {
	if c.inputDirty {
		c.inputText, c.inputDirty = string(c.input), false
	}
	return c.inputText
}

// OpenInput opens an empty command line.
func (c *Chat) OpenInput() {
	c.open = true
	c.input = c.input[:0]
	c.inputDirty = true
}

// Type appends typed characters, dropping control characters, up to the limit.
func (c *Chat) Type(rs []rune) {
	if !c.open {
		return
	}
	for _, r := range rs {
		if len(c.input) >= ChatMaxInput {
			return
		}
		if plaintext.IsControl(r) {
			continue
		}
		c.input = append(c.input, r)
		c.inputDirty = true
	}
}

// Backspace deletes the last character.
func (c *Chat) Backspace() {
	if c.open && len(c.input) > 0 {
		c.input = c.input[:len(c.input)-1]
		c.inputDirty = true
	}
}

// DeleteWord deletes the last word (Ctrl+Backspace).
func (c *Chat) DeleteWord() {
	if c.open && len(c.input) > 0 {
		c.input = c.input[:plaintext.LastWordStart(c.input)]
		c.inputDirty = true
	}
}

// Clear deletes the whole command line (Ctrl+A: the line is taken as a
// whole, and a line has nothing to do with it but to go).
func (c *Chat) Clear() {
	if c.open && len(c.input) > 0 {
		c.input = c.input[:0]
		c.inputDirty = true
	}
}

// Enter closes the command line and returns the text and the CHAT_DATA
// message to send (nil when nothing remains without control characters).
func (c *Chat) Enter() (string, []byte) {
	if !c.open {
		return "", nil
	}
	text := string(c.input)
	c.Escape()
	msg, ok := protocol.ChatMsg(text)
	if !ok {
		return "", nil
	}
	return text, msg
}

// Escape closes the command line and discards its text.
func (c *Chat) Escape() {
	c.open = false
	c.input = c.input[:0]
	c.inputDirty = true
}

// Receive adds one CHAT_DATA message at now. A template without a text is
// dropped and counted.
func (c *Chat) Receive(m protocol.Chat, now float64) {
	line := ChatLine{Name: "System", System: true}
	switch m.Kind {
	case protocol.ChatPlayer:
		line = ChatLine{Name: cleanText(m.Author), Team: m.Team}
		line.Text = cleanText(m.Text)
		line.NameColor, line.HasNameColor = ParseCSSColor(m.NameColor)
	case protocol.ChatSystem:
		line.Text = cleanText(m.Text)
	case protocol.ChatTemplate:
		t, ok := c.template(m.Group, m.Index)
		if !ok {
			c.Dropped++
			return
		}
		if t == "" {
			c.Silenced++
			return
		}
		line.Text = cleanText(fill(t, m.Params))
	}
	c.add(line, now)
}

// template is the text of a chat code: the game's own when it gives one
// ("" when it silences the code), else the client's English default.
func (c *Chat) template(group string, index int) (string, bool) {
	if g, ok := c.params.Messages[group]; ok && index < len(g) && g[index] != nil {
		return *g[index], true
	}
	if g, ok := defaultChatMessages[group]; ok && index < len(g) {
		return g[index], true
	}
	return "", false
}

func (c *Chat) add(line ChatLine, now float64) {
	line.Prefix = line.Name + ": "
	size := lineBytes(&line)
	if len(c.history) >= c.params.CacheMax || c.historyBytes+size > maxChatHistoryBytes {
		c.trimHistory(size)
	}
	c.history = append(c.history, line)
	c.historyBytes += size
	if c.listed() >= c.params.ListLimit {
		c.fadeOldest(now)
		c.dropFaded()
	}
	line.expires = now + c.params.LineTime
	// Listed lines stay before fading ones, so insert at the end of the listed run.
	i := c.listed()
	c.lines = append(c.lines, ChatLine{})
	copy(c.lines[i+1:], c.lines[i:])
	c.lines[i] = line
}

// maxChatHistoryBytes bounds the texts the history keeps, whatever
// number of lines a game asks for (up to 10000 of up to 512 runes each).
const maxChatHistoryBytes = 1 << 20

// lineBytes is what a line's texts cost the history.
func lineBytes(l *ChatLine) int { return len(l.Name) + len(l.Prefix) + len(l.Text) }

// trimHistory drops the oldest history lines, as the engine does, down to
// CacheMin lines, and further until a line of size bytes fits in three
// quarters of the byte budget: a flood of long lines trims once every
// quarter of the budget, not once a line.
func (c *Chat) trimHistory(size int) {
	start := max(len(c.history)-c.params.CacheMin, 0)
	bytes := 0
	for i := start; i < len(c.history); i++ {
		bytes += lineBytes(&c.history[i])
	}
	for start < len(c.history) && bytes+size > maxChatHistoryBytes*3/4 {
		bytes -= lineBytes(&c.history[start])
		start++
	}
	n := copy(c.history, c.history[start:])
	clear(c.history[n:]) // the dropped lines' texts go with them
	c.history, c.historyBytes = c.history[:n], bytes
}

func (c *Chat) listed() int {
	n := 0
	for _, l := range c.lines {
		if !l.Fading {
			n++
		}
	}
	return n
}

// fadeOldest starts the fade of the oldest listed line.
func (c *Chat) fadeOldest(now float64) {
	for i := range c.lines {
		if !c.lines[i].Fading {
			l := c.lines[i]
			l.Fading, l.FadeAt = true, now
			copy(c.lines[i:], c.lines[i+1:])
			c.lines[len(c.lines)-1] = l
			return
		}
	}
}

// dropFaded deletes the oldest fading lines past twice ListLimit: lines
// that come faster than they fade out would otherwise pile up for the
// fade's two seconds, and no more of them fit in the chat's box (sized for
// ListLimit lines that each wrap once) above the listed ones.
func (c *Chat) dropFaded() {
	listed := c.listed()
	extra := len(c.lines) - listed - 2*c.params.ListLimit
	if extra <= 0 {
		return
	}
	// The fading run follows the listed one, oldest first.
	n := copy(c.lines[listed:], c.lines[listed+extra:])
	clear(c.lines[listed+n:])
	c.lines = c.lines[:listed+n]
}

// Update runs the line timers at now: every expired timer fades the oldest
// listed line; faded lines are deleted.
func (c *Chat) Update(now float64) {
	expired := 0
	for _, l := range c.lines {
		if !l.Fading && l.expires <= now {
			expired++
		}
	}
	for ; expired > 0; expired-- {
		c.fadeOldest(now)
	}
	kept := c.lines[:0]
	for _, l := range c.lines {
		if !l.Fading || now-l.FadeAt < ChatFadeMs {
			kept = append(kept, l)
		}
	}
	c.lines = kept
}

// History is the bounded cache of received lines (never drawn): at most
// the game's cacheMax lines and maxChatHistoryBytes of their texts.
func (c *Chat) History() []ChatLine { return c.history }

// cleanText is plaintext.CleanMax bounded to maxChatText runes.
func cleanText(s string) string { return plaintext.CleanMax(s, maxChatText) }
