package spatial

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

// The worked topDown examples of the engine's spatial sound documentation
// (engine defaults, mono source).
func TestTopDownWorkedExamples(t *testing.T) {
	cases := []struct {
		name          string
		dx, dy, zoom  float64
		spread        float64
		x, y, z, d, g float64
		az, el        float64
		epL, epR      float64 // equal power
		aL, aR, aLam  float64 // HRTF approx A
		bL, bR        float64 // HRTF approx B
	}{
		{"1 centre", 0, 0, 1, 0, 0, -180, 0, 180, 1, 0, -90, 0.7071, 0.7071, 0.7071, 0.7071, 0, 0.7071, 0.7071},
		{"2 inside R", 20, 0, 1, 0.5, 10, -180, 0, 180.278, 1, 90, -86.820, 0, 1, 0.6872, 0.7265, 3.180, 0.3827, 0.9239},
		{"3 at R", 40, 0, 1, 1, 40, -180, 0, 184.391, 1, 90, -77.471, 0, 1, 0.6257, 0.7800, 12.529, 0.3827, 0.9239},
		{"4 far right", 600, 0, 1, 1, 600, -180, 0, 626.418, 0.342597, 90, -16.699, 0, 1, 0.1452, 0.9894, 73.301, 0.2588, 0.9659},
		{"5 ahead", 0, -300, 1, 1, 0, -180, -300, 349.857, 0.597178, 0, -30.964, 0.7071, 0.7071, 0.7071, 0.7071, 0, 0.7071, 0.7071},
		{"6 behind right", 300, 300, 1, 1, 300, -180, 300, 460.869, 0.460021, 135, -22.990, 0.3827, 0.9239, 0.4178, 0.9086, 40.613, 0.4402, 0.8979},
		{"7 front left", -150, -80, 1, 1, -150, -180, -80, 247.588, 0.823624, -61.928, -46.637, 0.9701, 0.2425, 0.8961, 0.4439, -37.290, 0.9011, 0.4336},
		{"8 zoomed out", 20, 0, 0.6, 0.216, 4.32, -300, 0, 300.031, 0.689578, 90, -89.175, 0, 1, 0.7020, 0.7122, math.NaN(), 0.3827, 0.9239},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := Default()
			l := Listener{X: 1000, Y: -500, Zoom: c.zoom}
			p := cfg.Place(l, l.X+c.dx, l.Y+c.dy)
			near(t, "spread", p.Spread, c.spread, 1e-9)
			near(t, "X", p.X, c.x, 1e-9)
			near(t, "Y", p.Y, c.y, 1e-9)
			near(t, "Z", p.Z, c.z, 1e-9)
			near(t, "D", p.D, c.d, 1e-3)
			near(t, "gain", p.Gain, c.g, 1e-4) // the worked examples round some gains in the 5th digit
			near(t, "az", p.Az, c.az, 1e-3)
			near(t, "el", p.El, c.el, 1e-3)

			ep := cfg
			ep.Panning = EqualPower
			g := ep.Pan(p, false)
			near(t, "equalpower L", float64(g.LL), c.epL, 1e-4)
			near(t, "equalpower R", float64(g.RL), c.epR, 1e-4)

			g = cfg.Pan(p, false) // default: HRTF approximation A
			near(t, "HRTF A L", float64(g.LL), c.aL, 1e-4)
			near(t, "HRTF A R", float64(g.RL), c.aR, 1e-4)
			if !math.IsNaN(c.aLam) {
				near(t, "lambda A", cfg.Lateral(p), c.aLam, 1e-3)
			}

			b := cfg
			b.Variant = HRTFBrowser
			g = b.Pan(p, false)
			near(t, "HRTF B L", float64(g.LL), c.bL, 1e-4)
			near(t, "HRTF B R", float64(g.RL), c.bR, 1e-4)
		})
	}
}

func TestBeyondMaxDistanceIsSilent(t *testing.T) {
	cfg := Default()
	l := Listener{Zoom: 1}
	if g := cfg.Voice(l, 1300, 0, false); g != (Gains{}) {
		t.Fatalf("source at 1300 u: gains %+v, want silence", g)
	}
	if g := cfg.Voice(l, 1200, 0, true); g != (Gains{}) {
		t.Fatalf("source at exactly maxDistance: gains %+v, want silence", g)
	}
	if g := cfg.Voice(l, 1199, 0, false); g.RL == 0 {
		t.Fatalf("source just inside maxDistance is silent")
	}
}

