package audio

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/audio/spatial"
	"vimpclient/testkit/capturetest"
)

// A real tanks 0.22 host's sound catalog is taken whole: its codec list
// (webm first, mp3 the one this client decodes), every sound with its file,
// loop flag, volume and priority as the config gives them (read here with
// encoding/json alone), including the 0.22 sounds tankExplosion, propBreak,
// tankLanding and the tankWater loop, and the game's spatial block merged
// over the engine's defaults (virtualElevation 108, innerRadius 7.5).
func TestCatalogFromTheRealTanks022Config(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Parts struct {
			Sounds struct {
				CodecList []string `json:"codecList"`
				Spatial   struct {
					VirtualElevation, InnerRadius, RefDistance, MaxDistance float64
				} `json:"spatial"`
				Sounds map[string]struct {
					File             string
					Loop             bool
					Volume, Priority float64
				} `json:"sounds"`
			} `json:"sounds"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	want := raw.Parts.Sounds
	c, warns, err := CatalogFromConfig(b)
	if err != nil || len(warns) != 0 {
		t.Fatalf("%v %q", err, warns)
	}
	if codec, ok := c.Codec("mp3", "wav"); !ok || codec != "mp3" || len(c.Codecs) != len(want.CodecList) {
		t.Errorf("codecs %v, chosen %q", c.Codecs, codec)
	}
	if len(c.Sounds) != len(want.Sounds) || len(c.Sounds) != 14 {
		t.Errorf("%d sounds, want the config's %d", len(c.Sounds), len(want.Sounds))
	}
	for name, w := range want.Sounds {
		s, ok := c.Lookup(name)
		if !ok || s.File != w.File || s.Loop != w.Loop || s.Volume != w.Volume || s.Priority != w.Priority {
			t.Errorf("%s: %+v (found %v), want %+v", name, s, ok, w)
		}
	}
	for _, name := range []string{"tankExplosion", "propBreak", "tankLanding", "tankWater"} {
		if _, ok := c.Lookup(name); !ok {
			t.Errorf("no %s", name)
		}
	}
	sp, def := c.Spatial, spatial.Default()
	if sp.VirtualElevation != want.Spatial.VirtualElevation || sp.InnerRadius != want.Spatial.InnerRadius ||
		sp.RefDistance != want.Spatial.RefDistance || sp.MaxDistance != want.Spatial.MaxDistance ||
		sp.Mode != def.Mode || sp.VirtualElevation == def.VirtualElevation {
		t.Errorf("spatial %+v, want the config's %+v", sp, want.Spatial)
	}
}
