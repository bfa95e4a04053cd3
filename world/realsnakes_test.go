package world

import (
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/registry"
	"vimpclient/testkit/capturetest"
)

// realSnakes015 reads a file of what a real snakes 0.15 host sends.
func realSnakes015(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-snakes-0.15", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The client takes a real snakes 0.15 CONFIG_DATA as the snakes game: the
// config parses without a problem, its schema compiles, its three part
// classes are recognised as snakes whether or not the host names the game,
// the game's client half builds from its prediction section (with the
// turn falloff and the spawn grace 0.15 added to the model), the one canvas
// comes up, and the world binds every key to the snakes parts with none
// falling back to the generic renderer. The arena's MAP_DATA goes onto it.
func TestWorldTakesTheRealSnakes015Config(t *testing.T) {
	cfg, err := protocol.ParseConfig(realSnakes015(t, "config-data.json"))
	if err != nil || len(cfg.Problems) != 0 {
		t.Fatalf("CONFIG_DATA: %v %v", err, cfg.Problems)
	}
	schema, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := parts.ParsePartsConfig(cfg.Parts)
	if err != nil {
		t.Fatal(err)
	}
	rnd := func() float64 { return 0.5 }
	if g, _, ok := registry.Default().Pick("", pc, rnd); !ok || g.ID != "snakes" {
		t.Fatalf("unannounced: picked %q %v, want snakes", g.ID, ok)
	}
	g, pg, ok := registry.Default().Pick("snakes", pc, rnd)
	if !ok {
		t.Fatal("the 0.15 part classes are not recognised as snakes")
	}
	if _, err := g.Client(schema, cfg.Prediction); err != nil {
		t.Fatalf("snakes client half: %v", err)
	}
	specs, tune, pointer, err := ParseCanvasManager(cfg.CanvasManager)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 1 || specs[0].ID != "vimp" {
		t.Fatalf("canvases %+v, want vimp alone", specs)
	}
	w := New(Options{Rand: rnd})
	if err := w.Configure(&Config{Schema: schema, Canvases: specs, Camera: tune, PointerCanvas: pointer, Parts: pc}, pg); err != nil {
		t.Fatal(err)
	}
	if fb := w.Fallbacks(); len(fb) != 0 {
		t.Errorf("parts fell back to the generic renderer: %v", fb)
	}
	d := w.Drawers()
	if len(d) != len(pc.EntitiesOnCanvas) || len(d) != 3 {
		t.Errorf("drawers %v, want one per class of the config's three", d)
	}
	for class, by := range d {
		if by != "snakes" {
			t.Errorf("%s drawn by %q, want the snakes parts", class, by)
		}
	}
	m, err := gamemap.Parse(realSnakes015(t, "maps/arena.json"))
	if err != nil {
		t.Fatalf("arena: %v", err)
	}
	w.SetMap(m)
	if w.Stage("vimp").Len() == 0 {
		t.Error("arena: nothing staged on vimp")
	}
}
