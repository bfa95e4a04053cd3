package canvas

import (
	"encoding/json"
	"math"
	"testing"
)

func TestBaseScale(t *testing.T) {
	for in, want := range map[string]float64{"5:1": 5, "1:1": 1, "1:8": 0.13, "2:3": 0.67, "": 1, "3": 3, "1:3": 0.33} {
		got, err := ParseBaseScale(in)
		if err != nil || got != want {
			t.Errorf("%q: got %v, %v want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1:0", "x", "-1:2", "0:1"} {
		if _, err := ParseBaseScale(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// The browser client's canvas sizes for these windows.
func TestResizeTable(t *testing.T) {
	tanks := Spec{AspectA: 16, AspectB: 9, BaseScale: 5}
	cases := []struct{ sw, sh, w, h, scale float64 }{
		{1920, 1080, 1920, 1080, 5},
		{1366, 768, 1365, 768, 3.5546875},
		{1280, 1024, 1280, 720, 3.3333},
		{2560, 1440, 2560, 1440, 6.6667},
		{800, 600, 800, 450, 2.0833},
	}
	for _, c := range cases {
		got, ok := tanks.Resize(c.sw, c.sh)
		if !ok || got.W != c.w || got.H != c.h || math.Abs(got.CurrentScale-c.scale) > 5e-5 {
			t.Errorf("%vx%v: got %+v want %vx%v scale %v", c.sw, c.sh, got, c.w, c.h, c.scale)
		}
	}
	snakes := Spec{AspectA: 16, AspectB: 10, BaseScale: 1}
	if got, _ := snakes.Resize(1920, 1080); got.W != 1728 || got.H != 1080 || got.CurrentScale != 0.9 {
		t.Errorf("snakes: %+v", got)
	}
	radar := Spec{Fixed: true, FixW: 150, FixH: 150, BaseScale: 0.13}
	if got, _ := radar.Resize(800, 600); got.W != 150 || got.H != 150 || got.CurrentScale != 0.13 {
		t.Errorf("radar: %+v", got)
	}
	full := Spec{BaseScale: 1}
	if got, _ := full.Resize(1000, 500); got.W != 1000 || got.H != 500 {
		t.Errorf("full window: %+v", got)
	}
	for _, bad := range [][2]float64{{0, 100}, {100, -1}, {math.Inf(1), 100}, {math.NaN(), 10}} {
		if _, ok := tanks.Resize(bad[0], bad[1]); ok {
			t.Errorf("window %v resized", bad)
		}
	}
}

func TestParseSpecsKeepsOrder(t *testing.T) {
	raw := json.RawMessage(`{"vimp":{"width":960,"height":600,"aspectRatio":"16:9","baseScale":"5:1","dynamicCamera":true,"shakeCamera":true},
		"radar":{"width":150,"height":150,"fixSize":"150","baseScale":"1:8"}}`)
	specs, err := ParseSpecs(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 2 || specs[0].ID != "vimp" || specs[1].ID != "radar" {
		t.Fatalf("order: %+v", specs)
	}
	v, r := specs[0], specs[1]
	if v.AspectA != 16 || v.AspectB != 9 || v.BaseScale != 5 || !v.Dynamic || !v.Shake || v.Fixed {
		t.Errorf("vimp: %+v", v)
	}
	if !r.Fixed || r.FixW != 150 || r.FixH != 150 || r.BaseScale != 0.13 || r.Dynamic || r.Shake {
		t.Errorf("radar: %+v", r)
	}
	for _, bad := range []string{`[]`, `{"a":{"fixSize":"0"}}`, `{"a":{"aspectRatio":"16"}}`, `{"a":{"baseScale":"1:0"}}`, `{"a":`} {
		if _, err := ParseSpecs(json.RawMessage(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestStageAndConversion(t *testing.T) {
	// Tick 1 of the worked camera table: stageX = 949.6478, stageY = 540.
	st := StageFor(1920, 1080, 2.072, 0, 4.99625)
	if math.Abs(st.X-949.6478) > 1e-4 || st.Y != 540 {
		t.Fatalf("stage %+v", st)
	}
	sx, sy := st.ToScreen(2.072, 0)
	if math.Abs(sx-960) > 1e-9 || sy != 540 {
		t.Fatalf("camera point not at centre: %v,%v", sx, sy)
	}
	// The canvas is shown at half size in the window, offset by (100, 50).
	r := Rect{Left: 100, Top: 50, W: 960, H: 540}
	wx, wy, ok := ScreenToWorld(100+480, 50+270, r, 1920, 1080, st)
	if !ok || math.Abs(wx-2.072) > 1e-9 || math.Abs(wy) > 1e-9 {
		t.Fatalf("centre -> %v,%v,%v", wx, wy, ok)
	}
	if _, _, ok := ScreenToWorld(1, 1, Rect{}, 1920, 1080, st); ok {
		t.Fatal("zero rect converted")
	}
	if _, _, ok := (Stage{}).ToWorld(1, 1); ok {
		t.Fatal("zero scale converted")
	}
}

func FuzzParseSpecs(f *testing.F) {
	f.Add([]byte(`{"vimp":{"width":960,"height":600,"aspectRatio":"16:9","baseScale":"5:1","dynamicCamera":true},"radar":{"fixSize":"150","baseScale":"1:8"}}`))
	f.Add([]byte(`{"a":{"fixSize":"10:20","aspectRatio":"1:0"}}`))
	f.Add([]byte(`{"a":{"baseScale":"1e308:1e-308"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		specs, err := ParseSpecs(json.RawMessage(b))
		if err != nil {
			return
		}
		if len(specs) > MaxCanvases {
			t.Fatalf("%d canvases", len(specs))
		}
		for _, s := range specs {
			if !(s.BaseScale > 0) || math.IsInf(s.BaseScale, 0) {
				t.Fatalf("bad base scale %v", s.BaseScale)
			}
			for _, win := range [][2]float64{{1920, 1080}, {1, 1}, {7680, 4320}} {
				sz, ok := s.Resize(win[0], win[1])
				if !ok || !(sz.W >= 1) || !(sz.H >= 1) || math.IsNaN(sz.CurrentScale) {
					t.Fatalf("spec %+v at %v: %+v", s, win, sz)
				}
			}
		}
	})
}
