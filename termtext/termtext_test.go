package termtext

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Hostile fields and what a terminal must be shown instead.
func TestFieldEscapesVisibly(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Room 1", "Room 1"},
		{"Ünïcødé 房間 غرفة", "Ünïcødé 房間 غرفة"},
		{"tab\tkept", "tab\tkept"},
		{"\x1b[2J\x1b[HPwned", `\x1b[2J\x1b[HPwned`},
		{"\x1b]0;evil title\x07Room", `\x1b]0;evil title\aRoom`},
		{"good\rEVIL", `good\rEVIL`},
		{"abc\b\b\bxyz", `abc\b\b\bxyz`},
		{"row\nforged row", `row\nforged row`},
		{"nul\x00", `nul\x00`},
		{"del\x7f", `del\x7f`},
		{"c1 csi \u009b2J nel \u0085", `c1 csi \u009b2J nel \u0085`},
		{"\u202egnp.exe", `\u202egnp.exe`},
		{"a\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069b", `a\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069b`},
		{"marks \u200e\u200f\u061c", `marks \u200e\u200f\u061c`},
		{"lines \u2028\u2029", `lines \u2028\u2029`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"lone surrogate \xed\xa0\x80", `lone surrogate \xed\xa0\x80`},
		{"8-bit csi \x9b2J", `8-bit csi \x9b2J`},
		{`back\slash \x1b`, `back\slash \x1b`},
		{"\ufffd kept", "\ufffd kept"},
	} {
		if got := Field(c.in, 200); got != c.want {
			t.Errorf("Field(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Cell("a\tb", 10); got != `a\tb` {
		t.Errorf("Cell kept a tab: %q", got)
	}
}

func TestFieldBoundsLength(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"房間房間房間房間", 4, "房間房…"},
		{"ab\x1bcd", 6, "ab…"}, // the escape is never cut in two
		{"ab\x1bcd", 8, `ab\x1bcd`},
		{"ab\x1bcde", 8, `ab\x1bc…`},
		{"abc", 0, "…"},
		{"a", 0, "a"},
		{"", 5, ""},
	} {
		got := Field(c.in, c.limit)
		if got != c.want {
			t.Errorf("Field(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
	long := strings.Repeat("\x1b[2J", 1250) // a 5,000-byte reason
	got := Reason(long)
	if n := utf8.RuneCountInString(got); n > ReasonMax || !strings.HasSuffix(got, "…") || strings.ContainsRune(got, 0x1b) {
		t.Errorf("a 5,000-byte reason: %d runes, %q", n, got)
	}
	if n := utf8.RuneCountInString(Name(strings.Repeat("x", 1000))); n != NameMax {
		t.Errorf("a long name keeps %d runes, want %d", n, NameMax)
	}
}

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"line\nline", 20, "line\nline"}, // nothing escaped
		{"房間房間", 3, "房間…"},
		{"abc", 0, "…"},
		{"", 0, ""},
	} {
		if got := Truncate(c.in, c.limit); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

func TestNumberIsBounded(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{4.5, "4.5"},
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{-1e300, "-1e+300"},
		{1234.56, "1235"},
		{123456, "1.235e+05"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "+Inf"},
		{math.Inf(-1), "-Inf"},
		{-math.MaxFloat64, "-1.798e+308"},
		{-math.SmallestNonzeroFloat64, "-4.941e-324"},
	} {
		got := Number(c.in)
		if got != c.want || len(got) > NumberMax {
			t.Errorf("Number(%v) = %q, want %q (at most %d bytes)", c.in, got, c.want, NumberMax)
		}
	}
}

