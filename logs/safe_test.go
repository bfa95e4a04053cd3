package logs

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"vimpclient/termtext"
)

// Whatever a remote side put in a message, a value, an error or a group,
// the log line holds no control or bidi rune and no field runs unbounded.
func TestSafeEscapesAndBoundsRemoteText(t *testing.T) {
	var buf bytes.Buffer
	log, _ := New(&buf, true)
	hostile := "\x1b[2J\x1b]0;pwned\x07\r\b\n\u202eevil\u0085\xff"
	long := strings.Repeat("\x1b[H", 2000)
	log.Warn("host refused: "+hostile, "reason", long, "err", errors.New(hostile),
		slog.Group("room", "name", hostile, "players", 3), "any", []string{hostile})
	log.With("master", hostile).WithGroup(hostile).Info("connecting", "ws", "ws://h/"+hostile)
	out := buf.String()
	if n := strings.Count(out, "\n"); n != 2 {
		t.Fatalf("%d lines, want 2 (a newline in a value forged a line):\n%s", n, out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		for _, r := range line {
			if termtext.Unsafe(r) || r == utf8.RuneError {
				t.Fatalf("raw %U in the log line %q", r, line)
			}
		}
		if n := utf8.RuneCountInString(line); n > 8*termtext.MessageMax {
			t.Errorf("a line of %d runes", n)
		}
	}
	for _, want := range []string{"host refused:", `x1b[2J`, "evil", "room.players=3", "…"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from\n%s", want, out)
		}
	}
}
