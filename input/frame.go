package input

import "unicode"

// TextSink receives command-line editing while the chat is open.
type TextSink interface {
	ChatText(r []rune)
	// ChatBackspace deletes the last character, or the last word when
	// word (Ctrl held).
	ChatBackspace(word bool)
	// ChatClear deletes the whole line (Ctrl+A).
	ChatClear()
}

// Frame is one frame's physical input, as read by the window layer.
type Frame struct {
	Released  []int  // DOM key codes released this frame
	Pressed   []int  // DOM key codes pressed this frame (no auto-repeat)
	Chars     []rune // text typed this frame (with OS repeat)
	Backspace bool   // Backspace pressed or repeating this frame
	Ctrl      bool   // Ctrl held: Backspace deletes a word, A clears the line
}

// keyA is the DOM code of A, which with Ctrl clears the command line.
const keyA = 65

// Frame applies one frame of input. A slow frame can hold several typed
// characters and the Enter that follows them: text already in an open
// command line goes in before the keys are handled, so Enter sends it; when
// a key opens the chat in this frame, the rest of the frame's text goes in
// after it, without the opening key's own character. modes are the modes
// the overlays have open at the start of the frame.
func (c *Controller) Frame(f *Frame, modes Modes, text TextSink, now float64) {
	c.modes = modes
	chatWasOpen := c.modes.Has(ModeChat)
	if chatWasOpen && text != nil {
		if len(f.Chars) > 0 {
			text.ChatText(f.Chars)
		}
		if f.Backspace {
			text.ChatBackspace(f.Ctrl)
		}
		if f.Ctrl {
			for _, code := range f.Pressed {
				if code == keyA {
					text.ChatClear()
				}
			}
		}
	}
	for _, code := range f.Released {
		c.KeyUp(code, now)
	}
	opener := -1
	for _, code := range f.Pressed {
		before := c.modes.Has(ModeChat)
		c.KeyDown(code, now)
		if !before && c.modes.Has(ModeChat) {
			opener = code
		}
	}
	if !chatWasOpen && opener >= 0 && text != nil {
		chars := f.Chars
		if len(chars) > 0 && unicode.ToUpper(chars[0]) == rune(opener) {
			chars = chars[1:]
		}
		if len(chars) > 0 {
			text.ChatText(chars)
		}
	}
	c.Tick(now)
}
