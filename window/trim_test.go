package window

import (
	"testing"
	"time"
)

// Between matches the C heap is trimmed every trimEvery, once at a time:
// the first call only starts the clock, a call within trimEvery trims
// nothing, the first after it trims and starts the clock again.
func TestTrimEveryInterval(t *testing.T) {
	var w Window // no trimmer: a trim runs and does nothing
	t0 := time.Unix(1000, 0)
	w.trimAfterMatch(t0)
	if !w.lastTrim.Equal(t0) {
		t.Fatalf("the clock started at %v, want %v", w.lastTrim, t0)
	}
	w.trimAfterMatch(t0.Add(trimEvery - time.Millisecond))
	if !w.lastTrim.Equal(t0) {
		t.Fatal("trimmed before trimEvery had passed")
	}
	at := t0.Add(trimEvery)
	w.trimAfterMatch(at)
	if !w.lastTrim.Equal(at) {
		t.Fatalf("not trimmed once trimEvery had passed (last trim %v)", w.lastTrim)
	}
	// A new match's countdown comes first; the interval waits meanwhile.
	w.trimIn = 2
	w.trimAfterMatch(at.Add(2 * trimEvery))
	if w.trimIn != 1 || !w.lastTrim.Equal(at) {
		t.Fatalf("trimIn %d, last trim %v: the countdown did not come first", w.trimIn, w.lastTrim)
	}
}
