package snakesmatch

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"vimpclient/host/match"
)

// The match speaks the snakes game of one of two versions.
//
// 0.15 (config-0.15.json, the default) is what a real snakes 0.15 host on
// the 0.35 engine sends: one team the players join straight into (no
// play-or-watch vote), Tab showing the game's global leaderboard from
// ACCOLADES_DATA instead of the room's table (the host sends the table
// whole with the first shot and no updates), a panel of score, crystals carried, dead, mode and time, a turn
// rate that falls as a snake grows and a declared spawn grace. Its respawn
// points are the sunflower spiral handed out in bit-reversed order, each
// fanned off the centre.
//
// 0.6 (config.json) is the older game: a spectator team and the vote to
// play, a six-column stat table the host keeps, eaten and kills on the
// panel, the spiral in plain order facing the centre.
const (
	Dialect015     = "0.15"
	Dialect06      = "0.6"
	DefaultDialect = Dialect015
)

//go:embed config-0.15.json
var config015JSON []byte

// Dialects lists the built-in versions, the default first.
func Dialects() []string { return []string{Dialect015, Dialect06} }

// rules are the parts of the game's behaviour its CONFIG_DATA decides, so
// a game's own data plays by what it declares.
type rules struct {
	// joinPlays: a player who enters gets a snake at once (no vote to
	// play offered: the config's vote has no teamChange template).
	joinPlays bool
	// leaderboard: Tab shows the global leaderboard alone, so the room's
	// stat table (name, status, score, latency) goes only whole with the
	// first shot, never updated.
	leaderboard bool
	// panelKeys are the panel's wire keys the client names; others are not
	// sent.
	panelKeys map[string]bool
	// scorePerLife: one life is one game (a panel that counts no kills,
	// 0.15): the score is the crystals eaten plus killBonus a kill, less
	// what the boost burns, and a respawn starts it over; a life's score is
	// its result on the host's boards. Otherwise (0.6) the score runs
	// through the whole visit, a kill taking the victim's score, and a
	// life's result is the crystals carried at the crash.
	scorePerLife bool
}

// killBonus is what a kill adds to the score of a life (the game's own
// figure; it is a host rule, not in CONFIG_DATA).
const killBonus = 15

// maxPanelKeys bounds the panel keys read from a config.
const maxPanelKeys = 64

// readRules reads the rules from a CONFIG_DATA.
func readRules(config []byte) (rules, error) {
	var c struct {
		Modules struct {
			Vote struct {
				Params struct {
					Templates map[string]json.RawMessage `json:"templates"`
				} `json:"params"`
			} `json:"vote"`
			Stat struct {
				Params struct {
					Mode string `json:"mode"`
				} `json:"params"`
			} `json:"stat"`
			Panel struct {
				Keys map[string]string `json:"keys"`
			} `json:"panel"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(config, &c); err != nil {
		return rules{}, fmt.Errorf("snakes config: %w", err)
	}
	if len(c.Modules.Panel.Keys) > maxPanelKeys {
		return rules{}, fmt.Errorf("snakes config: %d panel keys", len(c.Modules.Panel.Keys))
	}
	r := rules{panelKeys: map[string]bool{}}
	_, vote := c.Modules.Vote.Params.Templates["teamChange"]
	r.joinPlays = !vote
	r.leaderboard = c.Modules.Stat.Params.Mode == "leaderboard"
	for k := range c.Modules.Panel.Keys {
		r.panelKeys[k] = true
	}
	r.scorePerLife = len(r.panelKeys) > 0 && !r.panelKeys["k"]
	return r, nil
}

// builtinConfig is the dialect's CONFIG_DATA with the host's vote time, or
// a game's own verbatim.
func builtinConfig(cfg *Config) ([]byte, error) {
	if cfg.Game != nil {
		return cfg.Game.Config, nil
	}
	var base []byte
	switch cfg.Dialect {
	case "", Dialect015:
		base = config015JSON
	case Dialect06:
		base = configJSON
	default:
		return nil, fmt.Errorf("snakes: no dialect %q (there are %v)", cfg.Dialect, Dialects())
	}
	// The vote window is the host's vote time; the object is patched as
	// text so every key keeps its declared order.
	return bytes.Replace(base, []byte(`"time": 10000`), []byte(`"time": `+strconv.Itoa(cfg.VoteSeconds*1000)), 1), nil
}

// dataArena is the arena map of a game's own data: its MAP_DATA, sent
// verbatim while the arena has the size it declares, and what the host
// plays on it.
type dataArena struct {
	name   string
	text   []byte
	size   int     // grid side in cells
	step   float64 // world units per cell
	spawns [][3]float64
}

// Bounds of a game's own arena.
const (
	maxArenaCells  = 512
	maxArenaSpawns = 1024
)

// readDataArena reads the one map of a game's own data.
func readDataArena(maps []match.MapData) (*dataArena, error) {
	if len(maps) != 1 {
		return nil, fmt.Errorf("snakes game data: %d maps, the game has one arena", len(maps))
	}
	var m struct {
		Scale    *float64                   `json:"scale"`
		Step     float64                    `json:"step"`
		Grid     [][]json.RawMessage        `json:"map"`
		Respawns map[string][][]float64     `json:"respawns"`
		Layers   map[string]json.RawMessage `json:"layers"`
	}
	if err := json.Unmarshal(maps[0].Text, &m); err != nil {
		return nil, fmt.Errorf("snakes game data: map %s: %w", maps[0].Name, err)
	}
	scale := 1.0
	if m.Scale != nil {
		scale = *m.Scale
	}
	step := m.Step * scale
	n := len(m.Grid)
	if n == 0 || n > maxArenaCells || len(m.Grid[0]) != n || !(step > 0) || step > 1e4 || math.IsInf(step, 0) || len(m.Layers) == 0 {
		return nil, fmt.Errorf("snakes game data: map %s is no square arena grid with a step and a layer", maps[0].Name)
	}
	a := &dataArena{name: maps[0].Name, text: maps[0].Text, size: n, step: step}
	pts := m.Respawns["players"]
	if len(pts) == 0 || len(pts) > maxArenaSpawns {
		return nil, fmt.Errorf("snakes game data: map %s has %d respawn points for players", maps[0].Name, len(pts))
	}
	for _, p := range pts {
		if len(p) < 3 {
			return nil, fmt.Errorf("snakes game data: map %s: respawn point %v", maps[0].Name, p)
		}
		a.spawns = append(a.spawns, [3]float64{p[0] * scale, p[1] * scale, p[2]})
	}
	return a, nil
}
