// Package angle wraps angles as the engine does, for everything that must
// agree on the bits: the client's interpolation, the predictors, the games'
// motion shared by host and client, and the parts that draw from them.
package angle

import "math"

// maxSteps bounds the engine's loop of ±2π steps. Every angle below about
// 6,400 rad wraps exactly as the engine's loop does; larger (garbage)
// values are reduced in one step instead of looping for ever.
const maxSteps = 1024

// Normalize wraps a into [−π, π] the engine's way: by repeated ±2π, in a's
// own precision (π and 2π rounded to F), so that an angle already in range
// keeps its bits and one a turn or two out loses none to a remainder. Past
// maxSteps turns a is reduced with math.Remainder. NaN stays NaN and an
// infinity becomes NaN, where the engine's loop would never end.
func Normalize[F float32 | float64](a F) F {
	pi, twoPi := F(math.Pi), F(2*math.Pi)
	for i := 0; a > pi; i++ {
		if i == maxSteps || math.IsInf(float64(a), 0) {
			return reduce(a)
		}
		a -= twoPi
	}
	for i := 0; a < -pi; i++ {
		if i == maxSteps || math.IsInf(float64(a), 0) {
			return reduce(a)
		}
		a += twoPi
	}
	return a
}

// reduce brings a huge or infinite angle into [−π, π] in float64 (NaN for
// infinities). Rounding the float64 result to F cannot leave the range: F's
// π is the rounding of the float64 π, and rounding is monotonic.
func reduce[F float32 | float64](a F) F {
	return F(math.Remainder(float64(a), 2*math.Pi))
}
