package sounds

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/audio/mp3"
	"vimpclient/audio/synth"
	"vimpclient/testkit/capturetest"
)

// realCatalog is the parts.sounds block of a real tanks host's CONFIG_DATA:
// the union of tanks 0.13's and 0.22's (the embedded host speaks both).
func realCatalog(t *testing.T) (codecs []string, files map[string]bool) {
	t.Helper()
	files = map[string]bool{}
	for _, v := range []string{"0.13", "0.22"} {
		c, f := realCatalogOf(t, v)
		codecs = c
		for name := range f {
			files[name] = true
		}
	}
	return codecs, files
}

// realCatalogOf is the parts.sounds block of a real tanks host of version.
func realCatalogOf(t *testing.T, version string) (codecs []string, files map[string]bool) {
	return catalogIn(t, "real-tanks-"+version)
}

// catalogIn is the parts.sounds block of the CONFIG_DATA in captures/dir.
func catalogIn(t *testing.T, dir string) (codecs []string, files map[string]bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", dir, "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Parts struct {
			Sounds struct {
				CodecList []string `json:"codecList"`
				Sounds    map[string]struct {
					File string `json:"file"`
				} `json:"sounds"`
			} `json:"sounds"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	files = map[string]bool{}
	for _, s := range cfg.Parts.Sounds.Sounds {
		files[s.File] = true
	}
	return cfg.Parts.Sounds.CodecList, files
}

// Every file the real catalog names is served in every codec it lists,
// with its content type; webm files are WebM (EBML with the webm doctype)
// holding Opus.
func TestEveryRealCatalogFileIsServed(t *testing.T) {
	codecs, files := realCatalog(t)
	if len(codecs) == 0 || len(files) == 0 {
		t.Fatalf("catalog: codecs %v, files %v", codecs, files)
	}
	types := map[string]string{"mp3": "audio/mpeg", "webm": "audio/webm"}
	for f := range files {
		for _, c := range codecs {
			b, ct, ok := File(f + "." + c)
			if !ok || ct != types[c] {
				t.Errorf("%s.%s: served %v, type %q", f, c, ok, ct)
				continue
			}
			if c == "webm" && (!bytes.HasPrefix(b, []byte{0x1a, 0x45, 0xdf, 0xa3}) || !bytes.Contains(b, []byte("webm")) || !bytes.Contains(b, []byte("OpusHead"))) {
				t.Errorf("%s.webm is not Opus in WebM", f)
			}
		}
	}
}

// Every file a real snakes 0.15 host's catalog names (pickup plays shot,
// death plays death) is served in every codec it lists: the embedded
// snakes host, which sends that CONFIG_DATA, leaves no sound unanswered.
func TestEverySnakes015CatalogFileIsServed(t *testing.T) {
	codecs, files := catalogIn(t, "real-snakes-0.15")
	if len(codecs) != 2 || len(files) != 2 {
		t.Fatalf("catalog: codecs %v, files %v", codecs, files)
	}
	for f := range files {
		for _, c := range codecs {
			if _, _, ok := File(f + "." + c); !ok {
				t.Errorf("%s.%s not served", f, c)
			}
		}
	}
}

// Names that are not a served file are refused: another extension, no
// extension, a path.
func TestFileRefusesOtherNames(t *testing.T) {
	for _, name := range []string{"shot.wav", "shot", "../sounds.go", "files/shot.mp3", "nothing.mp3", ""} {
		if _, _, ok := File(name); ok {
			t.Errorf("%q served", name)
		}
	}
}

// Every mp3 decodes, with the client's decoder, to the effect it was made
// from: the same rate and length to the sample (the encoder's delay and
// padding trimmed, so loops stay gapless) and the same signal, 12 dB above
// the coding noise. A file left behind by a changed effect fails here.
func TestMP3sDecodeToTheSynthesisedEffects(t *testing.T) {
	for _, name := range synth.Names() {
		data, _, ok := File(name + ".mp3")
		if !ok {
			t.Errorf("%s.mp3 not served", name)
			continue
		}
		got, info, err := mp3.Decode(data)
		if err != nil {
			t.Errorf("%s.mp3: %v", name, err)
			continue
		}
		want, _ := synth.Render(name)
		if !info.Gapless || got.Rate != want.Rate || got.Channels != 1 || got.Frames() != want.Frames() {
			t.Errorf("%s.mp3: gapless %v, %d Hz × %d, %d frames; want gapless, %d Hz mono, %d frames",
				name, info.Gapless, got.Rate, got.Channels, got.Frames(), want.Rate, want.Frames())
			continue
		}
		var signal, noise float64
		for i, w := range want.Data {
			d := float64(got.Data[i] - w)
			signal += float64(w) * float64(w)
			noise += d * d
		}
		if snr := 10 * math.Log10(signal/noise); snr < 12 {
			t.Errorf("%s.mp3: %.1f dB above the coding noise, want 12", name, snr)
		}
	}
}
