package main

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	hostilehost "vimpclient/testkit/hostile"
)

// A headless run against each hostile host returns when -for ends, prints
// its summary and reports what it refused; the entity flood's refusal is in
// the summary's errors and its refused counts.
func TestHeadlessSurvivesHostileHosts(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	const runFor = 1500 * time.Millisecond
	for _, sc := range hostilehost.Scenarios {
		t.Run(string(sc), func(t *testing.T) {
			h, err := hostilehost.New(sc)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			var out, errb bytes.Buffer
			args := []string{"-headless", "-for", runFor.String(), "-summary", "-nick", "Tester", srv.URL}
			if sc == hostilehost.Assets {
				// Sounds are loaded only with somewhere to play them.
				args = append([]string{"-audio-out", t.TempDir() + "/out.wav"}, args...)
			}
			done := make(chan int, 1)
			start := time.Now()
			go func() { done <- run(args, &out, &errb) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(runFor + 30*time.Second):
				t.Fatalf("the run did not return 30 s after -for ended; stderr %q", tail(errb.String()))
			}
			t.Logf("returned %v after -for ended", time.Since(start)-runFor)
			s := decodeSummary(t, out.Bytes())
			if code != 0 || s.State != "playing" {
				t.Errorf("exit %d, state %q, stderr %q", code, s.State, tail(errb.String()))
			}
			if sc != hostilehost.Entities {
				return
			}
			if s.Refused == nil || s.Refused.Rows == 0 || !strings.Contains(s.Refused.Reason, "the limit is") {
				t.Errorf("refused %+v", s.Refused)
			}
			said := false
			for _, e := range s.Errors {
				said = said || strings.HasPrefix(e, "entities from this host refused: ")
			}
			if !said || s.Frames.Decoded == 0 {
				t.Errorf("errors %q, frames %+v", s.Errors, s.Frames)
			}
		})
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
