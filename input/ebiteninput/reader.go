// Package ebiteninput is the thin Ebiten layer of package input: it reads
// physical key, focus, pointer and text transitions each frame and hands
// them to an input.Controller. It holds no game logic.
package ebiteninput

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"vimpclient/input"
)

// Reader is the thin Ebiten layer: once per Update it reads the physical key,
// focus and pointer transitions and feeds them to a Controller, and typed
// text to the chat. It holds no game logic.
type Reader struct {
	frame input.Frame
	// Scale is how many layout units make one logical pixel: the device
	// scale factor when the game's Layout returns device pixels, else 1 (0
	// means 1). Pointer positions are divided by it before use.
	Scale   float64
	keys    []ebiten.Key
	chars   []rune
	touches []ebiten.TouchID
	focused bool
	started bool
	mouseX  int
	mouseY  int
	ptrX    int
	ptrY    int
	touchID ebiten.TouchID
	touchOn bool
	mouseOn bool
	// cursor auto-hide after CursorHideMs at rest
	cursorAt     float64
	cursorHidden bool
}

// CursorHideMs is how long the mouse must rest before the cursor hides.
const CursorHideMs = 3000

// Update reads this frame's input. Call it from ebiten.Game.Update with the
// modes the overlays have open and the monotonic time in ms.
func (r *Reader) Update(c *input.Controller, modes input.Modes, text input.TextSink, now float64) {
	focused := ebiten.IsFocused()
	if r.started && r.focused && !focused {
		c.FocusLost(now)
		r.mouseOn, r.touchOn = false, false
	}
	r.focused, r.started = focused, true

	r.frame.Released = r.codes(inpututil.AppendJustReleasedKeys(r.keys[:0]), r.frame.Released[:0])
	r.frame.Pressed = r.codes(inpututil.AppendJustPressedKeys(r.keys[:0]), r.frame.Pressed[:0])
	r.frame.Chars = ebiten.AppendInputChars(r.frame.Chars[:0])
	r.frame.Backspace = repeatPress(inpututil.KeyPressDuration(ebiten.KeyBackspace))
	r.frame.Ctrl = ebiten.IsKeyPressed(ebiten.KeyControl)
	c.Frame(&r.frame, modes, text, now)
	r.pointer(c, now)
	c.Tick(now)
	r.cursor(now)
}

// JustPressed appends the DOM codes of the keys pressed this frame to dst,
// for screens that take keys without the controller (the reconnecting
// screen, the settings overlay).
func (r *Reader) JustPressed(dst []int) []int {
	return r.codes(inpututil.AppendJustPressedKeys(r.keys[:0]), dst)
}

// codes appends the DOM codes of keys to dst.
func (r *Reader) codes(keys []ebiten.Key, dst []int) []int {
	r.keys = keys
	for _, k := range keys {
		if code, ok := DOMKeyCode(k); ok {
			dst = append(dst, code)
		}
	}
	return dst
}

// cursor shows the cursor on any mouse press, release or move and hides it
// after CursorHideMs without one.
func (r *Reader) cursor(now float64) {
	x, y := ebiten.CursorPosition()
	active := x != r.mouseX || y != r.mouseY ||
		inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) || inpututil.IsMouseButtonJustReleased(ebiten.MouseButtonLeft) ||
		inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight) || inpututil.IsMouseButtonJustReleased(ebiten.MouseButtonRight)
	r.mouseX, r.mouseY = x, y
	if active || r.cursorAt == 0 {
		r.cursorAt = now
		if r.cursorHidden {
			ebiten.SetCursorMode(ebiten.CursorModeVisible)
			r.cursorHidden = false
		}
		return
	}
	if !r.cursorHidden && now-r.cursorAt >= CursorHideMs {
		ebiten.SetCursorMode(ebiten.CursorModeHidden)
		r.cursorHidden = true
	}
}

// repeatPress is true on the first frame of a press and then at the OS-like
// repeat rate (after 30 frames, every 3 frames at 60 Hz).
func repeatPress(d int) bool {
	return d == 1 || (d >= 30 && (d-30)%3 == 0)
}

func (r *Reader) logical(x, y int) (float64, float64) {
	s := r.Scale
	if s <= 0 {
		s = 1
	}
	return float64(x) / s, float64(y) / s
}

func (r *Reader) pointer(c *input.Controller, now float64) {
	if !c.HasPointer() {
		r.mouse(c, now)
		return
	}
	x, y := ebiten.CursorPosition()
	lx, ly := r.logical(x, y)
	anyDown := ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) ||
		ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight) ||
		ebiten.IsMouseButtonPressed(ebiten.MouseButtonMiddle)
	switch {
	case anyDown && !r.mouseOn:
		r.mouseOn = true
		c.Pointer(input.PointerPress, lx, ly, now)
	case !anyDown && r.mouseOn:
		r.mouseOn = false
		c.Pointer(input.PointerRelease, lx, ly, now)
	case anyDown && (x != r.ptrX || y != r.ptrY):
		c.Pointer(input.PointerMove, lx, ly, now)
	}
	r.ptrX, r.ptrY = x, y

	r.touches = inpututil.AppendJustPressedTouchIDs(r.touches[:0])
	if !r.touchOn && len(r.touches) > 0 {
		r.touchID, r.touchOn = r.touches[0], true
		tx, ty := r.logical(ebiten.TouchPosition(r.touchID))
		c.Pointer(input.PointerPress, tx, ty, now)
		return
	}
	if r.touchOn {
		if inpututil.IsTouchJustReleased(r.touchID) {
			r.touchOn = false
			tx, ty := r.logical(inpututil.TouchPositionInPreviousTick(r.touchID))
			c.Pointer(input.PointerRelease, tx, ty, now)
			return
		}
		tx, ty := ebiten.TouchPosition(r.touchID)
		px, py := inpututil.TouchPositionInPreviousTick(r.touchID)
		if tx != px || ty != py {
			lx, ly := r.logical(tx, ty)
			c.Pointer(input.PointerMove, lx, ly, now)
		}
	}
}

