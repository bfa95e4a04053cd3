package audio

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vimpclient/audio/spatial"
	"vimpclient/testkit/capturetest"
)

func TestParseCatalogTanks(t *testing.T) {
	c, warns, err := ParseCatalog([]byte(tanksCatalog))
	if err != nil || len(warns) != 0 {
		t.Fatalf("%v %q", err, warns)
	}
	if codec, ok := c.Codec(supportedCodecs()...); !ok || codec != "wav" {
		t.Fatalf("codec %q", codec)
	}
	e, ok := c.Lookup("tankEngine")
	if !ok || e.File != "tank-engine" || !e.Loop || e.Volume != 0.5 || e.Priority != 50 {
		t.Fatalf("tankEngine %+v", e)
	}
	if c.Spatial != spatial.Default() {
		t.Fatal("no spatial block must give the defaults")
	}
}

func TestParseCatalogDefaultsAndFallbacks(t *testing.T) {
	c, warns, err := ParseCatalog([]byte(`{"sounds":{
		"a":{},
		"b":{"file":"../etc/passwd","volume":2,"priority":"high","loop":"yes"},
		"c d":{"file":"c-d"},
		"e f":{},
		"g":7,
		"h":{"volume":null}},
		"spatial":{"mode":"cockpit","innerRadius":-3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Codecs) != 2 || c.Codecs[0] != "webm" || c.Codecs[1] != "mp3" {
		t.Errorf("default codecList %v", c.Codecs)
	}
	if codec, _ := c.Codec(supportedCodecs()...); codec != "mp3" {
		t.Errorf("picked %q, want mp3", codec)
	}
	a, _ := c.Lookup("a")
	if a.File != "a" || a.Volume != 0.5 || a.Priority != 50 || a.Loop {
		t.Errorf("defaults %+v", a)
	}
	b, _ := c.Lookup("b")
	if b.File != "b" || b.Volume != 0.5 || b.Priority != 50 || b.Loop {
		t.Errorf("fallbacks %+v", b)
	}
	if cd, ok := c.Lookup("c d"); !ok || cd.File != "c-d" {
		t.Errorf("name with a space and a usable file: %+v %v", cd, ok)
	}
	for _, name := range []string{"e f", "g"} {
		if _, ok := c.Lookup(name); ok {
			t.Errorf("%q should be skipped", name)
		}
	}
	if c.Spatial.Mode != spatial.Cockpit || c.Spatial.InnerRadius != 40 {
		t.Errorf("spatial %+v", c.Spatial)
	}
	// b: file, volume, priority, loop; e f: no file; g: not an object; spatial innerRadius
	if h, _ := c.Lookup("h"); h.Volume != 0.5 {
		t.Errorf("null volume: %+v", h)
	}
	if len(warns) != 7 {
		t.Errorf("%d warnings:\n%s", len(warns), strings.Join(warns, "\n"))
	}
	if _, _, err := ParseCatalog([]byte(`"sounds"`)); err == nil {
		t.Error("a string is not a catalog")
	}
	if c, _, err := ParseCatalog([]byte(`{}`)); err != nil || len(c.Sounds) != 0 {
		t.Error("empty block (the minigame capture's parts.sounds) must give an empty catalog")
	}
}

// The upstream mini-game's CONFIG_DATA (port 0) carries "sounds": {} under parts.
func TestCatalogFromCapturedConfig(t *testing.T) {
	f, err := os.Open(filepath.Join(capturetest.SharedDir(t), "captures", "minigame-dedicated.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	for dec.More() {
		var line struct {
			Dir     string          `json:"dir"`
			Kind    string          `json:"kind"`
			Port    *int            `json:"port"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := dec.Decode(&line); err != nil {
			t.Fatal(err)
		}
		if line.Dir != "s2c" || line.Kind != "json" || line.Port == nil || *line.Port != 0 {
			continue
		}
		c, warns, err := CatalogFromConfig(line.Payload)
		if err != nil || len(warns) != 0 {
			t.Fatalf("%v %q", err, warns)
		}
		if len(c.Sounds) != 0 || c.Spatial != spatial.Default() || len(c.Codecs) != 2 {
			t.Fatalf("captured catalog %+v", c)
		}
		return
	}
	t.Fatal("no CONFIG_DATA in the capture")
}

func TestParseSoundData(t *testing.T) {
	if n, err := ParseSoundData([]byte(`"roundStart"`)); err != nil || n != "roundStart" {
		t.Fatal(n, err)
	}
	for _, bad := range []string{``, `null`, `""`, `12`, `"a\u0000b"`, `"` + strings.Repeat("x", 100) + `"`} {
		if _, err := ParseSoundData([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseCatalog(f *testing.F) {
	f.Add([]byte(tanksCatalog))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"codecList":[],"sounds":{"a":{"file":"..","volume":-1}},"spatial":{"mode":1}}`))
	f.Add([]byte(`{"codecList":["MP3","we bm"],"sounds":{"x":{"loop":true,"priority":1e999}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, _, err := ParseCatalog(raw)
		if err != nil {
			return
		}
		if len(c.Sounds) > MaxSounds || len(c.Codecs) > MaxCodecs {
			t.Fatalf("limits exceeded: %d sounds %d codecs", len(c.Sounds), len(c.Codecs))
		}
		for i, s := range c.Sounds {
			if !safeName(s.File) || !(s.Volume >= 0 && s.Volume <= 1) || s.Priority != s.Priority {
				t.Fatalf("invalid entry accepted: %+v", s)
			}
			if i > 0 && c.Sounds[i-1].Name >= s.Name {
				t.Fatal("sounds not sorted")
			}
			if got, ok := c.Lookup(s.Name); !ok || got != s {
				t.Fatalf("lookup %q", s.Name)
			}
		}
	})
}

func FuzzParseSoundData(f *testing.F) {
	f.Add([]byte(`"shot"`))
	f.Add([]byte(`"\ud800"`))
	f.Add([]byte(`["shot"]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		name, err := ParseSoundData(raw)
		if err == nil && !validName(name) {
			t.Fatalf("invalid name %q accepted", name)
		}
	})
}
