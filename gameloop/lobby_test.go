package gameloop

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/host"
	"vimpclient/host/lobbyroom"
	"vimpclient/hud"
	"vimpclient/lobby"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/session/rtc"
	"vimpclient/testkit/fakemaster"
)

// hostSpy records what joiners send the room's host.
type hostSpy struct {
	host.Peer
	mu    *sync.Mutex
	lines *[]string
}

func (s hostSpy) Recv(ctx context.Context) ([]byte, error) {
	b, err := s.Peer.Recv(ctx)
	if err == nil {
		s.mu.Lock()
		*s.lines = append(*s.lines, string(b))
		s.mu.Unlock()
	}
	return b, err
}

// lobbyPlayer is a session joined to a room through the master, its runner
// running until the test ends.
func lobbyPlayer(t *testing.T, ctx context.Context, fm *fakemaster.Master, room, token string, opts session.Options) *session.Session {
	t.Helper()
	opts.Logger = quiet()
	sess := session.New(opts)
	d := rtc.NewDialer(rtc.Config{Addr: fm.URL(), Room: room, Tokens: lobby.TokenSources{Flag: token, FlagMaster: fm.URL()}, Session: sess, Log: quiet()})
	sess.SetPlatform(d)
	r := &session.Runner{Session: sess, Resolve: d.Resolve, Dial: d.Dial,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = r.Run(ctx)
		_ = d.Close()
	}()
	t.Cleanup(func() { <-done })
	return sess
}

// tickUntil ticks the loop at every session event until cond holds.
func tickUntil(t *testing.T, l *Loop, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	for l.Tick(time.Now()); !cond(); l.Tick(time.Now()) {
		select {
		case <-l.Session().Queue().Ready():
		case <-deadline.C:
			t.Fatalf("%s: not within 30 s", what)
		}
	}
}

// The "Change host" vote end to end through a game loop: another player's
// /changehost reaches this player as the engine vote @changeHost, which
// waits behind the host's team vote on screen, then shows with the
// client's template, is answered through the session to the master, and
// its result is said — and nothing of it reaches the host.
func TestChangeHostVoteThroughTheLoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keys, err := fakemaster.NewKeys("loop")
	if err != nil {
		t.Fatal(err)
	}
	passed := make(chan string, 1)
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: keys, Log: quiet(),
		OnVotePassed: func(room string) { passed <- room }})
	defer fm.Close()
	srv, err := host.Start(ctx, host.Config{Bots: 0, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var toHost []string
	room, err := lobbyroom.Open(ctx, srv, lobbyroom.Config{Master: fm.URL(), Name: "Vote Room", Token: keys.Token("1", "Hoster"),
		Log: quiet(), WrapPeer: func(p host.Peer) host.Peer { return hostSpy{Peer: p, mu: &mu, lines: &toHost} }})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = room.Run(ctx) }()
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]

	// Bob plays in a loop and chooses his team on screen: the host's team
	// vote stays open in his HUD.
	bob := lobbyPlayer(t, ctx, fm, "Vote Room", keys.Token("3", "Bob"), session.Options{})
	loop := New(Options{Session: bob, Log: quiet(), Interactive: true, Context: ctx})
	tickUntil(t, loop, "the team vote", func() bool { c := loop.HUD().Vote.Cur; return c != nil && c.Name == "teamChange" })
	alice := lobbyPlayer(t, ctx, fm, "Vote Room", keys.Token("2", "Alice"), session.Options{AutoTeam: true})
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	if err := fm.WaitMembers(wctx, roomID, 2); err != nil {
		t.Fatal(err)
	}

	if err := alice.Chat("/changehost"); err != nil {
		t.Fatal(err)
	}
	v := func() *hud.Vote { return loop.HUD().Vote }
	tickUntil(t, loop, "the engine vote queued", func() bool { q := v().Queued(); return q != nil && q.Engine })
	if c := v().Cur; c == nil || c.Name != "teamChange" {
		t.Fatalf("the engine vote overwrote the host's: %+v", c)
	}
	q := v().Queued()
	if q.Name != "@changeHost" || q.Title != "Change host? (started by Alice)" || q.Deadline <= loop.NowMs() {
		t.Fatalf("queued %+v at %v", q, loop.NowMs())
	}

	// Bob answers the host's vote (port 7): the engine vote comes next.
	loop.HUD().VoteKey('1', loop.NowMs())
	if c := v().Cur; c == nil || !c.Engine || c.Name != "@changeHost" {
		t.Fatalf("after the team vote %+v", c)
	}
	loop.Tick(time.Now())
	loop.HUD().VoteKey('1', loop.NowMs()) // Yes
	tickUntil(t, loop, "the result", func() bool {
		for _, n := range loop.HUD().Notices() {
			if n.Text == "Vote to change host passed (2/2)" {
				return true
			}
		}
		return false
	})
	select {
	case r := <-passed:
		if r != roomID {
			t.Errorf("passed for %s", r)
		}
	case <-wctx.Done():
		t.Fatal("the master saw no passed vote")
	}
	if v().Open() {
		t.Errorf("a window stayed: %+v", v().Cur)
	}
	seen := 0
	for _, l := range fm.Log() {
		if l.Dir == "in" && l.Type == "host_vote_answer" {
			seen++
		}
	}
	if seen != 1 {
		t.Errorf("the master got %d answers", seen)
	}
	mu.Lock()
	defer mu.Unlock()
	team := false
	for _, line := range toHost {
		low := strings.ToLower(line)
		if strings.Contains(low, "changehost") || strings.Contains(low, `"@`) {
			t.Errorf("the host got %s", line)
		}
		if port, _, ok := host.ParseClientMessage([]byte(line)); ok && port == protocol.VoteSend {
			team = true
		}
	}
	if !team {
		t.Error("the host vote's answer never reached the host")
	}
}

