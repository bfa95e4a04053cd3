package geom

import "testing"

func TestContainsAndIntersects(t *testing.T) {
	r := Rect{X: 10, Y: 20, W: 30, H: 40}
	if !r.Contains(10, 20) || r.Contains(40, 20) || r.Contains(10, 60) || !r.Contains(39.5, 59.5) {
		t.Fatal("Contains: the left and top edges are inside, the right and bottom ones outside")
	}
	if !r.Intersects(Rect{X: 39, Y: 59, W: 5, H: 5}) || r.Intersects(Rect{X: 40, Y: 20, W: 5, H: 5}) {
		t.Fatal("Intersects: sharing an edge is no overlap")
	}
}
