package rtc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"vimpclient/lobby"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/termtext"
)

// A joined room's host is watched for life: in a match it sends about 30
// frames a second and a PING every 3 s, so while frames flow a second
// without any message means it stalled, and 2.5 s means it is gone (its
// process died, its network dropped) — long before ICE would say so. ICE's
// own "disconnected" (no packet at all for 2 s, keep-alive answers
// included) marks a stall at any time, between maps too.
const (
	stallAfter = time.Second
	loseAfter  = 2500 * time.Millisecond
	liveCheck  = 100 * time.Millisecond
	// listCheck bounds the look at the master's list once the host is lost.
	listCheck = 3 * time.Second
)

// Player-facing words of a lost host.
const (
	stalledText = "Host not responding"
	lostText    = "The host stopped responding"
)

// watch follows one open transport until it ends: a stall and a recovery
// reach the session as platform events, a host silent for loseAfter is
// given up (hostLost), and a connection that died mid-match is reported to
// the master (host_unreachable).
func (d *Dialer) watch(tr *Transport) {
	t := time.NewTicker(liveCheck)
	defer t.Stop()
	p := tr.p
	stalled := false
	for {
		select {
		case <-p.Done():
			if ce := p.Ended(); ce.Code == protocol.CloseAbnormal && p.Framed() {
				d.reportUnreachable(tr.room)
			}
			return
		case <-t.C:
		}
		silent := p.Silent()
		streaming := p.Streaming()
		if streaming && silent >= loseAfter {
			d.hostLost(tr, silent)
			return
		}
		now := p.ICEDown() || (streaming && silent >= stallAfter)
		if now == stalled {
			continue
		}
		stalled = now
		d.cfg.Log.Info("lobby: host liveness", "stalled", stalled, "silent", silent.Round(time.Millisecond), "ice-down", p.ICEDown())
		if stalled {
			d.notify(session.PlatformEvent{Kind: session.PlatformHostStalled, Text: stalledText, Silent: silent})
		} else {
			d.notify(session.PlatformEvent{Kind: session.PlatformHostResponding})
		}
	}
}

// reportUnreachable tells a newer master that this guest lost the room's
// host (at most once per 2 s, never while the master already moves the
// room); an older master ignores the message.
func (d *Dialer) reportUnreachable(room string) {
	d.mu.Lock()
	sig, epoch, now := d.sig, d.epoch, d.cfg.Now()
	send := sig != nil && !d.migrating && !d.closed && now.Sub(d.unreachAt) >= unreachableEvery
	if send {
		d.unreachAt = now
	}
	d.mu.Unlock()
	if !send {
		return
	}
	ctx, cancel := contextTimeout()
	defer cancel()
	if err := sig.Send(ctx, lobby.HostUnreachableMsg(room, epoch)); err != nil {
		d.cfg.Log.Debug("lobby: host_unreachable not sent", "err", err)
	}
}

// hostLost gives up a host silent for silent: the master hears of it, and
// its list says what became of the room. A room it no longer lists is gone
// (the session stays closed with why); one it still lists is joined again
// by the runner (its host may be back, or the master may name a new one).
func (d *Dialer) hostLost(tr *Transport, silent time.Duration) {
	d.reportUnreachable(tr.room)
	d.mu.Lock()
	t := d.target
	d.mu.Unlock()
	gone, name := false, tr.room
	if t != nil {
		name = t.RoomName
		ctx, cancel := context.WithTimeout(context.Background(), listCheck)
		gone = d.roomGone(ctx, t)
		cancel()
	}
	d.cfg.Log.Warn("lobby: host given up", "room", name, "silent", silent.Round(time.Millisecond), "gone", gone)
	secs := fmt.Sprintf("%.1f s", silent.Seconds())
	if !gone {
		why := lostText + " (nothing for " + secs + "): joining the room again."
		d.notify(session.PlatformEvent{Kind: session.PlatformHostLost, Text: why, Silent: silent})
		tr.endWith(protocol.CloseHostLost, why, true)
		return
	}
	why := fmt.Sprintf("Room gone: the host of %s stopped responding (nothing for %s), and the master no longer lists the room.",
		quoteName(name), secs)
	d.mu.Lock()
	closed := d.closed
	if !closed {
		d.closed, d.closedWhy, d.migrating, d.joined = true, why, false, false
		close(d.changed)
		d.changed = make(chan struct{})
	}
	d.mu.Unlock()
	if closed {
		return // the master closed it first, in its own words
	}
	d.notify(session.PlatformEvent{Kind: session.PlatformHostLost, Text: why, Silent: silent})
	d.notify(session.PlatformEvent{Kind: session.PlatformRoomClosed, Text: why})
	tr.endWith(protocol.CloseRoomClosed, why, true)
}

// roomGone reports whether the master no longer has the room: a newer
// master is asked for the room itself (it keeps a room between hosts), an
// older one's list is searched. A master that does not answer leaves the
// room to the next attempt.
func (d *Dialer) roomGone(ctx context.Context, t *session.Target) bool {
	m, err := lobby.NewMaster(t.Master, d.cfg.HTTP)
	if err != nil {
		return false
	}
	if d.isNewer() {
		_, err := m.RoomByID(ctx, t.Room)
		return errors.Is(err, lobby.ErrRoomGone)
	}
	list, err := m.AllServers(ctx, lobby.Query{})
	if err != nil {
		return false
	}
	for _, r := range list.Servers {
		if r.ID == t.Room {
			return false
		}
	}
	return true
}

// quoteName is a room's name for a sentence, escaped and bounded.
func quoteName(name string) string { return "“" + termtext.Name(name) + "”" }
