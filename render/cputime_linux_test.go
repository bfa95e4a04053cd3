//go:build linux

package render

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling thread has used, from the
// nanosecond per-thread clock (getrusage's thread figure moves in
// scheduler ticks, too coarse for a frame of a millisecond): what a frame
// costs, which a loaded machine does not inflate the way it inflates wall
// time. Callers lock their goroutine to its thread between two readings.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