func TestSequenceLen(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"plain", 0},
		{"\x1b[2Jrest", 4},
		{"\x1b[38;5;196mred", 11},
		{"\x1b[?1049h", 8},
		{"\x1b[2", 3}, // unfinished: what there is
		{"\x1b]0;title\x07rest", 10},
		{"\x1b]0;title\x1b\\rest", 11},
		{"\x1b]0;title\u009crest", 11},
		{"\x1b]0;no end", 10},
		{"\x1bPdcs\x1b\\x", 7},
		{"\x1b_apc\x07x", 6},
		{"\x1bc", 2},
		{"\x1b(B", 3},
		{"\x1b", 1},
		{"\x1b\x01", 1},
		{"\u009b2J", 4},
		{"\u009d0;t\u0007", 6},
		{"\x9b2J", 3},
		{"\u0085next", 2},
		{"\u2603", 0},
	} {
		if got := SequenceLen(c.in); got != c.want {
			t.Errorf("SequenceLen(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestStripSequences(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"no sequences, \u2603", "no sequences, \u2603"},
		{"\x1b[2J\x1b[HPwned", "Pwned"},
		{"a\x1b]0;evil title\x07b", "ab"},
		{"keep\ncontrols\r\x00", "keep\ncontrols\r\x00"},
		{"csi \u009b31mred\u009b0m", "csi red"},
		{"osc \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "osc link"},
		{"unterminated \x1b]0;swallows the rest", "unterminated "},
	} {
		if got := StripSequences(c.in); got != c.want {
			t.Errorf("StripSequences(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// EscapeJSON keeps the JSON valid and its value the same, while no raw
// DEL, C1 or bidi rune is left in it.
func TestEscapeJSONKeepsMeaning(t *testing.T) {
	room := map[string]any{
		"name": "Evil\u202eRoom\u0085\u009b2J\x7f", "map": "\x1b[2J", "game": "ok 房間",
		"quote": `say "hi" \ back\slash \u202e`, "n": -1e300,
	}
	enc, err := json.Marshal(room)
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, enc, "", "  "); err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{enc, pretty.Bytes()} {
		out := EscapeJSON(in)
		if !json.Valid(out) {
			t.Fatalf("not JSON: %s", out)
		}
		var a, b any
		_ = json.Unmarshal(in, &a)
		_ = json.Unmarshal(out, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("meaning changed:\n%v\n%v", a, b)
		}
		for _, r := range string(out) {
			if Unsafe(r) && r != '\n' {
				t.Errorf("raw %U left in %s", r, out)
			}
		}
	}
	if plain := []byte(`{"a":"b"}`); &EscapeJSON(plain)[0] != &plain[0] {
		t.Error("safe JSON was copied")
	}
	// A byte that is not UTF-8 decodes as U+FFFD either way.
	bad := []byte("{\"a\":\"x\xffy\"}")
	var a, b map[string]string
	_ = json.Unmarshal(bad, &a)
	if err := json.Unmarshal(EscapeJSON(bad), &b); err != nil || a["a"] != b["a"] || !utf8.Valid(EscapeJSON(bad)) {
		t.Errorf("invalid UTF-8: %q vs %q (%v)", a["a"], b["a"], err)
	}
}

func TestWriterEscapesAndBoundsLines(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	if _, err := w.Write([]byte("vimpclient: closed (4901): \x1b]0;t\x07\u202e\r\n")); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "vimpclient: closed (4901): \\x1b]0;t\\a\\u202e\\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	out.Reset()
	n, err := w.Write([]byte(strings.Repeat("y", 2*LineMax) + "\nnext\tline\n"))
	if err != nil || n != 2*LineMax+11 {
		t.Fatalf("wrote %d, %v", n, err)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) != 3 || utf8.RuneCountInString(lines[0]) != LineMax || !strings.HasSuffix(lines[0], "…") || lines[1] != "next\tline" {
		t.Errorf("lines %d, first %d runes, second %q", len(lines), utf8.RuneCountInString(lines[0]), lines[1])
	}
}

// BenchmarkField is a room name as the table prints it: a clean one (no
// allocation: returned as it is) and a hostile one.
func BenchmarkField(b *testing.B) {
	for _, c := range []struct{ name, in string }{
		{"clean", "Native Room — 房間 eu-west"},
		{"hostile", "\x1b[2J\x1b[HFree \x1b]0;pwned\x07Gold\r\u202eexe.moor" + strings.Repeat("x", 100)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Name(c.in)
			}
		})
	}
}

// BenchmarkStripSequences is a drawn line with no sequence: it is returned
// as it is, without allocating.
func BenchmarkStripSequences(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = StripSequences("Bob: nice shot — 房間 غرفة")
	}
}
