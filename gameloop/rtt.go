package gameloop

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"vimpclient/protocol"
)

// What the client can measure of its round trip. Only the host sends PING
// (the client answers PONG), and a PING carries a bare id, no time: the
// client cannot time a round trip of its own. The host does time each
// PING/PONG pair and reports the result in the player's own scoreboard
// row (STAT_DATA's latency column): those reports are the round-trip
// samples. The jitter is the client's own measure: the host sends PINGs
// on a fixed timer, so the variation of their arrival intervals around
// that period is the variation of the host-to-client delay (RFC 3550's
// estimator, J += (|D| − J)/16).

// Bounds of the round-trip record.
const (
	maxRTTSamples = 1024 // host reports kept for the percentiles, newest
	pingPeriods   = 9    // arrival intervals the period is the median of
	maxRTTMs      = 60_000
)

// RTTSummary is the round trip of the run: the percentiles of the host's
// reports and the jitter of its PING arrivals (ms).
type RTTSummary struct {
	Samples  int     `json:"samples"`
	P50Ms    float64 `json:"p50Ms"`
	P95Ms    float64 `json:"p95Ms"`
	JitterMs float64 `json:"jitterMs"`
}

// roundTrip keeps the run's round-trip samples and PING arrival jitter,
// across connections.
type roundTrip struct {
	samples []float64 // ring of the newest maxRTTSamples
	next    int
	total   int
	// last is the latest report; fresh is set by a PING since it.
	last  float64
	has   bool
	fresh bool

	pingAt   time.Time // the latest PING's arrival (zero: none on this connection)
	periods  [pingPeriods]float64
	nPeriods int
	jitter   float64
	hasJit   bool
}

// report adds one round trip the host reported, in ms; a value that is
// not a number of ms (a bot's "BOT", an empty cell) is no sample.
func (r *roundTrip) report(cell string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > maxRTTMs {
		return 0, false
	}
	if len(r.samples) < maxRTTSamples {
		r.samples = append(r.samples, v)
	} else {
		r.samples[r.next] = v
		r.next = (r.next + 1) % maxRTTSamples
	}
	r.total++
	r.last, r.has, r.fresh = v, true, false
	return v, true
}

// ping notes a PING's arrival at at and updates the jitter: the interval
// since the previous PING against the host's period, the median of the
// recent intervals. An interval under half the period (the host pings at
// once on a map change) or over one and a half (a PING lost) says nothing
// of the delay and only the arrival is kept.
func (r *roundTrip) ping(at time.Time) {
	prev := r.pingAt
	r.pingAt, r.fresh = at, true
	if prev.IsZero() {
		return
	}
	iv := float64(at.Sub(prev)) / float64(time.Millisecond)
	if iv <= 0 {
		return
	}
	period := r.period()
	if period > 0 && (iv < period/2 || iv > period*1.5) {
		return
	}
	r.periods[r.nPeriods%pingPeriods] = iv
	r.nPeriods++
	if period == 0 {
		return
	}
	d := math.Abs(iv - period)
	if !r.hasJit {
		r.jitter, r.hasJit = d, true
		return
	}
	r.jitter += (d - r.jitter) / 16
}

// period is the median of the recent PING intervals (0 before two).
func (r *roundTrip) period() float64 {
	n := min(r.nPeriods, pingPeriods)
	if n < 2 {
		return 0
	}
	var buf [pingPeriods]float64
	s := buf[:n]
	copy(s, r.periods[:n])
	slices.Sort(s)
	return s[n/2]
}

// newConnection forgets the previous connection's PING timer (its jitter
// and samples stay: they are the run's).
func (r *roundTrip) newConnection() {
	r.pingAt = time.Time{}
	r.nPeriods = 0
}

// summary is nil when the host reported no round trip and no jitter was
// measured.
func (r *roundTrip) summary() *RTTSummary {
	if len(r.samples) == 0 && !r.hasJit {
		return nil
	}
	s := &RTTSummary{Samples: r.total, JitterMs: round1(r.jitter)}
	if len(r.samples) > 0 {
		sorted := slices.Clone(r.samples)
		slices.Sort(sorted)
		s.P50Ms = sorted[int(0.5*float64(len(sorted)-1)+0.5)]
		s.P95Ms = sorted[int(0.95*float64(len(sorted)-1)+0.5)]
	}
	return s
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// ownLatency is the latency cell of the player's own row in a STAT_DATA
// message: the row of id my, the column named "latency" of columns.
func ownLatency(m *protocol.Stat, columns []string, my string) (string, bool) {
	col := -1
	for i, c := range columns {
		if strings.EqualFold(strings.TrimSpace(c), "latency") {
			col = i
			break
		}
	}
	if col < 0 {
		return "", false
	}
	cell, ok := "", false
	for _, b := range m.Bodies { // the same row may come more than once: the last wins
		if b.ID != my || b.Remove || col >= len(b.Cells) || b.Cells[col].Keep {
			continue
		}
		cell, ok = b.Cells[col].Text, true
	}
	return cell, ok
}

// RTT is the run's round trip so far (nil: none measured yet).
func (l *Loop) RTT() *RTTSummary { return l.rtt.summary() }
