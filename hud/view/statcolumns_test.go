package view

import (
	"math"
	"testing"
)

// Five columns take the engine's widths; six (snakes: snake, status,
// eaten, kills, score, ping) all fit on the line, none past its end.
func TestStatColumns(t *testing.T) {
	if x, w := statColumn(0, 5, 100); x != 0 || w != 40 {
		t.Fatalf("five columns, the first: %v %v", x, w)
	}
	if x, w := statColumn(4, 5, 100); math.Abs(x-85) > 1e-9 || math.Abs(w-15) > 1e-9 {
		t.Fatalf("five columns, the last: %v %v", x, w)
	}
	for i := range 6 {
		x, w := statColumn(i, 6, 100)
		if x+w > 100+1e-9 || w < 12 {
			t.Fatalf("six columns, column %d at %v, %v wide", i, x, w)
		}
	}
}
