package snakes

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/testkit/rowtest"
)

// The snakes game's record of s1 agrees exactly with the engine's snakes
// schema, and the check fails both ways: a schema field the record lacks,
// a record field the schema lacks.
func TestKeyRecords(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(sharedDir(t), "conformance", "schemas", "snakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	rowtest.CheckKeyRecord(t, raw, "s1", func(b *clientcore.Binder) { BindSnakeRow(b.Positions()) })
}

// The flags byte reads the older hosts' 0/1 boost and the newer hosts' two
// bits the same way, and nothing that is not a byte sets a flag.
func TestFlags(t *testing.T) {
	for _, c := range []struct {
		v            float64
		boost, grace bool
	}{{0, false, false}, {1, true, false}, {2, false, true}, {3, true, true}, {6, false, true},
		{-1, false, false}, {256, false, false}, {math.NaN(), false, false}, {math.Inf(1), false, false}} {
		if b, g := Flags(c.v); b != c.boost || g != c.grace {
			t.Errorf("Flags(%v) = %v, %v; want %v, %v", c.v, b, g, c.boost, c.grace)
		}
	}
}

// A colour index is its palette colour as CSS, modulo the palette.
func TestCSSColour(t *testing.T) {
	for i, want := range map[uint8]string{0: "#ff4d4d", 5: "#3ab7ff", 12: "#ff4d4d", 255: "#9bde3c"} {
		if got := CSSColour(i); got != want {
			t.Errorf("CSSColour(%d) = %q, want %q", i, got, want)
		}
	}
}
