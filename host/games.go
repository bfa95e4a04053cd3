package host

import (
	"fmt"
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
}

// DefaultGame is the game a host runs when Config.Game is empty.
const DefaultGame = "tanks"

// Games lists the games the embedded host can run, the default first.
func Games() []GameInfo {
	return []GameInfo{
		{ID: "tanks", Title: "Tanks", Maps: match.MapNames()},
		{ID: "snakes", Title: "Snakes", Maps: snakesmatch.MapNames()},
	}
}

// FindGame returns the game with the id ("" is DefaultGame), or an error
// that lists the games there are.
func FindGame(id string) (GameInfo, error) {
	if id == "" {
		id = DefaultGame
	}
	var ids []string
	for _, g := range Games() {
		if g.ID == id {
			return g, nil
		}
		ids = append(ids, g.ID)
	}
	return GameInfo{}, fmt.Errorf("no game %q (the games: %s)", id, strings.Join(ids, ", "))
}

// CheckMap reports whether name ("" for the game's own choice) is a map of
// the game id, with an error that lists the game's maps when it is not.
func CheckMap(id, name string) error {
	g, err := FindGame(id)
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

// newMatch builds the match of cfg.Game.
func newMatch(cfg *Config) (game.Match, GameInfo, error) {
	g, err := FindGame(cfg.Game)
	if err != nil {
		return nil, GameInfo{}, err
	}
	if cfg.Data != nil && g.ID != DefaultGame {
		return nil, GameInfo{}, fmt.Errorf("game data is for tanks, not %s", g.Title)
	}
	if cfg.Data == nil { // a game's own data brings its own maps
		if err := CheckMap(g.ID, cfg.Map); err != nil {
			return nil, GameInfo{}, err
		}
	}
	var m game.Match
	switch g.ID {
	case "snakes":
		m, err = snakesmatch.New(snakesmatch.Config{Bots: cfg.Bots, Seed: cfg.Seed, Map: cfg.Map,
			VoteSeconds: cfg.VoteSeconds, Log: cfg.Log})
	default:
		m, err = match.New(match.Config{Bots: cfg.Bots, Seed: cfg.Seed, Map: cfg.Map, RoundSeconds: cfg.RoundSeconds,
			MapSeconds: cfg.MapSeconds, VoteSeconds: cfg.VoteSeconds, Game: cfg.Data, Log: cfg.Log})
	}
	if err != nil {
		return nil, GameInfo{}, err
	}
	return m, g, nil
}
