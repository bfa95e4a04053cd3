package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"vimpclient/internal/angle"
)

// Divergence detector defaults, as the engine's debug configuration has them.
const (
	DefaultDivergenceThreshold = 1.0
	DefaultDivergenceCapacity  = 64
	// maxDivergenceCapacity bounds the ring a config can ask for.
	maxDivergenceCapacity = 4096
	stateLen              = 8
)

// DivergenceConfig is the engine config's "divergence" object.
type DivergenceConfig struct {
	Thresholds       []float64
	DefaultThreshold float64
	Capacity         int
	Angles           []int // indices of angle components, wrapped into (−π, π]
}

type rawDivergence struct {
	Thresholds       []float64 `json:"thresholds"`
	DefaultThreshold *float64  `json:"defaultThreshold"`
	Capacity         *float64  `json:"capacity"`
	Angles           []float64 `json:"angles"`
}

// ParseDivergence reads the "divergence" object. Absent (empty or null)
// returns nil: the detector is off.
func ParseDivergence(raw []byte) (*DivergenceConfig, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var rd rawDivergence
	if err := json.Unmarshal(raw, &rd); err != nil {
		return nil, fmt.Errorf("divergence config: %w", err)
	}
	c := &DivergenceConfig{DefaultThreshold: DefaultDivergenceThreshold, Capacity: DefaultDivergenceCapacity}
	if len(rd.Thresholds) > stateLen {
		rd.Thresholds = rd.Thresholds[:stateLen] // only 8 components exist
	}
	for i, t := range rd.Thresholds {
		if math.IsNaN(t) || t < 0 {
			return nil, fmt.Errorf("divergence config: threshold %d is %v", i, t)
		}
	}
	c.Thresholds = rd.Thresholds
	if rd.DefaultThreshold != nil {
		if math.IsNaN(*rd.DefaultThreshold) || *rd.DefaultThreshold < 0 {
			return nil, fmt.Errorf("divergence config: defaultThreshold %v", *rd.DefaultThreshold)
		}
		c.DefaultThreshold = *rd.DefaultThreshold
	}
	if rd.Capacity != nil {
		v := *rd.Capacity
		if math.IsNaN(v) {
			return nil, fmt.Errorf("divergence config: capacity is NaN")
		}
		c.Capacity = int(min(max(v, 1), maxDivergenceCapacity))
	}
	for _, a := range rd.Angles {
		if a != math.Trunc(a) || a < 0 || a >= stateLen {
			return nil, fmt.Errorf("divergence config: angle index %v", a)
		}
		c.Angles = append(c.Angles, int(a))
	}
	return c, nil
}

// Source names of a divergence record.
const (
	SourceState  = "state"  // level 1: the game's predicted state
	SourceCamera = "camera" // level 0: the overlay camera
)

// DivergenceRecord is one player block that exceeded a threshold.
type DivergenceRecord struct {
	Source        string    `json:"source"`
	ServerTime    float64   `json:"serverTime"`
	LocalNow      float64   `json:"localNow"`
	Offset        float64   `json:"offset"`
	InputSeq      uint32    `json:"inputSeq"`
	Replayed      *Replayed `json:"replayed"`
	Predicted     []float64 `json:"predicted"`
	Authoritative []float64 `json:"authoritative"`
	Delta         []float64 `json:"delta"`
	Exceeded      []int     `json:"exceeded"`
	Thresholds    []float64 `json:"thresholds"`
}

// Replayed is the replayed input window of a record, in local time.
type Replayed struct {
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Count int     `json:"count"`
}

// DivergenceReport is what Take returns: cumulative counters and the
// records since the last Take.
type DivergenceReport struct {
	Samples    uint64             `json:"samples"`
	Violations uint64             `json:"violations"`
	Dropped    uint64             `json:"dropped"`
	MaxDelta   [stateLen]float64  `json:"maxDelta"`
	Records    []DivergenceRecord `json:"records"`
}

// Divergence compares the prediction with each authoritative player block
// just before the block overwrites it. A nil *Divergence is off and costs
// nothing.
type Divergence struct {
	cfg        DivergenceConfig
	samples    uint64
	violations uint64
	dropped    uint64
	maxDelta   [stateLen]float64
	ring       []DivergenceRecord
	head, n    int
}

