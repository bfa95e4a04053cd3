package world

import (
	"math"

	"vimpclient/world/canvas"
)

// The HUD's boxes (chat, panel, radar, net graph, vote) sit over the game.
// Where the view is held at a map's edge, the camera point (the own tank or
// snake) is no longer in the middle of the window and can end up under one
// of them: in a corner, under the chat. The world keeps it clear: when the
// point, with a margin, is under a box, the dynamic canvases' view moves by
// the least distance that takes it out (showing some of the void past the
// map's edge), eased in and out so that the view never jumps.

// Limits of the clearance.
const (
	// maxClearBoxes bounds the boxes kept clear (the HUD has a handful).
	maxClearBoxes = 16
	// clearMarginUnits is the margin around the camera point, in world
	// units (about a tank's half length), and clearMarginMin its least
	// size in px.
	clearMarginUnits = 5
	clearMarginMin   = 12
	// clearEase is the part of the remaining way the view moves each
	// tick of 60 Hz.
	clearEase = 0.18
)

// keptClear is what keeps the camera point clear of the HUD: the HUD's
// boxes (window logical px); x, y the view's eased shift that does it
// (world units), at when it was last eased.
type keptClear struct {
	boxes []canvas.Rect
	x, y  float64
	at    float64
}

// SetKeepClear replaces the boxes (window logical px) the camera point is
// kept out from under; nil or none keeps nothing clear. The slice is
// copied; at most maxClearBoxes are kept.
func (w *World) SetKeepClear(boxes []canvas.Rect) {
	w.clear.boxes = w.clear.boxes[:0]
	for _, b := range boxes {
		if len(w.clear.boxes) == maxClearBoxes {
			break
		}
		if b.W > 0 && b.H > 0 && !math.IsInf(b.W+b.H+b.Left+b.Top, 0) && !math.IsNaN(b.W+b.H+b.Left+b.Top) {
			w.clear.boxes = append(w.clear.boxes, b)
		}
	}
}

// ClearOffset is the view's shift (world units) that keeps the camera
// point clear of the HUD now.
func (w *World) ClearOffset() (dx, dy float64) { return w.clear.x, w.clear.y }

// clearShift is the view shift (world units) that takes the camera point
// out from under the boxes, for dynamic canvas c whose view centre is
// (cx, cy) at scale s: zero when it is under none, or when no move of the
// least distance out of the box it is under lands clear of every box and
// inside the window.
func (w *World) clearShift(c *Canvas, cx, cy, s float64) (float64, float64) {
	if len(w.clear.boxes) == 0 || !w.haveCam || !(s > 0) || c.Rect.W <= 0 || c.Rect.H <= 0 {
		return 0, 0
	}
	// The camera point on screen, with the view as it stands.
	kx, ky := c.Rect.W/c.Size.W, c.Rect.H/c.Size.H
	px := c.Rect.Left + (c.Size.W/2+(w.camX-cx)*s)*kx
	py := c.Rect.Top + (c.Size.H/2+(w.camY-cy)*s)*ky
	r := max(clearMarginUnits*s*kx, clearMarginMin)
	under := -1
	for i, b := range w.clear.boxes {
		if inBox(b, r, px, py) {
			under = i
			break
		}
	}
	if under < 0 {
		return 0, 0
	}
	best, bestX, bestY := math.Inf(1), 0.0, 0.0
	w.waysOut(under, r, px, py, 0, 0, clearDepth, &best, &bestX, &bestY)
	if math.IsInf(best, 1) {
		return 0, 0
	}
	// The point moves by (mx, my) on screen when the view centre moves by
	// the opposite.
	return -bestX / (s * kx), -bestY / (s * ky)
}

// clearDepth bounds the boxes one way out may cross (out of one box and
// into the next, as from under the panel into the radar below it).
const clearDepth = 3

// waysOut tries the four least moves out of box i from (px, py), the point
// having moved (mx, my) so far: a move that lands clear of every box and
// inside the window is a way out, kept in best (its length) and (bx, by)
// when shorter than the best so far; one that lands under another box goes
// on from there while depth lasts.
func (w *World) waysOut(i int, r, px, py, mx, my float64, depth int, best, bx, by *float64) {
	b := w.clear.boxes[i]
	// A pixel past the margin, so that rounding leaves the point outside.
	r1 := r + 1
	moves := [4][2]float64{
		{b.Left - r1 - px, 0},
		{b.Left + b.W + r1 - px, 0},
		{0, b.Top - r1 - py},
		{0, b.Top + b.H + r1 - py},
	}
	for _, m := range moves {
		nx, ny := px+m[0], py+m[1]
		tx, ty := mx+m[0], my+m[1]
		l := math.Abs(tx) + math.Abs(ty)
		if nx < 0 || ny < 0 || nx > w.winW || ny > w.winH || l >= *best {
			continue
		}
		next := -1
		for j, o := range w.clear.boxes {
			if inBox(o, r, nx, ny) {
				next = j
				break
			}
		}
		switch {
		case next < 0:
			*best, *bx, *by = l, tx, ty
		case depth > 1 && next != i:
			w.waysOut(next, r, nx, ny, tx, ty, depth-1, best, bx, by)
		}
	}
}

// inBox reports whether (x, y) is within r of box b.
func inBox(b canvas.Rect, r, x, y float64) bool {
	return x > b.Left-r && x < b.Left+b.W+r && y > b.Top-r && y < b.Top+b.H+r
}

// easeClear moves the view's clearance shift towards (tx, ty) by the part
// of the way a tick of dtMs goes; a reset camera takes it at once.
func (w *World) easeClear(tx, ty, dtMs float64, snap bool) {
	k := 1.0
	if !snap {
		k = 1 - math.Pow(1-clearEase, max(0, min(dtMs, 250))/(1000.0/60))
	}
	w.clear.x += (tx - w.clear.x) * k
	w.clear.y += (ty - w.clear.y) * k
	if math.Abs(w.clear.x) < 1e-3 && tx == 0 {
		w.clear.x = 0
	}
	if math.Abs(w.clear.y) < 1e-3 && ty == 0 {
		w.clear.y = 0
	}
}
