package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"vimpclient/hostlist"
	"vimpclient/hud/startscreen"
)

// StartEntries lists a page of the start screen: the recent and favourite
// hosts (Join a server), the lobby masters joined before (Browse rooms),
// the recordings found (Demos).
func StartEntries(k startscreen.Kind) []startscreen.Entry {
	if k == startscreen.Demos {
		dir, err := RecordingsDir()
		if err != nil {
			return nil
		}
		return recordingEntries(dir)
	}
	var l *hostlist.List
	if path, err := hostlist.DefaultPath(); err == nil {
		l, _ = hostlist.Load(path) // a damaged list lists what it could read
	}
	return hostEntries(k, l)
}

// hostEntries are the Join page's dedicated hosts (favourites first, then
// the recent ones) or the Browse page's lobby masters (each once, from the
// rooms joined on it), from l (nil: none).
func hostEntries(k startscreen.Kind, l *hostlist.List) []startscreen.Entry {
	if l == nil {
		return nil
	}
	var out []startscreen.Entry
	seen := map[string]bool{}
	add := func(e hostlist.Entry, detail string) {
		if seen[e.Address] {
			return
		}
		switch {
		case k == startscreen.Join && e.Kind == hostlist.Dedicated:
			if e.GameID != "" {
				detail += " · " + e.GameID
			}
		case k == startscreen.Browse && e.Kind == hostlist.Lobby:
			room := e.Name
			if room == "" {
				room = e.Room
			}
			detail += " · last room: " + room
		default:
			return
		}
		seen[e.Address] = true
		out = append(out, startscreen.Entry{Label: e.Address, Detail: detail, Value: e.Address})
	}
	for _, e := range l.Favourites() {
		add(e, "favourite")
	}
	for _, e := range l.Recent() {
		add(e, "recent")
	}
	return out
}

// RecordingsDir is the folder the start screen's Demos page lists: the
// recordings folder under the user data dir ($XDG_DATA_HOME, else
// ~/.local/share).
func RecordingsDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "vimpclient", "recordings"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("recordings: %w", err)
	}
	return filepath.Join(home, ".local", "share", "vimpclient", "recordings"), nil
}

// maxListed bounds the recordings a Demos page lists.
const maxListed = 200

// recordingEntries are the recordings (*.jsonl) in dir, newest first.
func recordingEntries(dir string) []startscreen.Entry {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type file struct {
		name string
		info os.FileInfo
	}
	var files []file
	for _, de := range des {
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".jsonl") {
			continue
		}
		if info, err := de.Info(); err == nil {
			files = append(files, file{de.Name(), info})
		}
	}
	slices.SortFunc(files, func(a, b file) int { return b.info.ModTime().Compare(a.info.ModTime()) })
	var out []startscreen.Entry
	for _, f := range files[:min(len(files), maxListed)] {
		out = append(out, startscreen.Entry{Label: f.name, Value: filepath.Join(dir, f.name),
			Detail: fmt.Sprintf("%s · %d KB", f.info.ModTime().Format("2006-01-02 15:04"), (f.info.Size()+1023)/1024)})
	}
	return out
}