// NewDivergence returns a detector for cfg, or nil (off) for a nil cfg.
func NewDivergence(cfg *DivergenceConfig) *Divergence {
	if cfg == nil {
		return nil
	}
	c := *cfg
	c.Capacity = max(c.Capacity, 1)
	return &Divergence{cfg: c, ring: make([]DivergenceRecord, c.Capacity)}
}

func (d *Divergence) threshold(i int) float64 {
	if i < len(d.cfg.Thresholds) {
		return d.cfg.Thresholds[i]
	}
	return d.cfg.DefaultThreshold
}

func (d *Divergence) isAngle(i int) bool {
	for _, a := range d.cfg.Angles {
		if a == i {
			return true
		}
	}
	return false
}

// wrapDelta wraps an angle delta into (−π, π]: the one normalizer's
// [−π, π], with −π folded onto π. What is not a finite number is kept as it
// is (the record counts it as the largest delta).
func wrapDelta(v float32) float32 {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return v
	}
	r := angle.Normalize(v)
	if r == -math.Pi {
		r = math.Pi
	}
	return r
}

// Observe compares predicted (8 values for level 1, the camera x, y for
// level 0) with the authoritative block state.
func (d *Divergence) Observe(source string, predicted []float32, auth *[stateLen]float32, serverTime, localNow, offset float64, inputSeq uint32, w Window) {
	if d == nil || len(predicted) == 0 {
		return
	}
	d.samples++
	n := min(len(predicted), stateLen)
	var delta [stateLen]float32
	var exceeded [stateLen]bool
	any := false
	for i := 0; i < n; i++ {
		dv := predicted[i] - auth[i]
		if d.isAngle(i) {
			dv = wrapDelta(dv)
		}
		delta[i] = dv
		a := math.Abs(float64(dv))
		if math.IsNaN(a) || math.IsInf(a, 0) {
			a = math.MaxFloat32 // JSON has no NaN or Inf
		}
		d.maxDelta[i] = max(d.maxDelta[i], a)
		if a > d.threshold(i) {
			exceeded[i], any = true, true
		}
	}
	if !any {
		return
	}
	d.violations++
	r := DivergenceRecord{Source: source, ServerTime: round4(serverTime), LocalNow: round4(localNow),
		Offset: round4(offset), InputSeq: inputSeq}
	if w.Valid {
		r.Replayed = &Replayed{From: round4(w.From), To: round4(w.To), Count: w.Count}
	}
	for i := 0; i < n; i++ {
		r.Predicted = append(r.Predicted, safe4(predicted[i]))
		r.Authoritative = append(r.Authoritative, safe4(auth[i]))
		r.Delta = append(r.Delta, safe4(delta[i]))
		r.Thresholds = append(r.Thresholds, round4(d.threshold(i)))
		if exceeded[i] {
			r.Exceeded = append(r.Exceeded, i)
		}
	}
	if d.n == len(d.ring) {
		d.head = (d.head + 1) % len(d.ring)
		d.n--
		d.dropped++
	}
	d.ring[(d.head+d.n)%len(d.ring)] = r
	d.n++
}

// Take drains the records; the counters stay cumulative. A nil detector
// returns nil (the JSON null of an engine without the detector).
func (d *Divergence) Take() *DivergenceReport {
	if d == nil {
		return nil
	}
	rep := &DivergenceReport{Samples: d.samples, Violations: d.violations, Dropped: d.dropped, Records: []DivergenceRecord{}}
	for i := range d.maxDelta {
		rep.MaxDelta[i] = round4(d.maxDelta[i])
	}
	for i := 0; i < d.n; i++ {
		rep.Records = append(rep.Records, d.ring[(d.head+i)%len(d.ring)])
		d.ring[(d.head+i)%len(d.ring)] = DivergenceRecord{}
	}
	d.head, d.n = 0, 0
	return rep
}

// safe4 rounds to 4 decimals for JSON, which has no NaN or Inf: NaN becomes
// 0 and ±Inf ±MaxFloat32.
func safe4(v float32) float64 {
	f := float64(v)
	switch {
	case math.IsNaN(f):
		return 0
	case math.IsInf(f, 1):
		return math.MaxFloat32
	case math.IsInf(f, -1):
		return -math.MaxFloat32
	}
	return round4(f)
}
