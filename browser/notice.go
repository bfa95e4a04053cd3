package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"vimpclient/internal/localfile"
)

// SetAsideNotices tells the player about the stores under a config
// directory that were set aside because they could not be read in full
// (see localfile.SetAside): each file once, the first time the start
// screen shows after it was set aside, or at start-up when it was set
// aside within the last day.
type SetAsideNotices struct {
	dir   string
	since time.Time
	mu    sync.Mutex
	said  map[string]bool
}

// setAsideRecall is how far back a freshly started client looks: a file set
// aside just before a restart (or a crash) is still told of once.
const setAsideRecall = 24 * time.Hour

// NewSetAsideNotices watches dir ("" : the client's config directory).
func NewSetAsideNotices(dir string, now time.Time) *SetAsideNotices {
	if dir == "" {
		if d, err := os.UserConfigDir(); err == nil {
			dir = filepath.Join(d, "vimpclient")
		}
	}
	return &SetAsideNotices{dir: dir, since: now.Add(-setAsideRecall), said: map[string]bool{}}
}

// Next returns the sentence for the files set aside that were not told of
// yet ("" when none).
func (n *SetAsideNotices) Next() string {
	if n == nil || n.dir == "" {
		return ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	var names []string
	for _, a := range localfile.SetAsideIn(n.dir, n.since) {
		if n.said[a.Path] {
			continue
		}
		n.said[a.Path] = true
		names = append(names, fmt.Sprintf("%s (kept as %s)", a.Of, filepath.Base(a.Path)))
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("%s could not be read in full: what could be read was kept, the file itself set aside in %s.", names[0], n.dir)
	}
	return fmt.Sprintf("%d files could not be read in full: what could be read was kept, the files set aside in %s: %s.",
		len(names), n.dir, strings.Join(names, ", "))
}
