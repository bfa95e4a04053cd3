package window

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host/match"
	"vimpclient/hud"
	"vimpclient/hud/settingsmenu"
	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/settings"
)

// volumeLog records what the overlay's volumes are set to.
type volumeLog struct{ master, effects []float64 }

func (v *volumeLog) SetMasterVolume(x float64)  { v.master = append(v.master, x) }
func (v *volumeLog) SetEffectsVolume(x float64) { v.effects = append(v.effects, x) }

// The overlay's changes reach what they change at once and are saved: the
// volumes the sound, the palette the loop's HUD, a key binding the
// controller and the bindings file, the rest the settings file; the saved
// settings come back at the next start.
func TestSettingsOverlayAppliesAndSaves(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	m, err := match.New(match.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := protocol.ParseConfig(m.ConfigData())
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Logger: quietLog()})
	now := time.Unix(100, 0)
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quietLog(), Start: now, Interactive: true})
	loop.SetTarget(session.Target{Host: "h", GameID: "tanks"})
	sess.Queue().Push(session.Event{At: now, Kind: session.EventOpen})
	sess.Queue().Push(session.Event{At: now, Kind: session.EventMessage, Port: protocol.ConfigData, Msg: cfg})
	vols := &volumeLog{}
	o := Options{Log: quietLog(), SettingsPath: filepath.Join(dir, "settings.json"), BindingsPath: filepath.Join(dir, "keys.conf"), Sound: vols}
	var w *Window
	onMain(func() {
		if w, err = New(context.Background(), loop, nil, o); err != nil {
			t.Error(err)
		}
	})
	if w == nil {
		t.FailNow()
	}
	if len(vols.master) != 1 || vols.master[0] != 1 {
		t.Fatalf("start volumes %v", vols.master)
	}
	loop.Tick(now.Add(time.Second)) // CONFIG_DATA: the game's commands
	w.followGame()
	menu := w.menu
	menu.Toggle()
	menu.Key(37) // master volume 95 %
	w.applyMenu()
	if len(vols.master) != 2 || vols.master[1] != 0.95 {
		t.Fatalf("master volume applied %v", vols.master)
	}
	for range len(menu.Rows) { // to the team colours
		if menu.Rows[menu.Focus].Label == "Team colours" {
			break
		}
		menu.Key(40)
	}
	menu.Key(13)
	w.applyMenu()
	if loop.HUD().Palette() != hud.PaletteColorBlind {
		t.Fatalf("palette %q", loop.HUD().Palette())
	}
	for range len(menu.Rows) { // to fire's key
		if r := menu.Rows[menu.Focus]; r.Kind == settingsmenu.RowKey && r.Label == "Fire" {
			break
		}
		menu.Key(40)
	}
	menu.Key(13)
	menu.Key(32) // Space
	w.applyMenu()
	if got := loop.Controller().Config().KeySets[1][32]; got != "fire" {
		t.Fatalf("Space is %q", got)
	}
	keys, err := os.ReadFile(o.BindingsPath)
	if err != nil || !strings.Contains(string(keys), "[tanks]\nfire = Space\n") {
		t.Fatalf("bindings file %q %v", keys, err)
	}
	b, err := input.LoadBindings(o.BindingsPath, "tanks")
	if err != nil || len(b["fire"]) != 1 || b["fire"][0] != 32 {
		t.Fatalf("bindings read back %v %v", b, err)
	}
	saved, problems, err := settings.Load(o.SettingsPath)
	if err != nil || len(problems) != 0 || saved.MasterVolume != 0.95 || saved.Palette != settings.PaletteColorBlind {
		t.Fatalf("saved %+v %v %v", saved, problems, err)
	}
	// The window's last size and position are kept with the settings.
	w.geom = settings.Geometry{W: 1366, H: 768, X: 12, Y: 34}
	w.saveGeometry()
	saved, problems, err = settings.Load(o.SettingsPath)
	if err != nil || len(problems) != 0 || saved.Window == nil || *saved.Window != w.geom || saved.MasterVolume != 0.95 {
		t.Fatalf("saved window %+v, settings %+v %v %v", saved.Window, saved, problems, err)
	}
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
