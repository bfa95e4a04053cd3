package rtcpeer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/pion/webrtc/v4"

	"vimpclient/lobby"
)

// HostPeer is the answering side of one joiner: the joiner's two channels
// as a lobby host reads and writes them. Recv returns the joiner's text
// messages (it sends no binary); Send routes lossy messages over state.
type HostPeer struct {
	p      *Pair
	opened chan struct{}

	mu      sync.Mutex
	haveSDP bool
	nRemote int
}

// Answer applies a joiner's offer, sends the answer through sendAnswer and
// the local candidates through sendCandidate (after the answer), and
// returns the peer; WaitOpen waits for both channels.
func Answer(api *webrtc.API, ice []lobby.ICEServer, offer lobby.SDP,
	sendAnswer func(lobby.SDP) error, sendCandidate func(lobby.Candidate)) (*HostPeer, error) {
	desc, err := Description(offer)
	if err != nil || desc.Type != webrtc.SDPTypeOffer {
		return nil, fmt.Errorf("webrtc: not an offer: %v", err)
	}
	pc, err := api.NewPeerConnection(Configuration(ice))
	if err != nil {
		return nil, fmt.Errorf("webrtc: %w", err)
	}
	h := &HostPeer{p: NewPair(pc, false), opened: make(chan struct{})}
	h.p.WatchState()
	var open atomic.Int32
	var metaSeen, stateSeen atomic.Bool
	pc.OnDataChannel(func(dc *webrtc.DataChannel) {
		lossy := dc.Label() == StateLabel
		seen := &metaSeen
		if lossy {
			seen = &stateSeen
		}
		if (dc.Label() != MetaLabel && !lossy) || !seen.CompareAndSwap(false, true) {
			_ = dc.Close() // only one meta and one state channel
			return
		}
		dc.OnOpen(func() {
			rw, err := dc.Detach()
			if err != nil {
				h.p.End(&Closed{Code: 1006, Err: err})
				return
			}
			h.p.Attach(dc, rw, lossy)
			if open.Add(1) == 2 {
				close(h.opened)
			}
		})
	})
	// Local candidates wait for the answer to be sent, then trickle.
	var cmu sync.Mutex
	var queued []lobby.Candidate
	answered, nLocal := false, 0
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c == nil {
			return
		}
		cmu.Lock()
		if nLocal >= MaxCandidates {
			cmu.Unlock()
			return
		}
		nLocal++
		if !answered {
			queued = append(queued, ToLobby(c.ToJSON()))
			cmu.Unlock()
			return
		}
		cmu.Unlock()
		sendCandidate(ToLobby(c.ToJSON()))
	})
	fail := func(err error) (*HostPeer, error) {
		_ = pc.Close()
		return nil, err
	}
	if err := pc.SetRemoteDescription(desc); err != nil {
		return fail(fmt.Errorf("webrtc: offer: %w", err))
	}
	h.mu.Lock()
	h.haveSDP = true
	h.mu.Unlock()
	ans, err := pc.CreateAnswer(nil)
	if err == nil {
		err = pc.SetLocalDescription(ans)
	}
	if err != nil {
		return fail(fmt.Errorf("webrtc: answer: %w", err))
	}
	if err := sendAnswer(lobby.SDP{Type: "answer", SDP: ans.SDP}); err != nil {
		return fail(err)
	}
	cmu.Lock()
	answered = true
	q := queued
	queued = nil
	cmu.Unlock()
	for _, c := range q {
		sendCandidate(c)
	}
	return h, nil
}

// AddCandidate applies a joiner's candidate (at most 64 per peer).
func (h *HostPeer) AddCandidate(c lobby.Candidate) {
	h.mu.Lock()
	ok := h.haveSDP && h.nRemote < MaxCandidates
	h.nRemote++
	h.mu.Unlock()
	if ok {
		_ = h.p.pc.AddICECandidate(FromLobby(c))
	}
}

// WaitOpen waits for both channels to open.
func (h *HostPeer) WaitOpen(ctx context.Context) error {
	select {
	case <-ctx.Done():
		h.p.End(&Closed{Code: 1000})
		return ctx.Err()
	case <-h.p.Done():
		return errors.New("webrtc: the joiner's connection ended before its channels opened")
	case <-h.opened:
		return nil
	}
}

// Recv returns the joiner's next text message.
func (h *HostPeer) Recv(ctx context.Context) ([]byte, error) {
	for {
		m, err := h.p.Recv(ctx)
		if err != nil {
			return nil, err
		}
		if !m.Binary {
			return m.Data, nil
		}
	}
}

// Send writes one message; lossy ones go over state.
func (h *HostPeer) Send(b []byte, binary, lossy bool) error { return h.p.Send(b, !binary, lossy) }

// Close lets what was sent leave (bounded), then closes the connection.
func (h *HostPeer) Close() error {
	select {
	case <-h.p.Done():
		return nil
	default:
	}
	h.p.Flush()
	h.p.End(&Closed{Code: 1000})
	return nil
}

// Done is closed when the connection ended.
func (h *HostPeer) Done() <-chan struct{} { return h.p.Done() }
