package rtc_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/host"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/testkit/fakemaster"
)

func isPlatform(k session.PlatformKind) func(session.Event) bool {
	return func(e session.Event) bool { return e.Kind == session.EventPlatform && e.Platform.Kind == k }
}

// spy records the ports of what joiners send to a host.
type spy struct {
	host.Peer
	mu    sync.Mutex
	ports map[int]int
	lines []string
}

func (s *spy) Recv(ctx context.Context) ([]byte, error) {
	b, err := s.Peer.Recv(ctx)
	if err == nil {
		if port, payload, ok := host.ParseClientMessage(b); ok {
			s.mu.Lock()
			s.ports[port]++
			s.lines = append(s.lines, string(payload))
			s.mu.Unlock()
		}
	}
	return b, err
}

type spies struct {
	mu   sync.Mutex
	list []*spy
}

func (ss *spies) wrap(p host.Peer) host.Peer {
	s := &spy{Peer: p, ports: map[int]int{}}
	ss.mu.Lock()
	ss.list = append(ss.list, s)
	ss.mu.Unlock()
	return s
}

func (ss *spies) count(port int) int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	n := 0
	for _, s := range ss.list {
		s.mu.Lock()
		n += s.ports[port]
		s.mu.Unlock()
	}
	return n
}

func (ss *spies) said(sub string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, s := range ss.list {
		s.mu.Lock()
		for _, l := range s.lines {
			if strings.Contains(l, sub) {
				s.mu.Unlock()
				return true
			}
		}
		s.mu.Unlock()
	}
	return false
}

// A guest survives a change of host (a fresh handshake with the new host),
// then leaves when the master closes the room.
func TestHostMigrationAndRoomClosed(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t)})
	defer fm.Close()
	first, _ := hostRoom(t, ctx, fm, "Native Room", host.Config{Bots: 1}, nil)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]
	second, _ := hostRoom(t, ctx, fm, "Successor", host.Config{Bots: 1}, nil)
	if err := fm.WaitRooms(ctx, 2); err != nil {
		t.Fatal(err)
	}
	succID := fm.RoomIDs()[1]

	p := join(t, ctx, fm, roomID, testKeys(t).Token("2", "Alice"))
	p.until(t, "playing on the first host", isState(session.StatePlaying))
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitMembers(wctx, roomID, 1); err != nil {
		t.Fatalf("join_room never reached the master: %v", err)
	}
	if first.Players() != 1 || second.Players() != 0 {
		t.Fatalf("players %d/%d before the change", first.Players(), second.Players())
	}

	if err := fm.Migrate(roomID, succID, "cold"); err != nil {
		t.Fatal(err)
	}
	// The old connection's end and the master's host_changed race each
	// other and the host-changing notice: take all three, in any order.
	var closed *session.CloseInfo
	changed, changing := false, false
	p.until(t, "host changing, old connection closed and host changed", func(e session.Event) bool {
		switch {
		case e.Kind == session.EventClosed:
			closed = e.Close
		case e.Kind == session.EventPlatform && e.Platform.Kind == session.PlatformHostChanged:
			changed = true
		case e.Kind == session.EventPlatform && e.Platform.Kind == session.PlatformHostChanging:
			changing = true
		}
		return closed != nil && changed && changing
	})
	if closed.Code != protocol.CloseHostMigrating || !closed.Reconnect {
		t.Fatalf("old host's close %+v", closed)
	}
	p.until(t, "playing on the new host", isState(session.StatePlaying))
	if second.Players() != 1 {
		t.Fatalf("the new host has %d players", second.Players())
	}

	fm.CloseRoom(roomID, "hostLeft")
	ev := p.until(t, "room closed", isPlatform(session.PlatformRoomClosed))
	if !strings.Contains(ev.Platform.Text, "hostLeft") {
		t.Errorf("room closed text %q", ev.Platform.Text)
	}
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the runner did not end after room_closed")
	}
	if p.info == nil || p.info.Code != protocol.CloseRoomClosed || p.info.Reconnect {
		t.Fatalf("ended with %+v, %v", p.info, p.err)
	}
}

