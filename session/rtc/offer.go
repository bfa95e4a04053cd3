package rtc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/webrtc/v4"

	"vimpclient/lobby"
	"vimpclient/rtcpeer"
)

// Offer timings and bounds.
const (
	answerTimeout = 15 * time.Second // offer sent → answer
	openTimeout   = 20 * time.Second // answer → both channels open
	// migratingRetry is the pause before offering again when the master
	// says the room's host is changing.
	migratingRetry = time.Second
	maxOfferRetry  = 30
)

// sender is the signaling side an offer needs.
type sender interface {
	Send(ctx context.Context, msg []byte) error
}

// offerer is one attempt to reach a room's host as the offerer. The master
// relays candidates as they come, and a host drops candidates that arrive
// before it applied the offer: local candidates wait until the answer is
// in, remote ones until the remote description is set.
type offerer struct {
	room     string
	memberID string
	sig      sender
	pc       *webrtc.PeerConnection
	pair     *rtcpeer.Pair
	offer    lobby.SDP
	minEpoch int  // answers and candidates of older epochs are ignored
	resume   bool // the offer asks the host for the seat the session holds

	mu        sync.Mutex
	answered  bool
	epoch     *int
	local     []lobby.Candidate
	sentLocal []lobby.Candidate
	remote    []lobby.RemoteCandidate
	nLocal    int
	nRemote   int

	answers chan *lobby.Answer
	errs    chan *lobby.MasterError
	opened  chan struct{}
}

func ptr[T any](v T) *T { return &v }

// newOfferer makes the peer connection, both channels and the offer.
func newOfferer(ctx context.Context, api *webrtc.API, sig sender, ice []lobby.ICEServer, room, memberID string, minEpoch int) (*offerer, error) {
	pc, err := api.NewPeerConnection(rtcpeer.Configuration(ice))
	if err != nil {
		return nil, fmt.Errorf("webrtc: %w", err)
	}
	o := &offerer{room: room, memberID: memberID, sig: sig, pc: pc, pair: rtcpeer.NewPair(pc, true), minEpoch: minEpoch,
		answers: make(chan *lobby.Answer, 1), errs: make(chan *lobby.MasterError, 4), opened: make(chan struct{})}
	o.pair.WatchState()
	meta, err := pc.CreateDataChannel(rtcpeer.MetaLabel, &webrtc.DataChannelInit{Ordered: ptr(true)})
	if err != nil {
		_ = pc.Close()
		return nil, fmt.Errorf("webrtc: meta channel: %w", err)
	}
	state, err := pc.CreateDataChannel(rtcpeer.StateLabel, &webrtc.DataChannelInit{Ordered: ptr(false), MaxRetransmits: ptr(uint16(0))})
	if err != nil {
		_ = pc.Close()
		return nil, fmt.Errorf("webrtc: state channel: %w", err)
	}
	var open atomic.Int32
	onOpen := func(dc *webrtc.DataChannel, lossy bool) func() {
		return func() {
			rw, err := dc.Detach()
			if err != nil {
				o.pair.End(&rtcpeer.Closed{Code: 1006, Err: fmt.Errorf("webrtc: detach %s: %w", dc.Label(), err)})
				return
			}
			o.pair.Attach(dc, rw, lossy)
			if open.Add(1) == 2 {
				close(o.opened)
			}
		}
	}
	meta.OnOpen(onOpen(meta, false))
	state.OnOpen(onOpen(state, true))
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c != nil {
			o.addLocal(rtcpeer.ToLobby(c.ToJSON()))
		}
	})
	desc, err := pc.CreateOffer(nil)
	if err == nil {
		err = pc.SetLocalDescription(desc)
	}
	if err != nil {
		_ = pc.Close()
		return nil, fmt.Errorf("webrtc: offer: %w", err)
	}
	o.offer = lobby.SDP{Type: "offer", SDP: desc.SDP}
	return o, nil
}

// send sends the offer; the answer may come back at once, so the offerer
// must be where the signaling handler finds it first.
func (o *offerer) send(ctx context.Context) error {
	return o.sig.Send(ctx, lobby.OfferMsg(o.room, o.offer, o.memberID, o.resume))
}

