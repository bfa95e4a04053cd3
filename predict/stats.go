package predict

import (
	"math"
	"vimpclient/internal/quantile"

	"vimpclient/clientcore"
)

// Histogram bins of the error statistics: bin 0 holds errors below
// statsFloor, bin k ≥ 1 errors in [floor·r^(k−1), floor·r^k) with r = 1.02,
// so a percentile is exact to 2 % with a fixed 1 000-bin table whatever the
// session length.
const (
	statsFloor = 0.001
	statsRatio = 1.02
	statsBins  = 1000
)

// ErrorStats accumulates error sizes in world units for the headless
// summary: the predictor keeps one for the time-aligned prediction error and
// one for the corrections.
type ErrorStats struct {
	samples uint64
	snaps   uint64
	max     float64
	bins    [statsBins]uint64
}

// Add records one correction of size v; snap tells whether it snapped.
func (s *ErrorStats) Add(v float64, snap bool) {
	if math.IsNaN(v) {
		v = math.Inf(1)
	}
	s.samples++
	if snap {
		s.snaps++
	}
	s.max = max(s.max, v)
	s.bins[binOf(v)]++
}

func binOf(v float64) int {
	if v < statsFloor {
		return 0
	}
	k := int(math.Log(v/statsFloor)/math.Log(statsRatio)) + 1
	return min(max(k, 1), statsBins-1)
}

// upper is the upper edge of bin k.
func upper(k int) float64 {
	if k == 0 {
		return 0
	}
	return statsFloor * math.Pow(statsRatio, float64(k))
}

// Percentile returns the q-quantile (0..1): the upper edge of the bin
// holding it, capped by the largest sample.
func (s *ErrorStats) Percentile(q float64) float64 {
	k := quantile.Bucket(s.bins[:], s.samples, q)
	if k < 0 {
		return 0
	}
	return min(upper(k), s.max)
}

// Summary is the "prediction" object of the headless summary: the client
// core's plain report of the statistics, so games report it without the core
// importing the predictor.
type Summary = clientcore.PredictionSummary

// Summary returns the statistics so far, rounded to 4 decimals.
func (s *ErrorStats) Summary() Summary {
	return Summary{Samples: s.samples, ErrorP50: round4(s.Percentile(0.5)), ErrorP95: round4(s.Percentile(0.95)),
		ErrorMax: round4(s.max), Snaps: s.snaps}
}

// Reset forgets every sample.
func (s *ErrorStats) Reset() { *s = ErrorStats{} }

func round4(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	return math.Round(v*1e4) / 1e4
}
