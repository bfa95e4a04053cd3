//go:build !unix

package match

import "time"

func processCPU() time.Duration { return 0 }
