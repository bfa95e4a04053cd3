package angle

import (
	"math"
	"testing"
)

// The normalizers Normalize replaced, as they were, so that the test
// shows over which inputs the one that stays gives the same bits.

// oldInterp is the client core's lerpAngle wrap: ±2π steps in float32,
// at most 1024 of them, then a float64 remainder.
func oldInterp(d float32) float32 {
	const pi, twoPi = float32(math.Pi), float32(math.Pi) * 2
	reduce := func(d float32) float32 {
		r := float32(math.Remainder(float64(d), 2*math.Pi))
		if r > pi {
			r -= twoPi
		} else if r < -pi {
			r += twoPi
		}
		return r
	}
	for i := 0; d > pi; i++ {
		if i == 1024 {
			d = reduce(d)
			break
		}
		d -= twoPi
	}
	for i := 0; d < -pi; i++ {
		if i == 1024 {
			d = reduce(d)
			break
		}
		d += twoPi
	}
	return d
}

// oldMotion is the tanks' and the snakes' Normalize (the same code twice):
// ±2π steps in float32 within 64 rad, a float64 remainder past that.
func oldMotion(a float32) float32 {
	if a > 64 || a < -64 || a != a {
		return float32(math.Remainder(float64(a), 2*math.Pi))
	}
	for a > math.Pi {
		a -= 2 * math.Pi
	}
	for a < -math.Pi {
		a += 2 * math.Pi
	}
	return a
}

// oldTracks is the tank tracks' turn wrap: a float64 remainder, 0 for what
// is not a finite number.
func oldTracks(a float64) float64 {
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return 0
	}
	return math.Remainder(a, 2*math.Pi)
}

func same32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

// inputs32 walks float32 values from lo to hi: a dense even sweep, every
// float32 next to each multiple of π within 100 rad (where the loop's
// comparisons turn), and the values that are not numbers.
func inputs32(lo, hi float32, f func(float32)) {
	const n = 1 << 18
	for i := range n + 1 {
		f(lo + (hi-lo)*float32(i)/n)
	}
	for k := math.Ceil(max(float64(lo), -100) / math.Pi); k*math.Pi <= min(float64(hi), 100); k++ {
		x := float32(k * math.Pi)
		for range 64 {
			x = math.Nextafter32(x, float32(math.Inf(-1)))
		}
		for range 128 {
			f(x)
			x = math.Nextafter32(x, float32(math.Inf(1)))
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)} {
		f(float32(x))
	}
}

// The client core's wrap is Normalize itself, on every input: the
// interpolation vectors' bits are the engine's.
func TestSameAsInterp(t *testing.T) {
	bad := 0
	check := func(x float32) {
		if got, want := Normalize(x), oldInterp(x); !same32(got, want) && bad < 10 {
			bad++
			t.Errorf("Normalize(%v) = %v, the interpolation's wrap gave %v", x, got, want)
		}
	}
	inputs32(-100, 100, check)
	for i := range 1 << 13 { // past 64 rad, up to and past the loop's bound
		check(-8000 + 16000*float32(i)/(1<<13))
	}
	for _, x := range []float32{3e9, -3e9, 1e20, math.MaxFloat32, -math.MaxFloat32, 6433, 6434, 6435, -6434} {
		check(x)
	}
}

// The games' motion wrapped by the same loop within 64 rad, which holds
// every angle their call sites see (sums and differences of wrapped
// angles, headings from a map's degrees); NaN and infinities still give
// NaN. Past 64 rad Normalize keeps looping, as the engine does, where the
// old code took a remainder: those results differ in the last bits.
func TestSameAsMotion(t *testing.T) {
	bad := 0
	inputs32(-64, 64, func(x float32) {
		if got, want := Normalize(x), oldMotion(x); !same32(got, want) && bad < 10 {
			bad++
			t.Errorf("Normalize(%v) = %v, the motion's wrap gave %v", x, got, want)
		}
	})
}

// The tracks' float64 remainder and Normalize's float64 loop agree on
// every difference of two angles within a turn and a half of zero (what
// the tracks subtract: drawn angles, wrapped or a step past it): one ±2π
// step of a float64 is exact there, as a remainder is.
func TestSameAsTracks(t *testing.T) {
	bad := 0
	inputs32(-3*math.Pi, 3*math.Pi, func(x32 float32) {
		x := float64(x32)
		for _, d := range []float64{x, x + float64(x32)/3} {
			if math.Abs(d) >= 3*math.Pi {
				continue // an odd multiple of π rounds the other way there
			}
			want := oldTracks(d)
			got := Normalize(d)
			if got != got {
				got = 0 // the tracks count no turn for what is not a number
			}
			if got != want && bad < 10 {
				bad++
				t.Errorf("Normalize(%v) = %v, the tracks' wrap gave %v", d, got, want)
			}
		}
	})
}

// Normalize leaves angles in range untouched, ends on huge values and
// turns infinities into NaN.
func TestNormalize(t *testing.T) {
	for _, a := range []float32{0, 1, -1, math.Pi, -math.Pi, 3, -3} {
		if got := Normalize(a); got != a {
			t.Errorf("Normalize(%v) = %v, want it unchanged", a, got)
		}
	}
	for _, c := range []struct{ in, want float32 }{{2 * math.Pi, 0}, {3 * math.Pi, math.Pi}, {-3 * math.Pi, -math.Pi}, {7, 7 - 2*math.Pi}} {
		if got := Normalize(c.in); math.Abs(float64(got-c.want)) > 1e-5 {
			t.Errorf("Normalize(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, a := range []float32{1e9, -1e9, 65, 7000, math.MaxFloat32} {
		if got := Normalize(a); !(got >= -math.Pi && got <= math.Pi) {
			t.Errorf("Normalize(%v) = %v, outside [−π, π]", a, got)
		}
	}
	for _, a := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := Normalize(float32(a)); got == got {
			t.Errorf("Normalize(%v) = %v, want NaN", a, got)
		}
		if got := Normalize(a); got == got {
			t.Errorf("Normalize(float64 %v) = %v, want NaN", a, got)
		}
	}
	seven, twoPi := 7.0, 2*math.Pi // float64 arithmetic, not exact constants
	if got := Normalize(seven); got != seven-twoPi {
		t.Errorf("float64 Normalize(7) = %v, want 7 − 2π in float64", got)
	}
}

func BenchmarkNormalize(b *testing.B) {
	var sink float32
	for i := range b.N {
		sink += Normalize(float32(i%13) - 6)
	}
	_ = sink
}