// The "Change host" vote runs through the master as the engine vote
// @changeHost, answered over signaling and never on the host's vote port.
func TestChangeHostVote(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	passed := make(chan string, 1)
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t),
		OnVotePassed: func(room string) { passed <- room }})
	defer fm.Close()
	var sp spies
	hostRoom(t, ctx, fm, "Vote Room", host.Config{Bots: 0}, sp.wrap)
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	roomID := fm.RoomIDs()[0]
	alice := join(t, ctx, fm, "Vote Room", testKeys(t).Token("2", "Alice"))
	bob := join(t, ctx, fm, "Vote Room", testKeys(t).Token("3", "Bob"))
	alice.until(t, "alice playing", isState(session.StatePlaying))
	bob.until(t, "bob playing", isState(session.StatePlaying))
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitMembers(wctx, roomID, 2); err != nil {
		t.Fatal(err)
	}

	if err := alice.sess.Chat("/changehost"); err != nil {
		t.Fatal(err)
	}
	mine := alice.until(t, "alice's vote", isPlatform(session.PlatformVote)).Platform.Vote
	if mine.Name != session.ChangeHostVote || !mine.Mine {
		t.Errorf("starter's vote %+v", mine)
	}
	theirs := bob.until(t, "bob's vote", isPlatform(session.PlatformVote)).Platform.Vote
	if theirs.Name != "@changeHost" || theirs.Mine || len(theirs.Params) != 1 || theirs.Params[0] != "Alice" ||
		len(theirs.Values) != 2 || theirs.Eligible != 2 || theirs.Ends.IsZero() {
		t.Errorf("other's vote %+v", theirs)
	}
	if err := bob.sess.VoteAnswer(theirs.Name, "yes"); err != nil {
		t.Fatal(err)
	}
	res := bob.until(t, "result", isPlatform(session.PlatformVoteResult)).Platform.Vote.Result
	if !res.Passed || res.Yes != 2 {
		t.Errorf("result %+v", res)
	}
	select {
	case r := <-passed:
		if r != roomID {
			t.Errorf("passed for %s", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the master saw no passed vote")
	}
	if n := sp.count(protocol.VoteSend); n != 0 {
		t.Errorf("%d vote messages reached the host", n)
	}
	if sp.said("changehost") {
		t.Error("the /changehost command reached the host as chat")
	}
	if err := bob.sess.VoteAnswer("@other", "yes"); err == nil {
		t.Error("an unknown engine vote was answered")
	}
	// Leaving says so to the master at once.
	cancel()
	<-alice.done
	lctx, lcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer lcancel()
	if err := fm.WaitSeen(lctx, "leave_room"); err != nil {
		t.Errorf("no leave_room: %v", err)
	}
}

// /like and /unlike go to the older master with the token, never to the host.
func TestLikeGoesToTheMaster(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Older, Keys: testKeys(t)})
	defer fm.Close()
	var sp spies
	hostRoom(t, ctx, fm, "Like Room", host.Config{Bots: 0}, sp.wrap)
	p := join(t, ctx, fm, "Like Room", testKeys(t).Token("2", "Alice"))
	p.until(t, "playing", isState(session.StatePlaying))
	if err := p.sess.Chat("/like"); err == nil {
		t.Error("/like without a reason was sent")
	}
	if err := p.sess.Chat("/like great map"); err != nil {
		t.Fatal(err)
	}
	if err := p.sess.Chat("/unlike laggy"); err != nil {
		t.Fatal(err)
	}
	p.until(t, "notice", isPlatform(session.PlatformNotice))
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := fm.WaitSeen(wctx, "unlike_host"); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range fm.Log() {
		if l.Dir == "in" {
			seen[l.Type] = true
		}
	}
	if !seen["like_host"] || !seen["unlike_host"] {
		t.Errorf("master saw %v", seen)
	}
	if sp.said("great map") || sp.said("laggy") || sp.count(protocol.ChatSend) != 0 {
		t.Error("a rating reached the host")
	}
}

// The host's candidates overtake its answer: the client queues them until
// the answer is applied, and sends none of its own before the answer.
func TestCandidateRace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Older, Keys: testKeys(t), CandidatesFirst: true})
	defer fm.Close()
	hostRoom(t, ctx, fm, "Race Room", host.Config{Bots: 0}, nil)
	p := join(t, ctx, fm, "Race Room", testKeys(t).Token("2", "Alice"))
	p.until(t, "playing", isState(session.StatePlaying))
	cancel()
	<-p.done

	log := fm.Log()
	client := ""
	for _, l := range log {
		if l.Dir == "in" && l.Type == "webrtc_offer" {
			client = l.Session
		}
	}
	answered, candidateFirst, sentEarly, sentLater := false, false, 0, 0
	for _, l := range log {
		if l.Session != client {
			continue
		}
		switch {
		case l.Dir == "out" && l.Type == "webrtc_answer":
			answered = true
		case l.Dir == "out" && l.Type == "ice_candidate" && !answered:
			candidateFirst = true
		case l.Dir == "in" && l.Type == "ice_candidate" && !answered:
			sentEarly++
		case l.Dir == "in" && l.Type == "ice_candidate":
			sentLater++
		}
	}
	if !candidateFirst {
		t.Fatal("the race was not staged: no host candidate before the answer")
	}
	if sentEarly != 0 || sentLater == 0 {
		t.Errorf("client candidates: %d before the answer, %d after", sentEarly, sentLater)
	}
}

// shuffler reorders, repeats and drops the positional frames a host sends.
type shuffler struct {
	host.Peer
	mu      sync.Mutex
	group   [][]byte
	n       int
	dups    atomic.Int64
	dropped atomic.Int64
}

