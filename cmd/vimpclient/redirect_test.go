package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

// A master that sends every request, the signaling upgrade included, to
// another master: `servers`, a headless join and `serve -master` each stop
// with an error naming both addresses, and the other master never sees the
// player's or the hoster's token.
func TestMasterRedirectFromTheTerminal(t *testing.T) {
	keys := browsertest.Home(t)
	other := fakemaster.Start(fakemaster.Config{Keys: keys, AnyOrigin: true})
	defer other.Close()
	other.AddListed("Native Room", "eu", 0, 8)
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, Redirect: func(r *http.Request) string {
		return other.URL() + r.URL.RequestURI()
	}})
	defer fm.Close()
	both := func(what string, code int, stderr string) {
		t.Helper()
		t.Logf("%s: %s", what, stderr)
		if code == 0 || !strings.Contains(stderr, strings.TrimPrefix(fm.URL(), "http://")) ||
			!strings.Contains(stderr, strings.TrimPrefix(other.URL(), "http://")) || !strings.Contains(stderr, "another origin") {
			t.Errorf("%s: exit %d, stderr:\n%s", what, code, stderr)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var errOut bytes.Buffer
	both("servers", runServers(ctx, []string{"-ping", "1s", fm.URL()}, io.Discard, &errOut), errOut.String())

	player := keys.Token("2", "Alice")
	errOut.Reset()
	both("headless join", run([]string{"-headless", "-for", "5s", "-token", player, "-room", "Native Room", fm.URL()}, io.Discard, &errOut), errOut.String())

	hoster := keys.Token("1", "Hoster")
	errOut.Reset()
	both("serve -master", runServe(ctx, []string{"-addr", "127.0.0.1:0", "-bots", "0", "-master", fm.URL(), "-name", "R", "-token", hoster}, io.Discard, &errOut), errOut.String())

	if other.Saw(player) || other.Saw(hoster) {
		t.Error("the other master saw a token")
	}
	if n := len(other.Requests()); n != 0 {
		t.Errorf("the other master got %d requests", n)
	}
}
