package predict

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/capturetest"
)

// sharedDir finds the engine's test data: testdata/ at the module root,
// or $VIMP_SHARED when set.
func sharedDir(t testing.TB) string { return capturetest.SharedDir(t) }

// captureConfig returns the CONFIG_DATA payload of a recorded session.
func captureConfig(t *testing.T) map[string]json.RawMessage {
	f, err := os.Open(filepath.Join(sharedDir(t), "captures", "minigame-dedicated.jsonl"))
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		var line struct {
			Dir     string          `json:"dir"`
			Kind    string          `json:"kind"`
			Port    *int            `json:"port"`
			Payload json.RawMessage `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Dir != "s2c" || line.Kind != "json" || line.Port == nil || *line.Port != 0 {
			continue
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(line.Payload, &top); err != nil {
			t.Fatal(err)
		}
		return top
	}
	t.Fatal("no CONFIG_DATA in the capture")
	return nil
}

func TestParseConfigCapture(t *testing.T) {
	cfg, err := ParseConfig(captureConfig(t)["prediction"])
	if err != nil {
		t.Fatal(err)
	}
	if cfg.StepMs != 1000.0/120 || cfg.StepSeconds() != float32(1.0/120.0) {
		t.Errorf("step %v ms, %v s", cfg.StepMs, cfg.StepSeconds())
	}
	want := map[string]KeyBit{"forward": {1, false}, "back": {2, false}, "fire": {4, true}}
	if len(cfg.Keys) != len(want) {
		t.Fatalf("keys %v", cfg.Keys)
	}
	for k, v := range want {
		if cfg.Keys[k] != v {
			t.Errorf("%s = %+v, want %+v", k, cfg.Keys[k], v)
		}
	}
}

func TestParseConfigRejects(t *testing.T) {
	bad := []string{
		`[]`, `{"timeStep":0}`, `{"timeStep":-5}`, `{"timeStep":5000}`, `{"timeStep":"8"}`,
		`{"playerKeys":{"a":{}}}`, `{"playerKeys":{"a":{"key":0}}}`, `{"playerKeys":{"a":{"key":1.5}}}`,
		`{"playerKeys":{"a":{"key":4294967296}}}`, `{"playerKeys":{"a":{"key":1,"type":2}}}`,
		`{"playerKeys":{"a":5}}`, `{"playerKeys":[]}`, `{`,
	}
	for _, s := range bad {
		if _, err := ParseConfig([]byte(s)); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	cfg, err := ParseConfig(nil)
	if err != nil || cfg.StepMs != DefaultStepMs || len(cfg.Keys) != 0 {
		t.Errorf("empty config: %+v %v", cfg, err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"timeStep":8.333333333333334,"playerKeys":{"forward":{"key":1},"fire":{"key":128,"type":1}}}`))
	f.Add([]byte(`{"timeStep":1e308,"playerKeys":{"x":{"key":4294967295,"type":0}}}`))
	f.Add([]byte(`{"playerKeys":{"a":{"key":null}}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := ParseConfig(b)
		if err != nil {
			return
		}
		if !(cfg.StepMs >= minStepMs && cfg.StepMs <= maxStepMs) || len(cfg.Keys) > MaxKeys {
			t.Fatalf("accepted %+v", cfg)
		}
		for name, k := range cfg.Keys {
			if k.Bit == 0 {
				t.Fatalf("key %q with bit 0", name)
			}
		}
		p := New(cfg)
		p.SetModel(true)
		p.SetActive(true)
		for name := range cfg.Keys {
			p.KeyEvent(1, true, name, 0)
		}
	})
}

func FuzzParseDivergence(f *testing.F) {
	f.Add([]byte(`{"thresholds":[0.5,0.5,0.05],"defaultThreshold":1,"capacity":64,"angles":[2]}`))
	f.Add([]byte(`{"capacity":-3}`))
	f.Add([]byte(`{"angles":[9]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseDivergence(b)
		if err != nil || c == nil {
			return
		}
		if c.Capacity < 1 || c.Capacity > maxDivergenceCapacity || len(c.Thresholds) > stateLen {
			t.Fatalf("accepted %+v", c)
		}
		d := NewDivergence(c)
		auth := [8]float32{}
		d.Observe(SourceState, []float32{1, 2, 3, 4, 5, 6, 7, 8}, &auth, 0, 0, 0, 0, Window{})
		if _, err := json.Marshal(d.Take()); err != nil {
			t.Fatal(err)
		}
	})
}

// logModel records the input of every step.
type logModel struct{ steps []Input }

func (m *logModel) Step(in Input, dt float32) { m.steps = append(m.steps, in) }
func (m *logModel) Pos() (float32, float32)   { return 0, 0 }

func tanksConfig() Config {
	return Config{StepMs: 10, Keys: map[string]KeyBit{
		"forward": {1, false}, "left": {4, false}, "gunCenter": {16, true}, "fire": {128, true}}}
}

func ready(cfg Config) *Predictor {
	p := New(cfg)
	p.SetModel(true)
	p.SetActive(true)
	return p
}

func TestKeyRules(t *testing.T) {
	p := ready(tanksConfig())
	if _, ok := p.KeyEvent(1, true, "jump", 0); ok || p.HistoryLen() != 0 {
		t.Fatal("unknown key recorded")
	}
	p.KeyEvent(2, true, "forward", 0)
	p.KeyEvent(3, true, "gunCenter", 0)
	p.KeyEvent(4, false, "gunCenter", 0) // up of a one-shot: no-op on the mask
	if p.Live().Keys != 1 || p.shots != 16 || p.HistoryLen() != 3 {
		t.Fatalf("live %b shots %b hist %d", p.Live().Keys, p.shots, p.HistoryLen())
	}
	m := &logModel{}
	p.Rewound()
	p.Update(0, m)
	p.Update(25, m) // two steps
	if len(m.steps) != 2 || m.steps[0].Keys != 17 || m.steps[1].Keys != 1 {
		t.Fatalf("steps %+v", m.steps)
	}
	p.KeyEvent(5, false, "forward", 26)
	if p.Live().Keys != 0 {
		t.Fatal("up did not clear the held bit")
	}
}

func TestHistoryAgeCapAndBase(t *testing.T) {
	p := ready(tanksConfig())
	p.KeyEvent(1, true, "forward", 0)
	p.KeyEvent(2, true, "left", 1000)
	p.KeyEvent(3, false, "left", 2500) // drops entry 1 (age > 2000)
	if p.HistoryLen() != 2 || p.hist.base.Keys != 1 {
		t.Fatalf("len %d base %b", p.HistoryLen(), p.hist.base.Keys)
	}
	for i := 0; i < 3*HistoryCap; i++ {
		down := i%2 == 0
		p.KeyEvent(uint32(10+i), down, "left", 2600)
	}
	if p.HistoryLen() != HistoryCap || p.hist.base.Keys != 1 { // entry 511 (left up) folded last
		t.Fatalf("cap: len %d base %b", p.HistoryLen(), p.hist.base.Keys)
	}
}

// The authoritative state accounts for inputs up to lastInputSeq; later
// inputs are replayed, the oldest of them from the first step after
// serverTime even when it was sent long before it (acknowledged late), and
// inputs acknowledged out of step with time are not replayed twice.
func TestReplaySeqRule(t *testing.T) {
	p := ready(tanksConfig())
	// Local times 0..; offset 1000 maps local t to server t+1000.
	p.KeyEvent(1, true, "forward", 0)
	p.KeyEvent(2, true, "left", 10)
	p.KeyEvent(3, true, "gunCenter", 20)
	p.KeyEvent(4, false, "left", 30)
	m := &logModel{}
	p.Rewound()
	// The host has applied seq 1 only, although its frame is at server time
	// 1035 (all four inputs are older than that on the time axis). With no
	// acknowledgement dated yet, the oldest pending input (seq 2, local 10)
	// bounds the lead: 1035 − (10 + 1000) = 25 ms, so the replay runs to
	// 80 + 1000 + 25 = 1105 (7 steps) and places seq 2..4 at 1035, 1045,
	// 1055: the first step takes left and gunCenter, the second left up.
	w := p.Replay(1, 1035, 1000, 80, m)
	if len(m.steps) != 7 || w.Count != 3 {
		t.Fatalf("steps %d window %+v", len(m.steps), w)
	}
	if m.steps[0].Keys != 1|4|16 || m.steps[1].Keys != 1 || m.steps[6].Keys != 1 {
		t.Fatalf("replayed %+v", m.steps)
	}
	if lead, est := p.InputLead(); lead != 25 || est || p.Accumulator() != 0 || p.shots != 0 {
		t.Fatalf("lead %v (estimated %v) acc %v shots %b", lead, est, p.Accumulator(), p.shots)
	}
	// Now the host acknowledges through seq 3 at server time 1045: seq 3
	// (local 20) was applied between the blocks at 1035 and 1045, which
	// dates it at 1040, a lead of 1040 − 20 − 1000 = 20 ms. The gunCenter
	// one-shot (seq 3) is not replayed again; seq 4 lands at 30 + 1020 =
	// 1050, the first step; the replay ends at 70 + 1020 = 1090.
	m.steps = nil
	w = p.Replay(3, 1045, 1000, 70, m)
	if len(m.steps) != 4 || w.Count != 1 || m.steps[0].Keys != 1 || m.steps[3].Keys != 1 {
		t.Fatalf("second replay %+v %+v", m.steps, w)
	}
	if lead, est := p.InputLead(); lead != 20 || !est || p.Accumulator() != 5 {
		t.Fatalf("lead %v (estimated %v) acc %v", lead, est, p.Accumulator())
	}
	if w.From != 25 || w.To != 65 {
		t.Fatalf("window %+v", w)
	}
}

// Pending inputs newer than the end of the replay keep their place: they are
// not applied by the replay and their one-shots are armed for the next step.
func TestReplayRearmsOneShotsBeyondEnd(t *testing.T) {
	p := ready(tanksConfig())
	p.KeyEvent(1, true, "forward", 0)
	p.KeyEvent(2, true, "gunCenter", 100)
	m := &logModel{}
	p.Rewound()
	p.Update(100, m)
	p.Update(112, m) // a live step consumes the one-shot
	if len(m.steps) != 1 || m.steps[0].Keys != 17 || p.shots != 0 {
		t.Fatalf("live %+v", m.steps)
	}
	m.steps = nil
	// The host saw seq 1 only; its state at server time 1090 (local 90) is
	// replayed to 1105: the gunCenter entry (local 100) maps to 1100, so the
	// step ending at 1100 takes it.
	p.Replay(1, 1090, 1000, 105, m)
	if len(m.steps) != 1 || m.steps[0].Keys != 17 {
		t.Fatalf("replay %+v", m.steps)
	}
	// Same again, but the replay ends before the entry: it is re-armed.
	m.steps = nil
	p.Replay(1, 1090, 1000, 98, m)
	if len(m.steps) != 0 || p.shots != 16 {
		t.Fatalf("no re-arm: steps %+v shots %b", m.steps, p.shots)
	}
}

func TestReplayFallsBackToTime(t *testing.T) {
	p := ready(tanksConfig())
	p.KeyEvent(1, true, "forward", 0)
	p.KeyEvent(2, true, "left", 50)
	m := &logModel{}
	p.Rewound()
	p.Replay(1, 1000, 1000, 0, m) // seq 1 acknowledged: the host acknowledges
	m.steps = nil
	// lastInputSeq 0 after a non-zero one (actor recreated): entries with
	// time+offset <= serverTime count as applied; left (local 50 → 1050) is
	// replayed at its time (no lead dated yet, none pending by seq).
	p.Replay(0, 1020, 1000, 70, m)
	if len(m.steps) != 5 || m.steps[0].Keys != 1 || m.steps[1].Keys != 1 || m.steps[2].Keys != 5 {
		t.Fatalf("time replay %+v", m.steps)
	}
	// seq 2 then seq 1 (moved backwards): time based again.
	p.Replay(2, 1020, 1000, 70, m)
	m.steps = nil
	p.Replay(1, 1020, 1000, 70, m)
	if len(m.steps) != 5 || m.steps[2].Keys != 5 || m.steps[1].Keys != 1 {
		t.Fatalf("backwards seq replay %+v", m.steps)
	}
	// Serial-number comparison: a seq that wrapped is newer.
	q := ready(tanksConfig())
	q.KeyEvent(math.MaxUint32, true, "forward", 0)
	q.KeyEvent(0, true, "left", 10)
	q.KeyEvent(1, true, "gunCenter", 20)
	m.steps = nil
	q.Rewound()
	q.Replay(0, 1000, 1000, 20, m) // 0 is "unusable": time based, both up to 1000 applied
	m.steps = nil
	q.Replay(math.MaxUint32, 1000, 1000, 20, m) // seqs 0 and 1 come after MaxUint32
	if len(m.steps) != 2 || m.steps[0].Keys != 5 || m.steps[1].Keys != 21 {
		t.Fatalf("wrapped seq replay %+v", m.steps)
	}
	m.steps = nil
	q.Replay(0, 1000, 1000, 20, m) // 0 after MaxUint32 moved forward, but 0 is never usable
	if len(m.steps) != 2 || m.steps[0].Keys != 5 || m.steps[1].Keys != 21 {
		t.Fatalf("seq 0 replay %+v", m.steps)
	}
}

func TestUpdateStepsAndCap(t *testing.T) {
	p := ready(tanksConfig())
	m := &logModel{}
	p.Update(0, m)
	p.Update(500, m)
	if len(m.steps) != 0 {
		t.Fatal("stepped without a state")
	}
	p.Rewound()
	p.Update(1000, m) // 500 ms elapsed: capped at 100 ms = 10 steps
	if len(m.steps) != 10 {
		t.Fatalf("%d steps", len(m.steps))
	}
	p.SetFrozen(true)
	p.Update(1050, m)
	if len(m.steps) != 10 || p.Accumulator() != 0 {
		t.Fatal("stepped while frozen")
	}
	p.SetFrozen(false)
	p.Update(1000, m) // time going back: no steps, no error growth
	if len(m.steps) != 10 {
		t.Fatal("stepped on a negative elapsed")
	}
}

func TestErrorDecayAndSnap(t *testing.T) {
	p := ready(tanksConfig())
	m := &logModel{}
	had := p.Rewound()
	p.Replay(0, 0, 0, 0, m)
	if p.Correct(had, 50, 0, 0) || p.Err != (VisualError{}) {
		t.Fatal("first state must not produce an error")
	}
	had = p.Rewound()
	p.Correct(had, 30, 40, 0.5)
	if p.Err != (VisualError{30, 40, 0.5}) {
		t.Fatalf("err %+v", p.Err)
	}
	p.Update(0, m)
	p.Update(50, m) // factor 0.5
	if p.Err.X != 15 || p.Err.Y != 20 || p.Err.Angle != 0.25 {
		t.Fatalf("decay %+v", p.Err)
	}
	p.Update(150, m) // a 100 ms tick clears it
	if p.Err != (VisualError{}) {
		t.Fatalf("not cleared %+v", p.Err)
	}
	had = p.Rewound()
	p.Correct(had, 60, 0, 0)
	if snap := p.Correct(p.Rewound(), 60, 0, 0); !snap || p.Err != (VisualError{}) {
		t.Fatalf("no snap at 120 units: %+v", p.Err)
	}
	s := p.Summary()
	if s.Samples != 0 || s.Snaps != 1 || s.CorrectionMax != 60 {
		t.Fatalf("stats %+v", s)
	}
	if DecayFactor(1000.0/60) < 0.833 || DecayFactor(1000.0/60) > 0.834 || DecayFactor(-5) != 1 {
		t.Fatal("decay factor")
	}
}

func TestResets(t *testing.T) {
	p := ready(tanksConfig())
	m := &logModel{}
	p.KeyEvent(1, true, "forward", 0)
	p.KeyEvent(2, true, "fire", 0)
	p.Correct(p.Rewound(), 0, 0, 0)
	p.Correct(p.Rewound(), 5, 0, 0)
	p.Reset(false)
	if p.HasState() || p.HistoryLen() != 0 || p.Live().Keys != 0 || p.shots != 0 || p.Err != (VisualError{}) {
		t.Fatal("reset left state")
	}
	// The next block is taken as is even though a state existed before it.
	p.Correct(p.Rewound(), 0, 0, 0)
	p.Correct(p.Rewound(), 7, 0, 0)
	p.Reset(true)
	if !p.HasState() {
		t.Fatal("keepState dropped the state")
	}
	if p.Correct(true, 9, 0, 0); p.Err.X != 0 {
		t.Fatal("pending reset ignored")
	}
	p.SetActive(false)
	if p.HasState() || p.Accepts() {
		t.Fatal("inactive predictor kept its state")
	}
	p.SetActive(true)
	p.Correct(p.Rewound(), 0, 0, 0)
	if p.Correct(p.Rewound(), 3, 0, 0); p.Err.X != 3 {
		t.Fatal("error after reactivation")
	}
	p.Update(0, m)
	_ = m
}

func TestStatsPercentiles(t *testing.T) {
	var s ErrorStats
	for i := 1; i <= 100; i++ {
		s.Add(float64(i)/10, false)
	}
	sum := s.Summary()
	if math.Abs(sum.ErrorP50-5) > 0.1 || math.Abs(sum.ErrorP95-9.5) > 0.2 || sum.ErrorMax != 10 || sum.Samples != 100 {
		t.Fatalf("%+v", sum)
	}
	var z ErrorStats
	z.Add(0, false)
	z.Add(math.NaN(), true)
	if z.Percentile(0.5) != 0 || z.Summary().Snaps != 1 {
		t.Fatalf("%+v", z.Summary())
	}
}

func TestDivergence(t *testing.T) {
	c, err := ParseDivergence([]byte(`{"thresholds":[0.5,0.5,0.1],"capacity":2,"angles":[2]}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.DefaultThreshold != 1 {
		t.Fatal("default threshold")
	}
	d := NewDivergence(c)
	auth := [8]float32{10, 20, 3.1, 0, 0, 0, 0, 0}
	// Angle 3.1 vs −3.1: raw delta −6.2, wrapped ≈ 0.083 < 0.1: no record.
	d.Observe(SourceState, []float32{10.5, 20, -3.1, 1, 0, 0, 0, 0}, &auth, 1000, 500, 500, 7, Window{})
	// x delta exactly 0.5 is not exceeded (strict); vx 1.0 is not above 1.
	rep := d.Take()
	if rep.Samples != 1 || rep.Violations != 0 || len(rep.Records) != 0 {
		t.Fatalf("%+v", rep)
	}
	if math.Abs(rep.MaxDelta[2]-0.0832) > 0.001 {
		t.Fatalf("wrapped max %v", rep.MaxDelta)
	}
	d.Observe(SourceCamera, []float32{11, 20}, &auth, 1000, 500, 500, 7, Window{From: 1, To: 2, Count: 3, Valid: true})
	d.Observe(SourceCamera, []float32{12, 20}, &auth, 1000, 500, 500, 8, Window{})
	d.Observe(SourceCamera, []float32{13, 20}, &auth, 1000, 500, 500, 9, Window{})
	rep = d.Take()
	if rep.Violations != 3 || rep.Dropped != 1 || len(rep.Records) != 2 || rep.Records[0].InputSeq != 8 ||
		rep.Records[1].Exceeded[0] != 0 || len(rep.Records[1].Predicted) != 2 || rep.Records[0].Replayed != nil {
		t.Fatalf("%+v", rep)
	}
	if len(d.Take().Records) != 0 {
		t.Fatal("take did not drain")
	}
	var off *Divergence
	off.Observe(SourceState, []float32{1}, &auth, 0, 0, 0, 0, Window{})
	if off.Take() != nil {
		t.Fatal("nil detector reported")
	}
	if c, _ := ParseDivergence(nil); c != nil {
		t.Fatal("absent config is on")
	}
	if _, err := ParseDivergence([]byte(`{"angles":[8]}`)); err == nil {
		t.Fatal("angle index 8 accepted")
	}
	if w := wrapDelta(-math.Pi); w <= 0 || math.Abs(float64(w)-math.Pi) > 1e-6 {
		t.Fatalf("wrap -π: %v", w)
	}
}

type nopModel struct{ n int }

func (m *nopModel) Step(in Input, dt float32) { m.n++ }
func (m *nopModel) Pos() (float32, float32)   { return float32(m.n), 0 }

// BenchmarkUpdate is the per-tick cost of the framework at 60 fps.
func BenchmarkUpdate(b *testing.B) {
	p := ready(tanksConfig())
	p.Rewound()
	m := &nopModel{}
	now := 0.0
	b.ReportAllocs()
	for b.Loop() {
		now += 1000.0 / 60
		p.Update(now, m)
	}
}

// Hostile times end: a replay covers at most the history's 2 s, NaN and
// infinities step nothing, and the accumulator stays in range.
func TestReplayBounded(t *testing.T) {
	p := ready(tanksConfig())
	m := &nopModel{}
	p.Rewound()
	p.Replay(1, -1e300, 0, 0, m)
	if m.n != 201 || p.Accumulator() != 0 {
		t.Fatalf("%d steps, acc %v", m.n, p.Accumulator())
	}
	for _, c := range [][3]float64{{math.NaN(), 0, 0}, {0, math.Inf(1), 0}, {0, 0, math.Inf(-1)}, {1e300, -1e300, 0}} {
		m.n = 0
		p.Replay(1, c[0], c[1], c[2], m)
		if m.n > 201 || math.IsNaN(p.Accumulator()) {
			t.Fatalf("%v: %d steps, acc %v", c, m.n, p.Accumulator())
		}
	}
	m.n = 0
	p.Update(math.NaN(), m)
	p.Update(math.Inf(1), m)
	if m.n != 0 {
		t.Fatal("stepped on a non-finite clock")
	}
}

func TestReportLiveFigures(t *testing.T) {
	p := New(Config{})
	p.SetModel(true)
	p.SetActive(true)
	p.Rewound()
	p.Err.X, p.Err.Y = 3, 4
	if r := p.Report(); !r.Live.Active || r.Live.Visual != 5 {
		t.Fatalf("%+v", r)
	}
}

// An update steps at most the accumulator cap; the time past it is kept
// for the next updates (and CatchUp), never dropped, up to a replay's span.
func TestUpdateKeepsTimePastTheCap(t *testing.T) {
	p := ready(tanksConfig())
	m := &logModel{}
	p.Update(0, m)
	p.Rewound()
	p.Update(500, m) // 500 ms late: 100 ms now
	p.Update(500, m) // and 100 ms more at each update after it
	if len(m.steps) != 20 {
		t.Fatalf("%d steps, want 20", len(m.steps))
	}
	p.CatchUp(500, m) // the remaining 300 ms at once
	if len(m.steps) != 50 {
		t.Fatalf("%d steps after the catch-up, want 50", len(m.steps))
	}
	p.Update(10500, m) // ten seconds late: the cap now, at most a replay's span kept
	p.CatchUp(10500, m)
	if n, want := len(m.steps)-50, int((AccumulatorCap+HistoryMaxAgeMs)/10); n != want {
		t.Fatalf("%d steps after a 10 s stall, want %d", n, want)
	}
}
