package rtc_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/testkit/fakemaster"
)

// freezer silences the host's side of the peers joined so far, as a host
// whose process died mid-match would be silent: its ICE agent still
// answers keep-alives, so only the missing messages tell. Peers joined
// after the freeze are served as usual.
type freezer struct {
	mu    sync.Mutex
	peers []*frozenPeer
}

type frozenPeer struct {
	host.Peer
	mu     sync.Mutex
	frozen bool
}

func (f *freezer) wrap(p host.Peer) host.Peer {
	fp := &frozenPeer{Peer: p}
	f.mu.Lock()
	f.peers = append(f.peers, fp)
	f.mu.Unlock()
	return fp
}

// set freezes (or thaws) every peer joined so far.
func (f *freezer) set(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.peers {
		p.mu.Lock()
		p.frozen = on
		p.mu.Unlock()
	}
}

func (p *frozenPeer) Send(b []byte, binary, lossy bool) error {
	p.mu.Lock()
	frozen := p.frozen
	p.mu.Unlock()
	if frozen {
		return nil
	}
	return p.Peer.Send(b, binary, lossy)
}

// playingWithFrames joins room and waits until frames flow.
func playingWithFrames(t *testing.T, ctx context.Context, fm *fakemaster.Master, room string) *player {
	t.Helper()
	p := join(t, ctx, fm, room, testKeys(t).Token("2", "Alice"))
	p.until(t, "playing", isState(session.StatePlaying))
	p.until(t, "a frame", func(e session.Event) bool { return e.Kind == session.EventFrame })
	return p
}

// A host that goes silent mid-match on the older master: "not responding"
// after a second, given up after 2.5 s; the master no longer lists the
// room (its host's socket closed), so the room is gone, in words, and the
// session stays closed.
func TestSilentHostRoomGone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Keys: testKeys(t)})
	defer fm.Close()
	var fr freezer
	hostRoom(t, ctx, fm, "Rig Room", host.Config{Bots: 1}, fr.wrap)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]
	p := playingWithFrames(t, ctx, fm, roomID)

	fr.set(true)
	st := p.until(t, "host not responding", isPlatform(session.PlatformHostStalled))
	if st.Platform.Text != "Host not responding" || st.Platform.Silent < time.Second {
		t.Fatalf("stall %+v", st.Platform)
	}
	fm.CloseRoom(roomID, "") // the room leaves the list, as when its host's process dies
	lost := p.until(t, "host lost", isPlatform(session.PlatformHostLost)).Platform
	if lost.Silent < 2500*time.Millisecond || lost.Silent >= 4*time.Second {
		t.Errorf("given up after %v of silence", lost.Silent)
	}
	t.Logf("host given up after %v of silence", lost.Silent)
	if !strings.HasPrefix(lost.Text, "Room gone: the host of “Rig Room” stopped responding") || strings.Contains(lost.Text, roomID) {
		t.Errorf("lost: %q", lost.Text)
	}
	closed := p.until(t, "room closed", isPlatform(session.PlatformRoomClosed)).Platform
	if closed.Text != lost.Text {
		t.Errorf("closed %q, lost %q", closed.Text, lost.Text)
	}
	<-p.done
	if p.info == nil || p.info.Code != protocol.CloseRoomClosed || p.info.Reconnect || p.info.Reason != lost.Text {
		t.Fatalf("the session ended with %+v, %v", p.info, p.err)
	}
}

// On the newer master a lost host is reported (host_unreachable); the
// master still has the room, so it is joined again at once.
func TestSilentHostReportedAndRejoined(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t)})
	defer fm.Close()
	var fr freezer
	hostRoom(t, ctx, fm, "Native Room", host.Config{Bots: 1}, fr.wrap)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]
	p := playingWithFrames(t, ctx, fm, roomID)
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	if err := fm.WaitMembers(wctx, roomID, 1); err != nil {
		t.Fatal(err)
	}

	fr.set(true)
	lost := p.until(t, "host lost", isPlatform(session.PlatformHostLost)).Platform
	if !strings.Contains(lost.Text, "joining the room again") {
		t.Errorf("lost: %q", lost.Text)
	}
	ev := p.until(t, "closed", func(e session.Event) bool { return e.Kind == session.EventClosed })
	if ev.Close.Code != protocol.CloseHostLost || !ev.Close.Reconnect {
		t.Fatalf("close %+v", ev.Close)
	}
	if err := fm.WaitSeen(wctx, "host_unreachable"); err != nil {
		t.Fatalf("no host_unreachable: %v", err)
	}
	p.until(t, "playing again", isState(session.StatePlaying))
}

// A host quiet for a moment and then heard again: "not responding", then
// back, and the match goes on.
func TestStalledHostRecovers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Keys: testKeys(t)})
	defer fm.Close()
	var fr freezer
	hostRoom(t, ctx, fm, "Rig Room", host.Config{Bots: 1}, fr.wrap)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	p := playingWithFrames(t, ctx, fm, fm.RoomIDs()[0])
	fr.set(true)
	p.until(t, "host not responding", isPlatform(session.PlatformHostStalled))
	fr.set(false)
	p.until(t, "host responding", func(e session.Event) bool {
		if e.Kind == session.EventClosed || (e.Kind == session.EventPlatform && e.Platform.Kind == session.PlatformHostLost) {
			t.Fatalf("a host heard again was given up: %+v", e)
		}
		return e.Kind == session.EventPlatform && e.Platform.Kind == session.PlatformHostResponding
	})
	p.until(t, "frames again", func(e session.Event) bool { return e.Kind == session.EventFrame })
}
