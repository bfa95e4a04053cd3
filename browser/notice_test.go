package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vimpclient/internal/localfile"
)

func TestSetAsideNoticesTellEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	n := NewSetAsideNotices(dir, now)
	if s := n.Next(); s != "" {
		t.Fatalf("nothing set aside: %q", s)
	}
	for _, name := range []string{"tokens.json", "settings.json"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{bad"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := localfile.SetAside(p, now); err != nil {
			t.Fatal(err)
		}
	}
	s := n.Next()
	if !strings.Contains(s, "2 files could not be read in full") || !strings.Contains(s, "tokens.json (kept as tokens.json.bad-") ||
		!strings.Contains(s, "settings.json") || !strings.Contains(s, dir) {
		t.Fatalf("notice %q", s)
	}
	if s := n.Next(); s != "" {
		t.Fatalf("told twice: %q", s)
	}
	// A client started later the same day tells of them once more; one
	// started two days later does not.
	if s := NewSetAsideNotices(dir, now.Add(time.Hour)).Next(); s == "" {
		t.Fatal("a restart forgot a file set aside an hour ago")
	}
	if s := NewSetAsideNotices(dir, now.Add(48*time.Hour)).Next(); s != "" {
		t.Fatalf("an old file told of: %q", s)
	}
}
