package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// The bridge scenario as a player runs it: `vimpclient -headless -summary
// -bots 0 -map bridge -team team1 -script testdata/scripts/bridge.txt`
// against the embedded host, shortened to the script's crossing. The tank
// goes up onto the bridge and down the other side, the prediction stays
// within 2 world units with no snap, and every frame decodes.
func TestBridgeScript(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	script := filepath.Join("..", "..", "testdata", "scripts", "bridge.txt")
	var out, errb bytes.Buffer
	code := run([]string{"-headless", "-for", "12s", "-summary", "-bots", "0", "-map", "bridge", "-team", "team1", "-script", script}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := decodeSummary(t, out.Bytes())
	t.Logf("frames %+v, prediction %+v, local %+v", s.Frames, s.Prediction, s.Local)
	if s.State != "playing" || s.Frames.Received == 0 || s.Frames.Dropped != 0 || s.Frames.Decoded != uint64(s.Frames.Received) {
		t.Fatalf("state %q frames %+v errors %v", s.State, s.Frames, s.Errors)
	}
	if s.Local == nil || s.Local.MaxLevel < 1 || s.Local.Level != 0 || s.Local.X < 42*19.2 {
		t.Fatalf("the tank did not cross the bridge: %+v", s.Local)
	}
	if p := s.Prediction; p == nil || p.Samples < 100 || p.ErrorP95 > 2 || p.Snaps != 0 {
		t.Fatalf("prediction %+v", s.Prediction)
	}
}

// -map names the embedded host's map: with an address it is refused, and
// a map the game's catalog lacks is refused with the catalog (the serve
// command too).
func TestMapFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-headless", "-map", "bridge", "http://127.0.0.1:1"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "-map") {
		t.Errorf("-map with an address: %d %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"-headless", "-for", "1s", "-map", "atlantis"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "atlantis") || !strings.Contains(errb.String(), "bridge") {
		t.Errorf("-map atlantis: %d %q", code, errb.String())
	}
	var serr bytes.Buffer
	if code := runServe(context.Background(), []string{"-addr", "127.0.0.1:0", "-map", "atlantis"}, io.Discard, &serr); code != 2 || !strings.Contains(serr.String(), "bridge") {
		t.Errorf("serve -map atlantis: %d %q", code, serr.String())
	}
}
