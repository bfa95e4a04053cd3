package termtext

import (
	"strings"
	"unicode/utf8"
)

// SequenceLen is the length in bytes of the terminal control sequence s
// starts with, 0 when it starts with none. A sequence (ECMA-48) is
// introduced by ESC or by a C1 control (as a UTF-8 rune, U+0080–U+009F,
// or as a lone byte):
//   - a control sequence, ESC [ or CSI: parameter bytes, intermediate
//     bytes and one final byte (ESC [ 2 J clears the screen);
//   - a control string, ESC ] or OSC (and DCS, SOS, PM, APC): everything
//     up to BEL or the string terminator ESC \ or ST, or to the end of s
//     when it has none (ESC ] 0 ; title BEL sets the window title);
//   - any other escape: intermediate bytes and one final byte (ESC c
//     resets the terminal);
//   - a C1 control that introduces nothing, or an ESC with nothing
//     valid after it, alone.
func SequenceLen(s string) int {
	if s == "" {
		return 0
	}
	if s[0] == 0x1b { // ESC and what follows it
		if len(s) == 1 {
			return 1
		}
		c := s[1]
		switch {
		case c == '[':
			return 2 + csiLen(s[2:])
		case isStringIntro(c + 0x40):
			return 2 + stringLen(s[2:])
		case c >= 0x20 && c <= 0x2f:
			n := 2
			for n < len(s) && s[n] >= 0x20 && s[n] <= 0x2f {
				n++
			}
			if n < len(s) && s[n] >= 0x30 && s[n] <= 0x7e {
				n++
			}
			return n
		case c >= 0x30 && c <= 0x7e:
			return 2
		}
		return 1
	}
	c1, n := c1At(s)
	switch {
	case n == 0:
		return 0
	case c1 == 0x9b:
		return n + csiLen(s[n:])
	case isStringIntro(c1):
		return n + stringLen(s[n:])
	}
	return n
}

// c1At is the C1 control s starts with and its length: two bytes as a
// UTF-8 rune, one as a lone byte (not UTF-8 at all).
func c1At(s string) (c byte, n int) {
	switch {
	case s == "":
		return 0, 0
	case len(s) >= 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f:
		return s[1], 2
	case s[0] >= 0x80 && s[0] <= 0x9f:
		return s[0], 1
	}
	return 0, 0
}

// isStringIntro reports whether c (as its C1 code) opens a control
// string: DCS, SOS, OSC, PM or APC.
func isStringIntro(c byte) bool {
	return c == 0x90 || c == 0x98 || c == 0x9d || c == 0x9e || c == 0x9f
}

// csiLen is the length of a control sequence's body: parameters
// (0x30–0x3F), intermediates (0x20–0x2F) and the final byte (0x40–0x7E)
// when there is one.
func csiLen(s string) int {
	n := 0
	for n < len(s) && s[n] >= 0x30 && s[n] <= 0x3f {
		n++
	}
	for n < len(s) && s[n] >= 0x20 && s[n] <= 0x2f {
		n++
	}
	if n < len(s) && s[n] >= 0x40 && s[n] <= 0x7e {
		n++
	}
	return n
}

// stringLen is the length of a control string's body with its
// terminator: BEL, ESC \ or ST; all of s when it has none.
func stringLen(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x07, r == 0x9c, r == utf8.RuneError && size == 1 && s[i] == 0x9c:
			return i + size
		case r == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		}
		i += size
	}
	return len(s)
}

// StripSequences returns s without its terminal control sequences (see
// SequenceLen), each dropped whole: what a window draws never shows the
// "[2J[H" left behind by removing ESC alone. Other runes, controls
// included, stay for the caller's own rules. s is returned as it is when
// it holds no sequence.
func StripSequences(s string) string {
	first := nextSequence(s, 0)
	if first < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	start := 0 // the first byte not copied yet
	for i := first; i >= 0; i = nextSequence(s, start) {
		b.WriteString(s[start:i])
		start = i + SequenceLen(s[i:])
	}
	b.WriteString(s[start:])
	return b.String()
}

// nextSequence is the index of the first sequence in s at or after the
// rune boundary from, -1 for none.
func nextSequence(s string, from int) int {
	for i := from; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			return i
		case c < utf8.RuneSelf:
			i++
			continue
		case c <= 0x9f || c == 0xc2:
			if SequenceLen(s[i:]) > 0 {
				return i
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return -1
}
