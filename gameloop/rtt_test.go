package gameloop

import (
	"math"
	"testing"
	"time"

	"vimpclient/protocol"
)

// The jitter is the variation of the PING arrivals around the host's
// period: steady arrivals read 0; one late by 40 ms and the next early
// by as much (the delay went up, then back) read as the RFC 3550
// estimator says; an immediate PING (a map change) and a lost one (twice
// the period) are no interval.
func TestPingArrivalJitter(t *testing.T) {
	var r roundTrip
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	for i := range 4 {
		r.ping(at(i * 3000))
	}
	if !r.hasJit || r.jitter != 0 {
		t.Fatalf("steady pings: jitter %v (measured %v)", r.jitter, r.hasJit)
	}
	r.ping(at(3*3000 + 3040)) // 40 ms late
	r.ping(at(5 * 3000))      // on time again: an interval 40 ms short
	want := 40.0 / 16
	want += (40 - want) / 16
	if math.Abs(r.jitter-want) > 1e-9 {
		t.Fatalf("jitter %v, want %v", r.jitter, want)
	}
	r.ping(at(5*3000 + 10)) // the host pings at once on a map change
	r.ping(at(5*3000 + 10 + 6000))
	if math.Abs(r.jitter-want) > 1e-9 {
		t.Fatalf("a map change's or a lost PING's interval was counted: %v", r.jitter)
	}
	r.newConnection()
	r.ping(at(100_000))
	if math.Abs(r.jitter-want) > 1e-9 || r.pingAt != at(100_000) {
		t.Fatalf("the first PING of a connection has no interval: %v", r.jitter)
	}
}

// The round trip is read from the own row's latency column; a bot's
// "BOT", a kept cell and another player's row are no sample; the
// percentiles are over the samples kept.
func TestOwnRowRoundTrip(t *testing.T) {
	cols := []string{"names", "status", "score", "deaths", "latency"}
	row := func(id, lat string, keep bool) protocol.StatBody {
		cells := []protocol.StatCell{{Text: id}, {}, {Text: "0"}, {Text: "0"}, {Text: lat, Keep: keep}}
		return protocol.StatBody{ID: id, Team: 1, Cells: cells}
	}
	m := &protocol.Stat{Bodies: []protocol.StatBody{row("3", "BOT", false), row("7", "48", false), row("9", "500", false)}}
	if c, ok := ownLatency(m, cols, "7"); !ok || c != "48" {
		t.Fatalf("own cell %q %v", c, ok)
	}
	if _, ok := ownLatency(&protocol.Stat{Bodies: []protocol.StatBody{row("7", "", true)}}, cols, "7"); ok {
		t.Fatal("a kept cell read as a sample")
	}
	if _, ok := ownLatency(m, cols[:4], "7"); ok {
		t.Fatal("a table without a latency column gave a sample")
	}
	var r roundTrip
	if _, ok := r.report("BOT"); ok {
		t.Fatal("BOT is a sample")
	}
	if r.summary() != nil {
		t.Fatal("a summary without samples")
	}
	for v := 1; v <= 100; v++ {
		r.report(string(rune('0'+v/100)) + string(rune('0'+v/10%10)) + string(rune('0'+v%10)))
	}
	s := r.summary()
	if s == nil || s.Samples != 100 || s.P50Ms != 51 || s.P95Ms != 95 {
		t.Fatalf("summary %+v", s)
	}
	for range maxRTTSamples {
		r.report("7")
	}
	if s := r.summary(); s.Samples != 100+maxRTTSamples || s.P95Ms != 7 || len(r.samples) != maxRTTSamples {
		t.Fatalf("after the ring turned: %+v, %d kept", s, len(r.samples))
	}
}
