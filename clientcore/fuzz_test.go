package clientcore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"vimpclient/snapschema"
)

// fuzzSchemas loads the conformance schemas once per fuzz target.
func fuzzSchemas(f *testing.F) []*Schema {
	conf := conformanceDir(f)
	var out []*Schema
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		out = append(out, loadSchema(f, conf, "schemas/"+name+".json"))
	}
	return out
}

// addConformanceFrames seeds a fuzz target with every conformance frame.
func addConformanceFrames(f *testing.F, add func([]byte)) {
	conf := conformanceDir(f)
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		paths, _ := filepath.Glob(filepath.Join(conf, "frames", name, "*.bin"))
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				add(b)
			}
		}
		if b, err := os.ReadFile(filepath.Join(conf, "invalid", name, "base.bin")); err == nil {
			add(b)
		}
	}
}

// FuzzDecode: any bytes decode to a verdict without panicking; a decoded
// frame has full-width rows and a valid JSON form, decoding again into the
// reused frame gives the same result, and the span path gives what
// decodeRows' passes give, bit for bit.
func FuzzDecode(f *testing.F) {
	schemas := fuzzSchemas(f)
	addConformanceFrames(f, func(b []byte) { f.Add(b) })
	decs, refs := make([]*Decoder, len(schemas)), make([]*Decoder, len(schemas))
	for i, s := range schemas {
		decs[i], refs[i] = NewDecoder(s), NewDecoder(s)
		refs[i].passesOnly = true
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for i, dec := range decs {
			var fr, ref Frame
			err := dec.Decode(b, &fr)
			if refErr := refs[i].Decode(b, &ref); refErr != err {
				t.Fatalf("span path: %v, passes: %v", err, refErr)
			}
			if err != nil {
				continue
			}
			if diff := frameDiff(&fr, &ref); diff != "" {
				t.Fatalf("span path and passes differ: %s", diff)
			}
			for _, blk := range fr.Blocks {
				for _, r := range blk.Rows {
					if !r.Null && len(r.Fields) != len(blk.Schema.Fields) {
						t.Fatalf("%s: row of %d fields, schema has %d", blk.Schema.Name, len(r.Fields), len(blk.Schema.Fields))
					}
				}
			}
			text := fr.AppendJSON(nil)
			if !json.Valid(text) {
				t.Fatalf("invalid JSON form: %s", text)
			}
			if err := dec.Decode(b, &fr); err != nil || string(fr.AppendJSON(nil)) != string(text) {
				t.Fatalf("second decode differs: %v", err)
			}
		}
	})
}

// FuzzParseSchema: any text is a schema or an error naming a rule, never a
// panic; an accepted schema has unique ids and decodes frames safely.
func FuzzParseSchema(f *testing.F) {
	conf := conformanceDir(f)
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		b, err := os.ReadFile(filepath.Join(conf, "schemas", name+".json"))
		if err == nil {
			f.Add(b, []byte{5, 5, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0})
		}
	}
	f.Add([]byte(`{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":6,"fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"angle","ty":"f32"},{"name":"z","ty":"f32","role":"z"},{"name":"level","ty":"u8","role":"level"},{"name":"state","ty":"u8","role":"state"},{"name":"vx","ty":"f32"}]}}`), []byte{5, 5})
	f.Fuzz(func(t *testing.T, schema, frame []byte) {
		s, err := ParseSchema(schema)
		if err != nil {
			if _, ok := err.(*snapschema.Error); !ok {
				t.Fatalf("error is not a snapschema.Error: %v", err)
			}
			return
		}
		seen := map[uint8]bool{}
		for _, k := range s.Keys {
			if seen[k.ID] || s.KeyByID(k.ID) != k || s.Key(k.Name) != k {
				t.Fatalf("key %q: registry inconsistent", k.Name)
			}
			seen[k.ID] = true
			if k.OptionalFrom != 0 && (k.OptionalFrom >= len(k.Fields)) {
				t.Fatalf("key %q: optionalFrom %d accepted for %d fields", k.Name, k.OptionalFrom, len(k.Fields))
			}
		}
		var fr Frame
		_ = NewDecoder(s).Decode(frame, &fr)
		c := New(s, Options{})
		c.PushFrame(frame, 0)
		c.Sample(1000)
		c.TakeFrames()
	})
}

