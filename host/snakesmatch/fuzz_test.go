package snakesmatch

import (
	"math"
	"testing"
)

// Whatever a client sends as KEYS_DATA, the match neither panics nor
// takes a non-finite aim, and it keeps stepping and packing frames.
func FuzzKeys(f *testing.F) {
	for _, s := range []string{"1:down:left", "2:up:boost", "3:aim:100.5:-20:3", "4:aim:NaN:1:1", "5:aim:1e40:1:1",
		"6:down:respawn", "x:down:left", "7:aim:1:2", "8:aim:1:2:3:4", "9:down", "4294967296:down:left", ""} {
		f.Add(s)
	}
	h := newHarness(f, 1)
	f.Fuzz(func(t *testing.T, payload string) {
		h.m.Keys(1, payload)
		h.step()
		if o := h.me().snake; o != nil {
			if math.IsNaN(float64(o.aimX)) || math.IsInf(float64(o.aimX), 0) || math.IsNaN(float64(o.aimY)) || math.IsInf(float64(o.aimY), 0) {
				t.Fatalf("aim %v,%v from %q", o.aimX, o.aimY, payload)
			}
		}
	})
}
