package hud

import (
	"math"
	"testing"

	"vimpclient/protocol"
)

// tanksConfig declares the tanks canvases: the main one and the fixed
// 150×150 radar.
const tanksConfig = `{"modules":{"canvasManager":{"canvases":{
	"vimp":{"width":960,"height":600,"aspectRatio":"16:9","baseScale":"5:1"},
	"radar":{"width":150,"height":150,"fixSize":"150","baseScale":"1:8"}}}}}`

func TestLayoutBoxesNeverIntersect(t *testing.T) {
	pc, err := protocol.ParseConfig([]byte(tanksConfig))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]float64{{1280, 720}, {1920, 1080}, {3840, 2160}} {
		for _, graph := range []bool{false, true} {
			h := New("h", "g", nil)
			h.Handle(pc, 0)
			l := h.LayoutAround(size[0], size[1], NetGraphBox{Shown: graph})
			boxes := l.Boxes()
			want := 8
			if graph {
				want = 9
			}
			if len(boxes) != want {
				t.Fatalf("%v graph %v: %d boxes %v", size, graph, len(boxes), boxes)
			}
			for a, ra := range boxes {
				if ra.X < 0 || ra.Y < 0 || ra.X+ra.W > size[0] || ra.Y+ra.H > size[1] {
					t.Errorf("%v: %s %+v outside the window", size, a, ra)
				}
				for b, rb := range boxes {
					if a < b && ra.Intersects(rb) {
						t.Errorf("%v graph %v: %s %+v intersects %s %+v", size, graph, a, ra, b, rb)
					}
				}
			}
			// The fixed radar: 150 px square 1 % from the right, 35 px down.
			radar := Rect{X: size[0] - 0.01*size[0] - 150, Y: 35, W: 150, H: 150}
			if !holds(l.Fixed, radar) {
				t.Errorf("%v: fixed corner %+v does not hold the radar %+v", size, l.Fixed, radar)
			}
			if graph && (l.NetGraph.Intersects(radar) || l.NetGraph.Intersects(l.Panel) || l.NetGraph.X+l.NetGraph.W > size[0]) {
				t.Errorf("%v: net graph %+v covers the game's boxes", size, l.NetGraph)
			}
		}
	}
}

func holds(outer, inner Rect) bool {
	return inner.X >= outer.X && inner.Y >= outer.Y && inner.X+inner.W <= outer.X+outer.W && inner.Y+inner.H <= outer.Y+outer.H
}

func TestLayoutFixedFromTheRenderer(t *testing.T) {
	h := New("h", "g", nil)
	if l := h.Layout(1280, 720); l.Fixed.W != 0 {
		t.Fatalf("no fixed canvas, corner %+v", l.Fixed)
	}
	h.SetFixed([]Rect{{X: 1000, Y: 40, W: 200, H: 100}})
	l := h.LayoutAround(1280, 720, NetGraphBox{Shown: true})
	if l.Fixed != (Rect{X: 994, Y: 34, W: 212, H: 112}) || l.NetGraph.Y < 146 {
		t.Fatalf("fixed %+v net graph %+v", l.Fixed, l.NetGraph)
	}
}

// The banner, the informer and the notices are centred on the window at
// every common size, radar or not.
func TestCentreBandIsCentred(t *testing.T) {
	for _, sz := range [][2]float64{{1280, 720}, {1366, 768}, {1920, 1080}, {800, 600}} {
		h := New("h", "g", nil)
		h.Config.Fixed = []CanvasSize{{W: 150, H: 150}}
		l := h.Layout(sz[0], sz[1])
		for name, r := range map[string]Rect{"banner": l.Banner, "inform": l.Inform, "notices": l.Notices} {
			if c := r.X + r.W/2; math.Abs(c-sz[0]/2) > 1e-9 || r.W <= 0 {
				t.Errorf("%v: %s band %+v centred at %v, want %v", sz, name, r, c, sz[0]/2)
			}
		}
	}
}
