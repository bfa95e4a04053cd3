package clientcore

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// goStepKernels and goListKernels are the Go kernels by width, the
// reference for the vector ones.
var goStepKernels = map[int]func([]float32, int, []byte, int) uint64{
	1: roundSteps1, 2: roundSteps2, 3: roundSteps3, 4: roundSteps4,
	6: roundSteps6, 7: roundSteps7, 8: roundSteps8,
}

var goListKernels = map[int]func([]float32, []byte, []rowAt) uint64{
	1: roundCol1, 2: roundCol2, 3: roundCol3, 4: roundCol4,
	6: roundCol6, 7: roundCol7, 8: roundCol8,
}

func needVector(t *testing.T) {
	if !vectorRounding() {
		t.Skip("this processor runs the Go kernels only")
	}
}

// TestVectorRoundingEveryFloat: the vector kernel, one value at a time,
// takes the fast path on exactly the values round2Fast does and there
// gives the engine's formula's value, on every float32: a sample by
// default, all 2^32 bit patterns with VIMP_ROUND2_ALL=1.
func TestVectorRoundingEveryFloat(t *testing.T) {
	needVector(t)
	stride := round2Stride()
	const parts = 4
	var wg sync.WaitGroup
	bad := make(chan string, parts+1)
	check := func(from, to, step uint64, bits func(uint64) uint32) {
		defer wg.Done()
		var q [4]byte
		var out [1]float32
		sc := round2Scales()
		for i := from; i < to; i += step {
			b := bits(i)
			binary.BigEndian.PutUint32(q[:], b)
			acc, ok := roundStepsVec(out[:], 1, q[:], 4, 1)
			_, n := round2Fast(b, &sc)
			if !ok || (acc < round2FastBound) != (n < round2FastBound) {
				bad <- fmt.Sprintf("%08x: vector kernel's magnitude %#x (ok %v), round2Fast's %#x", b, acc, ok, n)
				return
			}
			if acc >= round2FastBound {
				continue
			}
			if want := round2Formula(math.Float32frombits(b)); math.Float32bits(out[0]) != math.Float32bits(want) {
				bad <- fmt.Sprintf("%08x: vector kernel gives %08x, formula %08x", b, math.Float32bits(out[0]), math.Float32bits(want))
				return
			}
		}
	}
	for p := uint64(0); p < parts; p++ {
		wg.Add(1)
		go check(p*stride, 1<<32, parts*stride, func(i uint64) uint32 { return uint32(i) })
	}
	// The values whose hundredfold is halfway between integers, where
	// rounding half away from zero shows: the odd multiples of 1/8, of
	// either sign, up to the fast path's bound.
	wg.Add(1)
	go check(0, 2*(1<<24)/12, 1, func(i uint64) uint32 {
		return math.Float32bits(float32(i>>1|1)*0.125) | uint32(i&1)<<31
	})
	wg.Wait()
	close(bad)
	for msg := range bad {
		t.Error(msg)
	}
}

// kernelValue draws a field's bits: mostly values a game sends, some
// beside the fast path's bound, and the odd infinity, NaN, zero of
// either sign and subnormal.
func kernelValue(rng *rand.Rand) uint32 {
	switch rng.IntN(12) {
	case 0:
		return []uint32{0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x80000000, 0, 1, 0x80000001}[rng.IntN(8)]
	case 1:
		return math.Float32bits(167772.15625) + uint32(rng.IntN(5)) - 2 | uint32(rng.IntN(2))<<31
	case 2:
		return rng.Uint32()
	}
	return math.Float32bits(float32(rng.NormFloat64() * 1000))
}

