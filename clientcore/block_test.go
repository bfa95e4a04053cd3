package clientcore

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"vimpclient/snapschema"
)

// readSeed reads a bytes seed of the FuzzDecode corpus.
func readSeed(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzDecode", name))
	if err != nil {
		t.Fatal(err)
	}
	lit := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(string(raw), "\n", 2)[1], "[]byte("), ")\n")
	s, err := strconv.Unquote(lit)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(s)
}

// TestDecodeRepeatedRowsAndTails: a repeated slot or id keeps its first
// position and takes the last row, whose missing tail reads zeros, u32
// fields exact, also where an earlier row of the same id had a tail or was
// null.
func TestDecodeRepeatedRowsAndTails(t *testing.T) {
	syn := loadSchema(t, conformanceDir(t), "schemas/synthetic.json")
	var f Frame
	if err := NewDecoder(syn).Decode(readSeed(t, "repeated-rows-tails-u32"), &f); err != nil {
		t.Fatal(err)
	}
	type want struct {
		id    uint32
		exact []float64
	}
	wants := map[string][]want{
		"n8":   {{3, []float64{2.5, 123, 0, 0, 0, 0, 0}}},
		"l16t": {{0, []float64{1, 2.5, 3, 4e9, 5}}, {1, []float64{2, 3.5, 0, 0, 0}}},
		"e32t": {{1 << 31, []float64{4e9, 0, 0, 0}}},
	}
	if len(f.Blocks) != len(wants) {
		t.Fatalf("%d blocks, want %d", len(f.Blocks), len(wants))
	}
	for _, blk := range f.Blocks {
		w := wants[blk.Key()]
		if len(blk.Rows) != len(w) {
			t.Fatalf("%s: %d rows, want %d", blk.Key(), len(blk.Rows), len(w))
		}
		for i, r := range blk.Rows {
			if r.ID != w[i].id || r.Null || len(r.Fields) != len(w[i].exact) {
				t.Fatalf("%s row %d: id %d null %v %d fields, want id %d", blk.Key(), i, r.ID, r.Null, len(r.Fields), w[i].id)
			}
			for j, v := range w[i].exact {
				if got := r.exact(blk.Schema, j); got != v {
					t.Errorf("%s row %d field %d: %v, want %v", blk.Key(), i, j, got, v)
				}
			}
		}
	}
}

// TestDecodeCountBeyondBytes: a block claiming more rows than its bytes
// hold is truncated, and claims no storage for the rows it cannot hold.
func TestDecodeCountBeyondBytes(t *testing.T) {
	tanks := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	var f Frame
	if err := NewDecoder(tanks).Decode(readSeed(t, "count-beyond-bytes"), &f); err != ErrTruncated {
		t.Fatalf("err %v, want %v", err, ErrTruncated)
	}
	if cap(f.rows) > 16 || cap(f.vals) > 64 {
		t.Errorf("a 41-byte frame claimed %d rows and %d values", cap(f.rows), cap(f.vals))
	}
}

// TestDecodeBeyondFastRounding: f32 values the rounding fast path leaves
// to the engine's formula (huge, infinite, NaN) decode by the formula, in
// a row whose other values take the fast path.
func TestDecodeBeyondFastRounding(t *testing.T) {
	tanks := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	k := tanks.Key("m1")
	vals := []float64{3e9, -167772.17, 167772.15, 1.005, math.Inf(-1), math.NaN(), -0.004, 7, 8, 9, 2.675}
	wire := encodeFrame(tanks, &testFrame{port: 5, version: 5, seq: 1, serverTime: 1, blocks: []testBlock{
		{key: "m1", rows: []testRow{{id: 1, fields: vals}}},
	}})
	var f Frame
	if err := NewDecoder(tanks).Decode(wire, &f); err != nil {
		t.Fatal(err)
	}
	got := f.Blocks[0].Rows[0].Fields
	for i, fl := range k.Fields {
		want := float32(vals[i])
		if fl.Type == snapschema.TypeF32 {
			want = float32(math.Round(float64(float32(vals[i]))*100) / 100)
		}
		if math.Float32bits(got[i]) != math.Float32bits(want) {
			t.Errorf("field %d (%v): %v [%08x], want %v [%08x]", i, vals[i], got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
		}
	}
}

// TestSpanPathMatchesPasses: the span path decodes random frames of every
// conformance schema, and their truncated prefixes, as decodeRows' passes
// do, bit for bit and verdict for verdict.
func TestSpanPathMatchesPasses(t *testing.T) {
	conf := conformanceDir(t)
	rng := rand.New(rand.NewPCG(11, 13))
	spans := 0
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		s := loadSchema(t, conf, "schemas/"+name+".json")
		dec, ref := NewDecoder(s), NewDecoder(s)
		ref.passesOnly = true
		var fr, fref Frame
		for i := 0; i < 300; i++ {
			wire := encodeFrame(s, randomFrame(rng, s, uint32(i)))
			for _, n := range []int{len(wire), rng.IntN(len(wire) + 1), len(wire) - 1} {
				err, refErr := dec.Decode(wire[:n], &fr), ref.Decode(wire[:n], &fref)
				if err != refErr {
					t.Fatalf("%s frame %d, %d of %d bytes: span path %v, passes %v", name, i, n, len(wire), err, refErr)
				}
				if err != nil {
					continue
				}
				if diff := frameDiff(&fr, &fref); diff != "" {
					t.Fatalf("%s frame %d, %d of %d bytes: %s", name, i, n, len(wire), diff)
				}
				for _, blk := range fr.Blocks {
					if blk.span && len(blk.Rows) > 0 {
						spans++
					}
				}
			}
		}
	}
	if spans < 300 {
		t.Errorf("%d span blocks in 2700 frames", spans)
	}
}
