package clientcore

import (
	"math"

	"vimpclient/internal/angle"
)

// pi and twoPi are the float32 constants the engine's lerpAngle uses.
const (
	pi    = float32(math.Pi)
	twoPi = float32(pi * 2)
)

// lerp is a + (b-a)·t in float32; the conversion stops the compiler fusing the
// multiply and add, which would change the last bit.
func lerp(a, b, t float32) float32 {
	return a + float32((b-a)*t)
}

// lerpAngle interpolates along the shorter arc, the difference wrapped by
// the engine's ±2π loop. The result is not normalised.
func lerpAngle(a, b, t float32) float32 {
	d := b - a
	if d > pi || d < -pi {
		d = angle.Normalize(d)
	}
	return a + float32(d*t)
}

// seqLess compares frame sequence numbers with serial-number arithmetic, so
// that ordering survives the u32 wrap.
func seqLess(a, b uint32) bool { return int32(a-b) < 0 }
