//go:build !linux

package render

import "time"

// threadCPU is not measured here: the benchmark reports wall time only.
func threadCPU() (time.Duration, bool) { return 0, false }
