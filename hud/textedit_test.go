package hud

import (
	"testing"

	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

// Ctrl+Backspace deletes the last word and Ctrl+A the whole text in the
// Name form and the chat line.
func TestTextFieldsCtrlEdits(t *testing.T) {
	const ctrlA, backspace = 65, 8
	t.Run("name form", func(t *testing.T) {
		h := New("h:1", "g", nil)
		lines := capturetest.Load(t, "minigame-dedicated.jsonl")
		v, err := protocol.DecodePayload(protocol.AuthData, capturetest.First(t, lines, "A", protocol.AuthData))
		if err != nil {
			t.Fatal(err)
		}
		h.Handle(v, 0)
		h.AuthInput(nil, false, false, []rune("Big Bob"), false)
		h.AuthInput(nil, false, true, nil, true)
		if got := h.Auth.FocusedField().Value; got != "Big " {
			t.Fatalf("after Ctrl+Backspace %q", got)
		}
		h.AuthInput(nil, false, false, nil, true)
		if got := h.Auth.FocusedField().Value; got != "Big" {
			t.Fatalf("after Backspace %q", got)
		}
		h.AuthInput([]int{ctrlA}, false, true, nil, false)
		if got := h.Auth.FocusedField().Value; got != "" {
			t.Fatalf("after Ctrl+A %q", got)
		}
	})
	t.Run("chat line", func(t *testing.T) {
		h := New("h:1", "g", nil)
		h.OpenMode(1, 0) // input.ModeChat
		h.ChatText([]rune("good game all"))
		h.ChatBackspace(true)
		if got := h.Chat.Input(); got != "good game " {
			t.Fatalf("after Ctrl+Backspace %q", got)
		}
		h.ChatBackspace(false)
		if got := h.Chat.Input(); got != "good game" {
			t.Fatalf("after Backspace %q", got)
		}
		h.ChatClear()
		if got := h.Chat.Input(); got != "" || !h.Chat.Open() {
			t.Fatalf("after Ctrl+A %q open %v", got, h.Chat.Open())
		}
	})
}
