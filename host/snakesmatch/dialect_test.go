package snakesmatch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"vimpclient/host/match"
	"vimpclient/protocol"
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

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(va, vb)
}

// By default the match speaks snakes 0.15: its CONFIG_DATA is the one a
// real 0.15 host sends (with the host's vote time, ten seconds by
// default), and the arena of an empty room is the real host's MAP_DATA
// value for value, its respawn points in the bit-reversed, fanned order.
// The older dialect still sends the 0.6 config and its plain spiral.
func TestDefaultDialectIsSnakes015(t *testing.T) {
	m, err := New(Config{Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, m.ConfigData(), realSnakes015(t, "config-data.json")) {
		t.Error("the default CONFIG_DATA is not snakes 0.15's")
	}
	text, ok := m.MapText("arena")
	if !ok || !jsonEqual(t, text, realSnakes015(t, "maps/arena.json")) {
		t.Errorf("the empty room's arena is not snakes 0.15's: %s", text)
	}
	old, err := New(Config{Dialect: Dialect06, VoteSeconds: 7, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(old.ConfigData()), `"columns":["snake","status","eaten","kills","score","ping"]`) ||
		!strings.Contains(string(old.ConfigData()), `"time":7000`) {
		t.Errorf("0.6 CONFIG_DATA: %s", old.ConfigData())
	}
	oldText, _ := old.MapText("arena")
	if jsonEqual(t, oldText, text) {
		t.Error("the 0.6 arena has the 0.15 respawn order")
	}
	if _, err := New(Config{Dialect: "0.7", Log: quiet()}); err == nil {
		t.Error("an unknown dialect is accepted")
	}
}

// In 0.15 a player who enters is in the arena at once: no vote to play is
// offered, the snake comes with the first shot's readiness, votes are not
// answered, the room's stat table goes once, whole, with the first shot
// (Tab shows the global leaderboard), and the panel sends only the keys the 0.15 panel names.
func TestSnakes015JoinsPlaying(t *testing.T) {
	h := newHarness(t, 2)
	if h.me().snake == nil || h.me().team != Players {
		t.Fatal("no snake after the first shot")
	}
	for range 4 * sendEvery {
		h.step()
	}
	h.m.Vote(1, json.RawMessage(`"teams"`))
	for range 2 * sendEvery {
		h.step()
	}
	keys := map[string]bool{}
	stats := 0
	for _, msg := range h.out.json {
		port, payload, _ := strings.Cut(msg, " ")
		switch port {
		case fmt.Sprint(protocol.VoteData):
			t.Errorf("sent on port %s: %s", port, payload)
		case fmt.Sprint(protocol.StatData):
			stats++
			// name, status, score, latency: the 0.15 host's table
			if !strings.Contains(payload, `["3",1,["Probe","",0,null]]`) || !strings.Contains(payload, `["Viper","",0,"BOT"]`) {
				t.Errorf("stat table %s", payload)
			}
		case fmt.Sprint(protocol.PanelData):
			var items []string
			if err := json.Unmarshal([]byte(payload), &items); err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				k, _, _ := strings.Cut(it, ":")
				keys[k] = true
			}
		}
	}
	if stats != 1 {
		t.Errorf("%d stat tables sent, want the one with the first shot", stats)
	}
	for _, k := range []string{"s", "c", "wa", "t"} {
		if !keys[k] {
			t.Errorf("panel key %s never sent (sent %v)", k, keys)
		}
	}
	for _, k := range []string{"e", "k"} {
		if keys[k] {
			t.Errorf("panel key %s sent; 0.15 names no such cell", k)
		}
	}
	if h.out.frames == 0 {
		t.Fatal("no frames")
	}
}

// In 0.6 the player watches until voting to play, and the stat table goes
// out.
func TestSnakes06VotesToPlay(t *testing.T) {
	m, err := New(Config{Dialect: Dialect06, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{m: m, out: &sink{t: t}}
	m.SetOut(h.out)
	m.Join(1, "Probe")
	m.ModulesReady(1)
	m.MapReady(1)
	m.FirstShotReady(1)
	if m.Users[1].snake != nil || !h.out.sent(protocol.VoteData, `"teamChange"`) || !h.out.sent(protocol.StatData, `"Probe"`) {
		t.Fatalf("0.6 entry: snake %v, sent %v", m.Users[1].snake != nil, h.out.json)
	}
}

// A snakes game's own data plays verbatim: its CONFIG_DATA compacted and
// its arena's MAP_DATA byte for byte, under the map's own name, the disc
// and respawn points read from it.
func TestGameDataPlaysVerbatim(t *testing.T) {
	cfg, arenaText := realSnakes015(t, "config-data.json"), realSnakes015(t, "maps/arena.json")
	m, err := New(Config{Game: &match.GameData{Config: cfg, Maps: []match.MapData{{Name: "arena", Text: arenaText}}}, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, m.ConfigData(), cfg) || json.Valid(m.ConfigData()) && strings.Contains(string(m.ConfigData()), "\n") {
		t.Errorf("CONFIG_DATA not the game's, compacted: %.80s", m.ConfigData())
	}
	got, ok := m.MapText("arena")
	if !ok || string(got) != string(arenaText) || m.MapName() != "arena" || m.ArenaRadius() != 1280 {
		t.Errorf("arena: %v, name %q radius %v", ok, m.MapName(), m.ArenaRadius())
	}
	var raw struct {
		Respawns map[string][][3]float64 `json:"respawns"`
	}
	if err := json.Unmarshal(arenaText, &raw); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.arena.spawns, raw.Respawns["players"]) {
		t.Error("the respawn points are not the map's")
	}
}

// A game's own data that is no snakes arena is refused with an error,
// never a panic.
func TestGameDataRefused(t *testing.T) {
	cfg, arenaText := realSnakes015(t, "config-data.json"), realSnakes015(t, "maps/arena.json")
	for name, maps := range map[string][]match.MapData{
		"no map":      nil,
		"two maps":    {{Name: "a", Text: arenaText}, {Name: "b", Text: arenaText}},
		"not json":    {{Name: "a", Text: []byte(`{`)}},
		"no grid":     {{Name: "a", Text: []byte(`{"step":128,"layers":{"1":[1]},"respawns":{"players":[[1,2,3]]}}`)}},
		"not square":  {{Name: "a", Text: []byte(`{"step":128,"map":[[1,1]],"layers":{"1":[1]},"respawns":{"players":[[1,2,3]]}}`)}},
		"no step":     {{Name: "a", Text: []byte(`{"map":[[1]],"layers":{"1":[1]},"respawns":{"players":[[1,2,3]]}}`)}},
		"no spawns":   {{Name: "a", Text: []byte(`{"step":128,"map":[[1]],"layers":{"1":[1]},"respawns":{}}`)}},
		"short spawn": {{Name: "a", Text: []byte(`{"step":128,"map":[[1]],"layers":{"1":[1]},"respawns":{"players":[[1,2]]}}`)}},
	} {
		if _, err := New(Config{Game: &match.GameData{Config: cfg, Maps: maps}, Log: quiet()}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := New(Config{Game: &match.GameData{Config: []byte(`{"snapshot":{}}`), Maps: []match.MapData{{Name: "arena", Text: arenaText}}}, Log: quiet()}); err == nil {
		t.Error("a config without the snakes rows is accepted")
	}
}

// In 0.15 one life is one game: a kill adds the kill bonus (not the
// victim's score), the boost's burn comes off the score, the crash card
// keeps the life's score until the respawn clears it, and the life's score
// is its result on the host's boards (the day's best).
func TestSnakes015ScoresALife(t *testing.T) {
	h := newHarness(t, 1)
	h.step()
	me := h.me()
	var bot *player
	for _, p := range h.m.Players {
		if p != nil && p.bot != nil {
			bot = p
		}
	}
	bot.score = 30
	me.score, me.eaten = 12, 12
	bot.snake.s.Alive = true
	h.m.crash(bot, me)
	if me.kills != 1 || me.score != 12+killBonus {
		t.Fatalf("kill: kills %d score %d, want 1 and %d", me.kills, me.score, 12+killBonus)
	}
	// Boost for a second past the grace: six crystals burn, six points go.
	me.snake.s.Grace, me.snake.crystals = 0, 40
	before := me.score
	h.m.Keys(1, "1:down:boost")
	for range TicksPerSecond {
		h.step()
	}
	h.m.Keys(1, "2:up:boost")
	if burnt := before - me.score; burnt < 5 || burnt > 7 || me.snake.crystals != 40-burnt {
		t.Fatalf("boost: score %d→%d, crystals %d", before, me.score, me.snake.crystals)
	}
	life, carried := me.score, me.snake.crystals
	h.m.crash(me, nil)
	for range sendEvery {
		h.step()
	}
	if me.score != life || me.human.panel.s != life || me.human.panel.d != carried+1 {
		t.Fatalf("crash card: score %d panel %+v, want the life's %d", me.score, me.human.panel, life)
	}
	h.m.Keys(1, "3:down:respawn")
	for range sendEvery {
		h.step()
	}
	if !me.snake.s.Alive || me.score != 0 || me.kills != 0 || me.eaten != 0 || me.human.panel.s != 0 {
		t.Fatalf("respawn: alive %v score %d kills %d eaten %d panel s %d", me.snake.s.Alive, me.score, me.kills, me.eaten, me.human.panel.s)
	}
	r := h.m.boards.byNick["probe"]
	if r == nil || r.best != life {
		t.Fatalf("board record %+v, want the best life %d", r, life)
	}
}