// FuzzCore drives a core with an operation stream: pushes of conformance
// frames with fuzzed seq and times, samples, takes, resets. Invariants: no
// panic, bounded buffers, no frame emitted twice between resets, hot records
// full width.
func FuzzCore(f *testing.F) {
	s := fuzzSchemas(f)[0]
	var frames [][]byte
	addConformanceFrames(f, func(b []byte) {
		if len(b) >= 15 && b[0] == 5 && b[1] == 5 && len(frames) < 64 {
			var fr Frame
			if NewDecoder(s).Decode(b, &fr) == nil {
				frames = append(frames, b)
			}
		}
	})
	if len(frames) == 0 {
		f.Fatal("no seed frames")
	}
	f.Add([]byte{0, 1, 10, 0, 2, 20, 1, 50, 0, 3, 30, 1, 100, 2, 1, 120})
	f.Add([]byte{0, 1, 255, 0, 1, 255, 1, 200, 3, 0, 1, 1, 1, 200})
	f.Fuzz(func(t *testing.T, ops []byte) {
		c := New(s, Options{})
		emitted := map[uint32]bool{}
		now, serverTime := 0.0, 1000.0
		buf := make([]byte, 0, 4096)
		for len(ops) >= 3 {
			op, a, b := ops[0]%5, ops[1], ops[2]
			ops = ops[3:]
			switch op {
			case 0: // push frame a%len with seq moved by b (may repeat or go back)
				buf = append(buf[:0], frames[int(a)%len(frames)]...)
				seq := binary.BigEndian.Uint32(buf[2:])
				seq += uint32(int8(b))
				binary.BigEndian.PutUint32(buf[2:], seq)
				serverTime += float64(int8(a)) * 3
				binary.BigEndian.PutUint64(buf[6:], math.Float64bits(serverTime))
				now += float64(b % 40)
				c.PushFrame(buf, now)
			case 1: // sample
				now += float64(int8(a))
				h := c.Sample(now)
				for _, grp := range [][]Record{h.Actors, h.Dynamics} {
					for _, r := range grp {
						if len(r.Fields) != len(r.Schema.Fields) {
							t.Fatalf("hot record of %d fields, schema %d", len(r.Fields), len(r.Schema.Fields))
						}
					}
				}
			case 2: // take
				for _, e := range c.TakeFrames() {
					if emitted[e.Seq] {
						t.Fatalf("seq %d emitted twice", e.Seq)
					}
					emitted[e.Seq] = true
				}
			case 3:
				c.Reset()
				emitted = map[uint32]bool{}
			case 4:
				c.Resync()
				emitted = map[uint32]bool{}
			}
			if len(c.buf.frames) > maxBuffered || len(c.events.queue) > maxQueued || len(c.buf.pendingLate) > maxPendingLate || len(c.buf.issued) > maxIssued {
				t.Fatalf("unbounded growth: %d buffered, %d queued", len(c.buf.frames), len(c.events.queue))
			}
		}
	})
}

// frameDiff describes the first difference between the blocks of two
// decoded frames (ids, nulls, field bits, exact u32 values), or is empty.
func frameDiff(a, b *Frame) string {
	if len(a.Blocks) != len(b.Blocks) {
		return fmt.Sprintf("%d blocks, %d", len(a.Blocks), len(b.Blocks))
	}
	for bi := range a.Blocks {
		ba, bb := &a.Blocks[bi], &b.Blocks[bi]
		if ba.Schema != bb.Schema || len(ba.Rows) != len(bb.Rows) {
			return fmt.Sprintf("block %d: %s of %d rows, %s of %d", bi, ba.Key(), len(ba.Rows), bb.Key(), len(bb.Rows))
		}
		for ri := range ba.Rows {
			ra, rb := &ba.Rows[ri], &bb.Rows[ri]
			if ra.ID != rb.ID || ra.Null != rb.Null || ra.Local != rb.Local || len(ra.Fields) != len(rb.Fields) {
				return fmt.Sprintf("%s row %d: %+v, %+v", ba.Key(), ri, *ra, *rb)
			}
			for j := range ra.Fields {
				if math.Float32bits(ra.Fields[j]) != math.Float32bits(rb.Fields[j]) || math.Float64bits(ra.exact(ba.Schema, j)) != math.Float64bits(rb.exact(bb.Schema, j)) {
					return fmt.Sprintf("%s row %d field %d: %v (%v), %v (%v)", ba.Key(), ri, j, ra.Fields[j], ra.exact(ba.Schema, j), rb.Fields[j], rb.exact(bb.Schema, j))
				}
			}
		}
	}
	return ""
}
