// Package privatefile writes the files that hold a player's secrets (sign-in
// tokens, a host's remembered auth answers): readable by their owner only,
// and replaced whole, so that a crash mid-write never leaves half a file.
package privatefile

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// WriteJSON replaces the file at path with v as indented JSON: written
// beside it (mode 0600, its directory made 0700 if missing), then renamed
// over it. Errors are returned as the os and json packages give them.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
