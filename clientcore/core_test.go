package clientcore

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"
	"vimpclient/snapschema"
)

// A lerp on a non-f32 field compiles as discrete.
func TestCompileLerpOnIntegerIsDiscrete(t *testing.T) {
	s, err := ParseSchema([]byte(`{"m1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"team","ty":"u8","interp":"lerp"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Key("m1").lerped[0] != snapschema.InterpDiscrete {
		t.Errorf("lerp on a u8 field must behave as discrete")
	}
}

func TestRound2AndIDs(t *testing.T) {
	for _, c := range []struct {
		in   float32
		bits uint32
		json string
	}{
		{10.567, 0x41291eb8, "10.57"},
		{-0.125, 0xbe051eb8, "-0.13"},
		{1.005, 0x3f800000, "1.0"},
		{2.675, 0x402ae148, "2.67"},
	} {
		got := round2(c.in)
		if math.Float32bits(got) != c.bits {
			t.Errorf("round2(%v) = %v (%08x), want %08x", c.in, got, math.Float32bits(got), c.bits)
		}
		if s := string(appendTwoDecimals(nil, float64(got))); s != c.json {
			t.Errorf("JSON of round2(%v) = %s, want %s", c.in, s, c.json)
		}
	}
	for id, want := range map[uint32]string{0: "0", 35: "z", 359: "9z", 13011: "a1f", math.MaxUint32: "1z141z3"} {
		if got := RowIDString(snapschema.KindIndexed32, id); got != want {
			t.Errorf("base36(%d) = %s, want %s", id, got, want)
		}
	}
	if RowIDString(snapschema.KindIndexedNoNull8, 7) != "d7" || RowIDString(snapschema.KindIndexed8, 7) != "7" {
		t.Errorf("id names")
	}
}

// TestRound2FastPath: the fast path equals the engine's float64 formula on
// every float32: a sample by default, all 2^32 bit patterns with
// VIMP_ROUND2_ALL=1 (about 40 s of CPU).
func TestRound2FastPath(t *testing.T) {
	stride := round2Stride()
	const parts = 4
	var wg sync.WaitGroup
	bad := make(chan string, parts)
	for p := uint64(0); p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := p * stride; b < 1<<32; b += parts * stride {
				v := math.Float32frombits(uint32(b))
				got, want := round2(v), round2Formula(v)
				if math.Float32bits(got) != math.Float32bits(want) {
					bad <- fmt.Sprintf("round2(%v) [%08x] = %08x, formula gives %08x", v, uint32(b), math.Float32bits(got), math.Float32bits(want))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(bad)
	for msg := range bad {
		t.Error(msg)
	}
}

// round2Stride is the step between the bit patterns the rounding tests
// check: every 997th by default, a few thousand times fewer in short
// mode, every one with VIMP_ROUND2_ALL=1.
func round2Stride() uint64 {
	if os.Getenv("VIMP_ROUND2_ALL") == "1" {
		return 1
	}
	if testing.Short() {
		return 997 * 4099
	}
	return 997
}

func TestLerpAngle(t *testing.T) {
	if got := lerpAngle(pi-0.1, -pi+0.1, 0.5); got != 3.1415927 {
		t.Errorf("across ±π: %v", got)
	}
	if got := lerpAngle(3.0, -3.0, 0.25); got != 3.0707965 {
		t.Errorf("3 → -3: %v", got)
	}
	// Inputs on which the engine's loop never ends must terminate.
	inf := float32(math.Inf(1))
	for _, c := range [][2]float32{{0, inf}, {inf, 0}, {0, -inf}, {0, 3e9}, {-2e8, 2e8}, {0, float32(math.NaN())}} {
		got := lerpAngle(c[0], c[1], 0.5)
		if !math.IsNaN(float64(got)) && (got < -4e9 || got > 4e9) {
			t.Errorf("lerpAngle(%v, %v) = %v", c[0], c[1], got)
		}
	}
	if got := lerpAngle(0, 3e9, 0); got != 0 {
		t.Errorf("alpha 0 on a huge difference = %v, want 0", got)
	}
}

// TestResetWhileQueued: a frame that is both the reference frame and waiting
// in the event queue when CLEAR arrives must not come back twice from the
// pool (found by FuzzCore).
func TestResetWhileQueued(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	c := New(s, Options{})
	mk := func(seq uint32, t float64, x float64) []byte {
		return encodeFrame(s, &testFrame{port: 5, version: 5, seq: seq, serverTime: t,
			blocks: []testBlock{{key: "m1", rows: []testRow{{id: 1, fields: []float64{x, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0}}}}}})
	}
	c.PushFrame(mk(1, 1000, 1), 1000)
	c.Sample(1100) // seq 1 is the reference frame and queued
	c.Reset()
	c.PushFrame(mk(2, 2000, 2), 2000)
	c.PushFrame(mk(3, 2033, 3), 2033)
	if c.Buffered() != 2 || c.buf.frames[0] == c.buf.frames[1] {
		t.Fatalf("buffer after reset holds %d frames, distinct: %v", c.Buffered(), c.Buffered() == 2 && c.buf.frames[0] != c.buf.frames[1])
	}
	c.Sample(2133)
	frames := c.TakeFrames()
	if len(frames) != 2 || frames[0].Seq != 2 || frames[1].Seq != 3 {
		t.Fatalf("emitted %d frames after reset", len(frames))
	}
	if frames[0].Blocks[0].Rows[0].Fields[0] != 2 || frames[1].Blocks[0].Rows[0].Fields[0] != 3 {
		t.Errorf("event frames share storage")
	}
	if _, ok := c.MyGameID(); ok {
		t.Errorf("Reset must forget the player id")
	}
}

// TestBounds: what the engine leaves unbounded is bounded and counted.
func TestBounds(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	c := New(s, Options{})
	empty := func(seq uint32, t float64) []byte {
		return encodeFrame(s, &testFrame{port: 5, version: 5, seq: seq, serverTime: t})
	}
	// Event frames nobody takes stop at maxQueued.
	for i := 0; i < 3000; i++ {
		now := 1000 + float64(i)*10
		c.PushFrame(empty(uint32(i+1), now), now)
		c.Sample(now + 200)
	}
	if len(c.events.queue) > maxQueued || c.Stats().QueueDropped == 0 {
		t.Errorf("queue %d, dropped %d", len(c.events.queue), c.Stats().QueueDropped)
	}
	// Late frames with fresh seqs between two samples stop at maxPendingLate.
	for i := 0; i < 2000; i++ {
		c.PushFrame(empty(uint32(100000+i), 0), 40000)
	}
	if len(c.buf.pendingLate) > maxPendingLate || len(c.buf.issued) > maxIssued {
		t.Errorf("pending late %d, issued %d", len(c.buf.pendingLate), len(c.buf.issued))
	}
	// Zero-width rows cost no bytes; the row cap refuses a frame of millions.
	zs, err := ParseSchema([]byte(`{"z":{"id":1,"kind":"list16","class":"event"}}`))
	if err != nil {
		t.Fatal(err)
	}
	wire := encodeFrame(zs, &testFrame{port: 5, version: 5, seq: 1})
	for i := 0; i < 100; i++ {
		wire = append(wire, 1, 0xff, 0xff)
	}
	var f Frame
	if err := NewDecoder(zs).Decode(wire, &f); !errors.Is(err, ErrTooManyRows) {
		t.Errorf("6.5M zero-width rows: %v", err)
	}
}

// TestWrongPortAndCounts: a frame on another port decodes but is dropped.
func TestWrongPortAndCounts(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	c := New(s, Options{})
	if c.PushFrame(encodeFrame(s, &testFrame{port: 6, version: 5, seq: 1, serverTime: 1}), 0) {
		t.Errorf("wrong port accepted")
	}
	if c.PushFrame([]byte(`[5,"json"]`), 0) {
		t.Errorf("a JSON text frame accepted")
	}
	if st := c.Stats(); st.Dropped != 2 || st.Decoded != 0 || !errors.Is(c.LastError(), ErrWrongVersion) {
		t.Errorf("stats %+v, last error %v", st, c.LastError())
	}
}

// TakeFramesUpTo hands out at most the frames and rows asked for, the first
// frame whatever its size, and keeps the rest queued in order.
func TestTakeFramesUpToCarriesTheRest(t *testing.T) {
	s, err := ParseSchema([]byte(`{"e":{"id":1,"kind":"indexed8","class":"event","fields":[{"name":"v","ty":"u8"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := New(s, Options{Delay: 0, MaxFrameAge: 1e9})
	k := s.Key("e")
	for seq := uint32(1); seq <= 6; seq++ {
		c.enqueue(&slot{frame: Frame{Seq: seq, Blocks: []Block{{Schema: k, Rows: make([]Row, seq)}}}})
	}
	var got []uint32
	for _, step := range []struct{ frames, rows, want int }{{2, 100, 2}, {5, 1, 1}, {5, 8, 1}, {5, 100, 2}, {5, 100, 0}} {
		fs := c.TakeFramesUpTo(step.frames, step.rows)
		if len(fs) != step.want {
			t.Fatalf("took %d frames, want %d (step %+v)", len(fs), step.want, step)
		}
		for _, f := range fs {
			got = append(got, f.Seq)
		}
	}
	if fmt.Sprint(got) != "[1 2 3 4 5 6]" || c.Pending() != 0 {
		t.Fatalf("frames in order %v, pending %d", got, c.Pending())
	}
}

// TestRound2FastBound: round2Fast's n stays below round2FastBound up to
// the last float32 whose value times 100 is below 2^24 less a half, and
// reaches it from there on, and at infinities and NaN, of either sign.
func TestRound2FastBound(t *testing.T) {
	sc := round2Scales()
	last := uint32(0x4823d709) // 167772.140625: ·100 + 0.5 is below 2^24
	for _, sign := range []uint32{0, 1 << 31} {
		for _, c := range []struct {
			bits uint32
			fast bool
		}{{0, true}, {last, true}, {last + 1, false}, {0x7f7fffff, false}, {0x7f800000, false}, {0x7fc00000, false}} {
			if _, n := round2Fast(c.bits|sign, &sc); (n < round2FastBound) != c.fast {
				t.Errorf("round2Fast(%08x): n = %d, fast %v", c.bits|sign, n, c.fast)
			}
		}
	}
	if v := float64(math.Float32frombits(last))*100 + 0.5; !(v < 1<<24) || float64(math.Float32frombits(last+1))*100+0.5 < 1<<24 {
		t.Errorf("%v·100 + 0.5 = %v", math.Float32frombits(last), v)
	}
}
