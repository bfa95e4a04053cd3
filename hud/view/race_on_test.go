//go:build race

package view

// raceEnabled: the race detector makes pools drop their items, so
// allocation counts mean nothing under it.
const raceEnabled = true
