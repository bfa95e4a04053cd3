package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/audio/synth"
	"vimpclient/clientcore"
	"vimpclient/host/match"
)

// TestSoundSceneExplosionPans drives the headless sound scene with the
// embedded host's own CONFIG_DATA and an explosion event to the left, then
// to the right of the listener, renders the mix offline and checks that the
// explosion is loud and on the side where it happened.
func TestSoundSceneExplosionPans(t *testing.T) {
	m, err := match.New(match.Config{Bots: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.ConfigData()
	var doc struct{ Snapshot json.RawMessage }
	if err := json.Unmarshal(cfg, &doc); err != nil {
		t.Fatal(err)
	}
	schema, err := clientcore.ParseSchema(doc.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, side := range []float64{-1, 1} {
		mx := mix.New(mix.Options{})
		sounds := audio.NewManager(mx, audio.Options{Logger: quiet})
		cat, _, err := audio.CatalogFromConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		loading := sounds.Init(context.Background(), cat, audio.FetchFunc(func(ctx context.Context, path string) ([]byte, error) {
			name, _ := strings.CutPrefix(path, "sounds/")
			name, _ = strings.CutSuffix(name, ".wav")
			if b, ok := synth.WAV(name); ok {
				return b, nil
			}
			return nil, fmt.Errorf("%s: not found", path)
		}))
		<-loading.Done()
		core := clientcore.New(schema, clientcore.Options{})
		sc, err := newSoundScene(cfg, "tanks", sounds, newPartSounds(sounds), core.MyGameID, quiet)
		if err != nil {
			t.Fatal(err)
		}
		const lx, ly = 1000.0, 1000.0
		hot := clientcore.Hot{Flags: clientcore.HotCamera, Camera: [2]float32{lx, ly}}
		k := schema.Key("w2e")
		row := make([]float32, len(k.Fields))
		for i, f := range k.Fields {
			switch f.Name {
			case "x":
				row[i] = float32(lx + side*400)
			case "y":
				row[i] = ly
			case "radius":
				row[i] = 40
			}
		}
		ev := []clientcore.EventFrame{{Blocks: []clientcore.Block{{Schema: k, Rows: []clientcore.Row{{Fields: row}}}}}}
		sc.tick(1000, &hot, nil) // listener placed
		sc.tick(1016, &hot, ev)  // the explosion
		var l, r float64
		buf := make([]float32, 2*480)
		for i := 0; i < 40; i++ { // 400 ms
			sc.tick(1032+float64(i)*10, &hot, nil)
			clear(buf)
			mx.Mix(buf)
			for j := 0; j < len(buf); j += 2 {
				l += float64(buf[j] * buf[j])
				r += float64(buf[j+1] * buf[j+1])
			}
		}
		if l+r < 1 {
			t.Fatalf("side %v: explosion inaudible (energy %v)", side, l+r)
		}
		bal := (r - l) / (r + l)
		t.Logf("explosion %+v units across: energy %.1f, balance %+.2f", side*400, l+r, bal)
		if side*bal < 0.1 {
			t.Errorf("explosion on side %v has balance %+.2f", side, bal)
		}
	}
}