// TestVectorKernelsMatchGo: at every width, down fixed steps and down
// lists of rows, the vector kernels agree with the Go kernels on whether
// the values are on the fast path and, when they are, on every value; and
// they write nothing but the rows' fields.
func TestVectorKernelsMatchGo(t *testing.T) {
	needVector(t)
	rng := rand.New(rand.NewPCG(23, 29))
	const sentinel = float32(-12345.5)
	for _, k := range []int{1, 2, 3, 4, 6, 7, 8} {
		for trial := 0; trial < 400; trial++ {
			rows := rng.IntN(40)
			qs, vs := 4*k+rng.IntN(10), k+rng.IntN(4)
			fast := trial%2 == 0 // half the trials only fast values
			q := make([]byte, rows*qs+rng.IntN(4*k))
			for i := 0; i+4 <= len(q); i += 4 {
				x := kernelValue(rng)
				if fast {
					x = math.Float32bits(float32(rng.NormFloat64() * 1000))
				}
				binary.BigEndian.PutUint32(q[i:], x)
			}
			n := 0
			if len(q) >= 4*k {
				n = (len(q)-4*k)/qs + 1
			}
			want, got := make([]float32, n*vs+k), make([]float32, n*vs+k)
			for i := range got {
				want[i], got[i] = sentinel, sentinel
			}
			wantAcc := goStepKernels[k](want, vs, q, qs)
			gotAcc, ok := roundStepsVec(got, vs, q, qs, k)
			if !ok {
				t.Fatalf("k %d rows %d: vector kernel refused its values' room", k, n)
			}
			compareKernels(t, fmt.Sprintf("steps k %d, %d rows of %d bytes, %d values", k, n, qs, vs), k, want, got, wantAcc, gotAcc, sentinel)

			// The same rows listed in a random order.
			at := make([]rowAt, n)
			for i, r := range rng.Perm(n) {
				at[i] = rowAt{pos: uint32(r * qs), off: uint32(r * vs)}
			}
			for i := range got {
				want[i], got[i] = sentinel, sentinel
			}
			wantAcc = goListKernels[k](want, q, at)
			gotAcc = roundListVec(got, q, at, k)
			compareKernels(t, fmt.Sprintf("list k %d, %d rows", k, n), k, want, got, wantAcc, gotAcc, sentinel)
		}
	}
}

func compareKernels(t *testing.T, what string, k int, want, got []float32, wantAcc, gotAcc uint64, sentinel float32) {
	t.Helper()
	if (wantAcc < round2FastBound) != (gotAcc < round2FastBound) {
		t.Fatalf("%s: Go kernel's magnitudes %#x, vector kernel's %#x", what, wantAcc, gotAcc)
	}
	for i := range got {
		if (want[i] == sentinel) != (got[i] == sentinel) {
			t.Fatalf("%s: value %d: Go kernel %v, vector kernel %v", what, i, want[i], got[i])
		}
		if wantAcc < round2FastBound && math.Float32bits(want[i]) != math.Float32bits(got[i]) {
			t.Fatalf("%s: value %d: Go kernel %v [%08x], vector kernel %v [%08x]", what, i, want[i], math.Float32bits(want[i]), got[i], math.Float32bits(got[i]))
		}
	}
}

// TestVectorListOutsideBounds: a listed row whose fields or values would
// lie past the slices is reported off the fast path, not read or written.
func TestVectorListOutsideBounds(t *testing.T) {
	needVector(t)
	q := make([]byte, 64)
	for _, c := range []struct {
		at   rowAt
		k, v int
	}{
		{rowAt{pos: 61}, 1, 8},
		{rowAt{pos: 36}, 8, 8},
		{rowAt{pos: 0, off: 5}, 4, 8},
		{rowAt{pos: 0xffffffff, off: 0}, 3, 8},
		{rowAt{pos: 0, off: 0xfffffffe}, 3, 8},
		{rowAt{}, 1, 0},
	} {
		v := make([]float32, c.v)
		if acc := roundListVec(v, q, []rowAt{{}, c.at}, c.k); acc < round2FastBound {
			t.Errorf("row %+v, %d fields, %d values: magnitude %#x, on the fast path", c.at, c.k, c.v, acc)
		}
	}
	if acc, ok := roundStepsVec(make([]float32, 7), 4, q, 16, 4); ok {
		t.Errorf("steps past the values: ok, magnitude %#x", acc)
	}
}
