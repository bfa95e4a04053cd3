//go:build linux

package render

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which the syscall package does not
// name.
const rusageThread = 1

// threadCPU is the CPU time the calling thread has used (user + system):
// what a frame costs, which a loaded machine does not inflate the way it
// inflates wall time. The window's loop runs on one locked thread.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
