//go:build !linux && !darwin

package window

// peakRSS is not known here.
func peakRSS() (uint64, bool) { return 0, false }
