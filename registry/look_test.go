package registry

import (
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"strconv"
	"testing"

	"vimpclient/host/snakesmatch"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/protocol"
)

// hudOut feeds what a match sends to user 1 into a HUD, as the session
// would: each JSON message decoded by its port and handled.
type hudOut struct {
	t     *testing.T
	h     *hud.HUD
	panel [][]protocol.PanelCell
}

func (o *hudOut) JSON(uid, port int, payload any) {
	if uid != 1 {
		return
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		o.t.Fatal(err)
	}
	v, err := protocol.DecodePayload(port, raw)
	if err != nil {
		return // a port the HUD does not read
	}
	if p, ok := v.(protocol.Panel); ok {
		o.panel = append(o.panel, p)
	}
	o.h.Handle(v, 0)
}

func (o *hudOut) Frame(int, []byte, bool) {}

func snakesGame(t *testing.T) Game {
	for _, g := range Default() {
		if g.ID == "snakes" {
			return g
		}
	}
	t.Fatal("no snakes in the registry")
	return Game{}
}

// The snakes look on what the embedded snakes host really sends: the panel
// shows eaten, kills and score and never the cells the game hides (carried
// crystals, the crash signal, the mode, the round time); a snake that runs
// straight into the arena's edge gets the result card with what it carried
// and its total, naming the respawn key, and the card goes once R brings
// the snake back.
func TestSnakesLookOnHostData(t *testing.T) {
	// Snakes 0.15 shows the score alone; 0.6 also what was eaten and the kills.
	for _, c := range []struct {
		dialect string
		cells   []string
	}{{snakesmatch.Dialect015, []string{"score"}}, {snakesmatch.Dialect06, []string{"eaten", "kills", "score"}}} {
		t.Run(c.dialect, func(t *testing.T) { snakesLookOnHostData(t, c.dialect, c.cells) })
	}
}

func snakesLookOnHostData(t *testing.T, dialect string, cells []string) {
	m, err := snakesmatch.New(snakesmatch.Config{Seed: 5, Dialect: dialect, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h := hud.New("local", "snakes", nil)
	out := &hudOut{t: t, h: h}
	m.SetOut(out)
	cfg, err := protocol.ParseConfig(m.ConfigData())
	if err != nil {
		t.Fatal(err)
	}
	h.Handle(cfg, 0)
	keys, _ := input.ConfigFrom(cfg)
	h.SetGameLook(snakesGame(t).Look, keys)
	if _, ok := m.Join(1, "Probe"); !ok {
		t.Fatal("join refused")
	}
	m.ModulesReady(1)
	m.MapReady(1)
	m.FirstShotReady(1)
	m.Vote(1, json.RawMessage(`["teamChange","players"]`))
	now := 1.7e12
	crashed := false
	// A new snake faces the centre: with no key it crosses the arena and
	// meets the far edge within a minute.
	for i := 0; i < 120*60 && !crashed; i++ {
		now += 1000.0 / 120
		m.Step(now)
		crashed = h.Crash.Shown
	}
	if !crashed {
		t.Fatal("no result card: the snake never crashed, or the card missed it")
	}
	shown := map[string]bool{}
	for _, c := range h.Panel.Cells {
		if c.Shown {
			shown[c.Field.Name] = true
		}
	}
	want := map[string]bool{}
	for _, c := range cells {
		want[c] = true
	}
	if !maps.Equal(shown, want) {
		t.Errorf("panel cells shown %v: want %v only", shown, cells)
	}
	// The card's figures are the host's: the last d (carried + 1) and s
	// it sent before the crash.
	var d, s float64 = -1, -1
	for _, p := range out.panel {
		for _, c := range p {
			v, err := strconv.ParseFloat(c.Value, 64)
			if err != nil || !c.Set {
				continue
			}
			switch c.Key {
			case "d":
				if v > 0 && d < 0 {
					d = v
				}
			case "s":
				if d < 0 {
					s = v
				}
			}
		}
	}
	if d < 1 || h.Crash.Carried != d-1 || h.Crash.Score != max(s, 0) || h.Crash.Key != "R" || h.Crash.Spec.Title != "You crashed" {
		t.Fatalf("card %+v, host sent d:%v s:%v", h.Crash, d, s)
	}
	m.Keys(1, "1:down:respawn")
	m.Keys(1, "2:up:respawn")
	for i := 0; i < 120 && h.Crash.Shown; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	if h.Crash.Shown {
		t.Fatal("the card stayed after the respawn")
	}
}

// The snakes card's noun agrees with the haul: one crystal, any other
// number of crystals.
func TestSnakesCardNounAgrees(t *testing.T) {
	var snakes *Game
	for i, g := range Default() {
		if g.ID == "snakes" {
			snakes = &Default()[i]
		}
	}
	if snakes == nil || snakes.Look.Crash == nil {
		t.Fatal("no snakes result card")
	}
	for haul, want := range map[float64]string{0: "crystals", 1: "crystal", 2: "crystals", 12: "crystals"} {
		c := hud.CrashCard{Spec: snakes.Look.Crash, Carried: haul}
		if got := c.Unit(); got != want {
			t.Errorf("a haul of %v: %q, want %q", haul, got, want)
		}
	}
}
