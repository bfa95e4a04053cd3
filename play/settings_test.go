package play

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"vimpclient/hud/settingsmenu"
	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/settings"
)

// keyRecorder is a controller's sender that keeps the commands it sends.
type keyRecorder struct{ down []string }

func (r *keyRecorder) Key(action protocol.KeyAction, command string) (uint32, error) {
	if action == protocol.KeyDown {
		r.down = append(r.down, command)
	}
	return uint32(len(r.down)), nil
}

func (r *keyRecorder) Aim(x, y float64, flags uint8) (uint32, error) { return 0, nil }

// A key rebound in the start screen's settings overlay, before any match,
// is saved, and a client started afterwards from the files plays with it:
// Fire of Tanks bound to Space, the next offline tanks match (whose game
// is known only once its host answered) fires on Space.
func TestSavedRebindFiresInANewClient(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	path, err := input.BindingsPath()
	if err != nil {
		t.Fatal(err)
	}
	menu := settingsmenu.New(settings.Default(), nil)
	loaded := []string{}
	menu.OfferGames(bindableGames(slog.New(slog.DiscardHandler)), func(game string) input.Binding {
		loaded = append(loaded, game)
		b, _ := input.LoadBindings(path, game)
		return b
	})
	menu.ChooseGame() // as the start screen opens the overlay: no match gives a game
	menu.Toggle()
	if menu.Game() != "tanks" || len(loaded) != 1 {
		t.Fatalf("the start screen's overlay binds %q (read %v), want tanks first", menu.Game(), loaded)
	}
	for range len(menu.Rows) {
		if r := menu.Rows[menu.Focus]; r.Kind == settingsmenu.RowKey && r.Label == "Fire" {
			break
		}
		menu.Key(40)
	}
	menu.Key(13)
	menu.Key(32) // Space
	if menu.TakeChanges()&settingsmenu.ChangeKeys == 0 {
		t.Fatal("binding Space changed no keys")
	}
	if err := input.SaveBindings(path, menu.Game(), menu.Bindings()); err != nil { // as the window saves them
		t.Fatal(err)
	}
	// The rest of the overlay's settings: a volume, the HUD scale, a
	// gamepad button, saved as the window saves them.
	focusRow(t, menu, settingsmenu.RowSlider, "Master volume")
	menu.Key(37) // 95 %
	focusRow(t, menu, settingsmenu.RowSlider, "HUD scale")
	menu.Key(39) // Auto → 0.75×
	menu.Key(39) // 1×
	focusRow(t, menu, settingsmenu.RowPad, "Fire")
	menu.Key(13)
	menu.Pad(input.PadRB)
	prefsPath, err := settings.Path()
	if err != nil {
		t.Fatal(err)
	}
	if err := settings.Save(prefsPath, menu.S); err != nil {
		t.Fatal(err)
	}
	// A new client starts from the files.
	prefs, _, notice := loadSettings(slog.New(slog.DiscardHandler))
	if notice != "" || prefs.MasterVolume != 0.95 || prefs.HUDScale != 1 {
		t.Fatalf("settings read back: volume %v, HUD scale %v (%q)", prefs.MasterVolume, prefs.HUDScale, notice)
	}
	next := settingsmenu.New(*prefs, nil)
	next.SetGame("tanks", bindableGames(slog.New(slog.DiscardHandler))[0].Keys, nil)
	if cmds := next.PadMap()[input.PadRB]; len(cmds) == 0 || cmds[0] != "fire" {
		t.Fatalf("the right bumper carries %v after a restart, want fire", cmds)
	}

	p := &Config{Set: Values{}, AssetCache: "-", Nick: "Tester", Bots: 0}
	conn, err := newConnection(p, "window", "offline", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.rec.Close()
	mm := &matchMaker{p: p, conn: conn}
	off := &offlineHost{p: p, stderr: io.Discard}
	defer off.stop()
	m, err := mm.offline(context.Background(), off, "tanks")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	untilPlaying(t, m)
	l := m.Loop()
	c := l.Controller()
	if c == nil {
		t.Fatal("no controller once playing")
	}
	if got := c.Config().KeySets[1][32]; got != "fire" {
		t.Fatalf("Space is %q in the new client, want fire (bindings %v)", got, l.Bindings())
	}
	rec := &keyRecorder{}
	c.SetSender(rec)
	c.SetEnabled(true, 0)
	c.SetKeySet(1, 0) // the tank's keys, as the host's KEYSET_DATA gives them
	c.KeyDown(32, 1)
	if len(rec.down) != 1 || rec.down[0] != "fire" {
		t.Fatalf("Space sent %v, want fire", rec.down)
	}
}

// focusRow moves the overlay's focus to the row labelled label of kind.
func focusRow(t *testing.T, m *settingsmenu.Menu, kind settingsmenu.RowKind, label string) {
	t.Helper()
	for range len(m.Rows) {
		if r := m.Rows[m.Focus]; r.Kind == kind && r.Label == label {
			return
		}
		m.Key(40)
	}
	t.Fatalf("no row %q", label)
}
