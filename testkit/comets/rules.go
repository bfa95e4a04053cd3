// Package comets is the smallest whole game the project can play: comets
// that fly at a constant speed across a field and turn left or right. It
// exists to show what a game is made of, in the three halves every game
// has: its rules (this file), shared by the host and, for a game with
// prediction, the client's predictor; its parts, which draw it (parts.go);
// and its host half, the match the embedded host runs (match.go). The
// project's own games keep the halves in packages of their own: the rules
// under games/, the parts under parts/, the match under host/.
package comets

import (
	"math"

	"vimpclient/internal/angle"
)

// The field and the comets' motion, in world units and seconds.
const (
	FieldW, FieldH = 960, 600
	Speed          = 120         // units a second
	TurnRate       = math.Pi / 2 // radians a second while a turn key is held
)

// Comet is one comet's state.
type Comet struct {
	X, Y, Angle float32
	// Turn is -1 (left), 0 or 1 (right): the keys held.
	Turn int8
}

// Step moves c by dt seconds: it turns by the keys held, flies on, and
// wraps around the field's edges. It computes in float32 so that any two
// callers stepping the same input get the same bits.
func (c *Comet) Step(dt float32) {
	c.Angle = angle.Normalize(c.Angle + float32(c.Turn)*TurnRate*dt)
	sin, cos := math.Sincos(float64(c.Angle))
	c.X = wrap(c.X+float32(cos)*Speed*dt, FieldW)
	c.Y = wrap(c.Y+float32(sin)*Speed*dt, FieldH)
}

func wrap(v, size float32) float32 {
	switch {
	case v < 0:
		return v + size
	case v >= size:
		return v - size
	}
	return v
}
