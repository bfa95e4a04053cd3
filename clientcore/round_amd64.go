package clientcore

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The rounding kernels of the span path have vector forms here, in
// round_amd64.s, for processors with AVX: four values a step where the Go
// kernels take one. Both compute round2Fast lane by lane, the same
// float64 operations in the same order, so their values are the same bit
// for bit; the tests check the vector forms against the engine's formula
// and against the Go kernels.

//go:noescape
func roundStepsAVX(v *float32, vs uintptr, q *byte, qs uintptr, rows uintptr, k uintptr) uint32

//go:noescape
func roundListAVX(v *float32, vlen uintptr, q *byte, qlen uintptr, at *rowAt, n uintptr, k uintptr) uint32

// vectorRounding reports whether this processor runs the vector kernels.
func vectorRounding() bool { return cpu.X86.HasAVX }

// roundStepsVec is the roundSteps kernel for k (1 to 8) consecutive f32
// fields on the vector path: the rows are those whose k fields fit in q,
// each qs bytes and vs values after the one before. It reports false,
// having written nothing, when the last row's values would not fit in v.
func roundStepsVec(v []float32, vs int, q []byte, qs, k int) (acc uint64, ok bool) {
	if len(q) < 4*k {
		return 0, true
	}
	if qs <= 0 || vs < 0 {
		return 0, false
	}
	rows := (len(q)-4*k)/qs + 1
	if (rows-1)*vs+k > len(v) {
		return 0, false
	}
	return uint64(roundStepsAVX(unsafe.SliceData(v), uintptr(vs), unsafe.SliceData(q), uintptr(qs), uintptr(rows), uintptr(k))), true
}

// roundListVec is the roundCol kernel for k (1 to 8) consecutive f32
// fields of the rows at on the vector path. A row outside q or v makes
// the result round2FastBound or above, as a value off the fast path does.
func roundListVec(v []float32, q []byte, at []rowAt, k int) uint64 {
	if len(at) == 0 {
		return 0
	}
	return uint64(roundListAVX(unsafe.SliceData(v), uintptr(len(v)), unsafe.SliceData(q), uintptr(len(q)), unsafe.SliceData(at), uintptr(len(at)), uintptr(k)))
}
