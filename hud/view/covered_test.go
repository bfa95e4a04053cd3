package view

import (
	"image"
	"image/color"
	"testing"

	"vimpclient/hud"
)

// Covered reports the boxes the HUD drew over the game, at the Draw's
// scale: the chat's lines hold the chat text's pixels (and lie inside the
// chat's box), the panel and the vote window are among them, and every
// box lies in the window.
func TestCoveredHoldsWhatWasDrawn(t *testing.T) {
	v := systemView(t)
	h := scene(t)
	const scale = 1.5
	img := renderWith(t, "covered", v, h, 8000, winW*scale, winH*scale, scale, nil)
	boxes := v.Covered(nil)
	l := h.LayoutAround(winW, winH, v.graph)
	var chat *hud.Rect
	for i, b := range boxes {
		if b.X < 0 || b.Y < 0 || b.X+b.W > winW*scale+0.5 || b.Y+b.H > winH*scale+0.5 || b.W <= 0 || b.H <= 0 {
			t.Fatalf("box %+v outside the %vx%v window", b, winW*scale, winH*scale)
		}
		if b.Y > l.Chat.Y*scale-1 && b.Y+b.H <= (winH-hud.ChatBottom)*scale+0.5 {
			chat = &boxes[i]
		}
	}
	if chat == nil {
		t.Fatalf("no chat box among %+v", boxes)
	}
	// Chat text is light grey on the dark fill: it is all inside the box.
	in, out := 0, 0
	chatArea := image.Rect(int(l.Chat.X*scale), int(l.Chat.Y*scale), int((l.Chat.X+l.Chat.W)*scale), int((winH-hud.ChatBottom)*scale))
	for y := chatArea.Min.Y; y < chatArea.Max.Y; y++ {
		for x := chatArea.Min.X; x < chatArea.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if !light(c) {
				continue
			}
			if float64(x) >= chat.X-1 && float64(x) <= chat.X+chat.W+1 && float64(y) >= chat.Y-1 && float64(y) <= chat.Y+chat.H+1 {
				in++
			} else {
				out++
			}
		}
	}
	if in < 50 || out > in/50 {
		t.Fatalf("chat pixels: %d inside the reported box %+v, %d outside", in, *chat, out)
	}
	var panel, vote bool
	for _, b := range boxes {
		panel = panel || (b.Y == 0 && b.H == hud.PanelH*scale)
		vote = vote || (b.X == hud.VoteX*scale && b.Y == hud.VoteY*scale)
	}
	if !panel || !vote {
		t.Fatalf("panel %v vote %v among %+v", panel, vote, boxes)
	}
}

func light(c color.RGBA) bool { return c.R > 0x90 && c.G > 0x90 && c.B > 0x90 }
