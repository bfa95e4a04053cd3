package view

import (
	"image"
	"math"
	"testing"

	"vimpclient/hud"
	"vimpclient/protocol"
)

// chatScene is the captured scene with one more chat line, from Alice in
// team 1, as the newest (bottom) line.
func chatScene(t *testing.T, line string) *hud.HUD {
	h := scene(t)
	h.Handle(protocol.Chat{Kind: protocol.ChatPlayer, Text: line, Author: "Alice", Team: 1}, 8000)
	h.Update(8000)
	return h
}

// glyphBoxes are the device-pixel boxes of the newest chat line's glyphs,
// by byte index in the text, as the view lays them out.
func glyphBoxes(t *testing.T, v *View, h *hud.HUD, line string) map[int]image.Rectangle {
	t.Helper()
	l := h.Layout(winW, winH)
	boxes := map[int]image.Rectangle{}
	runOnMain(func() {
		v.s = 1
		pw := v.textW("Alice: ", true, chatSize)
		x, y := l.Chat.X+pw, l.H-hud.ChatBottom-hud.ChatLineH
		for _, g := range v.fonts.Glyphs(v.fonts.Line(line), false, chatSize) {
			if g.Image == nil {
				continue
			}
			b := g.Image.Bounds()
			boxes[g.StartIndexInBytes] = image.Rect(0, 0, b.Dx(), b.Dy()).Add(image.Pt(int(math.Round(x+g.X)), int(math.Round(y+g.Y))))
		}
	})
	return boxes
}

// lit counts the pixels of r the text reached: clearly lighter than the
// world's #222 behind it.
func lit(img *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := px(img, x, y); int(c.R)+int(c.G)+int(c.B) > 3*0x22+90 {
				n++
			}
		}
	}
	return n
}

// A chat line in Japanese is drawn from a system font: every glyph has
// pixels where it is laid out, and the glyphs differ from one another
// (boxes would all look alike).
func TestJapaneseChatLineDrawn(t *testing.T) {
	const line = "こんにちは日本語"
	v := systemView(t)
	h := chatScene(t, line)
	img := renderWith(t, "chat-japanese", v, h, 8000, winW, winH, 1, nil)
	if !v.fonts.Has('日') || !v.fonts.Has('こ') {
		t.Fatal("no system font loaded for Japanese (make deps installs one)")
	}
	boxes := glyphBoxes(t, v, h, line)
	if len(boxes) != 8 {
		t.Fatalf("%d glyphs laid out, want 8", len(boxes))
	}
	seen := map[int]bool{}
	for i, b := range boxes {
		n := lit(img, b)
		if n < 8 {
			t.Errorf("glyph at byte %d (%v): %d lit pixels", i, b, n)
		}
		seen[n] = true
	}
	if len(seen) < 4 {
		t.Fatalf("the glyphs look alike (%d distinct pixel counts): drawn as boxes?", len(seen))
	}
}

// A chat line with an emoji draws the emoji (from a system font, or as its
// box) and a rune no font has as a box: pixels along both of its sides.
func TestEmojiAndMissingGlyphDrawn(t *testing.T) {
	const line = "hi 👋 \U0010FFFD end"
	v := systemView(t)
	h := chatScene(t, line)
	img := renderWith(t, "chat-emoji", v, h, 8000, winW, winH, 1, nil)
	boxes := glyphBoxes(t, v, h, line)
	wave, ok := boxes[3]
	if !ok || lit(img, wave) < 8 {
		t.Fatalf("emoji not drawn: box %v, %d lit pixels", wave, lit(img, wave))
	}
	tofu, ok := boxes[8]
	if !ok {
		t.Fatalf("the missing glyph was dropped: glyphs at %v", boxes)
	}
	left := image.Rect(tofu.Min.X, tofu.Min.Y, tofu.Min.X+2, tofu.Max.Y)
	right := image.Rect(tofu.Max.X-2, tofu.Min.Y, tofu.Max.X, tofu.Max.Y)
	if lit(img, left) < tofu.Dy()/2 || lit(img, right) < tofu.Dy()/2 {
		t.Fatalf("missing glyph at %v is not a box: %d and %d lit on its sides", tofu, lit(img, left), lit(img, right))
	}
	if _, ok := boxes[len(line)-3]; !ok {
		t.Fatal("the text after the missing glyph was dropped")
	}
}

// Without the system fonts, a rune the bundled fonts lack is still drawn:
// as its box.
func TestBundledOnlyDrawsBoxes(t *testing.T) {
	var v *View
	runOnMain(func() {
		var err error
		if v, err = NewWithOptions(Options{}); err != nil {
			t.Error(err)
		}
	})
	if v == nil {
		t.FailNow()
	}
	h := chatScene(t, "日本")
	img := renderWith(t, "chat-bundled", v, h, 8000, winW, winH, 1, nil)
	boxes := glyphBoxes(t, v, h, "日本")
	if len(boxes) != 2 || lit(img, boxes[0]) < 8 {
		t.Fatalf("boxes %v", boxes)
	}
}