// DOMKeyCode maps a physical Ebiten key (US positions) to the legacy DOM
// keyCode the hosts' key sets use (the browser's KeyboardEvent.keyCode values).
func DOMKeyCode(k ebiten.Key) (int, bool) {
	switch {
	case k >= ebiten.KeyA && k <= ebiten.KeyZ:
		return 65 + int(k-ebiten.KeyA), true
	case k >= ebiten.KeyDigit0 && k <= ebiten.KeyDigit9:
		return 48 + int(k-ebiten.KeyDigit0), true
	case k >= ebiten.KeyNumpad0 && k <= ebiten.KeyNumpad9:
		return 96 + int(k-ebiten.KeyNumpad0), true
	case k >= ebiten.KeyF1 && k <= ebiten.KeyF12:
		return 112 + int(k-ebiten.KeyF1), true
	}
	code, ok := ebitenCodes[k]
	return code, ok
}

var ebitenCodes = map[ebiten.Key]int{
	ebiten.KeyBackspace: 8, ebiten.KeyTab: 9, ebiten.KeyEnter: 13, ebiten.KeyNumpadEnter: 13,
	ebiten.KeyShiftLeft: 16, ebiten.KeyShiftRight: 16,
	ebiten.KeyControlLeft: 17, ebiten.KeyControlRight: 17,
	ebiten.KeyAltLeft: 18, ebiten.KeyAltRight: 18,
	ebiten.KeyEscape: 27, ebiten.KeySpace: 32,
	ebiten.KeyPageUp: 33, ebiten.KeyPageDown: 34, ebiten.KeyEnd: 35, ebiten.KeyHome: 36,
	ebiten.KeyArrowLeft: 37, ebiten.KeyArrowUp: 38, ebiten.KeyArrowRight: 39, ebiten.KeyArrowDown: 40,
	ebiten.KeyInsert: 45, ebiten.KeyDelete: 46,
	ebiten.KeyNumpadMultiply: 106, ebiten.KeyNumpadAdd: 107, ebiten.KeyNumpadSubtract: 109,
	ebiten.KeyNumpadDecimal: 110, ebiten.KeyNumpadDivide: 111,
	ebiten.KeySemicolon: 186, ebiten.KeyEqual: 187, ebiten.KeyComma: 188, ebiten.KeyMinus: 189,
	ebiten.KeyPeriod: 190, ebiten.KeySlash: 191, ebiten.KeyBackquote: 192,
	ebiten.KeyBracketLeft: 219, ebiten.KeyBackslash: 220, ebiten.KeyBracketRight: 221,
	ebiten.KeyQuote: 222,
}

// Form is the auth form's input surface (hud.HUD implements it).
type Form interface {
	AuthOpen() bool
	AuthInput(pressed []int, shift, ctrl bool, chars []rune, backspace bool)
	AuthClick(w, h, x, y float64)
}

// UpdateForm reads this frame's keys, text and clicks for the auth form
// shown before the game starts; w and h are the window's size in logical
// pixels (the layout size divided by Scale).
func (r *Reader) UpdateForm(f Form, w, h float64) {
	if !f.AuthOpen() {
		return
	}
	r.frame.Pressed = r.codes(inpututil.AppendJustPressedKeys(r.keys[:0]), r.frame.Pressed[:0])
	r.frame.Chars = ebiten.AppendInputChars(r.frame.Chars[:0])
	f.AuthInput(r.frame.Pressed, ebiten.IsKeyPressed(ebiten.KeyShift), ebiten.IsKeyPressed(ebiten.KeyControl), r.frame.Chars,
		repeatPress(inpututil.KeyPressDuration(ebiten.KeyBackspace)))
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		x, y := r.logical(ebiten.CursorPosition())
		f.AuthClick(w, h, x, y)
	}
	r.touches = inpututil.AppendJustPressedTouchIDs(r.touches[:0])
	for _, id := range r.touches {
		x, y := r.logical(ebiten.TouchPosition(id))
		f.AuthClick(w, h, x, y)
	}
}

// mouseButtons are the buttons a game without a pointer channel gets as
// keys (input.MouseLeft...), so that bindings name them.
var mouseButtons = [...]struct {
	b    ebiten.MouseButton
	code int
}{
	{ebiten.MouseButtonLeft, input.MouseLeft},
	{ebiten.MouseButtonRight, input.MouseRight},
	{ebiten.MouseButtonMiddle, input.MouseMiddle},
}

// mouse feeds a game without a pointer channel: the buttons as keys, the
// pointer for aiming its gun.
func (r *Reader) mouse(c *input.Controller, now float64) {
	for _, m := range mouseButtons {
		switch {
		case inpututil.IsMouseButtonJustPressed(m.b):
			c.KeyDown(m.code, now)
		case inpututil.IsMouseButtonJustReleased(m.b):
			c.KeyUp(m.code, now)
		}
	}
	lx, ly := r.logical(ebiten.CursorPosition())
	c.Mouse(lx, ly, now)
}
