package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
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
	// maxColorText bounds a CSS colour a host names ("rgba(255, 255, 255,
	// 0.5)" is 24 bytes).
	maxColorText = 32
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
func text(raw []byte) string { return clip(scalarTextMax(raw, MaxText), MaxText) }

// scalarTextMax is scalarText for a caller that keeps at most n bytes of
// it: a string token much longer than that is decoded only as far as its
// first n bytes need (no escape decodes to less than a byte per 6 of the
// token), so a 64 KiB text shown as 512 bytes is not allocated whole.
func scalarTextMax(raw []byte, n int) string {
	tok := bytes.TrimSpace(raw)
	// The opening quote, 6 bytes a decoded byte at most, and two escapes
	// more: a surrogate pair cut in two decodes past the n bytes kept.
	head := 6*n + 16
	if len(tok) <= head+8 || tok[0] != '"' {
		return scalarText(raw)
	}
	if !json.Valid(tok) {
		return ""
	}
	// Cut between escapes: the token is valid, so each is whole and ends
	// before the closing quote.
	i := 1
	for i < head {
		switch {
		case tok[i] != '\\':
			i++
		case tok[i+1] == 'u':
			i += 6
		default:
			i += 2
		}
	}
	cut := make([]byte, i+1)
	copy(cut, tok[:i])
	cut[i] = '"'
	var s string
	if json.Unmarshal(cut, &s) != nil {
		return ""
	}
	return s
}

// errNotArray is what elements' callers say of a value that is not an array.
var errNotArray = errors.New("not an array")

// elements are the elements of the JSON array raw, at most limit of them
// (limit < 0: all), each a slice of raw trimmed of space: no copy is made
// of what a caller reads once and drops, so a large message is not
// allocated again at every level it nests. ok is false when raw is not
// valid JSON or not an array; null is an empty array, as json.Unmarshal
// into a slice takes it. A caller that keeps an element copies it.
func elements(raw []byte, limit int) (els []json.RawMessage, ok bool) {
	if !json.Valid(raw) {
		return nil, false
	}
	t := jsonTrim(raw)
	if bytes.Equal(t, nullToken) {
		return nil, true
	}
	if t[0] != '[' {
		return nil, false
	}
	return splitArray(t, limit), true
}

// splitArray returns the elements of the array t, valid JSON trimmed of
// space, at most limit of them (limit < 0: all), each trimmed: the text is
// known to be well formed, so tracking strings and nesting finds the
// top-level commas and no value needs parsing.
func splitArray(t []byte, limit int) (els []json.RawMessage) {
	body := jsonTrim(t[1 : len(t)-1])
	if len(body) == 0 {
		return nil
	}
	depth, inString, start := 0, false, 0
	for i := 0; i < len(body) && limit != 0; i++ {
		c := body[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			els = append(els, jsonTrim(body[start:i]))
			start = i + 1
			limit--
		}
	}
	if limit != 0 {
		els = append(els, jsonTrim(body[start:]))
	}
	return els
}

// jsonTrim is b without the space JSON allows around a value.
func jsonTrim(b []byte) []byte { return bytes.Trim(b, " \t\r\n") }
