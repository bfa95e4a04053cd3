package rtc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"vimpclient/lobby"
	"vimpclient/protocol"
	"vimpclient/session"
)

// handle routes a signaling message (on the signaling read goroutine; it
// never blocks).
func (d *Dialer) handle(msg any) {
	switch m := msg.(type) {
	case *lobby.Answer:
		if p := d.currentPeer(m.Room()); p != nil {
			p.answer(m)
		}
	case *lobby.RemoteCandidate:
		if p := d.currentPeer(m.FromID); p != nil {
			p.remoteCandidate(m)
		}
	case *lobby.Error:
		if m.Re != "" {
			d.mu.Lock()
			d.newer = true // only the newer master says which request it refused
			d.mu.Unlock()
		}
		d.onError(m)
	case *lobby.RoomJoined:
		d.mu.Lock()
		if d.target != nil && m.RoomID == d.target.Room && m.Epoch > d.epoch {
			d.epoch = m.Epoch
		}
		d.joinTries, d.newer = 0, true
		d.mu.Unlock()
	case *lobby.HostMigrating:
		d.hostMigrating(m)
	case *lobby.HostChanged:
		d.hostChanged(m)
	case *lobby.RoomClosed:
		d.roomClosed(m)
	case *lobby.HostVote:
		d.hostVote(m)
	case *lobby.HostVoteAccepted:
		d.notify(session.PlatformEvent{Kind: session.PlatformNotice, Text: "Your vote was counted."})
	case *lobby.HostVoteResult:
		d.hostVoteResult(m)
	}
}

// currentPeer is the peer of the room id, if one is being offered or open.
func (d *Dialer) currentPeer(room string) *offerer {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.peer != nil && d.peer.room == room {
		return d.peer
	}
	return nil
}

// onError hands an offer's refusal to the offer in flight and turns every
// other refusal into a notice in words.
func (d *Dialer) onError(e *lobby.Error) {
	d.mu.Lock()
	p, t := d.peer, d.target
	inFlight := p != nil && !p.isAnswered()
	d.mu.Unlock()
	offerCode := e.Code == "unknownHost" || e.Code == "unknownRoom" || e.Code == "migrating"
	switch {
	case e.Re == lobby.TypeOffer || (e.Re == "" && offerCode && inFlight):
		if p != nil {
			p.refused(e.Err())
		}
		return
	case e.Re == lobby.TypeJoinRoom && e.Code == "unknownRoom":
		// The room may be between hosts: ask again shortly.
		d.mu.Lock()
		retry := d.joinTries < maxJoinRetries && t != nil
		d.joinTries++
		d.mu.Unlock()
		if retry {
			time.AfterFunc(joinRetry, func() { d.joinRoomLater(t) })
			return
		}
	}
	d.notify(session.PlatformEvent{Kind: session.PlatformNotice, Text: lobby.Words(e.Code, e.Reason)})
}

func (o *offerer) isAnswered() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.answered
}

// migrationWait is how long a guest waits for the new host.
func migrationWait(waitMs int64) time.Duration {
	w := time.Duration(waitMs) * time.Millisecond
	return max(minMigrationWait, min(w, maxMigrationWait))
}

// hostMigrating drops the old host at once and holds the next dial until
// host_changed (a repeat of the same epoch extends the wait).
func (d *Dialer) hostMigrating(m *lobby.HostMigrating) {
	d.mu.Lock()
	if d.target == nil || m.RoomID != d.target.Room || d.closed {
		d.mu.Unlock()
		return
	}
	fresh := !d.migrating || m.Epoch > d.migEpoch
	if fresh {
		d.migrating, d.migEpoch = true, m.Epoch
	}
	d.migDeadline = d.cfg.Now().Add(migrationWait(m.WaitMs))
	tr, p := d.tr, d.peer
	d.mu.Unlock()
	if !fresh {
		return
	}
	if tr != nil {
		tr.endWith(protocol.CloseHostMigrating, "Host changing…", true)
	}
	if p != nil {
		p.close()
	}
	d.notify(session.PlatformEvent{Kind: session.PlatformHostChanging, Text: "Host changing…"})
}

// hostChanged releases the waiting dial: the next attempt offers to the
// room's new host. A match that goes on (checkpoint, planned, reclaimed)
// is asked for the held seat; a cold restart has none to give, so the key
// is forgotten and the new host runs a fresh handshake.
func (d *Dialer) hostChanged(m *lobby.HostChanged) {
	d.mu.Lock()
	if d.target == nil || m.RoomID != d.target.Room || d.closed {
		d.mu.Unlock()
		return
	}
	waiting := d.migrating
	if !waiting && m.Mode == "reclaimed" {
		d.mu.Unlock()
		return // the old host is back and never left this guest
	}
	d.migrating = false
	d.epoch = max(d.epoch, m.Epoch)
	if m.Mode == "cold" && d.cfg.Session != nil {
		d.cfg.Session.ForgetSeat()
	}
	close(d.changed)
	d.changed = make(chan struct{})
	tr := d.tr
	d.mu.Unlock()
	if !waiting && tr != nil {
		// A change nobody announced: leave the old host now.
		tr.endWith(protocol.CloseHostMigrating, "Host changing…", true)
	}
	d.notify(session.PlatformEvent{Kind: session.PlatformHostChanged, Text: "New host: rejoining the room.",
		Epoch: m.Epoch, Mode: m.Mode})
}

