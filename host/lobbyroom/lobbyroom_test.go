package lobbyroom

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/internal/fakemaster"
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