func TestOtherDistanceModels(t *testing.T) {
	cfg := Default()
	for _, c := range []struct {
		d, lin, exp float64
	}{{626.418, 0.6162, 0.3579}, {349.857, 0.8651, 0.6045}, {180, 1, 1}} {
		cfg.Distance = Linear
		near(t, "linear", cfg.DistanceGain(c.d), c.lin, 1e-4)
		cfg.Distance = Exponential
		near(t, "exponential", cfg.DistanceGain(c.d), c.exp, 1e-4)
	}
	cfg.RefDistance = 0
	for _, m := range []DistanceModel{Inverse, Exponential} {
		cfg.Distance = m
		if g := cfg.DistanceGain(100); g != 0 {
			t.Errorf("%v with refDistance 0: gain %v, want 0", m, g)
		}
	}
	cfg.Distance = Linear
	cfg.RefDistance, cfg.MaxDistance, cfg.RolloffFactor = 300, 300, 0.25
	near(t, "linear lo=hi", cfg.DistanceGain(1000), 0.75, 1e-12)
}

// The sideScroller and cockpit rows of the same worked examples (dx 100, dy −50).
func TestOtherProfiles(t *testing.T) {
	side := Default()
	side.Mode = SideScroller
	side.Panning = EqualPower
	p := side.Place(Listener{Zoom: 1}, 100, -50)
	near(t, "side X", p.X, 100, 1e-9)
	near(t, "side Y", p.Y, 10, 1e-9)
	near(t, "side Z", p.Z, -180, 1e-9)
	near(t, "side D", p.D, 206.155, 1e-3)
	near(t, "side g", p.Gain, 0.9730, 1e-4)
	near(t, "side az", p.Az, 29.055, 1e-3)
	near(t, "side el", p.El, 2.780, 1e-3)
	g := side.Pan(p, false)
	near(t, "side mono L", float64(g.LL), 0.5071, 1e-4)
	near(t, "side mono R", float64(g.RL), 0.8619, 1e-4)
	g = side.Pan(p, true)
	near(t, "side stereo LL", float64(g.LL), 0.8742, 1e-4)
	near(t, "side stereo RL", float64(g.RL), 0.4856, 1e-4)
	if g.LR != 0 || g.RR != 1 {
		t.Errorf("side stereo az>0: LR %v RR %v, want 0 and 1", g.LR, g.RR)
	}

	cock := Default()
	cock.Mode = Cockpit
	p = cock.Place(Listener{Zoom: 1}, 100, -50)
	near(t, "cockpit Y", p.Y, 50, 1e-9)
	near(t, "cockpit D", p.D, 211.896, 1e-3)
	near(t, "cockpit g", p.Gain, 0.9492, 1e-4)
	near(t, "cockpit el", p.El, 13.648, 1e-3)
	near(t, "cockpit lambda A", cock.Lateral(p), 28.160, 1e-3)
	g = cock.Pan(p, false)
	near(t, "cockpit A L", float64(g.LL), 0.5138, 1e-4)
	near(t, "cockpit A R", float64(g.RL), 0.8579, 1e-4)
	cock.Variant = HRTFBrowser
	near(t, "cockpit lambda B", cock.Lateral(p), 29.055, 1e-3)
	g = cock.Pan(p, false)
	near(t, "cockpit B L", float64(g.LL), 0.5071, 1e-4)
	near(t, "cockpit B R", float64(g.RL), 0.8619, 1e-4)
}

// The worked "final amplitude" example: tanks shot, volume 0.4, master 0.7, case 4.
func TestFinalAmplitudeExample(t *testing.T) {
	cfg := Default()
	g := cfg.Voice(Listener{Zoom: 1}, 600, 0, false).Scale(0.7 * 0.4)
	near(t, "HRTF A L", float64(g.LL), 0.01393, 5e-5)
	near(t, "HRTF A R", float64(g.RL), 0.09491, 5e-5)
	cfg.Panning = EqualPower
	g = cfg.Voice(Listener{Zoom: 1}, 600, 0, false).Scale(0.7 * 0.4)
	near(t, "equalpower L", float64(g.LL), 0, 1e-6)
	near(t, "equalpower R", float64(g.RL), 0.09593, 5e-5)
}

func TestStereoEqualPowerLeftAndCentre(t *testing.T) {
	g := equalPower(0, true)
	// centre: the stereo signal passes unchanged
	near(t, "LL", float64(g.LL), 1, 1e-6)
	near(t, "LR", float64(g.LR), 0, 1e-6)
	near(t, "RR", float64(g.RR), 1, 1e-6)
	g = equalPower(-90, true)
	// hard left: L = inL + inR, R = 0
	near(t, "LL", float64(g.LL), 1, 1e-6)
	near(t, "LR", float64(g.LR), 1, 1e-6)
	near(t, "RR", float64(g.RR), 0, 1e-6)
}

// The seed's promise: one continuous formula, no jump when a source crosses under the listener.
func TestGeometricHRTFIsContinuousUnderListener(t *testing.T) {
	cfg := Default()
	prev := cfg.Pan(cfg.Place(Listener{Zoom: 1}, -50, 0), false)
	for x := -49.5; x <= 50; x += 0.5 {
		g := cfg.Pan(cfg.Place(Listener{Zoom: 1}, x, 0), false)
		if math.Abs(float64(g.RL-prev.RL)) > 0.01 {
			t.Fatalf("right gain jumps by %v at x=%v", g.RL-prev.RL, x)
		}
		prev = g
	}
}

