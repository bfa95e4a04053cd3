package clientcore

import (
	"math"
	"testing"
)

// The largest step is how far a sample's move of render time strays from
// the wall time between the samples; a reset's jump (over 500 ms), a
// sample after a pause (dt 0) and a stalled loop's long one are not steps,
// and held figures count none.
func TestInterpFiguresLargestStep(t *testing.T) {
	var f interpFigures
	f.renderStep(16.7*1.1, 16.7) // a clock slewing 10 % fast
	f.renderStep(16.7-3, 16.7)   // one following an early frame back
	f.renderStep(900, 16.7)      // a reset
	f.renderStep(50, 0)          // after a pause
	f.renderStep(200*1.1, 200)   // a stalled loop's long sample
	f.renderStep(math.NaN(), 16.7)
	if got := f.stats().MaxStepMs; math.Abs(got-3) > 1e-9 {
		t.Fatalf("largest step %v, want 3", got)
	}
	f.held = true
	f.renderStep(16.7+40, 16.7)
	if got := f.stats().MaxStepMs; math.Abs(got-3) > 1e-9 {
		t.Fatalf("held figures moved to %v", got)
	}
}
