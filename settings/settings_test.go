package settings

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadSaveRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vimpclient", "settings.json")
	s, problems, err := Load(path)
	if err != nil || len(problems) != 0 || !reflect.DeepEqual(s, Default()) {
		t.Fatalf("missing file: %+v %v %v", s, problems, err)
	}
	s.MasterVolume, s.Fullscreen, s.Palette, s.HUDScale = 0.4, true, PaletteColorBlind, 1.5
	s.Pads = map[string]map[string][]string{"tanks": {"rt": {"fire"}}}
	if err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	got, problems, err := Load(path)
	if err != nil || len(problems) != 0 || !reflect.DeepEqual(got, s) {
		t.Fatalf("round trip: %+v %v %v", got, problems, err)
	}
}

// Each bad value falls back on its own, named in the problems.
func TestBadValuesFallBack(t *testing.T) {
	s, problems := Parse([]byte(`{"masterVolume": 7, "effectsVolume": 0.5, "vsync": "yes", "palette": "neon", "hudScale": 1.25,
		"pads": {"tanks": {"rt": ["fire"], "a": [""]}}}`))
	if s.MasterVolume != 1 || s.EffectsVolume != 0.5 || !s.Vsync || s.Palette != PaletteStandard || s.HUDScale != 1.25 {
		t.Fatalf("%+v", s)
	}
	if len(s.Pads["tanks"]) != 1 {
		t.Fatalf("pads %v", s.Pads)
	}
	joined := strings.Join(problems, "; ")
	for _, key := range []string{"masterVolume", "vsync", "palette", "pads.tanks.a"} {
		if !strings.Contains(joined, key) {
			t.Errorf("no problem named %s in %q", key, joined)
		}
	}
	if s, p := Parse([]byte("[1,2]")); !reflect.DeepEqual(s, Default()) || len(p) != 1 {
		t.Fatalf("not an object: %+v %v", s, p)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"masterVolume":0.3,"pads":{"g":{"a":["x"]}}}`))
	f.Add([]byte(`{"hudScale":1e309}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"window":{"w":1366,"h":768,"x":10,"y":-20}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, _ := Parse(b)
		if s.MasterVolume < 0 || s.MasterVolume > 1 || (s.HUDScale != HUDScaleAuto && (s.HUDScale < 0.75 || s.HUDScale > 2)) ||
			(s.Palette != PaletteStandard && s.Palette != PaletteColorBlind) || len(s.Pads) > maxGames ||
			(s.Window != nil && !s.Window.Valid()) {
			t.Fatalf("out of range: %+v", s)
		}
	})
}

// The window's last geometry comes back as saved; one no display could
// show is reported and not used.
func TestWindowGeometry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s := Default()
	s.Window = &Geometry{W: 1366, H: 768, X: 40, Y: 30}
	if err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	got, problems, err := Load(path)
	if err != nil || len(problems) != 0 || got.Window == nil || *got.Window != *s.Window {
		t.Fatalf("loaded %+v %v %v", got.Window, problems, err)
	}
	for _, bad := range []string{`{"window":{"w":10,"h":768}}`, `{"window":{"w":1280,"h":720,"x":99999}}`, `{"window":"big"}`} {
		got, problems := Parse([]byte(bad))
		if got.Window != nil || len(problems) != 1 || !strings.HasPrefix(problems[0], "window: ") {
			t.Errorf("%s: window %+v, problems %q", bad, got.Window, problems)
		}
	}
}

// Names are on by default, on in a file that predates them, and off only
// when the file says so.
func TestNamesOnByDefault(t *testing.T) {
	if !Default().Names {
		t.Fatal("names off by default")
	}
	if s, p := Parse([]byte(`{"vsync": false}`)); !s.Names || len(p) != 0 {
		t.Fatalf("a file without the key: names %v, %v", s.Names, p)
	}
	if s, p := Parse([]byte(`{"names": false}`)); s.Names || len(p) != 0 {
		t.Fatalf("names false: %v, %v", s.Names, p)
	}
	if s, p := Parse([]byte(`{"names": "no"}`)); !s.Names || len(p) != 1 {
		t.Fatalf("a bad value: names %v, %v", s.Names, p)
	}
}

// The night lighting is on by default, on in a file that predates it, and
// off only when the file says false.
func TestLightingOnByDefault(t *testing.T) {
	if !Default().Lighting {
		t.Fatal("lighting off by default")
	}
	if s, p := Parse([]byte(`{"vsync": false}`)); !s.Lighting || len(p) != 0 {
		t.Fatalf("a file without the key: lighting %v, %v", s.Lighting, p)
	}
	if s, p := Parse([]byte(`{"lighting": false}`)); s.Lighting || len(p) != 0 {
		t.Fatalf("lighting false: %v, %v", s.Lighting, p)
	}
	if s, p := Parse([]byte(`{"lighting": 0}`)); !s.Lighting || len(p) != 1 {
		t.Fatalf("a bad value: lighting %v, %v", s.Lighting, p)
	}
}
