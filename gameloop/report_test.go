package gameloop

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/parts"
)

// Each problem is said once per connection and counted every time; the
// errors are kept once each, and bounded.
func TestReportSaysOncePerConnection(t *testing.T) {
	r := newReport()
	if say := r.undecodable("bad version"); say != "frames from this host cannot be decoded: bad version" {
		t.Fatalf("first: %q", say)
	}
	if say := r.undecodable("bad version"); say != "" {
		t.Fatalf("second: %q", say)
	}
	if say := r.refused(parts.Refusals{}); say != "" {
		t.Fatalf("nothing refused: %q", say)
	}
	if say := r.refused(parts.Refusals{Rows: 3, Reason: "too many"}); say != "entities from this host refused: too many" {
		t.Fatalf("refused: %q", say)
	}
	if say := r.refused(parts.Refusals{Rows: 5}); say != "" {
		t.Fatalf("refused again: %q", say)
	}
	r.opened()
	if r.undecodable("x") == "" || r.refused(parts.Refusals{Rows: 6}) == "" {
		t.Fatal("a new connection did not say it again")
	}
	if s := r.stats(nil, parts.Refusals{}); s.Undecodable != 3 || s.UndecodableReason != "x" {
		t.Fatalf("stats %+v", s)
	}
	for i := range maxLoopErrors + 10 {
		r.note(fmt.Sprint(i % (maxLoopErrors + 5)))
	}
	r.note("0")
	if len(r.errs) != maxLoopErrors || r.errs[0] != "0" {
		t.Fatalf("%d errors, first %q", len(r.errs), r.errs[0])
	}
}

// The first CONFIG_DATA and the first play of a run count; a new
// connection's CONFIG_DATA counts again for ConfigAt only.
func TestReportConnectionTimes(t *testing.T) {
	r := newReport()
	start := time.Unix(100, 0)
	r.configured(start, start.Add(time.Second))
	r.configured(start, start.Add(2*time.Second))
	r.playing(start.Add(3 * time.Second))
	r.playing(start.Add(4 * time.Second))
	if r.configAt != start.Add(time.Second) || r.playAt != start.Add(3*time.Second) {
		t.Fatalf("config at %v, play at %v", r.configAt, r.playAt)
	}
	r.opened()
	r.configured(start, start.Add(5*time.Second))
	if r.configAt != start.Add(5*time.Second) || *r.story.joinMs != 1000 {
		t.Fatalf("config at %v, join %d ms", r.configAt, *r.story.joinMs)
	}
}

// The render clock's figures of a retired core and the current one add
// up: counts and times summed, maxima the largest, the delay's median the
// current core's; a run that never sampled has no interp block, and the
// block names its figures as the summary promises.
func TestInterpFiguresOverCores(t *testing.T) {
	old := clientcore.InterpStats{FrozenMs: 210.04, Freezes: 2, FreezesOver100ms: 1, BackSteps: 3, MaxBackStepMs: 70,
		LateFrames: 40, DelayMs: 100, DelayMsP50: 100, DelayMsMax: 100, ExtrapolatedMs: 0, Samples: 900}
	cur := clientcore.InterpStats{FrozenMs: 10, Freezes: 1, BackSteps: 0, MaxBackStepMs: 0, LateFrames: 2,
		DelayMs: 140, DelayMsP50: 131, DelayMsMax: 250, ExtrapolatedMs: 95.26, Samples: 600}
	s := interpSummary(addInterp(old, cur))
	want := InterpSummary{FrozenMs: 220, Freezes: 3, FreezesOver100ms: 1, BackSteps: 3, MaxBackStepMs: 70, LateFrames: 42,
		DelayMsP50: 131, DelayMsMax: 250, ExtrapolatedMs: 95.3}
	if s == nil || *s != want {
		t.Fatalf("got %+v\nwant %+v", s, want)
	}
	if s := interpSummary(addInterp(old, clientcore.InterpStats{})); s.DelayMsP50 != 100 {
		t.Fatalf("a core that never sampled keeps the median before it: %+v", s)
	}
	if interpSummary(clientcore.InterpStats{}) != nil {
		t.Fatal("never sampled: no interp block")
	}
	b, err := json.Marshal(Summary{Interp: s})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"frozenMs", "freezes", "freezesOver100ms", "backSteps", "maxBackStepMs", "lateFrames",
		"delayMsP50", "delayMsMax", "extrapolatedMs"} {
		if !strings.Contains(string(b), `"`+k+`":`) {
			t.Errorf("the interp block has no %q: %s", k, b)
		}
	}
}
