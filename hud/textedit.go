package hud

// DOM key codes of the text fields' Ctrl shortcuts.
const (
	keyCodeA = 65 // Ctrl+A: the whole text goes
)
