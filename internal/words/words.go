// Package words makes the client's counted words agree in number with
// their count: "1 crystal", "2 crystals", "0 rooms".
package words

import "strconv"

// Noun picks the singular for a count of exactly one, the plural for any
// other count (0, fractions, more than one).
func Noun(n float64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and its noun: Count(1, "crystal", "crystals") is "1 crystal".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Noun(float64(n), one, many)
}
