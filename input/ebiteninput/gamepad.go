package ebiteninput

import (
	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/input"
)

// PadReader reads the first connected gamepad that has Ebiten's standard
// layout; gamepads come and go (hot-plug) between frames.
type PadReader struct {
	ids       []ebiten.GamepadID
	connected bool
}

// Connected reports whether the last Read found a gamepad.
func (r *PadReader) Connected() bool { return r.connected }

// Read fills s with this frame's state of the first standard gamepad; ok is
// false when none is connected (s is then all released).
func (r *PadReader) Read(s *input.PadState) (ok bool) {
	*s = input.PadState{}
	r.connected = false
	r.ids = ebiten.AppendGamepadIDs(r.ids[:0])
	for _, id := range r.ids {
		if !ebiten.IsStandardGamepadLayoutAvailable(id) {
			continue
		}
		btn := func(b ebiten.StandardGamepadButton) bool { return ebiten.IsStandardGamepadButtonPressed(id, b) }
		for _, b := range [...]struct {
			ctl input.PadControl
			btn ebiten.StandardGamepadButton
		}{
			{input.PadA, ebiten.StandardGamepadButtonRightBottom},
			{input.PadB, ebiten.StandardGamepadButtonRightRight},
			{input.PadX, ebiten.StandardGamepadButtonRightLeft},
			{input.PadY, ebiten.StandardGamepadButtonRightTop},
			{input.PadLB, ebiten.StandardGamepadButtonFrontTopLeft},
			{input.PadRB, ebiten.StandardGamepadButtonFrontTopRight},
			{input.PadLT, ebiten.StandardGamepadButtonFrontBottomLeft},
			{input.PadRT, ebiten.StandardGamepadButtonFrontBottomRight},
			{input.PadBack, ebiten.StandardGamepadButtonCenterLeft},
			{input.PadStart, ebiten.StandardGamepadButtonCenterRight},
			{input.PadUp, ebiten.StandardGamepadButtonLeftTop},
			{input.PadDown, ebiten.StandardGamepadButtonLeftBottom},
			{input.PadLeft, ebiten.StandardGamepadButtonLeftLeft},
			{input.PadRight, ebiten.StandardGamepadButtonLeftRight},
		} {
			s.Down[b.ctl] = btn(b.btn)
		}
		s.SetStick(ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisLeftStickHorizontal),
			ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisLeftStickVertical))
		s.AimX = ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisRightStickHorizontal)
		s.AimY = ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxisRightStickVertical)
		r.connected = true
		return true
	}
	return false
}
