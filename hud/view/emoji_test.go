package view

import (
	"image"
	"os"
	"strings"
	"testing"

	"vimpclient/testkit/capturetest"
)

// symbolaPath is where Debian's fonts-symbola puts the monochrome emoji
// font the system chat lines fall back to (`make deps` installs it).
const symbolaPath = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"

// The waving hand of the real system chat templates, which only an emoji
// font has, is drawn from one: lit, and not the outline a missing glyph
// gets (package fonts checks that every rune of them finds a font).
func TestRealChatTemplatesEmojiDrawn(t *testing.T) {
	if _, err := os.Stat(symbolaPath); err != nil {
		t.Skipf("the emoji font is not installed (%v): `make deps` installs fonts-symbola", err)
	}
	v := systemView(t)
	line := strings.Replace(v.fonts.Printable(capturetest.RealChatTemplates(t)[6]), "{0}", "Viewer", 1)
	h := chatScene(t, line)
	img := renderWith(t, "chat-real-emoji", v, h, 8000, winW, winH, 1, nil)
	hand, ok := glyphBoxes(t, v, h, line)[0]
	if !ok || lit(img, hand) < 8 {
		t.Fatalf("the waving hand of %q is not drawn: box %v", line, hand)
	}
	left := image.Rect(hand.Min.X, hand.Min.Y, hand.Min.X+2, hand.Max.Y)
	right := image.Rect(hand.Max.X-2, hand.Min.Y, hand.Max.X, hand.Max.Y)
	if lit(img, left) >= hand.Dy()/2 && lit(img, right) >= hand.Dy()/2 {
		t.Fatalf("the waving hand at %v is drawn as a box", hand)
	}
}
