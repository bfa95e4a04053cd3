package game

import "strconv"

// UniqueName renames a nick another participant has (taken reports it):
// Alice → Alice#1 → Alice#2.
func UniqueName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	for i := 1; ; i++ {
		if n := name + "#" + strconv.Itoa(i); !taken(n) {
			return n
		}
	}
}

// FreeID is the lowest game id in 1..255 that used does not hold, or 0.
func FreeID(used func(id uint8) bool) uint8 {
	for i := 1; i < 256; i++ {
		if !used(uint8(i)) {
			return uint8(i)
		}
	}
	return 0
}

// ValidName is the engine's isValidName rule: ^[a-zA-Z]([\w\s#]{0,13})[\w]$.
func ValidName(s string) bool {
	if len(s) < 2 || len(s) > 15 {
		return false
	}
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || !word(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !word(c) && c != '#' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}
