package host

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"vimpclient/host/game"
	"vimpclient/host/match"
	"vimpclient/host/snakesmatch"
)

// GameInfo describes a game the embedded host can run.
type GameInfo struct {
	// ID is the game's manifest id (Config.Game, -game on the command line).
	ID string
	// Title is the game's name as players see it.
	Title string
	// Maps is the game's map catalog (Config.Map picks one of them).
	Maps []string
	// Dialects are the versions of the game the match can speak, the
	// default first (Config.Dialect picks one).
	Dialects []string
	// New builds the match of one room. It is how a game plugs into the
	// host: the room loop drives the match it returns through game.Match
	// and knows nothing else of the game.
	New func(MatchOptions) (game.Match, error)
}

// MatchOptions is what a room tells the match it builds: the host's
// configuration as far as it concerns the game.
type MatchOptions struct {
	Bots int
	// BotSkill is the bots' preset (tanks; the zero value is easy).
	BotSkill match.BotSkill
	Seed     uint64
	// Map is the map to pin ("" rotates); it is one of GameInfo.Maps.
	Map                                   string
	RoundSeconds, MapSeconds, VoteSeconds int
	// Dialect is the version of the game's built-in data the match speaks
	// (GameInfo.Dialects; "" the default).
	Dialect string
	// Data is another game's own data (Config.Data), replacing the
	// built-in one.
	Data *match.GameData
	Log  *slog.Logger
}

// DefaultGame is the game a host runs when Config.Game is empty.
const DefaultGame = "tanks"

// Games lists the games the embedded host can run, the default first.
func Games() []GameInfo {
	return []GameInfo{
		{ID: "tanks", Title: "Tanks", Maps: match.MapNames(), Dialects: match.Dialects(), New: func(o MatchOptions) (game.Match, error) {
			return match.New(match.Config{Bots: o.Bots, BotSkill: o.BotSkill, Seed: o.Seed, Map: o.Map, RoundSeconds: o.RoundSeconds,
				MapSeconds: o.MapSeconds, VoteSeconds: o.VoteSeconds, Dialect: o.Dialect, Game: o.Data, Log: o.Log})
		}},
		{ID: "snakes", Title: "Snakes", Maps: snakesmatch.MapNames(), Dialects: snakesmatch.Dialects(), New: func(o MatchOptions) (game.Match, error) {
			return snakesmatch.New(snakesmatch.Config{Bots: o.Bots, Seed: o.Seed, Map: o.Map,
				VoteSeconds: o.VoteSeconds, Dialect: o.Dialect, Game: o.Data, Log: o.Log})
		}},
	}
}

// FindGame returns the game with the id ("" is DefaultGame), or an error
// that lists the games there are.
func FindGame(id string) (GameInfo, error) { return findGame(Games(), id) }

func findGame(games []GameInfo, id string) (GameInfo, error) {
	if id == "" {
		id = DefaultGame
	}
	var ids []string
	for _, g := range games {
		if g.ID == id {
			return g, nil
		}
		ids = append(ids, g.ID)
	}
	return GameInfo{}, fmt.Errorf("no game %q (the games: %s)", id, strings.Join(ids, ", "))
}

// CheckDialect reports whether name ("" for the newest) is a version the
// game id speaks, with an error that lists them when it is not.
func CheckDialect(id, name string) error { return checkDialect(Games(), id, name) }

func checkDialect(games []GameInfo, id, name string) error {
	g, err := findGame(games, id)
	if err != nil {
		return err
	}
	if name == "" || slices.Contains(g.Dialects, name) {
		return nil
	}
	if len(g.Dialects) == 0 {
		return fmt.Errorf("%s has one version only", g.Title)
	}
	return fmt.Errorf("%s speaks no version %q (it speaks %s)", g.Title, name, strings.Join(g.Dialects, ", "))
}

// CheckBotSkill reports whether name ("" for the default, easy) is a bot
// skill, with an error that lists the skills when it is not.
func CheckBotSkill(name string) error {
	_, err := match.ParseBotSkill(name)
	return err
}

// CheckMap reports whether name ("" for the game's own choice) is a map of
// the game id, with an error that lists the game's maps when it is not.
func CheckMap(id, name string) error { return checkMap(Games(), id, name) }

func checkMap(games []GameInfo, id, name string) error {
	g, err := findGame(games, id)
	if err != nil {
		return err
	}
	if name == "" {
		return nil
	}
	for _, m := range g.Maps {
		if m == name {
			return nil
		}
	}
	return fmt.Errorf("%s has no map %q (its maps: %s)", g.Title, name, strings.Join(g.Maps, ", "))
}

// newMatch builds the match of cfg.Game from the host's games.
func newMatch(cfg *Config) (game.Match, GameInfo, error) {
	games := cfg.Games
	if games == nil {
		games = Games()
	}
	g, err := findGame(games, cfg.Game)
	if err != nil {
		return nil, GameInfo{}, err
	}
	if err := checkDialect(games, g.ID, cfg.Dialect); err != nil {
		return nil, GameInfo{}, err
	}
	if cfg.Data == nil { // a game's own data brings its own maps
		if err := checkMap(games, g.ID, cfg.Map); err != nil {
			return nil, GameInfo{}, err
		}
	}
	if g.New == nil {
		return nil, GameInfo{}, fmt.Errorf("game %s has no match to build", g.ID)
	}
	skill, err := match.ParseBotSkill(cfg.BotSkill)
	if err != nil {
		return nil, GameInfo{}, err
	}
	m, err := g.New(MatchOptions{Bots: cfg.Bots, BotSkill: skill, Seed: cfg.Seed, Map: cfg.Map, RoundSeconds: cfg.RoundSeconds,
		MapSeconds: cfg.MapSeconds, VoteSeconds: cfg.VoteSeconds, Dialect: cfg.Dialect, Data: cfg.Data, Log: cfg.Log})
	if err != nil {
		return nil, GameInfo{}, err
	}
	return m, g, nil
}
