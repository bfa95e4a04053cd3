package clientcore

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"vimpclient/snapschema"
)

type vecState struct {
	Buffered  int
	SeqWindow []uint32
	LastFrame *struct {
		Seq        uint32
		ServerTime float64
		Issued     bool
	}
	OffsetBits         *string
	LastRenderTimeBits *string
	PendingLate        int
	IssuedSeqs         int
}

type vecStep struct {
	Step     int
	Op       string
	Note     string
	BytesHex string  `json:"bytesHex"`
	LocalNow float64 `json:"-"`
	NowBits  string  `json:"localNowBits"`
	Expect   struct {
		Accepted   bool
		Reason     string
		OffsetBits *string
		State      *vecState
		Emitted    []struct {
			Seq       uint32
			PushSteps []int
		}
		Game *[]struct {
			Key  string
			Rows [][]json.RawMessage
		}
		Camera         *[]string
		Hot            []string
		TakeFramesText *string
	}
}

type vecScenario struct {
	Name          string
	SchemaFile    string
	Interpolation struct{ Delay, MaxFrameAge float64 }
	Steps         []vecStep
}

func loadScenario(t *testing.T, path string) *vecScenario {
	var sc vecScenario
	readJSON(t, path, &sc)
	for i := range sc.Steps {
		if sc.Steps[i].NowBits != "" {
			sc.Steps[i].LocalNow = math.Float64frombits(bits64(t, sc.Steps[i].NowBits))
		}
	}
	return &sc
}

// stepCheck lets a test replace the upstream expectation of one step where
// the core deviates on purpose; it returns true when it handled the step.
type stepCheck func(t *testing.T, c *Core, st *vecStep) bool

