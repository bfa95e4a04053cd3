package clientcore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
		dec, ref, scalar := NewDecoder(s), NewDecoder(s), NewDecoder(s)
		ref.passesOnly = true
		scalar.vector = false // the Go kernels, where dec takes the vector ones
		var fr, fref, fs Frame
		for i := 0; i < 300; i++ {
			wire := encodeFrame(s, randomFrame(rng, s, uint32(i)))
			for _, n := range []int{len(wire), rng.IntN(len(wire) + 1), len(wire) - 1} {
				err, refErr, sErr := dec.Decode(wire[:n], &fr), ref.Decode(wire[:n], &fref), scalar.Decode(wire[:n], &fs)
				if err != refErr || sErr != refErr {
					t.Fatalf("%s frame %d, %d of %d bytes: span path %v (Go kernels %v), passes %v", name, i, n, len(wire), err, sErr, refErr)
				}
				if err != nil {
					continue
				}
				if diff := frameDiff(&fr, &fref); diff != "" {
					t.Fatalf("%s frame %d, %d of %d bytes: %s", name, i, n, len(wire), diff)
				}
				if diff := frameDiff(&fs, &fref); diff != "" {
					t.Fatalf("%s frame %d, %d of %d bytes, Go kernels: %s", name, i, n, len(wire), diff)
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

// kernelSchema is a schema whose keys' column plans take every kernel of
// colplan.go: f32 runs of one to nine fields, u8 runs of one to five,
// u16 and u32 fields, each kind with and without an optional tail.
func kernelSchema(t *testing.T) *Schema {
	t.Helper()
	var fields []string
	add := func(ty string, n int) {
		for range n {
			fields = append(fields, fmt.Sprintf(`{"name": "f%d", "ty": %q}`, len(fields), ty))
		}
	}
	for n := 1; n <= 9; n++ {
		add("f32", n)
		add("u8", (n-1)%5+1)
		if n%3 == 0 {
			add("u16", 1)
		}
		if n%4 == 0 {
			add("u32", 1)
		}
	}
	keys := []string{}
	id := 1
	for _, kind := range []string{"indexed8", "indexedNoNull8", "indexed32", "list16"} {
		for _, opt := range []int{0, 7, 31, len(fields) - 1} {
			extra := ""
			if opt > 0 {
				extra = fmt.Sprintf(`, "optionalFrom": %d`, opt)
			}
			keys = append(keys, fmt.Sprintf(`"k%d": {"id": %d, "kind": %q, "class": "event"%s, "fields": [%s]}`,
				id, id, kind, extra, strings.Join(fields, ", ")))
			id++
		}
	}
	s, err := ParseSchema([]byte(`{"version": 5, "port": 5, "keys": {` + strings.Join(keys, ", ") + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSpanKernelsMatchPasses: blocks on the span path through every
// column kernel decode as decodeRows' passes decode them, bit for bit.
func TestSpanKernelsMatchPasses(t *testing.T) {
	s := kernelSchema(t)
	kinds := map[colKind]bool{}
	for _, k := range s.Keys {
		for _, op := range append(k.fullCols, k.headCols...) {
			kinds[op.kind] = true
		}
	}
	for kind := colF32x8; kind <= colZeroWide; kind++ {
		if !kinds[kind] {
			t.Errorf("no key takes kernel %d", kind)
		}
	}
	rng := rand.New(rand.NewPCG(17, 19))
	dec, ref, scalar := NewDecoder(s), NewDecoder(s), NewDecoder(s)
	ref.passesOnly = true
	scalar.vector = false
	var fr, fref, fs Frame
	spans := 0
	for i := 0; i < 50; i++ {
		tf := &testFrame{port: 5, version: 5, seq: uint32(i)}
		for _, k := range s.Keys {
			blk := testBlock{key: k.Name}
			ids := rng.Perm(256)[:1+rng.IntN(30)]
			slices.Sort(ids)
			for _, id := range ids {
				r := randomRow(rng, k, uint32(id))
				if r.null {
					r = randomRow(rng, k, uint32(id))
				}
				r.null = false
				if r.fields == nil {
					r.fields = make([]float64, len(k.Fields))
				}
				blk.rows = append(blk.rows, r)
			}
			tf.blocks = append(tf.blocks, blk)
		}
		wire := encodeFrame(s, tf)
		if err, refErr := dec.Decode(wire, &fr), ref.Decode(wire, &fref); err != nil || refErr != nil {
			t.Fatalf("frame %d: span path %v, passes %v", i, err, refErr)
		}
		if diff := frameDiff(&fr, &fref); diff != "" {
			t.Fatalf("frame %d: %s", i, diff)
		}
		if err := scalar.Decode(wire, &fs); err != nil {
			t.Fatalf("frame %d: Go kernels: %v", i, err)
		}
		if diff := frameDiff(&fs, &fref); diff != "" {
			t.Fatalf("frame %d, Go kernels: %s", i, diff)
		}
		checkRoundTrip(t, s, tf, &fr)
		for _, blk := range fr.Blocks {
			if blk.span {
				spans++
			}
		}
	}
	if want := 50 * len(s.Keys); spans != want {
		t.Errorf("%d span blocks, want %d", spans, want)
	}
}

// TestSpanRowsAfterMessyRows: a row the span path writes into a slot that
// held a null row, or a row with exact values, has neither, while its
// frame's later blocks, in slots that held plain rows, are written as
// plainly as the passes write them.
func TestSpanRowsAfterMessyRows(t *testing.T) {
	s, err := ParseSchema([]byte(`{"version": 5, "port": 5, "keys": {
		"a": {"id": 1, "kind": "indexed8", "class": "event", "fields": [{"name": "x", "ty": "f32"}, {"name": "n", "ty": "u32"}]},
		"b": {"id": 2, "kind": "indexed8", "class": "event", "fields": [{"name": "x", "ty": "f32"}, {"name": "y", "ty": "f32"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	rows := func(n int, null int) []testRow {
		var rs []testRow
		for i := range n {
			rs = append(rs, testRow{id: uint32(i), null: i == null, fields: []float64{float64(i) + 0.25, float64(i)}})
		}
		return rs
	}
	frames := []*testFrame{
		{blocks: []testBlock{{key: "a", rows: rows(3, -1)}, {key: "b", rows: rows(4, 2)}}},
		{blocks: []testBlock{{key: "b", rows: rows(7, -1)}, {key: "b", rows: rows(3, -1)}}},
		{blocks: []testBlock{{key: "b", rows: rows(4, 0)}, {key: "b", rows: rows(9, -1)}}},
		{blocks: []testBlock{{key: "b", rows: rows(13, -1)}}},
		{blocks: []testBlock{{key: "b", rows: rows(10, 9)}}},
		{blocks: []testBlock{{key: "b", rows: rows(3, -1)}}}, // slots 3 to 9 stay as they were
		{blocks: []testBlock{{key: "b", rows: rows(3, -1)}, {key: "b", rows: rows(7, -1)}}},
	}
	var f Frame
	dec := NewDecoder(s)
	for i, tf := range frames {
		tf.port, tf.version = 5, 5
		checkRoundTrip(t, s, tf, &f) // the values, by another decoder into the same storage
		if err := dec.Decode(encodeFrame(s, tf), &f); err != nil {
			t.Fatal(err)
		}
		for bi, blk := range f.Blocks {
			for ri, r := range blk.Rows {
				want := tf.blocks[bi].rows[ri]
				if r.Null != want.null || r.Local != 0 || (blk.Schema.wideN == 0) != (r.wide == nil) || r.ID != want.id {
					t.Fatalf("frame %d block %d row %d: %+v, want %+v", i, bi, ri, r, want)
				}
			}
		}
	}
}
