package termtext

import "unicode/utf8"

// EscapeJSON returns the JSON text b with every Unsafe rune inside its
// strings written as a \uHHHH escape and every byte that is not UTF-8 as
// \ufffd, which is how a decoder reads such a byte anyway: the value is
// the same JSON, meaning for meaning, but a terminal printing it obeys
// none of it. encoding/json escapes the C0 controls already; DEL, the C1
// controls and the bidi marks it leaves raw. Outside strings, where valid
// JSON has only its own whitespace, tabs, newlines and carriage returns
// are kept and anything else Unsafe is escaped the same way. b itself is
// returned when nothing needs escaping.
func EscapeJSON(b []byte) []byte {
	var out []byte // nil until the first change
	inString, escaped := false, false
	for j := 0; j < len(b); {
		c := b[j]
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size == 1 {
				r = -1
			}
			escaped = false
		} else {
			switch {
			case inString && escaped:
				escaped = false
			case inString && c == '\\':
				escaped = true
			case c == '"':
				inString = !inString
			}
		}
		change := r < 0 || Unsafe(r) && (inString || !(c == '\t' || c == '\n' || c == '\r'))
		if change && out == nil {
			out = append(make([]byte, 0, len(b)+16), b[:j]...)
		}
		switch {
		case r < 0:
			out = appendU(out, utf8.RuneError)
		case change:
			out = appendU(out, r)
		case out != nil:
			out = append(out, b[j:j+size]...)
		}
		j += size
	}
	if out == nil {
		return b
	}
	return out
}

func appendU(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
