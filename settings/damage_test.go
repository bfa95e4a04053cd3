package settings

import (
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/localfiletest"
)

// Settings that could not be read in full are set aside when the window
// saves, never written over with the defaults.
func TestDamagedSettingsAreSetAside(t *testing.T) {
	valid := []byte(`{"masterVolume": 0.3, "effectsVolume": 0.5, "fullscreen": true, "palette": "colorblind"}`)
	for _, d := range localfiletest.Damages() {
		t.Run(d.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			held := d.Write(t, path, valid)
			s, _, _ := Load(path)
			s.NetGraph = true
			if err := Save(path, s); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, held)
			back, problems, err := Load(path)
			if err != nil || len(problems) != 0 || !back.NetGraph {
				t.Fatalf("saved %+v %v %v", back, problems, err)
			}
			// Whole again: the next save sets nothing more aside.
			if err := Save(path, back); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, held)
		})
	}
	t.Run("wrong value", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "settings.json")
		held := []byte(`{"masterVolume": 0.3, "effectsVolume": "loud", "palette": "colorblind"}`)
		if err := os.WriteFile(path, held, 0o600); err != nil {
			t.Fatal(err)
		}
		s, problems, err := Load(path)
		if err != nil || len(problems) != 1 || s.MasterVolume != 0.3 || s.Palette != PaletteColorBlind {
			t.Fatalf("load %+v %v %v", s, problems, err)
		}
		if err := Save(path, s); err != nil {
			t.Fatal(err)
		}
		localfiletest.SetAside(t, path, held)
		if back, _, _ := Load(path); back.MasterVolume != 0.3 || back.Palette != PaletteColorBlind {
			t.Fatalf("the readable values were not kept: %+v", back)
		}
	})
	t.Run("intact", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(path, valid, 0o600); err != nil {
			t.Fatal(err)
		}
		s, _, _ := Load(path)
		if err := Save(path, s); err != nil {
			t.Fatal(err)
		}
		localfiletest.NotSetAside(t, path)
	})
}
