// Package registry lists the games this client knows, in the fixed order
// they are tried: for each, how to draw it (its parts) and how to predict it
// (its half of the client core). A game it does not know is still played:
// drawn by the generic renderer, without prediction.
package registry

import (
	"encoding/json"
	"errors"

	"vimpclient/clientcore"
	"vimpclient/games/snakes"
	"vimpclient/games/tanks/tankclient"
	"vimpclient/hud"
	"vimpclient/parts"
	snakeparts "vimpclient/parts/snakes"
	tankparts "vimpclient/parts/tanks"
)

// Game is one known game.
type Game struct {
	// ID is the game's manifest id, as a host announces it.
	ID string
	// Parts builds the game's renderers; rnd is the world's random source.
	Parts func(rnd func() float64) *parts.Game
	// Client builds the game half of the client core from the snapshot
	// schema and CONFIG_DATA.prediction; an error means the config is not
	// this game's (or has no prediction) and the core runs without one.
	Client func(s *clientcore.Schema, prediction json.RawMessage) (clientcore.Game, error)
	// Look is what the game's own client adds to the overlays: panel cells
	// it hides, its result card.
	Look hud.GameLook
}

// snakesLook is the snakes client's: its style sheet hides the carried
// crystals, the crash signal, the cruise/boost mode and the round time
// (the first three are read by the game, the round never ends), and a
// crash shows the card with the haul of the life that ended and the total.
var snakesLook = hud.GameLook{
	HiddenCells: []string{"crystals", "dead", "mode", "time"},
	Crash: &hud.CrashSpec{DeadField: "dead", ScoreField: "score", Title: "You crashed",
		Carried: "crystals", CarriedOne: "crystal", Total: "Total score", Respawn: "respawn"},
}

// Registry is the known games in the order they are tried.
type Registry []Game

// Default is every game this client knows: tanks, then snakes.
func Default() Registry {
	return Registry{
		{ID: "tanks", Parts: tankparts.Game, Client: func(s *clientcore.Schema, p json.RawMessage) (clientcore.Game, error) {
			if len(p) == 0 {
				return nil, errNoPrediction
			}
			g, err := tankclient.FromConfig(s, p)
			if err != nil {
				return nil, err
			}
			return g, nil
		}},
		{ID: "snakes", Parts: func(func() float64) *parts.Game { return snakeparts.Game() },
			Client: func(s *clientcore.Schema, p json.RawMessage) (clientcore.Game, error) {
				if len(p) == 0 {
					return nil, errNoPrediction
				}
				g, err := snakes.FromConfig(s, p)
				if err != nil {
					return nil, err
				}
				return g, nil
			},
			Look: snakesLook},
	}
}

var errNoPrediction = errors.New("CONFIG_DATA has no prediction section")

// Pick finds the game a CONFIG_DATA belongs to. A host that announced a game
// id gets that game when its parts section matches the game's; otherwise
// (or with no announced id) the first game in order whose parts recognise
// the section wins. ok is false for a game the client does not know; parts
// is then nil and the world draws everything generically.
func (r Registry) Pick(gameID string, pc parts.PartsConfig, rnd func() float64) (g Game, p *parts.Game, ok bool) {
	for _, cand := range r {
		switch {
		case gameID == "":
			if pg := cand.Parts(rnd); pg.Recognise != nil && pg.Recognise(pc.EntitiesOnCanvas) {
				return cand, pg, true
			}
		case cand.ID == gameID:
			if pg := cand.Parts(rnd); pg.Recognise == nil || pg.Recognise(pc.EntitiesOnCanvas) {
				return cand, pg, true
			}
			return Game{}, nil, false // the announced game, but not its config
		}
	}
	return Game{}, nil, false
}
