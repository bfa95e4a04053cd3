package clientcore

import "math"

// pi and twoPi are the float32 constants the engine's lerpAngle uses.
const (
	pi    = float32(math.Pi)
	twoPi = float32(pi * 2)
)

// maxAngleSteps bounds lerpAngle's wrap loop. Every angle difference below
// about 6000 rad wraps exactly as the engine does; larger (garbage) values are
// reduced in float64 instead of looping for ever.
const maxAngleSteps = 1024

// lerp is a + (b-a)·t in float32; the conversion stops the compiler fusing the
// multiply and add, which would change the last bit.
func lerp(a, b, t float32) float32 {
	return a + float32((b-a)*t)
}

// lerpAngle interpolates along the shorter arc. The result is not normalised.
func lerpAngle(a, b, t float32) float32 {
	d := b - a
	if d > pi || d < -pi {
		d = wrapAngle(d)
	}
	return a + float32(d*t)
}

// wrapAngle steps a difference outside [-π, π] back by 2π at a time, as
// the engine's loop does, reducing it in float64 after maxAngleSteps.
func wrapAngle(d float32) float32 {
	for i := 0; d > pi; i++ {
		if i == maxAngleSteps {
			d = reduceAngle(d)
			break
		}
		d -= twoPi
	}
	for i := 0; d < -pi; i++ {
		if i == maxAngleSteps {
			d = reduceAngle(d)
			break
		}
		d += twoPi
	}
	return d
}

// reduceAngle brings a huge or infinite difference into [-π, π] (NaN for
// infinities), where the engine's loop would never end.
func reduceAngle(d float32) float32 {
	r := float32(math.Remainder(float64(d), 2*math.Pi))
	if r > pi {
		r -= twoPi
	} else if r < -pi {
		r += twoPi
	}
	return r
}

// seqLess compares frame sequence numbers with serial-number arithmetic, so
// that ordering survives the u32 wrap.
func seqLess(a, b uint32) bool { return int32(a-b) < 0 }
