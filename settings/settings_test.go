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
	f.Fuzz(func(t *testing.T, b []byte) {
		s, _ := Parse(b)
		if s.MasterVolume < 0 || s.MasterVolume > 1 || s.HUDScale < 0.75 || s.HUDScale > 2 ||
			(s.Palette != PaletteStandard && s.Palette != PaletteColorBlind) || len(s.Pads) > maxGames {
			t.Fatalf("out of range: %+v", s)
		}
	})
}
