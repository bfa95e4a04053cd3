package clientcore

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"

	"vimpclient/snapschema"
	"vimpclient/testkit/capturetest"
)

// conformanceCounts tallies the shared cases the tests ran, printed at the end.
var conformanceCounts struct {
	frames, invalid, prefixes, scenarios, steps atomic.Int64
}

func TestMain(m *testing.M) {
	code := m.Run()
	fmt.Printf("conformance: %d frame cases, %d invalid cases, %d truncation prefixes, %d interp scenarios (%d steps)\n",
		conformanceCounts.frames.Load(), conformanceCounts.invalid.Load(), conformanceCounts.prefixes.Load(),
		conformanceCounts.scenarios.Load(), conformanceCounts.steps.Load())
	os.Exit(code)
}

// sharedDir finds the engine's test data: testdata/ at the module root,
// or $VIMP_SHARED when set.
func sharedDir(t testing.TB) string { return capturetest.SharedDir(t) }

func conformanceDir(t testing.TB) string {
	d := filepath.Join(sharedDir(t), "conformance")
	if _, err := os.Stat(filepath.Join(d, "manifest.json")); err != nil {
		t.Fatalf("conformance vectors not found at %s (set VIMP_SHARED): %v", d, err)
	}
	return d
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func loadSchema(t testing.TB, conf, file string) *Schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(conf, file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSchema(b)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bits32 parses an f32 bit pattern written as 8 hex digits.
func bits32(t testing.TB, s string) uint32 {
	t.Helper()
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		t.Fatalf("bad f32 bits %q", s)
	}
	return uint32(v)
}

func bits64(t testing.TB, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		t.Fatalf("bad f64 bits %q", s)
	}
	return v
}

// sameF32 compares bit patterns, any NaN matching any NaN.
func sameF32(got float32, want uint32) bool {
	w := math.Float32frombits(want)
	if math.IsNaN(float64(w)) {
		return math.IsNaN(float64(got))
	}
	return math.Float32bits(got) == want
}

func sameF64(got float64, want uint64) bool {
	w := math.Float64frombits(want)
	if math.IsNaN(w) {
		return math.IsNaN(got)
	}
	return math.Float64bits(got) == want
}

// checkFields compares a row against the vector form: f32 as bit strings,
// integers as numbers.
// checkFields compares a decoded row with the vector's fields: f32 values
// by bits, integers by their exact wire value (and Fields by that value
// rounded to float32).
func checkFields(t testing.TB, where string, k *KeySchema, row *Row, want []any) {
	t.Helper()
	got := row.Fields
	if len(got) != len(want) {
		t.Errorf("%s: %d fields, want %d", where, len(got), len(want))
		return
	}
	for i, w := range want {
		if k.Fields[i].Type == snapschema.TypeF32 {
			ws, _ := w.(string)
			if !sameF32(got[i], bits32(t, ws)) {
				t.Errorf("%s field %d: got %v (%08x), want %s", where, i, got[i], math.Float32bits(got[i]), ws)
			}
			continue
		}
		wn, _ := w.(float64)
		if row.exact(k, i) != wn || got[i] != float32(wn) {
			t.Errorf("%s field %d: got %v (exact %v), want %v", where, i, got[i], row.exact(k, i), wn)
		}
	}
}

// checkJSONText compares the decoder's JSON form byte for byte, and says
// whether the values agree when the text does not.
func checkJSONText(t testing.TB, where string, got []byte, want string) {
	t.Helper()
	if string(got) == want {
		return
	}
	var g, w any
	semantic := json.Unmarshal(got, &g) == nil && json.Unmarshal([]byte(want), &w) == nil && fmt.Sprint(g) == fmt.Sprint(w)
	t.Errorf("%s: JSON text differs (values equal: %v)\n got %s\nwant %s", where, semantic, got, want)
}
