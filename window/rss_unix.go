//go:build linux || darwin

package window

import (
	"runtime"
	"syscall"
)

// peakRSS is the most the process has held resident so far, in bytes.
func peakRSS() (uint64, bool) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil || u.Maxrss <= 0 {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return uint64(u.Maxrss), true // bytes there
	}
	return uint64(u.Maxrss) * 1024, true // KiB on Linux
}
