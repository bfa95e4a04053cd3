package game

import (
	"strings"
	"testing"
)

func TestCleanChat(t *testing.T) {
	for in, want := range map[string]string{
		"hi\x1b[2J\r\n\x7f there": "hi[2J there",
		"bad \xff byte":           "bad  byte",
		strings.Repeat("é", 70):   strings.Repeat("é", MaxChatRunes),
		"\x00\x01":                "",
	} {
		if got := CleanChat(in); got != want {
			t.Errorf("CleanChat(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNextAndStatBlock(t *testing.T) {
	q := []any{"a", "b"}
	if Next(&q) != "a" || Next(&q) != "b" || Next(&q) != nil {
		t.Fatal("queue not taken in order, one a call")
	}
	var rows []any
	head := false
	asked := 0
	heads := func() []any { asked++; return []any{"h"} }
	if StatBlock(&rows, &head, heads) != nil || asked != 0 {
		t.Fatal("a block with nothing in it")
	}
	rows, head = []any{1}, true
	b, ok := StatBlock(&rows, &head, heads).([]any)
	if !ok || len(b) != 2 || len(b[0].([]any)) != 1 || b[1].([]any)[0] != "h" || rows != nil || head || asked != 1 {
		t.Fatalf("block %v, rows %v, head %v", b, rows, head)
	}
}
