// Package termtext makes text that came from a host or a lobby master safe
// to print on a terminal: room names and reasons, error words, log values.
// Such text is the remote side's to choose, and a terminal obeys what it
// prints: ESC and C1 sequences clear the screen or set the title, CR and
// BS overwrite what came before, a newline forges a row, bidi overrides
// reorder the rest of the line. Here every such rune is written as a
// visible escape (\x1b, \u202e), each field is cut to a bounded length with
// an ellipsis, and numbers print in a bounded form. The same package holds
// the scanner of escape sequences that the window uses to drop them whole
// from what it draws, so both agree on what a sequence is.
//
// It is written here rather than taken from a library: strconv.Quote
// escapes more than a player should lose (and quotes and doubles
// backslashes, so it is not idempotent), and the terminal libraries that
// parse ECMA-48 are emulators far larger than the one scanner needed.
package termtext

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds, in runes, for the kinds of text the client prints.
const (
	// NameMax bounds a name: a room, its game, map, region or id.
	NameMax = 80
	// ReasonMax bounds a reason or a notice: why a room closed, a refusal.
	ReasonMax = 200
	// MessageMax bounds a whole message: an error with its context, a log
	// value.
	MessageMax = 500
	// NumberMax is the longest text Number returns.
	NumberMax = 11
)

// Ellipsis ends a field that was cut.
const Ellipsis = '…'

// Unsafe reports whether r steers a terminal or the order of a line: the C0
// controls (tab included), DEL, the C1 controls, the line and paragraph
// separators, and the bidi marks, embeddings, overrides and isolates.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Name is s as a name field: escaped and cut to NameMax runes.
func Name(s string) string { return Field(s, NameMax) }

// Reason is s as a reason: escaped and cut to ReasonMax runes.
func Reason(s string) string { return Field(s, ReasonMax) }

// Message is s as a whole message: escaped and cut to MessageMax runes.
func Message(s string) string { return Field(s, MessageMax) }

// Field returns s with every Unsafe rune but the tab, and every byte that
// is not UTF-8, written as a visible escape, and cut to at most limit runes
// (limit < 1 counts as 1); a cut field ends with Ellipsis. An escape counts
// as the runes it prints and is never cut in two. Text that is already
// safe and short enough is returned as it is, so Field(Field(s, n), n)
// is Field(s, n): backslashes are left alone for that reason, a field is
// never quoted twice.
func Field(s string, limit int) string { return field(s, limit, true) }

// Cell is Field for a cell of a table whose columns tabs separate: a tab
// is escaped too.
func Cell(s string, limit int) string { return field(s, limit, false) }

func field(s string, limit int, keepTab bool) string {
	limit = max(limit, 1)
	if safe(s, limit, keepTab) {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), 4*limit))
	used, keep := 0, 0 // runes written; bytes of b that leave room for the ellipsis
	var buf [8]byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		piece := []byte(nil)
		switch {
		case r == utf8.RuneError && size == 1:
			piece = escape(buf[:0], rune(s[i]), true)
		case Unsafe(r) && !(keepTab && r == '\t'):
			piece = escape(buf[:0], r, false)
		}
		w := 1
		if piece != nil {
			w = len(piece)
		}
		if used+w > limit {
			return b.String()[:keep] + string(Ellipsis)
		}
		if piece != nil {
			b.Write(piece)
		} else {
			b.WriteString(s[i : i+size])
		}
		used += w
		if used < limit {
			keep = b.Len()
		}
		i += size
	}
	return b.String()
}

// safe reports whether s needs no escape and has at most limit runes.
func safe(s string, limit int, keepTab bool) bool {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && !(keepTab && c == '\t')) || c == 0x7f {
				return false
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || Unsafe(r) {
				return false
			}
			i += size
		}
		if n++; n > limit {
			return false
		}
	}
	return true
}

// escape appends the visible form of r: \n, \r and the other short C
// escapes, \xHH for the other C0 controls, DEL and a byte that is not
// UTF-8 (raw), \uHHHH for the rest.
func escape(dst []byte, r rune, raw bool) []byte {
	const hex = "0123456789abcdef"
	if !raw {
		switch r {
		case '\a':
			return append(dst, `\a`...)
		case '\b':
			return append(dst, `\b`...)
		case '\f':
			return append(dst, `\f`...)
		case '\n':
			return append(dst, `\n`...)
		case '\r':
			return append(dst, `\r`...)
		case '\t':
			return append(dst, `\t`...)
		case '\v':
			return append(dst, `\v`...)
		}
	}
	if raw || r < 0x80 {
		return append(dst, '\\', 'x', hex[r>>4&0xf], hex[r&0xf])
	}
	return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// Truncate cuts s to at most limit runes (limit < 1 counts as 1), the
// last of them Ellipsis when it was cut, and escapes nothing: for a text
// that is still to be drawn (with its newlines) and only needs a bound.
func Truncate(s string, limit int) string {
	limit = max(limit, 1)
	n := 0
	for i := range s {
		if n == limit-1 {
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size < len(s) {
				return s[:i] + string(Ellipsis)
			}
			return s
		}
		n++
	}
	return s
}

// Number prints f in at most NumberMax bytes: four significant digits
// (%.4g), exponent form for the very large and very small, NaN, +Inf and
// -Inf by name, and no negative zero. A rating of -1e300 is "-1e+300",
// not three hundred digits.
func Number(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case f == 0:
		return "0"
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}
