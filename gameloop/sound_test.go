package gameloop

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
	"vimpclient/clientcore"
	"vimpclient/host/match"
	hostsounds "vimpclient/host/sounds"
	"vimpclient/parts"
	"vimpclient/registry"
	"vimpclient/testkit/rowtest"
	"vimpclient/world"
)

// scriptedCore hands the world fixed hot data and, once, the frames set.
type scriptedCore struct {
	hot    clientcore.Hot
	frames []clientcore.EventFrame
}

func (c *scriptedCore) Sample(float64) *clientcore.Hot {
	c.hot.Flags &^= clientcore.HotFrames
	if len(c.frames) > 0 {
		c.hot.Flags |= clientcore.HotFrames
	}
	return &c.hot
}

func (c *scriptedCore) TakeFramesUpTo(int, int) []clientcore.EventFrame {
	f := c.frames
	c.frames = nil
	return f
}

func (c *scriptedCore) MyGameID() (uint8, bool) { return 0, false }

// TestExplosionPans drives a world with the embedded host's own CONFIG_DATA
// and the loop's sound adapter, with an explosion event to the left, then to
// the right of the listener, renders the mix offline and checks that the
// explosion is loud and on the side where it happened: the parts' sound
// path a headless session and the window share.
func TestExplosionPans(t *testing.T) {
	m, err := match.New(match.Config{Bots: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.ConfigData()
	var doc struct {
		Snapshot json.RawMessage
		Parts    json.RawMessage
		Modules  struct {
			CanvasManager json.RawMessage `json:"canvasManager"`
		}
	}
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
			if b, _, ok := hostsounds.File(name); ok {
				return b, nil
			}
			return nil, fmt.Errorf("%s: not found", path)
		}))
		<-loading.Done()
		snd := newPartSounds(sounds)
		w := world.New(world.Options{Log: quiet, Sounds: snd, Rand: func() float64 { return 0.5 },
			OnCamera: func(x, y, zoom float64) { sounds.SetListener(x, y); sounds.SetZoom(zoom) }})
		var pc parts.PartsConfig
		if err := json.Unmarshal(doc.Parts, &pc); err != nil {
			t.Fatal(err)
		}
		specs, tune, pointer, err := world.ParseCanvasManager(doc.Modules.CanvasManager)
		if err != nil {
			t.Fatal(err)
		}
		_, pg, ok := registry.Default().Pick("tanks", pc, w.Rand())
		if !ok {
			t.Fatal("the embedded host's config is not recognised as tanks")
		}
		if err := w.Configure(&world.Config{Schema: schema, Canvases: specs, Camera: tune, PointerCanvas: pointer, Parts: pc}, pg); err != nil {
			t.Fatal(err)
		}
		const lx, ly = 1000.0, 1000.0
		core := &scriptedCore{hot: clientcore.Hot{Flags: clientcore.HotCamera, Camera: [2]float32{lx, ly}}}
		w.SetCore(core)
		k := schema.Key("w2e")
		row := rowtest.Row(t, k, map[string]float64{"x": lx + side*400, "y": ly, "radius": 40})
		w.Tick(1000, 0) // listener placed
		core.frames = []clientcore.EventFrame{{Blocks: []clientcore.Block{{Schema: k, Rows: []clientcore.Row{{Fields: row}}}}}}
		w.Tick(1016, 16) // the explosion
		sounds.Tick()
		var l, r float64
		buf := make([]float32, 2*480)
		for i := 0; i < 40; i++ { // 400 ms
			w.Tick(1032+float64(i)*10, 10)
			sounds.Tick()
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
