package camera

import (
	"math"
	"testing"
)

// Worked table of the camera's zoom: engine defaults, 1920x1080, baseScale 5,
// reset at x = 0, then +2 u per call.
func TestWorkedTable(t *testing.T) {
	want := map[int][6]float64{ // tick: x, avgDx, ox, zm, camX, scale
		1:   {2, 0.300000, 0.072000, 0.999250, 2.072000, 4.996250},
		2:   {4, 0.555000, 0.204624, 0.997866, 4.204624, 4.989331},
		3:   {6, 0.771750, 0.388207, 0.995948, 6.388207, 4.979738},
		10:  {20, 1.606251, 2.545021, 0.982296, 22.545021, 4.911478},
		60:  {120, 1.999884, 21.170277, 0.897545, 141.170277, 4.487727},
		300: {600, 2.000000, 54.351053, 0.689350, 654.351053, 3.446748},
		600: {1200, 2.000000, 59.492461, 0.619862, 1259.492461, 3.099309},
	}
	c := New(DefaultTuning(), func() float64 { return 0.5 })
	c.Update(0, 0, true, "", 0)
	const currentScale = 5.0
	for tick := 1; tick <= 600; tick++ {
		x := float64(2 * tick)
		c.Update(x, 0, false, "", float64(tick)*16)
		w, ok := want[tick]
		if !ok {
			continue
		}
		v := c.ViewFor(true, false)
		ox, _ := c.Offset()
		got := [6]float64{x, c.AvgDx(), ox, c.Zoom(), v.CamX, currentScale * v.Zoom}
		for i := range got {
			if math.Abs(got[i]-w[i]) > 5e-6 {
				t.Errorf("tick %d column %d: got %.6f want %.6f", tick, i, got[i], w[i])
			}
		}
		if tick == 1 {
			stageX := 1920/2 - v.CamX*currentScale*v.Zoom
			if math.Abs(stageX-949.6478) > 1e-4 {
				t.Errorf("tick 1 stageX %.4f want 949.6478", stageX)
			}
		}
	}
}

func TestShakeDecaysLinearly(t *testing.T) {
	// A random source returning 1-eps gives offsets at the bound.
	c := New(DefaultTuning(), func() float64 { return 1 - 1e-12 })
	c.Update(0, 0, true, "20:200", 0)
	check := func(now, bound float64) {
		t.Helper()
		c.Update(0, 0, false, "", now)
		on, sx, sy := c.Shaking()
		if bound == 0 {
			if on || sx != 0 || sy != 0 {
				t.Fatalf("t=%v: shake still on (%v,%v)", now, sx, sy)
			}
			return
		}
		if math.Abs(sx-bound) > 1e-6 || math.Abs(sy-bound) > 1e-6 {
			t.Fatalf("t=%v: offset (%v,%v) want %v", now, sx, sy, bound)
		}
	}
	// The starting call itself is at full intensity.
	if _, sx, _ := c.Shaking(); math.Abs(sx-20) > 1e-6 {
		t.Fatalf("start offset %v want 20", sx)
	}
	check(50, 15)
	check(100, 10)
	check(200, 0)
	check(250, 0)
	// Shake applies only to canvases that ask for it.
	c.Update(0, 0, false, "30:400", 300)
	if v := c.ViewFor(false, false); v.CamX != 0 || v.CamY != 0 {
		t.Fatalf("non-shake canvas moved: %+v", v)
	}
	if v := c.ViewFor(false, true); v.CamX == 0 {
		t.Fatalf("shake canvas did not move")
	}
	// A reset cancels it.
	c.Update(0, 0, true, "", 310)
	if on, _, _ := c.Shaking(); on {
		t.Fatal("reset did not cancel the shake")
	}
}

func TestBadShakeIgnored(t *testing.T) {
	c := New(DefaultTuning(), func() float64 { return 0.9 })
	for _, s := range []string{"x", "1:", ":5", "NaN:100", "5:0", "5:-1", "5:Inf"} {
		c.Update(0, 0, false, s, 0)
		if on, _, _ := c.Shaking(); on {
			t.Fatalf("%q started a shake", s)
		}
	}
}

func TestSanitize(t *testing.T) {
	zero, big, neg := 0.0, 7.0, -1.0
	got := RawTuning{MaxZoomOut: &zero, ZoomOutFactor: &big, SmoothnessPosition: &neg}.Sanitize()
	want := Tuning{LookAheadFactor: 0, ZoomOutFactor: 1, MaxZoomOut: 1, SmoothnessPosition: 0, SmoothnessZoom: 0.005, SmoothnessVelocity: 0.1}
	if got != want {
		t.Fatalf("got %+v want %+v", got, want)
	}
	if dz := DefaultTuning().DeadZone(); math.Abs(dz-0.5/30) > 1e-12 {
		t.Fatalf("dead zone %v", dz)
	}
}

func TestDeadZoneKeepsCameraStill(t *testing.T) {
	c := New(DefaultTuning(), func() float64 { return 0 })
	c.Update(0, 0, true, "", 0)
	for i := 1; i <= 100; i++ {
		c.Update(float64(i)*0.01, 0, false, "", 0) // 0.01 u per call < dead zone
	}
	if c.AvgDx() != 0 || c.Zoom() != 1 {
		t.Fatalf("sub-dead-zone motion moved the camera: avg %v zoom %v", c.AvgDx(), c.Zoom())
	}
}

func FuzzShake(f *testing.F) {
	f.Add("20:200")
	f.Add("1e308:1e-308")
	f.Add("-5:10")
	f.Fuzz(func(t *testing.T, s string) {
		c := New(DefaultTuning(), func() float64 { return 0.99 })
		for i := range 5 {
			c.Update(1, 2, i == 0, s, float64(i)*16)
			v := c.ViewFor(true, true)
			if math.IsNaN(v.CamX) || math.IsNaN(v.CamY) || math.IsNaN(v.Zoom) {
				t.Fatalf("%q: NaN view %+v", s, v)
			}
		}
	})
}

// SetMaxOffset bounds the look-ahead's length in any direction; 0 lifts it.
func TestMaxOffset(t *testing.T) {
	c := New(DefaultTuning(), func() float64 { return 0.5 })
	c.SetMaxOffset(50)
	x, y := 0.0, 0.0
	for range 2000 {
		x, y = x+6, y+8
		c.Update(x, y, false, "", 0)
		if ox, oy := c.Offset(); math.Hypot(ox, oy) > 50+1e-9 {
			t.Fatalf("offset (%v, %v) past 50", ox, oy)
		}
	}
	if ox, oy := c.Offset(); math.Hypot(ox, oy) < 49 || math.Abs(ox/oy-0.75) > 1e-6 {
		t.Fatalf("offset (%v, %v): want 50 units along the motion", ox, oy)
	}
	c.SetMaxOffset(0)
	for range 500 {
		x, y = x+6, y+8
		c.Update(x, y, false, "", 0)
	}
	if ox, oy := c.Offset(); math.Hypot(ox, oy) < 100 {
		t.Fatalf("offset (%v, %v) still bounded", ox, oy)
	}
}
