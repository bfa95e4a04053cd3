package clientcore

import "testing"

// jumpRow is a row of k with x and y set, the rest 0.
func jumpRow(k *KeySchema, x, y float32) []float32 {
	v := make([]float32, len(k.Fields))
	v[k.Index("x")], v[k.Index("y")] = x, y
	return v
}

// A remote actor driving steadily never jumps; one whose frames landed
// together after a stall moves by the stall's worth in one sample and
// counts as a jump of that many frames; a respawn far away, the own actor
// and a stalled loop's long sample are no jumps.
func TestJumpWatch(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	k := s.Key("m1")
	row := func(id uint32, x float64) Record {
		return Record{Schema: k, ID: id, Fields: jumpRow(k, float32(x), 100)}
	}
	var w jumpWatch
	now, x := 0.0, 0.0
	step := func(dx float64, gap float64, ids ...uint32) {
		now += gap
		x += dx
		var rs []Record
		for _, id := range ids {
			rs = append(rs, row(id, x))
		}
		w.observe(rs, now, 9, true, 1000.0/30)
	}
	for range 60 { // 120 units a second, 60 samples a second
		step(2, 1000.0/60, 1)
	}
	if w.s.Jumps != 0 {
		t.Fatalf("a steady drive jumped %d times", w.s.Jumps)
	}
	step(2+36, 1000.0/60, 1) // 300 ms of motion at once
	if w.s.Jumps != 1 || w.s.MaxJumpFrames < 8 || w.s.MaxJumpFrames > 10 {
		t.Fatalf("after a stall: %+v, want one jump of about 9 frames", w.s)
	}
	for range 30 {
		step(2, 1000.0/60, 1)
	}
	before := w.s
	step(400, 1000.0/60, 1) // a respawn
	step(40, 1000.0/60, 9)  // the own actor
	step(2, 1000.0/60, 1)   // back in step
	step(30, 200, 1)        // a stalled loop's sample
	if w.s != before {
		t.Fatalf("a respawn, the own actor or a stalled sample counted: %+v, was %+v", w.s, before)
	}
}

// Watching allocates nothing once the keys are known.
func TestJumpWatchAllocatesNothing(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	k := s.Key("m1")
	rs := []Record{{Schema: k, ID: 1, Fields: jumpRow(k, 1, 2)}}
	var w jumpWatch
	now := 0.0
	w.observe(rs, now, 0, false, 33)
	if a := testing.AllocsPerRun(100, func() {
		now += 16
		rs[0].Fields[0]++
		w.observe(rs, now, 0, false, 33)
	}); a != 0 {
		t.Fatalf("%v allocations a sample", a)
	}
}
