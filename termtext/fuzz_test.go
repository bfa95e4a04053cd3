package termtext

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzField: whatever a host sends, a field never carries an Unsafe rune
// (the tab aside), is UTF-8, is at most its bound long, and passing it
// through again changes nothing; stripped text holds no sequence
// introducer; escaped JSON keeps its meaning; the Writer's lines are safe
// and bounded.
func FuzzField(f *testing.F) {
	for _, s := range []string{"", "Room", "\x1b[2J\x1b[H", "\x1b]0;title\x07", "a\rb\bc\nd", "\u202egnp", "\xff\xed\xa0\x80",
		"\u009b31m\u0085", strings.Repeat("\x1b[2J", 40), `{"name":"\u202e\u0085","n":1}`} {
		f.Add(s, 80)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = limit%400 + 1
		if limit < 1 {
			limit += 400
		}
		for _, keepTab := range []bool{true, false} {
			out := field(s, limit, keepTab)
			if !utf8.ValidString(out) {
				t.Fatalf("not UTF-8: %q", out)
			}
			if n := utf8.RuneCountInString(out); n > limit {
				t.Fatalf("%d runes over %d: %q", n, limit, out)
			}
			for _, r := range out {
				if Unsafe(r) && !(keepTab && r == '\t') {
					t.Fatalf("raw %U in %q", r, out)
				}
			}
			if again := field(out, limit, keepTab); again != out {
				t.Fatalf("not idempotent: %q then %q", out, again)
			}
		}
		if cut := Truncate(s, limit); utf8.RuneCountInString(cut) > limit || !strings.HasPrefix(s, strings.TrimSuffix(cut, "…")) {
			t.Fatalf("Truncate(%q, %d) = %q", s, limit, cut)
		}
		_, c1 := c1At(s)
		introduced := s != "" && (s[0] == 0x1b || c1 > 0)
		if n := SequenceLen(s); n < 0 || n > len(s) || (n > 0) != introduced {
			t.Fatalf("SequenceLen(%q) = %d", s, n)
		}
		stripped := StripSequences(s)
		if strings.IndexByte(stripped, 0x1b) >= 0 || len(stripped) > len(s) {
			t.Fatalf("an ESC left in %q", stripped)
		}
		for i := 0; i < len(stripped); {
			if _, n := c1At(stripped[i:]); n > 0 {
				t.Fatalf("a C1 control left in %q", stripped)
			}
			_, size := utf8.DecodeRuneInString(stripped[i:])
			i += size
		}
		if json.Valid([]byte(s)) {
			out := EscapeJSON([]byte(s))
			a, errA := decodeJSON([]byte(s))
			b, errB := decodeJSON(out)
			if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("EscapeJSON changed %q into %q: %v, %v", s, out, errA, errB)
			}
			for _, r := range string(out) {
				if Unsafe(r) && r != '\t' && r != '\n' && r != '\r' {
					t.Fatalf("raw %U in %q", r, out)
				}
			}
		}
		var buf bytes.Buffer
		if _, err := NewWriter(&buf).Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(buf.String(), "\n") {
			if !utf8.ValidString(line) || utf8.RuneCountInString(line) > LineMax {
				t.Fatalf("line of %d runes: %q", utf8.RuneCountInString(line), line)
			}
			for _, r := range line {
				if Unsafe(r) && r != '\t' {
					t.Fatalf("raw %U on a line", r)
				}
			}
		}
	})
}

// decodeJSON reads one JSON value with its numbers as their text (1e10000
// is valid JSON, but no float64).
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}