// addLocal sends a local candidate once the answer is in, else queues it.
func (o *offerer) addLocal(c lobby.Candidate) {
	o.mu.Lock()
	if o.nLocal >= rtcpeer.MaxCandidates {
		o.mu.Unlock()
		return
	}
	o.nLocal++
	if !o.answered {
		o.local = append(o.local, c)
		o.mu.Unlock()
		return
	}
	o.sentLocal = append(o.sentLocal, c)
	o.mu.Unlock()
	o.sendCandidate(c)
}

func (o *offerer) sendCandidate(c lobby.Candidate) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = o.sig.Send(ctx, lobby.CandidateMsg(o.room, c))
}

// remoteCandidate applies a relayed host candidate, or queues it until the
// remote description is set. Candidates of an older epoch are dropped.
func (o *offerer) remoteCandidate(c *lobby.RemoteCandidate) {
	if c.Epoch != nil && *c.Epoch < o.minEpoch {
		return
	}
	o.mu.Lock()
	if o.epoch != nil && c.Epoch != nil && *c.Epoch < *o.epoch {
		o.mu.Unlock()
		return
	}
	if o.nRemote >= rtcpeer.MaxCandidates {
		o.mu.Unlock()
		return
	}
	o.nRemote++
	if !o.answered {
		o.remote = append(o.remote, *c)
		o.mu.Unlock()
		return
	}
	o.mu.Unlock()
	_ = o.pc.AddICECandidate(rtcpeer.FromLobby(c.Candidate))
}

// answer hands the host's answer to the waiting dial (the first of an
// acceptable epoch wins).
func (o *offerer) answer(a *lobby.Answer) {
	if a.Epoch != nil && *a.Epoch < o.minEpoch {
		return
	}
	select {
	case o.answers <- a:
	default:
	}
}

func (o *offerer) refused(e *lobby.MasterError) {
	select {
	case o.errs <- e:
	default:
	}
}

// apply sets the answer, then the queued remote candidates, then sends the
// queued local ones.
func (o *offerer) apply(a *lobby.Answer) error {
	desc, err := rtcpeer.Description(a.SDP)
	if err != nil {
		return fmt.Errorf("webrtc: answer: %w", err)
	}
	if err := o.pc.SetRemoteDescription(desc); err != nil {
		return fmt.Errorf("webrtc: answer: %w", err)
	}
	o.mu.Lock()
	o.answered = true
	o.epoch = a.Epoch
	remote, local := o.remote, o.local
	o.remote, o.local = nil, nil
	o.sentLocal = append(o.sentLocal, local...)
	o.mu.Unlock()
	for _, c := range remote {
		if a.Epoch != nil && c.Epoch != nil && *c.Epoch < *a.Epoch {
			continue
		}
		_ = o.pc.AddICECandidate(rtcpeer.FromLobby(c.Candidate))
	}
	for _, c := range local {
		o.sendCandidate(c)
	}
	return nil
}

// errOfferTimeout reports a host that did not answer.
var errOfferTimeout = errors.New("the room's host did not answer the offer")

// wait runs the exchange to both channels open. A "migrating" refusal
// offers again after a second; unknownHost/unknownRoom means the room is
// gone.
func (o *offerer) wait(ctx context.Context) error {
	timer := time.NewTimer(answerTimeout)
	defer timer.Stop()
	retries := 0
	for answered := false; !answered; {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-o.pair.Done():
			return fmt.Errorf("webrtc: the connection ended during the offer: %w", o.pair.Ended())
		case <-timer.C:
			return errOfferTimeout
		case e := <-o.errs:
			if errors.Is(e, lobby.ErrRoomGone) {
				return e
			}
			if e.Code != "migrating" || retries >= maxOfferRetry {
				return e
			}
			retries++
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(migratingRetry):
			}
			if err := o.send(ctx); err != nil {
				return err
			}
			timer.Reset(answerTimeout)
		case a := <-o.answers:
			if err := o.apply(a); err != nil {
				return err
			}
			answered = true
		}
	}
	timer.Reset(openTimeout)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-o.pair.Done():
		return fmt.Errorf("webrtc: the connection ended before the channels opened: %w", o.pair.Ended())
	case <-timer.C:
		return errors.New("webrtc: the data channels did not open (no route to the room's host?)")
	case <-o.opened:
		return nil
	}
}

// close abandons the attempt.
func (o *offerer) close() { o.pair.End(&rtcpeer.Closed{Code: 1000}) }
