// Package plaintext makes text from a host, a master or the player safe to
// draw (terminal escape sequences and control characters removed, the
// length bounded) and edits it as a desktop text field does. The HUD, the
// server browser and the start screen share it.
package plaintext

import (
	"unicode"

	"vimpclient/termtext"
)

// MaxLine bounds one displayed line in runes: hosts cut player lines far
// shorter, templates and names can be longer but not without limit.
const MaxLine = 512

// IsControl reports whether r is a C0 or C1 control character (or DEL),
// which is never drawn nor typed into a field.
func IsControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// Clean removes terminal escape sequences whole and control characters
// (so none is ever drawn, nor what follows an ESC) and bounds the length
// to MaxLine runes.
func Clean(s string) string { return CleanMax(s, MaxLine) }

// CleanMax is Clean bounding the length to maxRunes.
func CleanMax(s string, maxRunes int) string {
	s = termtext.StripSequences(s)
	clean := true
	n := 0
	for _, r := range s {
		if IsControl(r) || r == unicode.ReplacementChar {
			clean = false
			break
		}
		n++
	}
	if clean && n <= maxRunes {
		return s
	}
	out := make([]rune, 0, min(n, maxRunes))
	for _, r := range s {
		if len(out) >= maxRunes {
			break
		}
		if IsControl(r) || r == unicode.ReplacementChar {
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// LastWordStart is where Ctrl+Backspace cuts the text r, as a desktop text
// field does: the spaces at its end and the word before them go.
func LastWordStart(r []rune) int {
	i := len(r)
	for i > 0 && unicode.IsSpace(r[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(r[i-1]) {
		i--
	}
	return i
}

// WithoutLastWord is s after Ctrl+Backspace.
func WithoutLastWord(s string) string {
	r := []rune(s)
	return string(r[:LastWordStart(r)])
}
