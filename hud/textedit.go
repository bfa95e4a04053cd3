package hud

import "unicode"

// DOM key codes of the text fields' Ctrl shortcuts.
const (
	keyCodeA = 65 // Ctrl+A: the whole text goes
)

// lastWordStart is where Ctrl+Backspace cuts the text r, as a desktop text
// field does: the spaces at its end and the word before them go.
func lastWordStart(r []rune) int {
	i := len(r)
	for i > 0 && unicode.IsSpace(r[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(r[i-1]) {
		i--
	}
	return i
}

// withoutLastWord is s after Ctrl+Backspace.
func withoutLastWord(s string) string {
	r := []rune(s)
	return string(r[:lastWordStart(r)])
}
