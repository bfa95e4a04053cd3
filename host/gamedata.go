package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"vimpclient/host/match"

	"vimpclient/internal/localfile"
)

// maxDataFile bounds one file of a game's data (the largest real map is
// well under a megabyte; the map parser has limits of its own).
const maxDataFile = 16 << 20

// LoadGameData reads a game's own data from dir, laid out as the files a
// real host sends: config-data.json (CONFIG_DATA), auth-data.json
// (AUTH_DATA; optional, the built-in auth form without it) and
// maps/NAME.json (each map's MAP_DATA, played in the order of their
// names). It is what Config.Game and Config.AuthData take.
func LoadGameData(dir string) (*match.GameData, json.RawMessage, error) {
	cfg, err := readDataFile(filepath.Join(dir, "config-data.json"))
	if err != nil {
		return nil, nil, err
	}
	if !json.Valid(cfg) {
		return nil, nil, fmt.Errorf("game data %s: config-data.json is not JSON", dir)
	}
	var auth json.RawMessage
	switch b, err := readDataFile(filepath.Join(dir, "auth-data.json")); {
	case err == nil:
		if !json.Valid(b) {
			return nil, nil, fmt.Errorf("game data %s: auth-data.json is not JSON", dir)
		}
		auth = b
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "maps", "*.json"))
	if err != nil {
		return nil, nil, fmt.Errorf("game data %s: %w", dir, err)
	}
	slices.Sort(files)
	g := &match.GameData{Config: cfg}
	for _, f := range files {
		b, err := readDataFile(f)
		if err != nil {
			return nil, nil, err
		}
		g.Maps = append(g.Maps, match.MapData{Name: strings.TrimSuffix(filepath.Base(f), ".json"), Text: b})
	}
	if len(g.Maps) == 0 {
		return nil, nil, fmt.Errorf("game data %s: no maps/*.json", dir)
	}
	return g, auth, nil
}

func readDataFile(path string) ([]byte, error) {
	b, err := localfile.Read(path, maxDataFile, "game data file")
	if err != nil {
		return nil, fmt.Errorf("game data: %w", err)
	}
	return b, nil
}
