package lobbyroom

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/lobby"
	"vimpclient/sameorigin"
	"vimpclient/testkit/fakemaster"
)

func TestRegisterAndLeave(t *testing.T) {
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	other, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, OneRoomPerAddress: true})
	defer fm.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, srv, Config{Master: fm.URL(), Name: "R", Token: other.Token("1", "H")}); err == nil ||
		!strings.Contains(err.Error(), "sign-in was not accepted") {
		t.Errorf("mis-signed hoster token: %v", err)
	}
	rctx, rcancel := context.WithCancel(ctx)
	r, err := Open(rctx, srv, Config{Master: fm.URL(), Name: "R", Token: keys.Token("1", "H")})
	if err != nil {
		t.Fatal(err)
	}
	if ids := fm.RoomIDs(); len(ids) != 1 || ids[0] != r.ID() {
		t.Fatalf("rooms %v, registered %s", ids, r.ID())
	}
	if _, err := Open(ctx, srv, Config{Master: fm.URL(), Name: "R2", Token: keys.Token("1", "H")}); err == nil ||
		!strings.Contains(err.Error(), "one room per address") {
		t.Errorf("second room from one address: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(rctx) }()
	rcancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitGone(wctx, r.ID()); err != nil {
		t.Error("the room stayed listed after leaving")
	}
}

// register_host carries the hoster's token: a master that sends the
// signaling upgrade to another origin gets an error naming both, and a
// token bound to another master is not sent; the other master sees no
// token either way.
func TestRegisterHostStaysWithItsMaster(t *testing.T) {
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	other := fakemaster.Start(fakemaster.Config{Keys: keys, AnyOrigin: true})
	defer other.Close()
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, Redirect: func(r *http.Request) string {
		return other.URL() + r.URL.RequestURI()
	}})
	defer fm.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	token := keys.Token("1", "H")
	_, err = Open(ctx, srv, Config{Master: fm.URL(), Name: "R", Token: token})
	if !errors.Is(err, sameorigin.ErrRedirect) || !strings.Contains(err.Error(), strings.TrimPrefix(fm.URL(), "http://")) ||
		!strings.Contains(err.Error(), strings.TrimPrefix(other.URL(), "http://")) {
		t.Errorf("redirected registration: %v", err)
	}
	if len(other.Requests()) != 0 {
		t.Errorf("the other master got %+v", other.Requests())
	}

	_, err = Open(ctx, srv, Config{Master: other.URL(), Name: "R", Token: token, TokenHome: sameorigin.Parse(fm.URL())})
	if !errors.Is(err, lobby.ErrTokenElsewhere) {
		t.Errorf("a token of another master: %v", err)
	}
	if other.Saw(token) || len(other.RoomIDs()) != 0 {
		t.Errorf("the other master saw the token (rooms %v)", other.RoomIDs())
	}
}