// hostChangeWatch records, event by event, whether the HUD showed the
// host-change screen.
type hostChangeWatch struct {
	mu             sync.Mutex
	shown, unshown int // events after which the screen was shown; after it went
	closes         []*session.CloseInfo
}

func (w *hostChangeWatch) Event(l *Loop, ev *session.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if l.HUD().HostChange.Shown {
		w.shown++
	} else if w.shown > 0 {
		w.unshown++
	}
	if ev.Kind == session.EventClosed {
		w.closes = append(w.closes, ev.Close)
	}
}
func (w *hostChangeWatch) Frame(*clientcore.Frame) {}
func (w *hostChangeWatch) Tick(*Loop, time.Time)   {}

// A change of host through the loop: the host-change screen, not the
// reconnecting one, from the master's announcement until the new host's
// connection opens; then a closed room ends the run with its reason.
func TestHostChangeThroughTheLoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keys, err := fakemaster.NewKeys("loop")
	if err != nil {
		t.Fatal(err)
	}
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: keys, Log: quiet()})
	defer fm.Close()
	for i, name := range []string{"Native Room", "Successor"} {
		srv, err := host.Start(ctx, host.Config{Bots: 0, Log: quiet()})
		if err != nil {
			t.Fatal(err)
		}
		room, err := lobbyroom.Open(ctx, srv, lobbyroom.Config{Master: fm.URL(), Name: name, Token: keys.Token("1", "Hoster"), Log: quiet()})
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = room.Run(ctx) }()
		if err := fm.WaitRooms(ctx, i+1); err != nil {
			t.Fatal(err)
		}
	}
	ids := fm.RoomIDs()
	watch := &hostChangeWatch{}
	sess := lobbyPlayer(t, ctx, fm, ids[0], keys.Token("2", "Alice"), session.Options{AutoTeam: true})
	loop := New(Options{Session: sess, Log: quiet(), Interactive: true, AutoTeam: true, Context: ctx, Observer: watch})
	loop.SetTarget(session.Target{Lobby: true, Master: fm.URL(), Room: ids[0], RoomName: "Native Room"}) // as the runner does
	tickUntil(t, loop, "playing", func() bool { return !loop.Stats().PlayAt.IsZero() })
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	if err := fm.WaitMembers(wctx, ids[0], 1); err != nil {
		t.Fatal(err)
	}
	first := loop.ConfigAt()
	if err := fm.Migrate(ids[0], ids[1], "cold"); err != nil {
		t.Fatal(err)
	}
	tickUntil(t, loop, "the new host's CONFIG_DATA", func() bool { return loop.ConfigAt().After(first) })
	watch.mu.Lock()
	shown, unshown := watch.shown, watch.unshown
	watch.mu.Unlock()
	if shown == 0 || unshown == 0 {
		t.Fatalf("host-change screen shown after %d events, gone after %d", shown, unshown)
	}
	if h := loop.HUD(); h.HostChange.Shown || h.Reconnect.Shown || h.Tech.Shown {
		t.Fatalf("on the new host: host change %v, reconnect %v, tech %v", h.HostChange.Shown, h.Reconnect.Shown, h.Tech.Shown)
	}
	ls := Summarize(loop, nil, time.Second).Lobby
	if ls == nil || ls.Master != fm.URL() || ls.Room != "Native Room" || ls.RoomID != ids[0] || ls.JoinMs == nil || *ls.JoinMs <= 0 ||
		ls.Migrations != 1 || len(ls.HostChanges) != 1 || ls.HostLostMs != nil {
		t.Fatalf("lobby summary %+v", ls)
	}
	if c := ls.HostChanges[0]; c.Epoch != 2 || c.Mode != "cold" || c.GapMs == nil || *c.GapMs <= 0 {
		t.Fatalf("host change %+v", c)
	}
	t.Logf("join %d ms, host change gap %d ms", *ls.JoinMs, *ls.HostChanges[0].GapMs)

	fm.CloseRoom(ids[0], "hostLeft")
	tickUntil(t, loop, "room closed", func() bool { return loop.RoomClosed() != "" && loop.Stats().Close != nil })
	if r := loop.RoomClosed(); !strings.Contains(r, "hostLeft") {
		t.Errorf("room closed %q", r)
	}
	if c := loop.Stats().Close; c.Code != protocol.CloseRoomClosed || c.Reconnect {
		t.Errorf("closed %+v", c)
	}
}
