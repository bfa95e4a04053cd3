package protocol

import (
	"strings"
	"unicode/utf8"
)

// Limits on what a host's meta messages may carry into the client. A message
// itself is bounded by the transport (4 MiB); these bound what one message
// can make the client hold and show, whatever a host sends: longer strings
// are cut, further rows and items are dropped. The overlays keep their own,
// smaller bounds on what they accumulate over many messages.
const (
	// MaxText bounds a chat text, a player name, a template parameter, an
	// inform parameter, a stat cell, a vote title parameter or option, a panel value.
	MaxText = 512
	// MaxName bounds a vote name, a chat template group, a panel key.
	MaxName = 64
	// MaxParams bounds the parameters of a chat template, a vote or an
	// inform message.
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

// clip cuts s to at most n bytes at a rune boundary. A cut string is a
// copy: a slice of s would keep all of s's memory alive for as long as the
// few bytes shown are kept (a chat history of 64 KiB lines cut to 512).
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.Clone(cut(s, n))
}

// clipOwn is clip for s that is itself a part of a larger string (a field
// split out of one message): the result is always a copy, so keeping it
// does not keep the rest of the message.
func clipOwn(s string, n int) string { return strings.Clone(cut(s, n)) }

// cut is s's first n bytes at most, ending at a rune boundary.
func cut(s string, n int) string {
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
