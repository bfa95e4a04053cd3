package logs

import (
	"bytes"
	"strings"
	"testing"
)

func TestWarningsOncePerConnection(t *testing.T) {
	var buf bytes.Buffer
	log, once := New(&buf, false)
	log.Debug("hidden at the default level")
	log.Info("connecting", "ws", "ws://h/game")
	for range 3 {
		log.Warn("sound catalog", "problem", "bad volume")
	}
	log.Warn("sound catalog", "problem", "bad rate") // another warning: said too
	log.With("conn", 1).Warn("sound catalog", "problem", "bad volume")
	if n := strings.Count(buf.String(), "bad volume"); n != 2 {
		t.Fatalf("a repeated warning said %d times, want once plus once with other attributes:\n%s", n, buf.String())
	}
	if strings.Contains(buf.String(), "hidden") || !strings.Contains(buf.String(), "connecting") || !strings.Contains(buf.String(), "bad rate") {
		t.Fatalf("levels:\n%s", buf.String())
	}
	once.Reset()
	log.Warn("sound catalog", "problem", "bad volume")
	if n := strings.Count(buf.String(), "bad volume"); n != 3 {
		t.Fatalf("after Reset a warning is said again: %d", n)
	}
	buf.Reset()
	verbose, _ := New(&buf, true)
	verbose.Debug("shown with -v")
	if !strings.Contains(buf.String(), "shown with -v") {
		t.Fatal("debug hidden with -v")
	}
}
