package clientcore

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
	"vimpclient/snapschema"
)

// testRow and testFrame are the packer's input in the tests' own encoder,
// written from the wire layout so decode can be checked by round trip.
type testRow struct {
	id     uint32
	null   bool
	noTail bool // pack only the mandatory head (keys with optionalFrom)
	fields []float64
}

type testBlock struct {
	key  string
	rows []testRow
}

type testFrame struct {
	port, version byte
	seq           uint32
	serverTime    float64
	camera        *FrameCamera
	player        *PlayerBlock
	blocks        []testBlock
}

func encodeFrame(s *Schema, f *testFrame) []byte {
	b := []byte{f.port, f.version}
	b = binary.BigEndian.AppendUint32(b, f.seq)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(f.serverTime))
	var flags byte
	if f.camera != nil {
		flags |= flagCamera
		if f.camera.ForceReset {
			flags |= flagForceReset
		}
		if f.camera.HasShake {
			flags |= flagShake
		}
	}
	if f.player != nil {
		flags |= flagPlayer
	}
	b = append(b, flags)
	if c := f.camera; c != nil {
		b = binary.BigEndian.AppendUint32(b, math.Float32bits(c.X))
		b = binary.BigEndian.AppendUint32(b, math.Float32bits(c.Y))
		if c.HasShake {
			b = append(b, byte(len(c.Shake)))
			b = append(b, c.Shake...)
		}
	}
	if p := f.player; p != nil {
		b = append(b, p.GameID)
		b = binary.BigEndian.AppendUint32(b, p.LastInputSeq)
		for _, v := range p.State {
			b = binary.BigEndian.AppendUint32(b, math.Float32bits(v))
		}
		if p.Centering {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	for _, blk := range f.blocks {
		k := s.Key(blk.key)
		b = append(b, k.ID)
		switch k.Kind {
		case snapschema.KindIndexed8, snapschema.KindIndexedNoNull8:
			b = append(b, byte(len(blk.rows)))
		default:
			b = binary.BigEndian.AppendUint16(b, uint16(len(blk.rows)))
		}
		for _, r := range blk.rows {
			switch k.Kind {
			case snapschema.KindIndexed8:
				b = append(b, byte(r.id), boolByte(!r.null))
			case snapschema.KindIndexed32:
				b = binary.BigEndian.AppendUint32(b, r.id)
				b = append(b, boolByte(!r.null))
			case snapschema.KindIndexedNoNull8:
				b = append(b, byte(r.id))
			}
			if r.null {
				continue
			}
			n := len(k.Fields)
			if k.OptionalFrom != 0 {
				b = append(b, boolByte(!r.noTail))
				if r.noTail {
					n = k.OptionalFrom
				}
			}
			for i := 0; i < n; i++ {
				v := r.fields[i]
				switch k.Fields[i].Type {
				case snapschema.TypeF32:
					b = binary.BigEndian.AppendUint32(b, math.Float32bits(float32(v)))
				case snapschema.TypeU8:
					b = append(b, byte(v))
				case snapschema.TypeU16:
					b = binary.BigEndian.AppendUint16(b, uint16(v))
				case snapschema.TypeU32:
					b = binary.BigEndian.AppendUint32(b, uint32(v))
				}
			}
		}
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// randomRow draws a full-width row of plausible values for k.
func randomRow(rng *rand.Rand, k *KeySchema, id uint32) testRow {
	r := testRow{id: id, fields: make([]float64, len(k.Fields))}
	for i, f := range k.Fields {
		switch f.Type {
		case snapschema.TypeF32:
			r.fields[i] = float64(float32(rng.NormFloat64() * 1000))
		case snapschema.TypeU8:
			r.fields[i] = float64(rng.IntN(256))
		case snapschema.TypeU16:
			r.fields[i] = float64(rng.IntN(65536))
		case snapschema.TypeU32:
			r.fields[i] = float64(rng.Uint32())
		}
	}
	if k.Kind != snapschema.KindList16 && k.Kind != snapschema.KindIndexedNoNull8 && rng.IntN(8) == 0 {
		r.null, r.fields = true, nil
	}
	if k.OptionalFrom != 0 && rng.IntN(2) == 0 {
		r.noTail = true
	}
	return r
}

// randomFrame draws a frame with distinct ids per block over every key.
func randomFrame(rng *rand.Rand, s *Schema, seq uint32) *testFrame {
	f := &testFrame{port: 5, version: 5, seq: seq, serverTime: 1e12 + float64(seq)*33.3}
	if rng.IntN(2) == 0 {
		f.camera = &FrameCamera{X: float32(rng.NormFloat64() * 500), Y: float32(rng.NormFloat64() * 500), ForceReset: rng.IntN(4) == 0}
		if rng.IntN(4) == 0 {
			f.camera.HasShake, f.camera.Shake = true, []byte("20:200")
		}
	}
	if rng.IntN(2) == 0 {
		p := &PlayerBlock{GameID: uint8(rng.IntN(256)), LastInputSeq: rng.Uint32(), Centering: rng.IntN(2) == 0}
		for i := range p.State {
			p.State[i] = float32(rng.NormFloat64() * 100)
		}
		f.player = p
	}
	for _, k := range s.Keys {
		if rng.IntN(3) == 0 {
			continue
		}
		n := rng.IntN(20)
		ids := rng.Perm(256)
		blk := testBlock{key: k.Name}
		for i := 0; i < n; i++ {
			id := uint32(ids[i])
			if k.Kind == snapschema.KindIndexed32 {
				id = rng.Uint32()
			}
			blk.rows = append(blk.rows, randomRow(rng, k, id))
		}
		f.blocks = append(f.blocks, blk)
	}
	return f
}

// checkRoundTrip decodes an encoded testFrame and compares every value.
func checkRoundTrip(t *testing.T, s *Schema, tf *testFrame, f *Frame) {
	t.Helper()
	if err := NewDecoder(s).Decode(encodeFrame(s, tf), f); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if f.Seq != tf.seq || f.ServerTime != tf.serverTime || f.HasCamera != (tf.camera != nil) || f.HasPlayer != (tf.player != nil) {
		t.Fatalf("header differs")
	}
	if tf.camera != nil && (f.Camera.X != round2(tf.camera.X) || f.Camera.Y != round2(tf.camera.Y) ||
		f.Camera.ForceReset != tf.camera.ForceReset || f.Camera.ShakeText() != string(tf.camera.Shake)) {
		t.Fatalf("camera %+v, want %+v", f.Camera, tf.camera)
	}
	if tf.player != nil && f.Player != *tf.player {
		t.Fatalf("player %+v, want %+v", f.Player, *tf.player)
	}
	if len(f.Blocks) != len(tf.blocks) {
		t.Fatalf("%d blocks, want %d", len(f.Blocks), len(tf.blocks))
	}
	for bi, tb := range tf.blocks {
		blk := &f.Blocks[bi]
		k := blk.Schema
		if len(blk.Rows) != len(tb.rows) {
			t.Fatalf("%s: %d rows, want %d", k.Name, len(blk.Rows), len(tb.rows))
		}
		for ri, tr := range tb.rows {
			r := &blk.Rows[ri]
			wantID := tr.id
			if k.Kind == snapschema.KindList16 {
				wantID = uint32(ri)
			}
			if r.ID != wantID || r.Null != tr.null {
				t.Fatalf("%s row %d: id %d null %v, want %d %v", k.Name, ri, r.ID, r.Null, wantID, tr.null)
			}
			for i := range r.Fields {
				want := 0.0
				if !tr.noTail || i < k.OptionalFrom {
					want = tr.fields[i]
					if k.Fields[i].Type == snapschema.TypeF32 {
						want = float64(round2(float32(want)))
					}
				}
				if r.exact(k, i) != want || r.Fields[i] != float32(want) {
					t.Fatalf("%s row %d field %d: %v (exact %v), want %v", k.Name, ri, i, r.Fields[i], r.exact(k, i), want)
				}
			}
		}
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	conf := conformanceDir(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var f Frame
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		s := loadSchema(t, conf, "schemas/"+name+".json")
		for i := 0; i < 300; i++ {
			checkRoundTrip(t, s, randomFrame(rng, s, uint32(i)), &f)
		}
	}
}

// heavyTanksFrame is the benchmark scene: 32 tanks, 40 bombs in flight,
// 20 tracers, 10 explosions, 64 crates of which half are moving.
func heavyTanksFrame(s *Schema, seq uint32, phase float64) []byte {
	rng := rand.New(rand.NewPCG(7, 9))
	f := &testFrame{port: 5, version: 5, seq: seq, serverTime: 1.7e12 + float64(seq)*1000/30,
		camera: &FrameCamera{X: 1024.5, Y: 768.25},
		player: &PlayerBlock{GameID: 3, LastInputSeq: seq * 2}}
	m1 := testBlock{key: "m1"}
	for i := 0; i < 32; i++ {
		r := randomRow(rng, s.Key("m1"), uint32(i+1))
		r.null = false
		r.fields = make([]float64, len(s.Key("m1").Fields))
		for j := range r.fields {
			r.fields[j] = float64(i*10+j) + phase
		}
		m1.rows = append(m1.rows, r)
	}
	w2 := testBlock{key: "w2"}
	for i := 0; i < 40; i++ {
		r := randomRow(rng, s.Key("w2"), uint32(1000+i))
		r.null = false
		r.fields = make([]float64, len(s.Key("w2").Fields))
		w2.rows = append(w2.rows, r)
	}
	w1 := testBlock{key: "w1"}
	for i := 0; i < 20; i++ {
		w1.rows = append(w1.rows, testRow{fields: make([]float64, len(s.Key("w1").Fields))})
	}
	w2e := testBlock{key: "w2e"}
	for i := 0; i < 10; i++ {
		w2e.rows = append(w2e.rows, testRow{fields: make([]float64, len(s.Key("w2e").Fields))})
	}
	c1 := testBlock{key: "c1"}
	for i := 0; i < 64; i++ {
		r := testRow{id: uint32(i), fields: make([]float64, 6), noTail: i%2 == 0}
		for j := range r.fields {
			r.fields[j] = float64(i+j) + phase
		}
		c1.rows = append(c1.rows, r)
	}
	f.blocks = []testBlock{m1, w1, w2, w2e, c1}
	return encodeFrame(s, f)
}

func BenchmarkDecodeHeavyTanks(b *testing.B) {
	s := loadSchema(b, conformanceDir(b), "schemas/tanks.json")
	wire := heavyTanksFrame(s, 100, 0.5)
	dec := NewDecoder(s)
	var f Frame
	if err := dec.Decode(wire, &f); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := dec.Decode(wire, &f); err != nil {
			b.Fatal(err)
		}
	}
}

// heavySampleCore is a core holding three heavy tanks frames, and a render
// time between the first two.
func heavySampleCore(b *testing.B) (*Core, float64) {
	s := loadSchema(b, conformanceDir(b), "schemas/tanks.json")
	c := New(s, Options{})
	t0 := 1.7e12 + 100*1000.0/30
	c.PushFrame(heavyTanksFrame(s, 100, 0), t0)
	c.PushFrame(heavyTanksFrame(s, 101, 1), t0+1000.0/30)
	c.PushFrame(heavyTanksFrame(s, 102, 2), t0+2000.0/30)
	return c, t0 + 1000.0/30 + 100 + 5 // between 100 and 101 at render time
}

// BenchmarkSampleHeavyTanks samples between two heavy frames, as a render
// tick does between frame arrivals.
func BenchmarkSampleHeavyTanks(b *testing.B) {
	c, now := heavySampleCore(b)
	c.Sample(now)
	c.TakeFrames()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h := c.Sample(now)
		if len(h.Actors) != 32 || len(h.Dynamics) != 64 {
			b.Fatalf("hot has %d actors, %d dynamics", len(h.Actors), len(h.Dynamics))
		}
	}
}

// BenchmarkSampleHeavyTanksFirst is BenchmarkSampleHeavyTanks for the
// first sample between two frames, which cuts the records the later ones
// reuse.
func BenchmarkSampleHeavyTanksFirst(b *testing.B) {
	c, now := heavySampleCore(b)
	c.Sample(now)
	c.TakeFrames()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c.cut.valid = false
		h := c.Sample(now)
		if len(h.Actors) != 32 || len(h.Dynamics) != 64 {
			b.Fatalf("hot has %d actors, %d dynamics", len(h.Actors), len(h.Dynamics))
		}
	}
}

// TestSteadyStateAllocs pins that decode, push, sample and take allocate
// nothing once their buffers have grown (a stream of heavy frames).
func TestSteadyStateAllocs(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	frames := make([][]byte, 64)
	for i := range frames {
		frames[i] = heavyTanksFrame(s, uint32(i+1), float64(i))
	}
	dec := NewDecoder(s)
	var f Frame
	dec.Decode(frames[0], &f)
	if n := testing.AllocsPerRun(100, func() { dec.Decode(frames[1], &f) }); n != 0 {
		t.Errorf("decode allocates %v per frame", n)
	}
	c := New(s, Options{})
	i, emitted := 0, 0
	step := func() {
		// Every push is a new frame: patch seq and server time in place.
		wire := frames[i%len(frames)]
		now := 1.7e12 + float64(i)*1000/30
		binary.BigEndian.PutUint32(wire[2:], uint32(i+1))
		binary.BigEndian.PutUint64(wire[6:], math.Float64bits(now))
		c.PushFrame(wire, now)
		c.Sample(now)
		emitted += len(c.TakeFrames())
		c.Sample(now + 8)
		i++
	}
	for j := 0; j < 200; j++ { // warm up: pool and buffers reach their size
		step()
	}
	if n := testing.AllocsPerRun(500, step); n != 0 {
		t.Errorf("push+sample+take allocates %v per frame", n)
	}
	// Render time trails by the delay: all but the last few frames crossed.
	if st := c.Stats(); emitted != i-c.Buffered()+1 || st.Duplicates != 0 || st.Pruned != 0 {
		t.Errorf("emitted %d of %d frames (%d buffered), stats %+v", emitted, i, c.Buffered(), st)
	}
}

// BenchmarkSampleHeavyTanksAdaptive is BenchmarkSampleHeavyTanks with the
// adaptive render clock: the local clock advances a 60 Hz tick a sample,
// 64 heavy frames arrive on time, then none, so that the samples
// interpolate, extrapolate and hold; then the core is reset (untimed) and
// the frames come again.
func BenchmarkSampleHeavyTanksAdaptive(b *testing.B) {
	s := loadSchema(b, conformanceDir(b), "schemas/tanks.json")
	c := New(s, Options{Adaptive: true})
	const n = 64
	wires := make([][]byte, n)
	for i := range wires {
		wires[i] = heavyTanksFrame(s, uint32(100+i), float64(i))
	}
	last := 1.7e12 + float64(100+n-1)*1000/30 // the server time of the last frame
	t0 := 0.0
	now, next := t0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		now += 1000.0 / 60
		for next < n && t0+float64(next)*1000/30 <= now {
			c.PushFrame(wires[next], now)
			next++
		}
		c.Sample(now)
		c.TakeFrames()
		if next == n && c.buf.lastRenderTime > last+200 {
			b.StopTimer()
			c.Reset()
			t0, next = now, 0
			b.StartTimer()
		}
	}
}
