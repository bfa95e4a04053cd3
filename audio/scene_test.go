package audio

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"vimpclient/audio/mix"
	"vimpclient/audio/synth"
	"vimpclient/audio/wav"
)

// synthFetcher serves the project's own effects as the embedded host does: sounds/<file>.wav.
func synthFetcher() Fetcher {
	return FetchFunc(func(ctx context.Context, path string) ([]byte, error) {
		name, ok := strings.CutPrefix(path, "sounds/")
		name, ok2 := strings.CutSuffix(name, ".wav")
		if b, found := synth.WAV(name); ok && ok2 && found {
			return b, nil
		}
		return nil, fmt.Errorf("%s: not found", path)
	})
}

// A scripted tanks scene with the project's own sounds, rendered offline: a shot on the right,
// a shot on the left, an explosion ahead, and an engine loop passing from left to right. Set
// VIMP_AUDIO_SCENE to a file name to keep the render as a WAV for listening.
func TestScriptedSceneWithOwnSounds(t *testing.T) {
	cat, warns, err := ParseCatalog([]byte(synth.TanksCatalog))
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	mx := mix.New(mix.Options{Rate: rate})
	lg, _ := newLogger()
	m := NewManager(mx, Options{Logger: lg})
	<-m.Init(context.Background(), cat, synthFetcher()).Done()

	var all []float32
	window := func(from, to int) []float32 { return all[2*from*block : 2*to*block] }
	m.SetListener(500, 500)
	var engine ID
	for tick := 0; tick < 300; tick++ { // 3 s of 10 ms ticks
		switch tick {
		case 0:
			m.Register("shot", At(800, 500)) // 300 u to the right
		case 50:
			m.Register("shot", At(200, 500)) // 300 u to the left
		case 100:
			m.Register("explosion", At(500, 300)) // 200 u ahead
		case 285:
			m.PlaySystem("roundStart")
		}
		if tick >= 150 {
			x := 100 + float64(tick-150)*5.5 // crosses from x=100 to x≈920
			if engine == 0 {
				engine, _ = m.Register("tankEngine", At(x, 520))
			}
			m.Update(engine, At(x, 520).WithRate(1.1))
		}
		m.Tick()
		out := make([]float32, 2*block)
		mx.Mix(out)
		all = append(all, out...)
	}
	if path := os.Getenv("VIMP_AUDIO_SCENE"); path != "" {
		if err := os.WriteFile(path, wav.Encode(all, rate, 2), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lr := func(s []float32) (float64, float64) { return rms(s, 0), rms(s, 1) }
	if l, r := lr(window(0, 30)); !(r > 1.5*l) || r < 0.01 {
		t.Errorf("right shot: L %.4f R %.4f", l, r)
	}
	if l, r := lr(window(50, 80)); !(l > 1.5*r) || l < 0.01 {
		t.Errorf("left shot: L %.4f R %.4f", l, r)
	}
	if l, r := lr(window(100, 140)); math.Abs(l-r) > 0.02*l || l < 0.02 {
		t.Errorf("explosion ahead: L %.4f R %.4f (want centred and loud)", l, r)
	}
	if l, r := lr(window(155, 165)); !(l > r) {
		t.Errorf("engine on the left: L %.4f R %.4f", l, r)
	}
	if l, r := lr(window(250, 280)); !(r > l) {
		t.Errorf("engine on the right: L %.4f R %.4f", l, r)
	}
}

// The embedded host's CONFIG_DATA catalog parses cleanly, picks mp3 (the first codec it lists
// that the client decodes), and every file it names is one of the project's own effects.
func TestEmbeddedHostCatalogIsServedBySynth(t *testing.T) {
	raw, err := os.ReadFile("../host/match/config.json")
	if err != nil {
		t.Skipf("embedded host config not present: %v", err)
	}
	cat, warns, err := CatalogFromConfig(raw)
	if err != nil || len(warns) != 0 {
		t.Fatalf("%v %q", err, warns)
	}
	if codec, _ := cat.Codec(supportedCodecs()...); codec != "mp3" {
		t.Fatalf("codec %q", codec)
	}
	if len(cat.Sounds) == 0 {
		t.Fatal("no sounds")
	}
	for _, s := range cat.Sounds {
		if _, ok := synth.WAV(s.File); !ok {
			t.Errorf("%s: file %q is not a synth effect", s.Name, s.File)
		}
		if s.Loop != synth.Loop(s.File) {
			t.Errorf("%s: loop %v, effect loop %v", s.Name, s.Loop, synth.Loop(s.File))
		}
	}
}
