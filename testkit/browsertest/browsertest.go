// Package browsertest holds what the tests of the server browser's back
// end and of the matches it starts share: a lobby master with a room hosted
// by the embedded match and one listed with no host behind it, and the
// pump that runs a browser's requests on a back end as the window does.
package browsertest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/host/lobbyroom"
	"vimpclient/hud/serverbrowser"
	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

// World is a newer master with a room hosted by the embedded match
// ("Native Room") and one listed with no host behind it ("Listed Room").
type World struct {
	Ctx    context.Context
	Keys   *fakemaster.Keys
	Fake   *fakemaster.Master
	Master *lobby.Master
	Room   string // the hosted room's id
	Log    *slog.Logger
}

// NewWorld starts the world; it ends with the test.
func NewWorld(t testing.TB) *World {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: keys, Log: log})
	t.Cleanup(fm.Close)
	srv, err := host.Start(ctx, host.Config{Bots: 1, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	r, err := lobbyroom.Open(ctx, srv, lobbyroom.Config{Master: fm.URL(), Name: "Native Room", Token: keys.Token("1", "Hoster"), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = r.Run(ctx) }()
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	w := &World{Ctx: ctx, Keys: keys, Fake: fm, Room: fm.RoomIDs()[0], Log: log}
	fm.AddListed("Listed Room", "eu", 1, 8)
	if w.Master, err = lobby.NewMaster(fm.URL(), http.DefaultClient); err != nil {
		t.Fatal(err)
	}
	return w
}

// Home gives the test a config directory of its own and no token in the
// environment, and returns the identity service's keys.
func Home(t *testing.T) *fakemaster.Keys {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// FreePort is a loopback port nothing listens on.
func FreePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// Backend is the browser's back end as the window drives it.
type Backend interface {
	Do(r serverbrowser.Request)
	Apply(b *serverbrowser.Browser)
	Ready() <-chan struct{}
}

// Pump runs the browser's requests on the backend and applies its answers
// until cond holds; it returns the joins and cancels asked for meanwhile,
// which are the window's to run.
func Pump(t testing.TB, b *serverbrowser.Browser, be Backend, what string, cond func() bool) []serverbrowser.Request {
	t.Helper()
	var joins []serverbrowser.Request
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		be.Apply(b)
		for _, r := range b.Requests() {
			if r.Kind == serverbrowser.RequestJoin || r.Kind == serverbrowser.RequestCancel {
				joins = append(joins, r)
				continue
			}
			be.Do(r)
		}
		if cond() {
			return joins
		}
		select {
		case <-be.Ready():
		case <-deadline.C:
			t.Fatalf("%s: not within 20 s", what)
		}
	}
}

// PumpJoin runs the browser's requests on the backend until it asks for a
// join, and returns what it joins.
func PumpJoin(t testing.TB, b *serverbrowser.Browser, be Backend, what string) serverbrowser.Choice {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		be.Apply(b)
		for _, r := range b.Requests() {
			if r.Kind == serverbrowser.RequestJoin {
				return r.Choice
			}
			be.Do(r)
		}
		select {
		case <-be.Ready():
		case <-deadline.C:
			t.Fatalf("%s: no join within 20 s (status %q)", what, b.Status)
		}
	}
}

// RowByName is the index of the browser's row named name, -1 for none.
func RowByName(b *serverbrowser.Browser, name string) int {
	for i, r := range b.Rows() {
		if r.Cells[serverbrowser.ColName] == name {
			return i
		}
	}
	return -1
}
