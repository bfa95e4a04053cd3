package rtc_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/lobby"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/session/rtc"
	"vimpclient/testkit/fakemaster"
)

// rowOf is the player's scoreboard row in a STAT_DATA event, by nick.
func rowOf(e session.Event, nick string) (protocol.StatBody, bool) {
	st, ok := e.Msg.(*protocol.Stat)
	if !ok || e.Kind != session.EventMessage {
		return protocol.StatBody{}, false
	}
	for _, b := range st.Bodies {
		if !b.Remove && len(b.Cells) >= 4 && b.Cells[0].Text == nick {
			return b, true
		}
	}
	return protocol.StatBody{}, false
}

// num is a numeric scoreboard cell (score, deaths).
func num(c protocol.StatCell) int {
	n, _ := strconv.Atoi(c.Text)
	return n
}

// inTeam waits until the player's row shows it in a playing team (the
// session answers the team vote itself) and returns that row.
func inTeam(t *testing.T, p *player, nick string) protocol.StatBody {
	t.Helper()
	var row protocol.StatBody
	p.until(t, nick+" in a team", func(e session.Event) bool {
		if b, ok := rowOf(e, nick); ok && b.Team != 0 {
			row = b
			return true
		}
		return false
	})
	return row
}

// A data channel lost mid-match is followed by an offer with resume and a
// RESUME_REQUEST: the host gives the same seat back (same game id, team
// and score, no CONFIG_DATA, auth form or map), and quitting afterwards
// sends LEAVE, which frees the seat at once instead of after the grace.
func TestResumeAfterLostChannel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t)})
	defer fm.Close()
	var sp spies
	srv, _ := hostRoom(t, ctx, fm, "Resume Room", host.Config{Bots: 1}, sp.wrap)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]
	pctx, leave := context.WithCancel(ctx)
	defer leave()
	p := join(t, pctx, fm, roomID, testKeys(t).Token("2", "Alice"))
	p.until(t, "playing", isState(session.StatePlaying))
	before := inTeam(t, p, "Alice")
	if !p.sess.ResumeSeat(roomID) {
		t.Fatal("no seat key from a host that holds seats")
	}
	ports := p.sess.Stats().Ports

	lostAt := time.Now()
	rtc.KillPeer(p.dialer)
	opened := false
	p.until(t, "seat resumed", func(e session.Event) bool {
		opened = opened || e.Kind == session.EventOpen
		return e.Kind == session.EventResumed
	})
	p.until(t, "playing again", isState(session.StatePlaying))
	row, _ := rowOf(p.until(t, "the scoreboard after the resume", func(e session.Event) bool {
		_, ok := rowOf(e, "Alice")
		return ok
	}), "Alice")
	resumedIn := time.Since(lostAt)
	t.Logf("channel lost → seat resumed and scoreboard back in %v", resumedIn.Round(time.Millisecond))
	if opened {
		t.Error("the resumed connection started over (EventOpen)")
	}
	if row.ID != before.ID || row.Team != before.Team || num(row.Cells[2]) < num(before.Cells[2]) ||
		num(row.Cells[3]) < num(before.Cells[3]) {
		t.Errorf("seat before %+v, after %+v", before, row)
	}
	now := p.sess.Stats()
	for _, port := range []int{protocol.ConfigData, protocol.AuthData, protocol.AuthResult, protocol.MapData} {
		if now.Ports[port] != ports[port] {
			t.Errorf("port %d came again on resume (%d, was %d)", port, now.Ports[port], ports[port])
		}
	}
	if now.Resumes != 1 || now.Connections != 2 {
		t.Errorf("resumes %d, connections %d", now.Resumes, now.Connections)
	}
	if n := fm.ResumeOffers(); n != 1 {
		t.Errorf("%d offers with resume", n)
	}
	if n := sp.count(protocol.ResumeRequest); n != 1 {
		t.Errorf("the host got %d RESUME_REQUEST", n)
	}
	if srv.Players() != 1 {
		t.Errorf("the host counts %d players after the resume", srv.Players())
	}
	// The match goes on: frames flow on the new connection.
	frames := 0
	p.until(t, "frames after the resume", func(e session.Event) bool {
		if e.Kind == session.EventFrame {
			frames++
		}
		return frames >= 10
	})

	// Quitting sends LEAVE: the host removes the player at once, far
	// inside the 20 s it would otherwise hold the seat.
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitReported(wctx, roomID, 1); err != nil {
		t.Fatalf("the host never reported its player: %v", err)
	}
	left := time.Now()
	leave()
	<-p.done
	if err := fm.WaitReported(wctx, roomID, 0); err != nil {
		t.Fatalf("the player is still in the room after quitting: %v", err)
	}
	t.Logf("quit → the host reports 0 players in %v", time.Since(left).Round(time.Millisecond))
	if n := sp.count(protocol.Leave); n != 1 {
		t.Errorf("the host saw %d LEAVE", n)
	}
	if srv.Players() != 0 {
		t.Errorf("%d players after LEAVE", srv.Players())
	}
}

