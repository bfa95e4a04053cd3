//go:build !amd64

package clientcore

// Elsewhere than amd64 the span path's rounding is the Go kernels'.

func vectorRounding() bool { return false }

func roundStepsVec(v []float32, vs int, q []byte, qs, k int) (uint64, bool) {
	return 0, false
}

func roundListVec(v []float32, q []byte, at []rowAt, k int) uint64 {
	return 1 << 63
}
