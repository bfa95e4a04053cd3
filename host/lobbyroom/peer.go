package lobbyroom

import (
	"context"
	"sync"

	"vimpclient/host"
	"vimpclient/lobby"
	"vimpclient/rtcpeer"
)

// answerer sets up one joiner's connection and serves it.
type answerer struct {
	room     *Room
	clientID string
	cancel   context.CancelFunc // ends this peer (a newer offer of the same joiner)

	mu   sync.Mutex
	peer *rtcpeer.HostPeer
}

// candidate applies a joiner's candidate; one that arrives before the offer
// was applied is dropped (the joiner queues its candidates until the answer).
func (a *answerer) candidate(c lobby.Candidate) {
	a.mu.Lock()
	p := a.peer
	a.mu.Unlock()
	if p != nil {
		p.AddCandidate(c)
	}
}

// serve answers the offer and serves the joiner; resume is the offer's
// flag (a player coming back to a held seat).
func (a *answerer) serve(ctx context.Context, offer lobby.SDP, resume bool) error {
	r := a.room
	p, err := rtcpeer.Answer(r.api, r.sig.Welcome().ICEServers, offer,
		func(s lobby.SDP) error { return r.sig.Send(ctx, lobby.AnswerMsg(a.clientID, s)) },
		func(c lobby.Candidate) { r.send(lobby.CandidateMsg(a.clientID, c)) })
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.peer = p
	a.mu.Unlock()
	octx, cancel := context.WithTimeout(ctx, openTimeout)
	err = p.WaitOpen(octx)
	cancel()
	if err != nil {
		_ = p.Close()
		return err
	}
	var peer host.Peer = p
	if r.cfg.WrapPeer != nil {
		peer = r.cfg.WrapPeer(peer)
	}
	r.srv.ServePeerResume(ctx, peer, r.verifyToken, resume)
	return nil
}
