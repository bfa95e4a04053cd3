package input

import (
	"fmt"
	"strings"
	"testing"
)

// tanksKeys is the tanks game's controls: the spectator set, then the
// player set.
func tanksKeys() Config {
	return Config{
		KeySets: []map[int]string{
			{78: "nextPlayer", 80: "prevPlayer"},
			{87: "forward", 83: "back", 65: "left", 68: "right", 74: "fire", 75: "gunLeft", 76: "gunRight", 85: "gunCenter", 78: "nextWeapon", 80: "prevWeapon"},
		},
		Modes: map[int]Mode{9: ModeStat, 67: ModeChat, 77: ModeVote},
	}
}

func TestDefaultPadMap(t *testing.T) {
	m := DefaultPadMap(tanksKeys())
	want := map[PadControl]string{
		PadStickUp: "forward", PadUp: "forward", PadStickDown: "back", PadStickLeft: "left", PadStickRight: "right",
		PadRT: "fire", PadA: "fire", PadRB: "nextPlayer nextWeapon", PadLB: "prevPlayer prevWeapon",
		PadB: "gunCenter", PadX: "gunLeft", PadY: "gunRight",
	}
	for c, names := range want {
		if got := strings.Join(m[c], " "); got != names {
			t.Errorf("%v: %q, want %q", c, got, names)
		}
	}
	for c := PadControl(1); c < padControls; c++ {
		if n, err := PadControlByName(c.String()); err != nil || n != c {
			t.Errorf("%v does not parse back: %v %v", c, n, err)
		}
	}
	if _, err := PadControlByName("trigger"); err == nil {
		t.Error("an unknown control name parsed")
	}
}

// The stick drives like the keys: one down when it leaves the dead zone,
// one up when it comes back; the d-pad on the same command keeps it down;
// a shoulder sends the command of the active key set only; Start opens the
// vote menu.
func TestPadCommands(t *testing.T) {
	cfg := tanksKeys()
	ui := newFakeUI()
	c := NewController(cfg, ui, nil, nil)
	c.SetEnabled(true, 0)
	c.SetKeySet(1, 0)
	p := &Pad{Map: DefaultPadMap(cfg)}
	var s PadState
	s.SetStick(0, -0.9)
	p.Update(c, &s, 1280, 720, 1)
	p.Update(c, &s, 1280, 720, 2)
	eq(t, c.Drain(), `[5,"1:down:forward"]`)
	s.Down[PadUp] = true
	p.Update(c, &s, 1280, 720, 3)
	s.SetStick(0, -0.1) // the stick back, the d-pad still held
	p.Update(c, &s, 1280, 720, 4)
	eq(t, c.Drain())
	s.Down[PadUp] = false
	p.Update(c, &s, 1280, 720, 5)
	eq(t, c.Drain(), `[5,"2:up:forward"]`)
	s.Down[PadRB] = true
	p.Update(c, &s, 1280, 720, 6)
	s.Down[PadRB] = false
	p.Update(c, &s, 1280, 720, 7)
	eq(t, c.Drain(), `[5,"3:down:nextWeapon"]`, `[5,"4:up:nextWeapon"]`)
	s.Down[PadStart] = true
	p.Update(c, &s, 1280, 720, 8)
	if !ui.open[ModeVote] {
		t.Fatalf("Start did not open the vote menu: %v", ui.calls)
	}
	s = PadState{}
	s.Down[PadRT] = true
	p.Update(c, &s, 1280, 720, 9)
	p.Release(c, 1280, 720, 10)
	if got := fmt.Sprint(texts(c.Drain())); got != `[[5,"5:down:fire"] [5,"6:up:fire"]]` {
		t.Fatalf("trigger and release: %s", got)
	}
}

// With a game pointer the right stick aims and the trigger presses it.
func TestPadAims(t *testing.T) {
	cfg := tanksKeys()
	cfg.Pointer = &PointerConfig{DoubleTapMs: 300, DoubleTapPx: 24, SendIntervalMs: 0}
	c := NewController(cfg, newFakeUI(), nil, func(x, y float64) (float64, float64, bool) { return x, y, true })
	c.SetEnabled(true, 0)
	c.SetKeySet(1, 0)
	p := &Pad{Map: DefaultPadMap(cfg)}
	s := PadState{AimX: 1}
	p.Update(c, &s, 1000, 500, 100)
	s.Down[PadRT] = true
	p.Update(c, &s, 1000, 500, 200)
	out := strings.Join(texts(c.Drain()), " ")
	if !strings.Contains(out, ":aim:700:250:1") || strings.Contains(out, "fire") {
		t.Fatalf("aim messages %s", out)
	}
}

// The player's gamepad bindings replace the derived ones for the controls
// they name; what cannot be applied is skipped and said.
func TestPadOverrides(t *testing.T) {
	cfg := tanksKeys()
	m, problems := DefaultPadMap(cfg).WithOverrides(cfg, map[string][]string{
		"y": {"fire"}, "rb": {"nextPlayer", "gunCenter"}, "a": {}, "start": {"fire"}, "paddle": {"fire"}, "x": {"jump"},
	})
	if got := strings.Join(m[PadY], " "); got != "fire" {
		t.Errorf("y %q", got)
	}
	if got := strings.Join(m[PadRB], " "); got != "nextPlayer gunCenter" {
		t.Errorf("rb %q", got)
	}
	if _, ok := m[PadA]; ok {
		t.Errorf("a still bound: %v", m[PadA])
	}
	if _, ok := m[PadX]; ok {
		t.Errorf("x bound to %v though its one command is unknown", m[PadX])
	}
	if got := fmt.Sprint(m.Controls("fire")); got != "[y rt]" {
		t.Errorf("fire on %s", got)
	}
	if len(problems) != 3 {
		t.Errorf("problems %q", problems)
	}
	// The derived map itself is untouched.
	if d := DefaultPadMap(cfg); strings.Join(d[PadA], " ") != "fire" {
		t.Errorf("default a %v", d[PadA])
	}
	if got := fmt.Sprint(cfg.Commands(0), cfg.Keys(1, "fire"), cfg.Offers("gunLeft"), cfg.Offers("jump")); got != "[nextPlayer prevPlayer] [74] true false" {
		t.Errorf("config queries %s", got)
	}
}

// Rebinding a key while it is held sends the up of the command it pressed,
// and the new key presses the command from then on.
func TestRebindReleasesHeldKeys(t *testing.T) {
	cfg := tanksKeys()
	c := NewController(cfg, newFakeUI(), nil, nil)
	c.SetEnabled(true, 0)
	c.SetKeySet(1, 0)
	c.KeyDown(74, 1) // J: fire
	eq(t, c.Drain(), `[5,"1:down:fire"]`)
	moved, _ := cfg.WithBindings(Binding{"fire": {32}})
	c.Rebind(moved, 2)
	eq(t, c.Drain(), `[5,"2:up:fire"]`)
	c.KeyUp(74, 3)
	c.KeyDown(74, 4) // J is no longer fire
	c.KeyDown(32, 5)
	eq(t, c.Drain(), `[5,"3:down:fire"]`)
}
