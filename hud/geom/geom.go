// Package geom holds the rectangle the overlays are laid out in: the HUD,
// the server browser, the start screen and the settings overlay place their
// parts in logical pixels with it, and their views draw and their clicks
// are read against the same rectangles.
package geom

// Rect is a rectangle in logical pixels.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether (x, y) is inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Intersects reports whether r and o share any area.
func (r Rect) Intersects(o Rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}