func TestZoomGuard(t *testing.T) {
	cfg := Default()
	for _, z := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		p := cfg.Place(Listener{Zoom: z}, 0, 0)
		near(t, "D with bad zoom", p.D, 180, 1e-9)
	}
}

func TestParseConfig(t *testing.T) {
	c, w, err := ParseConfig(nil)
	if err != nil || len(w) != 0 || c != Default() {
		t.Fatalf("no block: %+v %v %v", c, w, err)
	}
	c, w, err = ParseConfig(json.RawMessage(`{"mode":"sideScroller","virtualElevation":108,"innerRadius":5,"refDistance":-1,
		"maxDistance":0,"rolloffFactor":"x","distanceModel":"exponential","verticalFactor":0.5,"bogus":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != SideScroller || c.Panning != EqualPower || c.VirtualElevation != 108 || c.InnerRadius != 5 ||
		c.Distance != Exponential || c.VerticalFactor != 0.5 {
		t.Errorf("valid keys not taken: %+v", c)
	}
	if c.RefDistance != 200 || c.MaxDistance != 1200 || c.RolloffFactor != 0.9 {
		t.Errorf("invalid keys did not fall back: %+v", c)
	}
	if len(w) != 3 {
		t.Errorf("want 3 warnings (refDistance, maxDistance, rolloffFactor), got %q", w)
	}
	c, w, _ = ParseConfig(json.RawMessage(`{"mode":"isometric","panningModel":"binaural"}`))
	if c.Mode != TopDown || c.Panning != HRTF || len(w) != 2 {
		t.Errorf("bad enums: %+v %q", c, w)
	}
	c, _, _ = ParseConfig(json.RawMessage(`{"mode":"cockpit","panningModel":"equalpower"}`))
	if c.Mode != Cockpit || c.Panning != EqualPower {
		t.Errorf("explicit panning not kept: %+v", c)
	}
	if _, _, err = ParseConfig(json.RawMessage(`[1,2]`)); err == nil {
		t.Error("array block: no error")
	}
	_, w, _ = ParseConfig(json.RawMessage(`{"mode":"` + strings.Repeat("a", 5000) + `"}`))
	if len(w) != 1 || len(w[0]) > 200 {
		t.Errorf("long value not clipped in warning: %d bytes", len(w[0]))
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"mode":"topDown","virtualElevation":180,"innerRadius":40}`))
	f.Add([]byte(`{"mode":"cockpit","panningModel":"equalpower","distanceModel":"linear","maxDistance":1e308}`))
	f.Add([]byte(`{"refDistance":-0,"rolloffFactor":null}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, _, err := ParseConfig(raw)
		if err != nil {
			return
		}
		for _, v := range []float64{c.VirtualElevation, c.InnerRadius, c.VerticalFactor, c.RefDistance, c.RolloffFactor} {
			if !(v >= 0) || math.IsInf(v, 0) {
				t.Fatalf("invalid value accepted: %+v", c)
			}
		}
		if !(c.MaxDistance > 0) {
			t.Fatalf("maxDistance %v accepted", c.MaxDistance)
		}
		g := c.Voice(Listener{Zoom: 1}, 123, -45, true)
		for _, x := range []float32{g.LL, g.LR, g.RL, g.RR} {
			if x != x || x < 0 || x > 2 {
				t.Fatalf("gains %+v from %+v", g, c)
			}
		}
	})
}

func TestInterauralTimeDifference(t *testing.T) {
	near(t, "ITD at 90°", ITDSeconds(90), 0.0006558, 1e-6)
	near(t, "ITD at 0°", ITDSeconds(0), 0, 1e-12)
	cfg := Default()
	if g := cfg.Voice(Listener{Zoom: 1}, 600, 0, false); g.DelayL != 0 || g.DelayR != 0 {
		t.Fatal("delays without ITD enabled")
	}
	cfg.ITD = true
	g := cfg.Voice(Listener{Zoom: 1}, 600, 0, false) // case 4: λ 73.301°, source on the right
	near(t, "left ear delay", float64(g.DelayL), ITDSeconds(73.301), 1e-7)
	if g.DelayR != 0 {
		t.Fatal("near ear delayed")
	}
	g = cfg.Voice(Listener{Zoom: 1}, -600, 0, true)
	if g.DelayL != 0 || g.DelayR == 0 {
		t.Fatalf("source on the left: %+v", g)
	}
	cfg.Panning = EqualPower
	if g = cfg.Voice(Listener{Zoom: 1}, 600, 0, false); g.DelayL != 0 {
		t.Fatal("equal-power panning has no ITD")
	}
}