// runScenario drives a fresh core through a scenario and compares every step.
func runScenario(t *testing.T, conf string, sc *vecScenario, override stepCheck) {
	s := loadSchema(t, conf, sc.SchemaFile)
	c := New(s, Options{Delay: sc.Interpolation.Delay, MaxFrameAge: sc.Interpolation.MaxFrameAge})
	for i := range sc.Steps {
		st := &sc.Steps[i]
		conformanceCounts.steps.Add(1)
		if override != nil && override(t, c, st) {
			continue
		}
		where := sc.Name + " step " + itoa(st.Step) + " (" + st.Note + ")"
		switch st.Op {
		case "push":
			ok := c.PushFrame(mustHex(t, st.BytesHex), st.LocalNow)
			if ok != st.Expect.Accepted {
				t.Errorf("%s: accepted %v, want %v (%v)", where, ok, st.Expect.Accepted, c.LastError())
			}
			checkOffset(t, where, c, st.Expect.OffsetBits)
		case "sample":
			h := c.Sample(st.LocalNow)
			checkSample(t, where, c, h, st)
		case "reset":
			c.Reset()
		case "resync":
			c.Resync()
		default:
			t.Fatalf("%s: unknown op %q", where, st.Op)
		}
		if st.Expect.State != nil {
			checkState(t, where, c, st.Expect.State)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func checkOffset(t *testing.T, where string, c *Core, want *string) {
	t.Helper()
	off, ok := c.Offset()
	if (want != nil) != ok {
		t.Errorf("%s: has offset %v, want %v", where, ok, want != nil)
	} else if want != nil && !sameF64(off, bits64(t, *want)) {
		t.Errorf("%s: offset %v, want %s", where, off, *want)
	}
}

func checkState(t *testing.T, where string, c *Core, w *vecState) {
	t.Helper()
	b := &c.buf
	if len(b.frames) != w.Buffered {
		t.Errorf("%s: %d buffered, want %d", where, len(b.frames), w.Buffered)
		return
	}
	if len(b.frames) > 0 && len(w.SeqWindow) == 2 {
		if b.frames[0].frame.Seq != w.SeqWindow[0] || b.frames[len(b.frames)-1].frame.Seq != w.SeqWindow[1] {
			t.Errorf("%s: seq window %d..%d, want %v", where, b.frames[0].frame.Seq, b.frames[len(b.frames)-1].frame.Seq, w.SeqWindow)
		}
	}
	if lf := w.LastFrame; lf != nil && len(b.frames) > 0 {
		last := b.frames[len(b.frames)-1]
		if last.frame.Seq != lf.Seq || last.frame.ServerTime != lf.ServerTime || last.issued != lf.Issued {
			t.Errorf("%s: last frame %d/%v/%v, want %+v", where, last.frame.Seq, last.frame.ServerTime, last.issued, *lf)
		}
	}
	if (w.LastRenderTimeBits != nil) != b.hasLastRender || (w.LastRenderTimeBits != nil && !sameF64(b.lastRenderTime, bits64(t, *w.LastRenderTimeBits))) {
		t.Errorf("%s: last render time %v (%v), want %v", where, b.lastRenderTime, b.hasLastRender, w.LastRenderTimeBits)
	}
	if len(b.pendingLate) != w.PendingLate {
		t.Errorf("%s: %d pending late, want %d", where, len(b.pendingLate), w.PendingLate)
	}
	if len(b.issued) != w.IssuedSeqs {
		t.Errorf("%s: issued memory %d, want %d", where, len(b.issued), w.IssuedSeqs)
	}
}

// checkSample compares game, camera, hot buffer, emitted frames and their
// take_frames text.
func checkSample(t *testing.T, where string, c *Core, h *Hot, st *vecStep) {
	t.Helper()
	e := &st.Expect
	if e.Game == nil {
		if h.Flags&HotGame != 0 {
			t.Errorf("%s: game produced, want none", where)
		}
	} else {
		if h.Flags&HotGame == 0 {
			t.Errorf("%s: no game, want one", where)
		}
		var wantActors, wantDyn []struct {
			Key  string
			Rows [][]json.RawMessage
		}
		for _, g := range *e.Game {
			if c.schema.Key(g.Key).Kind == snapschema.KindIndexed8 {
				wantActors = append(wantActors, g)
			} else {
				wantDyn = append(wantDyn, g)
			}
		}
		checkRecords(t, where+" actors", c.schema, h.Actors, wantActors)
		checkRecords(t, where+" dynamics", c.schema, h.Dynamics, wantDyn)
	}
	if e.Camera == nil {
		if h.Flags&HotCamera != 0 {
			t.Errorf("%s: camera %v, want none", where, h.Camera)
		}
	} else if cam := *e.Camera; h.Flags&HotCamera == 0 || !sameF32(h.Camera[0], bits32(t, cam[0])) || !sameF32(h.Camera[1], bits32(t, cam[1])) {
		t.Errorf("%s: camera %v (flags %d), want %v", where, h.Camera, h.Flags, cam)
	}
	if e.Hot != nil {
		flat := h.Flatten(nil)
		if len(flat) != len(e.Hot) {
			t.Errorf("%s: hot has %d floats, want %d: %v", where, len(flat), len(e.Hot), flat)
		} else {
			for i, wb := range e.Hot {
				if !sameF32(flat[i], bits32(t, wb)) {
					t.Errorf("%s: hot[%d] = %v, want %s", where, i, flat[i], wb)
					break
				}
			}
		}
	}
	frames := c.TakeFrames()
	var gotSeqs, wantSeqs []uint32
	for _, f := range frames {
		gotSeqs = append(gotSeqs, f.Seq)
	}
	for _, em := range e.Emitted {
		wantSeqs = append(wantSeqs, em.Seq)
	}
	if !slices.Equal(gotSeqs, wantSeqs) {
		t.Errorf("%s: emitted %v, want %v", where, gotSeqs, wantSeqs)
	}
	if e.TakeFramesText != nil {
		text := []byte{'['}
		for i := range frames {
			if i > 0 {
				text = append(text, ',')
			}
			text = frames[i].AppendJSON(text)
		}
		text = append(text, ']')
		checkJSONText(t, where+" take_frames", text, *e.TakeFramesText)
	}
}

func checkRecords(t *testing.T, where string, s *Schema, got []Record, want []struct {
	Key  string
	Rows [][]json.RawMessage
}) {
	t.Helper()
	i := 0
	for _, g := range want {
		k := s.Key(g.Key)
		for _, row := range g.Rows {
			if i >= len(got) {
				t.Errorf("%s: %d records, want more", where, len(got))
				return
			}
			r := got[i]
			i++
			var id uint32
			var fields []any
			if json.Unmarshal(row[0], &id) != nil || json.Unmarshal(row[1], &fields) != nil {
				t.Fatalf("%s: bad row", where)
			}
			if r.Key() != g.Key || r.ID != id {
				t.Errorf("%s: record %s/%d, want %s/%d", where, r.Key(), r.ID, g.Key, id)
				continue
			}
			for j := range fields {
				if k.Fields[j].Type != snapschema.TypeF32 {
					// integer fields reach the hot data as f32
					fields[j] = float64(float32(fields[j].(float64)))
				}
			}
			checkFields(t, where+" "+g.Key+"/"+itoa(int(id)), k, &Row{Fields: r.Fields}, fields)
		}
	}
	if i != len(got) {
		t.Errorf("%s: %d records, want %d", where, len(got), i)
	}
}

// deviations pins, per scenario, where the core departs from the engine on
// purpose (the package doc lists them). Scenarios not named run as recorded.
func deviations(name string) stepCheck {
	switch name {
	case "dedup_window_expiry":
		return dedupWindowDeviation
	case "seq_wraparound":
		return seqWraparoundDeviation()
	}
	return nil
}

// dedupWindowDeviation: the engine accepts seq 5 again once its issued
// memory forgot it and emits it a second time; the core never emits a frame
// twice, so the re-delivery is a duplicate: no offset change, nothing emitted.
func dedupWindowDeviation(t *testing.T, c *Core, st *vecStep) bool {
	switch st.Step {
	case 155:
		before, _ := c.Offset()
		dup := c.Stats().Duplicates
		if !c.PushFrame(mustHex(t, st.BytesHex), st.LocalNow) {
			t.Errorf("re-delivered seq 5: dropped, want accepted as a duplicate")
		}
		if after, _ := c.Offset(); after != before || c.Stats().Duplicates != dup+1 {
			t.Errorf("re-delivered seq 5 moved the offset (%v -> %v) or was not a duplicate", before, after)
		}
		return true
	case 156:
		h := c.Sample(st.LocalNow)
		if h.Flags&HotFrames != 0 || len(c.TakeFrames()) != 0 {
			t.Errorf("seq 5 emitted a second time")
		}
		if h.Flags&HotGame == 0 {
			t.Errorf("with the offset unmoved the world should still render")
		}
		return true
	}
	return false
}

// seqWraparoundDeviation: with serial-number ordering, 0xFFFFFFFE, 0xFFFFFFFF,
// 0, 1, 2 are in order; each is emitted once, in that order, and a
// re-delivered 0 is a duplicate.
func seqWraparoundDeviation() stepCheck {
	want := map[int][]uint32{
		4: {0xFFFFFFFE, 0xFFFFFFFF}, 5: {0, 1}, 7: {2}, 9: nil, 10: nil,
	}
	return func(t *testing.T, c *Core, st *vecStep) bool {
		switch st.Op {
		case "push":
			dup := c.Stats().Duplicates
			if !c.PushFrame(mustHex(t, st.BytesHex), st.LocalNow) {
				t.Errorf("step %d: dropped", st.Step)
			}
			if st.Step == 8 && c.Stats().Duplicates != dup+1 {
				t.Errorf("step 8: re-delivered seq 0 was not a duplicate")
			}
		case "sample":
			h := c.Sample(st.LocalNow)
			var got []uint32
			for _, f := range c.TakeFrames() {
				got = append(got, f.Seq)
			}
			if !slices.Equal(got, want[st.Step]) {
				t.Errorf("step %d: emitted %v, want %v", st.Step, got, want[st.Step])
			}
			if st.Step >= 5 {
				// Holding on the highest seq: its row as decoded.
				last := &c.buf.frames[len(c.buf.frames)-1].frame
				if len(c.buf.frames) != 1 || h.Flags&HotGame == 0 || len(h.Actors) != 1 ||
					h.Actors[0].Fields[0] != float32(last.Blocks[0].Rows[0].Fields[0]) {
					t.Errorf("step %d: not holding on the newest frame: %+v", st.Step, h.Actors)
				}
			} else if h.Flags&HotGame == 0 {
				t.Errorf("step %d: no game between 0xFFFFFFFF and 0", st.Step)
			}
		}
		return true
	}
}

func TestInterpConformance(t *testing.T) {
	conf := conformanceDir(t)
	paths, err := filepath.Glob(filepath.Join(conf, "interp", "*.json"))
	if err != nil || len(paths) != 20 {
		t.Fatalf("want 20 interp scenarios, found %d (%v)", len(paths), err)
	}
	for _, p := range paths {
		sc := loadScenario(t, p)
		t.Run(sc.Name, func(t *testing.T) {
			runScenario(t, conf, sc, deviations(sc.Name))
			conformanceCounts.scenarios.Add(1)
		})
	}
}
