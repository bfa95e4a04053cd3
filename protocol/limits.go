package protocol

import "unicode/utf8"

// Limits on what a host's meta messages may carry into the client. A message
// itself is bounded by the transport (4 MiB); these bound what one message
// can make the client hold and show, whatever a host sends: longer strings
// are cut, further rows and items are dropped. The overlays keep their own,
// smaller bounds on what they accumulate over many messages.
const (
	// MaxText bounds a chat text, a player name, a template parameter, a
	// stat cell, a vote title parameter or option, a panel value.
	MaxText = 512
	// MaxName bounds a vote name, a chat template group, a panel key.
	MaxName = 64
	// maxColorText bounds a CSS colour a host names ("rgba(255, 255, 255,
	// 0.5)" is 24 bytes).
	maxColorText = 32
	// MaxParams bounds the parameters of a chat template or a vote.
	MaxParams = 16
	// MaxVoteItems bounds a vote's list of options (teams, maps).
	MaxVoteItems = 256
	// MaxPanelCells bounds one PANEL_DATA.
	MaxPanelCells = 64
	// MaxStatRows bounds the body rows of one STAT_DATA, MaxStatHeads its
	// team rows, MaxStatCells the cells of a row.
	MaxStatRows  = 512
	MaxStatHeads = 64
	MaxStatCells = 32
)

// clip cuts s to at most n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// text is scalarText cut to MaxText.
func text(raw []byte) string { return clip(scalarText(raw), MaxText) }
