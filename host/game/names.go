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