// A seat the host no longer holds is refused ("unknown"): the client says
// so in words and joins the room afresh at once.
func TestResumeRefusedJoinsAfresh(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t)})
	defer fm.Close()
	var sp spies
	// The seat is released almost at once after the loss.
	srv, _ := hostRoom(t, ctx, fm, "Short Room", host.Config{Bots: 1, ResumeGrace: 10 * time.Millisecond}, sp.wrap)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]
	sess := session.New(session.Options{AutoTeam: true, Logger: testLog(), Queue: session.NewQueue(1 << 16)})
	d := rtc.NewDialer(rtc.Config{Addr: fm.URL(), Room: roomID, Tokens: lobby.TokenSources{Flag: testKeys(t).Token("2", "Alice"), FlagMaster: fm.URL()},
		Session: sess, Log: testLog()})
	sess.SetPlatform(d)
	p := &player{sess: sess, dialer: d, done: make(chan struct{})}
	// The next attempt waits until the host has let the seat go.
	r := &session.Runner{Session: sess, Resolve: d.Resolve, Dial: d.Dial,
		Sleep: func(ctx context.Context, _ time.Duration) error {
			return fm.WaitReported(ctx, roomID, 0)
		}}
	go func() {
		defer close(p.done)
		p.info, p.err = r.Run(ctx)
		_ = d.Close()
	}()
	p.until(t, "playing", isState(session.StatePlaying))
	inTeam(t, p, "Alice")
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitReported(wctx, roomID, 1); err != nil {
		t.Fatal(err)
	}
	rtc.KillPeer(d)
	ev := p.until(t, "the refusal said", func(e session.Event) bool {
		return e.Kind == session.EventPlatform && e.Platform.Kind == session.PlatformNotice &&
			strings.Contains(e.Platform.Text, "Could not take the seat back")
	})
	if !strings.Contains(ev.Platform.Text, "no longer holds the seat") {
		t.Errorf("refusal in words %q", ev.Platform.Text)
	}
	p.until(t, "playing as a new player", isState(session.StatePlaying))
	st := sess.Stats()
	if st.ResumesRefused != 1 || st.Resumes != 0 || st.Ports[protocol.ConfigData] != 2 {
		t.Errorf("refused %d, resumed %d, CONFIG_DATA %d", st.ResumesRefused, st.Resumes, st.Ports[protocol.ConfigData])
	}
	if n := sp.count(protocol.ResumeRequest); n != 1 {
		t.Errorf("the host got %d RESUME_REQUEST", n)
	}
	if srv.Players() != 1 {
		t.Errorf("%d players", srv.Players())
	}
}

// A host that never sends SESSION_DATA (as an older host) is never asked
// for a seat: after a lost channel the client joins afresh as it always
// did, with offers that carry no resume.
func TestNoResumeWithoutSessionData(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t)})
	defer fm.Close()
	var sp spies
	hostRoom(t, ctx, fm, "Old Room", host.Config{Bots: 1, ResumeGrace: -1}, sp.wrap)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]
	pctx, leave := context.WithCancel(ctx)
	defer leave()
	p := join(t, pctx, fm, roomID, testKeys(t).Token("2", "Alice"))
	p.until(t, "playing", isState(session.StatePlaying))
	inTeam(t, p, "Alice")
	if p.sess.ResumeSeat(roomID) {
		t.Fatal("a seat key from a host that sent none")
	}
	rtc.KillPeer(p.dialer)
	p.until(t, "a fresh connection", func(e session.Event) bool { return e.Kind == session.EventOpen })
	p.until(t, "playing again", isState(session.StatePlaying))
	leave()
	<-p.done
	if n := sp.count(protocol.ResumeRequest); n != 0 {
		t.Errorf("an older host got %d RESUME_REQUEST", n)
	}
	if n := sp.count(protocol.Leave); n != 0 {
		t.Errorf("an older host got %d LEAVE", n)
	}
	if n := fm.ResumeOffers(); n != 0 {
		t.Errorf("%d offers with resume", n)
	}
}
