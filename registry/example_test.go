package registry_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/registry"
)

// Adding a game: an entry names the game's manifest id, builds its part
// classes, and builds its half of the client core (here none: a game
// without prediction is drawn from the host's frames alone). Appended to
// the default list, it is tried after the games already known.
func ExampleRegistry_Pick() {
	beacons := registry.Game{
		ID: "beacons",
		Parts: func(func() float64) *parts.Game {
			return &parts.Game{
				ID:    "beacons",
				Parts: map[string]parts.Factory{}, // the game's part classes by CONFIG_DATA name
				Recognise: func(eoc map[string]string) bool {
					_, ok := eoc["Beacon"]
					return ok
				},
			}
		},
		Client: func(*clientcore.Schema, json.RawMessage) (clientcore.Game, error) {
			return nil, errors.New("beacons have no prediction")
		},
	}
	games := append(registry.Default(), beacons)

	// A host that announces its game is given that game...
	pc := parts.PartsConfig{EntitiesOnCanvas: map[string]string{"Beacon": "vimp"}}
	g, _, ok := games.Pick("beacons", pc, nil)
	fmt.Println(g.ID, ok)
	// ...one that does not is matched by its parts section...
	g, _, ok = games.Pick("", pc, nil)
	fmt.Println(g.ID, ok)
	// ...and a game nobody knows is drawn by the generic renderer.
	_, _, ok = games.Pick("", parts.PartsConfig{EntitiesOnCanvas: map[string]string{"Orb": "vimp"}}, nil)
	fmt.Println("known:", ok)
	// Output:
	// beacons true
	// beacons true
	// known: false
}
