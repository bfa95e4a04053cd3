package input

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// commandWords names the commands of the engine's games in words, for the
// settings overlay and help. A command not listed is named from its
// identifier (see CommandLabel).
var commandWords = map[string]string{
	"forward":    "Forward",
	"back":       "Reverse",
	"left":       "Turn left",
	"right":      "Turn right",
	"fire":       "Fire",
	"gunLeft":    "Gun left",
	"gunRight":   "Gun right",
	"gunCenter":  "Centre gun",
	"nextWeapon": "Next weapon",
	"prevWeapon": "Previous weapon",
	"nextPlayer": "Watch next player",
	"prevPlayer": "Watch previous player",
	"boost":      "Boost",
	"respawn":    "Respawn",
}

// CommandLabel names a game's command in words: "Centre gun" for
// gunCenter. A command this client does not know is split at its case
// changes, underscores and dashes ("dropFlag" is "Drop flag"), so a new
// game's commands read as words too.
func CommandLabel(name string) string {
	if w, ok := commandWords[name]; ok {
		return w
	}
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == ' ':
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	if s == "" {
		return name
	}
	first, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(first)) + s[n:]
}

// Label names the control in words for the settings overlay ("Left stick
// down", "Right trigger"); String stays the name binding files use.
func (c PadControl) Label() string {
	if c < padControls {
		return [padControls]string{"", "A button", "B button", "X button", "Y button",
			"Left bumper", "Right bumper", "Left trigger", "Right trigger", "Back", "Start",
			"D-pad up", "D-pad down", "D-pad left", "D-pad right",
			"Left stick up", "Left stick down", "Left stick left", "Left stick right"}[c]
	}
	return c.String()
}