// roomClosed ends the session for good with the master's reason.
func (d *Dialer) roomClosed(m *lobby.RoomClosed) {
	d.mu.Lock()
	if d.target == nil || m.RoomID != d.target.Room || d.closed {
		d.mu.Unlock()
		return
	}
	// The master's code in words, or its own words escaped and bounded:
	// they reach the notice, the summary and the terminal.
	why := lobby.ClosedWords(m.Reason)
	d.closed, d.closedWhy, d.migrating, d.joined = true, why, false, false
	close(d.changed)
	d.changed = make(chan struct{})
	tr, p := d.tr, d.peer
	d.mu.Unlock()
	if tr != nil {
		tr.endWith(protocol.CloseRoomClosed, why, false)
	}
	if p != nil {
		p.close()
	}
	d.notify(session.PlatformEvent{Kind: session.PlatformRoomClosed, Text: why})
}

func (d *Dialer) hostVote(m *lobby.HostVote) {
	d.mu.Lock()
	if d.target == nil || m.RoomID != d.target.Room {
		d.mu.Unlock()
		return
	}
	d.vote = m
	d.mu.Unlock()
	v := &session.EngineVote{Name: session.ChangeHostVote, ID: m.VoteID, Values: []string{"yes", "no"},
		Duration: time.Duration(m.DurationMs) * time.Millisecond, Eligible: m.EligibleCount, Mine: m.Started}
	if m.InitiatorNick != "" {
		v.Params = []string{m.InitiatorNick}
	}
	if m.EndsAt > 0 {
		v.Ends = time.UnixMilli(m.EndsAt)
	}
	d.notify(session.PlatformEvent{Kind: session.PlatformVote, Vote: v})
}

func (d *Dialer) hostVoteResult(m *lobby.HostVoteResult) {
	d.mu.Lock()
	if d.vote != nil && d.vote.VoteID == m.VoteID {
		d.vote = nil
	}
	d.mu.Unlock()
	v := &session.EngineVote{Name: session.ChangeHostVote, ID: m.VoteID, Result: &session.EngineVoteResult{
		Passed: m.Passed, Cancelled: m.Cancelled, Yes: m.Yes, No: m.No, Eligible: m.EligibleCount}}
	d.notify(session.PlatformEvent{Kind: session.PlatformVoteResult, Vote: v})
}

// AnswerVote implements session.Platform: the "Change host" answer goes to
// the master, never to the host.
func (d *Dialer) AnswerVote(name, value string) error {
	if name != session.ChangeHostVote {
		return fmt.Errorf("engine vote %q: this client knows only %s", name, session.ChangeHostVote)
	}
	if value != "yes" && value != "no" {
		return fmt.Errorf("engine vote %s: answer yes or no, not %q", name, value)
	}
	d.mu.Lock()
	v, t := d.vote, d.target
	d.mu.Unlock()
	if v == nil || t == nil {
		return errors.New("no Change host vote is open")
	}
	return d.sendNow(lobby.HostVoteAnswerMsg(t.Room, v.VoteID, value))
}

// Command implements session.Platform: /like REASON and /unlike REASON rate
// the room's hoster, /changehost proposes a new host; all go to the master.
func (d *Dialer) Command(line string) (bool, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false, nil
	}
	cmd := strings.ToLower(fields[0])
	if cmd != "/like" && cmd != "/unlike" && cmd != "/changehost" {
		return false, nil
	}
	d.mu.Lock()
	t, newer := d.target, d.newer
	d.mu.Unlock()
	if t == nil {
		return true, errors.New(cmd + ": not in a lobby room")
	}
	if cmd == "/changehost" {
		if !newer {
			return true, errors.New("/changehost: this master has no host vote (its rooms end with their host); /like and /unlike rate the host instead")
		}
		return true, d.sendNow(lobby.HostVoteStartMsg(t.Room))
	}
	if newer {
		return true, errors.New(cmd + ": this master does not rate hosts; /changehost proposes a new host instead")
	}
	reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), fields[0]))
	if reason == "" {
		return true, fmt.Errorf("%s needs a reason: %s REASON", cmd, cmd)
	}
	d.mu.Lock()
	sig := d.sig
	d.mu.Unlock()
	if sig == nil {
		return true, lobby.ErrNotConnected
	}
	ctx, cancel := contextTimeout()
	defer cancel()
	if err := sig.SendToken(ctx, roomToken(t), func(token string) []byte {
		return lobby.RateMsg(cmd == "/like", t.Room, reason, token)
	}); err != nil {
		return true, err
	}
	d.notify(session.PlatformEvent{Kind: session.PlatformNotice, Text: "Rating sent."})
	return true, nil
}

func (d *Dialer) sendNow(msg []byte) error {
	d.mu.Lock()
	sig := d.sig
	d.mu.Unlock()
	if sig == nil {
		return lobby.ErrNotConnected
	}
	ctx, cancel := contextTimeout()
	defer cancel()
	return sig.Send(ctx, msg)
}

func contextTimeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Second)
}
