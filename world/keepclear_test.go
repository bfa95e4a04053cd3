package world

import (
	"fmt"
	"math"
	"testing"

	"vimpclient/world/canvas"
)

// hudBoxes is the HUD over a w×h window as the view reports it: the panel
// across the top, the radar's corner at the top right, the chat's lines at
// the bottom left and the net graph under the radar.
func hudBoxes(w, h float64) []canvas.Rect {
	return []canvas.Rect{
		{Left: 0, Top: 0, W: w, H: 24},
		{Left: w - 190, Top: 24, W: 190, H: 170},
		{Left: 0.04 * w, Top: h - 40 - 6*18, W: 0.5 * w, H: 6 * 18},
		{Left: w - 250, Top: 210, W: 240, H: 90},
	}
}

// The player driven into each corner of the map, at three window sizes:
// the world shows it clear of every HUD box once the view has eased, and
// without the boxes it would have been under one (the bottom left, under
// the chat; the top right, under the radar).
func TestPlayerKeptClearOfTheHUD(t *testing.T) {
	for _, size := range [][2]float64{{1280, 720}, {1920, 1080}, {2560, 1440}} {
		for _, corner := range [][2]float64{{20, 20}, {620, 20}, {20, 300}, {620, 300}} {
			t.Run(fmt.Sprintf("%vx%v/%v", size[0], size[1], corner), func(t *testing.T) {
				w, core := cameraWorld(t, emptyMap(t, 20, 10)) // 640×320 units
				w.Resize(size[0], size[1])
				boxes := hudBoxes(size[0], size[1])
				under := func() (float64, float64, int) {
					sx, sy, _ := w.WorldToScreen(w.pointer, corner[0], corner[1])
					for i, b := range boxes {
						if inBox(b, 15, sx, sy) { // about a tank's half width
							return sx, sy, i
						}
					}
					return sx, sy, -1
				}
				core.point(corner[0], corner[1])
				w.Tick(16, 16)
				_, _, before := under()
				w.SetKeepClear(boxes)
				for i := 2; i < 60; i++ {
					w.Tick(float64(16*i), 16)
				}
				if sx, sy, i := under(); i >= 0 {
					t.Fatalf("the player at (%.0f, %.0f) px is under box %d %+v (before: %d)", sx, sy, i, boxes[i], before)
				}
				if corner == [2]float64{20, 300} && before != 2 {
					t.Fatalf("bottom left: before keeping clear the player was under box %d, not the chat", before)
				}
			})
		}
	}
}

// The view eases out from under a box and back: no tick moves it by much,
// and with the player back in the open the shift goes back to zero.
func TestKeepClearEases(t *testing.T) {
	w, core := cameraWorld(t, emptyMap(t, 20, 10))
	w.SetKeepClear(hudBoxes(1920, 1080))
	core.point(20, 300)
	w.Tick(16, 16)
	var lx, ly float64
	for i := 2; i < 40; i++ {
		w.Tick(float64(16*i), 16)
		dx, dy := w.ClearOffset()
		// The whole way is under 20 units: a tick goes at most a fifth of it.
		if step := math.Hypot(dx-lx, dy-ly); step > 4 {
			t.Fatalf("tick %d: the view jumped %v units", i, step)
		}
		lx, ly = dx, dy
	}
	if lx == 0 && ly == 0 {
		t.Fatal("the view did not move the player out from under the chat")
	}
	core.point(320, 160)
	for i := 40; i < 120; i++ {
		w.Tick(float64(16*i), 16)
	}
	if dx, dy := w.ClearOffset(); dx != 0 || dy != 0 {
		t.Fatalf("in the open the view keeps a shift (%v, %v)", dx, dy)
	}
}

// Boxes that cannot be left (one covering the window) move nothing; bad
// numbers are dropped.
func TestKeepClearNothingToDo(t *testing.T) {
	w, core := cameraWorld(t, emptyMap(t, 20, 10))
	w.SetKeepClear([]canvas.Rect{{W: 1920, H: 1080}, {Left: math.NaN(), W: 5, H: 5}, {Left: 1, W: math.Inf(1), H: 5}})
	core.point(2, 318)
	for i := 1; i < 30; i++ {
		w.Tick(float64(16*i), 16)
	}
	if dx, dy := w.ClearOffset(); dx != 0 || dy != 0 {
		t.Fatalf("shift (%v, %v) with no way out", dx, dy)
	}
}