func (s *shuffler) Send(b []byte, binary, lossy bool) error {
	if !binary || !lossy {
		return s.Peer.Send(b, binary, lossy)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	if s.n%11 == 0 {
		s.dropped.Add(1)
		return nil
	}
	s.group = append(s.group, bytes.Clone(b))
	if len(s.group) < 3 {
		return nil
	}
	for i := len(s.group) - 1; i >= 0; i-- {
		if err := s.Peer.Send(s.group[i], true, true); err != nil {
			return err
		}
		if i%2 == 0 {
			s.dups.Add(1)
			if err := s.Peer.Send(s.group[i], true, true); err != nil {
				return err
			}
		}
	}
	s.group = s.group[:0]
	return nil
}

// Positional frames arrive reversed, twice and with gaps: the client core
// still emits every frame once and in seq order.
func TestShuffledStateFrames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Older, Keys: testKeys(t)})
	defer fm.Close()
	var sh *shuffler
	var shMu sync.Mutex
	hostRoom(t, ctx, fm, "Shuffle Room", host.Config{Bots: 3}, func(p host.Peer) host.Peer {
		shMu.Lock()
		defer shMu.Unlock()
		sh = &shuffler{Peer: p}
		return sh
	})
	p := join(t, ctx, fm, "Shuffle Room", testKeys(t).Token("2", "Alice"))
	start := time.Now()
	ms := func(at time.Time) float64 { return float64(at.Sub(start).Microseconds()) / 1000 }
	var core *clientcore.Core
	var seqs []uint32
	p.until(t, "120 frames through the core", func(e session.Event) bool {
		switch e.Kind {
		case session.EventMessage:
			if cfg, ok := e.Msg.(*protocol.Config); ok {
				s, err := clientcore.ParseSchema(cfg.Snapshot)
				if err != nil {
					t.Fatal(err)
				}
				core = clientcore.New(s, clientcore.Options{Delay: cfg.Interpolation.Delay, MaxFrameAge: cfg.Interpolation.MaxFrameAge})
			}
		case session.EventFrame:
			if core != nil {
				core.PushFrame(e.Data, ms(e.At))
			}
		}
		if core != nil {
			core.Sample(ms(time.Now()))
			for _, f := range core.TakeFrames() {
				seqs = append(seqs, f.Seq)
			}
		}
		return len(seqs) >= 120
	})
	// Every frame is emitted once; in seq order, except a frame that came
	// behind render time (Late), which the core emits at once.
	st := core.Stats()
	once := map[uint32]bool{}
	inversions := 0
	for i, q := range seqs {
		if once[q] {
			t.Fatalf("frame %d emitted twice", q)
		}
		once[q] = true
		if i > 0 && q < seqs[i-1] {
			inversions++
		}
	}
	if uint64(inversions) > st.Late {
		t.Errorf("%d frames out of order, only %d late: %v", inversions, st.Late, seqs)
	}
	shMu.Lock()
	dups, dropped := sh.dups.Load(), sh.dropped.Load()
	shMu.Unlock()
	if dups == 0 || dropped == 0 || st.Duplicates == 0 {
		t.Errorf("shuffler sent %d duplicates, dropped %d; core saw %d duplicates", dups, dropped, st.Duplicates)
	}
}

// A token that expired or is missing stops the join before any connection,
// with a sign-in hint; one signed by a stranger's key is refused by the host.
func TestTokenProblems(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Older, Keys: testKeys(t)})
	defer fm.Close()
	srv, _ := hostRoom(t, ctx, fm, "Token Room", host.Config{Bots: 0}, nil)

	expired := testKeys(t).Sign(fakemaster.TokenClaims{Sub: "2", Nick: "Alice", Expiry: time.Now().Add(-time.Hour)})
	for name, tc := range map[string]struct{ token, want string }{
		"expired": {expired, "sign in again"},
		"missing": {"", "needs a sign-in"},
	} {
		p := join(t, ctx, fm, "Token Room", tc.token)
		select {
		case <-p.done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the runner did not stop", name)
		}
		if p.err == nil || !strings.Contains(p.err.Error(), tc.want) || !strings.Contains(p.err.Error(), "vimpclient login") {
			t.Errorf("%s: ended with %v", name, p.err)
		}
		if st := p.sess.Stats(); st.Connections != 0 {
			t.Errorf("%s: %d connections made", name, st.Connections)
		}
	}

	stranger, err := fakemaster.NewKeys("test-key")
	if err != nil {
		t.Fatal(err)
	}
	p := join(t, ctx, fm, "Token Room", stranger.Token("2", "Mallory"))
	ev := p.until(t, "auth result", func(e session.Event) bool {
		return e.Kind == session.EventMessage && e.Port == protocol.AuthResult
	})
	v := ev.Msg.(protocol.AuthVerdict)
	if v.OK || len(v.Errors) != 1 || v.Errors[0].Name != "token" || v.Errors[0].Error != "invalid" {
		t.Errorf("mis-signed token verdict %+v", v)
	}
	if srv.Players() != 0 {
		t.Errorf("%d players admitted", srv.Players())
	}
}
