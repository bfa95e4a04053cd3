package session

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"vimpclient/protocol"
	"vimpclient/termtext"
)

// A TECH_INFORM template of many placeholders with a long parameter does
// not multiply into megabytes: the text is cut with an ellipsis. The
// engine's own texts keep their newlines for the black screen.
func TestTechTextIsBounded(t *testing.T) {
	list := []string{strings.Repeat("{0}", 200)}
	got := techText(list, protocol.Inform{Code: 0, Params: []string{strings.Repeat("房", 5000)}})
	if n := utf8.RuneCountInString(got); n != maxTechText || !strings.HasSuffix(got, "…") {
		t.Errorf("a multiplied text of %d runes (%d bytes)", n, len(got))
	}
	full := techText(nil, protocol.Inform{Code: 0, Params: []string{"30", "2"}})
	if full != "Server is full! Please wait or try again later.\nMax players: 30\nYou are #2 in the queue." {
		t.Errorf("the engine's text: %q", full)
	}
}

// A transcript printed on a terminal obeys none of the host's text: DEL,
// C1 controls and bidi marks are \u escapes in the file, and a replay
// reads the very same messages back.
func TestRecordingEscapesTerminalRunes(t *testing.T) {
	var buf closingBuffer
	at := time.Unix(1700000000, 0)
	rec := NewRecorder(&buf, "hostile", func() time.Time { return at })
	msg := `[8,["\u202eevil\u0085\u009b2J` + "\x7f\u2066" + `"]]`
	rec.Message("s2c", Message{Data: []byte(msg)})
	rec.Message("s2c", Message{Data: []byte("not json \u202e\x1b[2J\u0085")})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	for _, r := range buf.String() {
		if termtext.Unsafe(r) && r != '\n' {
			t.Fatalf("raw %U in the recording:\n%s", r, buf.String())
		}
	}
	read, err := ReadRecording(bytes.NewReader(buf.Bytes()), DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	var got *Message
	for _, l := range read.Lines {
		if m, ok, err := l.Wire(); ok && err == nil {
			got = &m
			break
		}
	}
	if got == nil {
		t.Fatalf("no message read back from\n%s", buf.String())
	}
	var a, b any
	if json.Unmarshal([]byte(msg), &a) != nil || json.Unmarshal(got.Data, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("read back %s, recorded %s", got.Data, msg)
	}
}
