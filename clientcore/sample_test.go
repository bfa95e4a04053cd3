package clientcore

import (
	"math"
	"math/rand/v2"
	"testing"
	"vimpclient/snapschema"
)

// refBlock is the interpolation of one of A's blocks field by field, as
// the engine writes it: rows present and non-null in A and in B's first
// block of the key (B's first row of the id), lerp or lerpAngle by field.
func refBlock(ab *Block, fb *Frame, alpha float32) [][]float32 {
	var bb *Block
	for j := range fb.Blocks {
		if fb.Blocks[j].Schema == ab.Schema {
			bb = &fb.Blocks[j]
			break
		}
	}
	if bb == nil {
		return nil
	}
	var out [][]float32
	for _, ra := range ab.Rows {
		if ra.Null {
			continue
		}
		var rb *Row
		for j := range bb.Rows {
			if bb.Rows[j].ID == ra.ID {
				rb = &bb.Rows[j]
				break
			}
		}
		if rb == nil || rb.Null {
			continue
		}
		rec := make([]float32, len(ra.Fields))
		for i, f := range ab.Schema.Fields {
			a, b := ra.Fields[i], rb.Fields[i]
			switch {
			case f.Type == snapschema.TypeF32 && f.Interp == snapschema.InterpLerp:
				a = a + float32((b-a)*alpha)
			case f.Type == snapschema.TypeF32 && f.Interp == snapschema.InterpLerpAngle:
				d := b - a
				for d > pi {
					d -= twoPi
				}
				for d < -pi {
					d += twoPi
				}
				a = a + float32(d*alpha)
			}
			rec[i] = a
		}
		out = append(out, rec)
	}
	return out
}

// TestInterpolateFastPaths: the span path (same rows in the same order),
// the run path and the wrapping fallback all give the field-by-field
// result bit for bit, over frames with moved, missing, null and repeated
// rows and angles across ±π.
func TestInterpolateFastPaths(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	rng := rand.New(rand.NewPCG(3, 5))
	dec := NewDecoder(s)
	c := New(s, Options{})
	var fa, fb Frame
	spans := 0
	for iter := 0; iter < 400; iter++ {
		a := &testFrame{port: 5, version: 5, seq: 1, serverTime: 1000}
		b := &testFrame{port: 5, version: 5, seq: 2, serverTime: 1033}
		for _, key := range []string{"m1", "c1"} {
			k := s.Key(key)
			n := 1 + rng.IntN(40)
			ba, bbk := testBlock{key: key}, testBlock{key: key}
			same := rng.IntN(2) == 0
			for i := 0; i < n; i++ {
				ra := randomRow(rng, k, uint32(i))
				rb := randomRow(rng, k, uint32(i))
				if same {
					for ra.null {
						ra = randomRow(rng, k, uint32(i))
					}
					for rb.null {
						rb = randomRow(rng, k, uint32(i))
					}
					rb.noTail = ra.noTail
					for j := range rb.fields {
						if k.Fields[j].Interp == snapschema.InterpLerpAngle {
							// Mostly a small turn, sometimes across the wrap.
							ra.fields[j] = float64(float32(rng.Float64()*2*math.Pi - math.Pi))
							rb.fields[j] = ra.fields[j] + rng.NormFloat64()*0.1
							if rng.IntN(200) == 0 {
								rb.fields[j] = ra.fields[j] + 6
							}
						}
					}
				}
				ba.rows = append(ba.rows, ra)
				bbk.rows = append(bbk.rows, rb)
			}
			if !same {
				rng.Shuffle(len(bbk.rows), func(i, j int) { bbk.rows[i], bbk.rows[j] = bbk.rows[j], bbk.rows[i] })
				bbk.rows = bbk.rows[:rng.IntN(len(bbk.rows)+1)]
				if len(ba.rows) > 1 && rng.IntN(4) == 0 { // a repeated id
					dup := ba.rows[0]
					dup.id = ba.rows[1].id
					ba.rows = append(ba.rows, dup)
				}
			}
			a.blocks = append(a.blocks, ba)
			b.blocks = append(b.blocks, bbk)
		}
		if err := dec.Decode(encodeFrame(s, a), &fa); err != nil {
			t.Fatal(err)
		}
		decB := NewDecoder(s)
		if err := decB.Decode(encodeFrame(s, b), &fb); err != nil {
			t.Fatal(err)
		}
		alpha := float32(rng.Float64())
		for bi := range fa.Blocks {
			ab := &fa.Blocks[bi]
			want := refBlock(ab, &fb, alpha)
			c.vals = make([]float32, 0, len(ab.Rows)*len(ab.Schema.Fields))
			if _, ok := c.lerpSpan(&fa, ab, &fb, &fb.Blocks[bi], alpha, nil); ok {
				spans++
			}
			c.vals = c.vals[:0]
			got := c.interpolateBlock(&fa, ab, &fb, alpha, nil)
			if len(got) != len(want) {
				t.Fatalf("iter %d %s: %d records, want %d", iter, ab.Key(), len(got), len(want))
			}
			for r := range got {
				for i := range want[r] {
					if math.Float32bits(got[r].Fields[i]) != math.Float32bits(want[r][i]) {
						t.Fatalf("iter %d %s record %d field %d: %v, want %v", iter, ab.Key(), r, i, got[r].Fields[i], want[r][i])
					}
				}
			}
		}
	}
	if spans < 200 {
		t.Errorf("the span path ran %d times in 800 blocks", spans)
	}
}

// TestSampleReusesCut: samples between the same two frames reuse the
// records the first one cut and give, bit for bit, what a core sampling
// there first gives; a frame arriving after a hold, or the pair moving
// on, cuts anew.
func TestSampleReusesCut(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	t0 := 1.7e12 + 100*1000.0/30
	// From 102 to 103 the angles turn by more than π: no span, no cut kept.
	wires := [][]byte{heavyTanksFrame(s, 100, 0), heavyTanksFrame(s, 101, 1.25), heavyTanksFrame(s, 102, 2.5),
		heavyTanksFrame(s, 103, -1.5)}
	at := []float64{t0, t0 + 1000.0/30, t0 + 2000.0/30, t0 + 3000.0/30}
	fresh := func(frames int, now float64) []float32 {
		c := New(s, Options{})
		for i := 0; i < frames; i++ {
			c.PushFrame(wires[i], at[i])
		}
		return c.Sample(now).Flatten(nil)
	}
	same := func(what string, got, want []float32) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
		}
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s: value %d is %v, want %v", what, i, got[i], want[i])
			}
		}
	}
	c := New(s, Options{})
	c.PushFrame(wires[0], at[0])
	hold := at[0] + 100 + 20 // past the only frame: held
	same("held", c.Sample(hold).Flatten(nil), fresh(1, hold))
	same("held again", c.Sample(hold+1).Flatten(nil), fresh(1, hold+1))
	if !c.cut.valid {
		t.Fatal("a hold kept no cut")
	}
	for i := 1; i < len(wires); i++ {
		c.PushFrame(wires[i], at[i])
	}
	reused := 0
	for step := 0; step < 18; step++ {
		now := at[0] + 100 + 2 + float64(step)*5.5 // from 100→101 to 102→103
		before := c.cut
		got := c.Sample(now).Flatten(nil)
		if c.cut.valid && before.valid && before.pair == c.cut.pair {
			reused++
		}
		same("step", got, fresh(len(wires), now))
	}
	if reused != 10 || c.cut.valid {
		t.Errorf("%d of 18 samples reused the cut (want 10), the last cut kept: %v", reused, c.cut.valid)
	}
}
