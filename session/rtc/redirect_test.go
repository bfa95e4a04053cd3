package rtc_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/lobby"
	"vimpclient/sameorigin"
	"vimpclient/session"
	"vimpclient/session/rtc"
	"vimpclient/testkit/fakemaster"
)

// ended waits for a player's runner to stop and returns its error; a
// runner still going after a while is stopped (stop) and reported.
func ended(t *testing.T, p *player, stop context.CancelFunc) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(20 * time.Second):
		t.Error("the runner did not stop")
		stop()
		<-p.done
		return p.err
	}
}

// hostPort is an address as errors name it.
func hostPort(fm *fakemaster.Master) string { return strings.TrimPrefix(fm.URL(), "http://") }

// Two masters: the second hosts a real room; the first sends the client
// there, every request or only the signaling upgrade, and lists the
// second's room id as its own. Followed, the client would join the room on
// the second master and send it the player's token in join_room (the
// newer master's) and in the room's auth. It stops instead, with an error
// that names both masters, and the second never sees the token.
func TestMasterRedirectKeepsTheToken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	other := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t), AnyOrigin: true})
	defer other.Close()
	hostRoom(t, ctx, other, "Native Room", host.Config{Bots: 0}, nil)
	token := testKeys(t).Token("2", "Alice")

	for name, redirect := range map[string]func(*http.Request) string{
		"every request": func(r *http.Request) string { return other.URL() + r.URL.RequestURI() },
		"the signaling upgrade": func(r *http.Request) string {
			if r.Header.Get("Upgrade") == "" {
				return ""
			}
			return other.URL() + r.URL.RequestURI()
		},
	} {
		t.Run(name, func(t *testing.T) {
			fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t), Redirect: redirect})
			defer fm.Close()
			fm.AddListedAs(other.RoomIDs()[0], "Native Room", "eu", 0, 8)
			before := len(other.Requests())
			pctx, stop := context.WithCancel(ctx)
			defer stop()
			err := ended(t, join(t, pctx, fm, "native room", token), stop)
			if !errors.Is(err, sameorigin.ErrRedirect) || !errors.Is(err, session.ErrStay) {
				t.Errorf("ended with %v, want a refused redirect that is not retried", err)
			}
			if err != nil && (!strings.Contains(err.Error(), hostPort(fm)) || !strings.Contains(err.Error(), hostPort(other))) {
				t.Errorf("the error does not name both masters: %v", err)
			}
			if other.Saw(token) {
				t.Error("the other master saw the token")
			}
			if n := len(other.Requests()) - before; n != 0 {
				t.Errorf("the other master got %d requests from the client", n)
			}
		})
	}
}

// A redirect within the master's own origin is followed to the end: the
// room is joined.
func TestSameOriginRedirectJoins(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t), Redirect: func(r *http.Request) string {
		if (r.URL.Path == "/config" || r.URL.Path == "/servers") && r.URL.Query().Get("hop") == "" {
			q := r.URL.Query()
			q.Set("hop", "1")
			return (&url.URL{Path: r.URL.Path, RawQuery: q.Encode()}).RequestURI()
		}
		return ""
	}})
	defer fm.Close()
	hostRoom(t, ctx, fm, "Native Room", host.Config{Bots: 0}, nil)
	p := join(t, ctx, fm, "native room", testKeys(t).Token("2", "Alice"))
	p.until(t, "playing", isState(session.StatePlaying))
	if !fm.Saw("/config?hop=1") || !fm.Saw("hop=1&limit") && !fm.Saw("limit=50&hop=1") && !fm.Saw("hop=1") {
		t.Errorf("the redirects were not followed: %+v", fm.Requests())
	}
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitSeen(wctx, lobby.TypeJoinRoom); err != nil {
		t.Errorf("no join_room: %v", err)
	}
	cancel()
	<-p.done
}

// A target whose token is bound to another master sends no join_room on
// this master's signaling, though the room itself is reached.
func TestJoinRoomOnlyToTheTokensMaster(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t)})
	defer fm.Close()
	_, room := hostRoom(t, ctx, fm, "Native Room", host.Config{Bots: 0}, nil)
	token := testKeys(t).Token("2", "Alice")
	d := rtc.NewDialer(rtc.Config{Addr: fm.URL(), Room: room.ID(), Tokens: lobby.TokenSources{Flag: token, FlagMaster: fm.URL()}, Log: testLog()})
	target, err := d.Resolve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if target.TokenHome != sameorigin.Parse(fm.URL()) {
		t.Fatalf("the token is bound to %q, not to its master %s", target.TokenHome, fm.URL())
	}
	target.TokenHome = "http://127.0.0.1:1"
	tr, err := d.Dial(ctx, target)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer tr.Close(1000, "")
	// leave_room follows the refused join_room on the same socket.
	if err := d.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitSeen(wctx, lobby.TypeLeaveRoom); err != nil {
		t.Fatal(err)
	}
	if fm.Saw(token) {
		t.Error("join_room carried a token bound to another master")
	}
}
