package view

import (
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vimpclient/internal/capturetest"
)

// symbolaPath is where Debian's fonts-symbola puts the monochrome emoji
// font the system chat lines fall back to (`make deps` installs it).
const symbolaPath = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"

// realChatTemplates are the system chat templates a real tanks host sends.
func realChatTemplates(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.13", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Modules struct {
			Chat struct {
				Params struct {
					Messages map[string][]string `json:"messages"`
				} `json:"params"`
			} `json:"chat"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.Modules.Chat.Params.Messages["s"]
}

// Every glyph of the real system chat templates (their emoji: crossed
// swords, high voltage, waving hand) resolves to a font that has it, so
// none is drawn as a box, and the waving hand, which only an emoji font
// has, is drawn from one: lit, and not the outline a missing glyph gets.
func TestRealChatTemplatesEmojiHaveAFont(t *testing.T) {
	if _, err := os.Stat(symbolaPath); err != nil {
		t.Skipf("the emoji font is not installed (%v): `make deps` installs fonts-symbola", err)
	}
	v := systemView(t)
	emoji := 0
	runOnMain(func() {
		for _, tpl := range realChatTemplates(t) {
			s := v.fonts.Printable(tpl)
			v.fonts.Line(s)
			for _, r := range s {
				if r < 0x80 {
					continue
				}
				emoji++
				if !v.fonts.bundled(r) && v.fonts.fallbackFor(r) < 0 {
					t.Errorf("U+%04X of %q has no font: it would be drawn as a box", r, tpl)
				}
			}
		}
	})
	if emoji < 3 {
		t.Fatalf("%d emoji in the real templates, want the 3 they start with", emoji)
	}
	line := strings.Replace(v.fonts.Printable(realChatTemplates(t)[6]), "{0}", "Viewer", 1)
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
