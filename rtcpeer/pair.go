package rtcpeer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/datachannel"
	"github.com/pion/webrtc/v4"

	"vimpclient/protocol"
)

// Limits of one peer connection.
const (
	// inbox bounds the merged receive queue. A full queue drops positional
	// frames (they may be lost anyway) and holds back the reliable channel.
	inbox = 1024
	// maxBuffered is how much may wait unsent on a channel: past it a
	// lossy message is dropped and a reliable send fails (the peer reads
	// too slowly).
	maxBuffered = 4 << 20
	// slabSize is the receive arena: messages are copied into slabs, a new
	// slab once one is full, so a steady stream of frames allocates once per
	// few hundred frames, not once per frame. A receiver owns what it got
	// (the slab is never reused), as with any other transport.
	slabSize = 256 << 10
	// closeFlush bounds the wait for sent data to leave before a close.
	closeFlush = 2 * time.Second
	firstRead  = 64 << 10
)

// ErrSlowPeer ends a connection whose peer does not read what it is sent.
var ErrSlowPeer = errors.New("the peer reads too slowly")

// msgReader is a detached data channel's receive side.
type msgReader interface {
	ReadDataChannel(p []byte) (n int, isString bool, err error)
}

// msgWriter is a detached data channel's send side.
type msgWriter interface {
	WriteDataChannel(p []byte, isString bool) (n int, err error)
}

// Message is one data-channel message: binary (a snapshot frame) or text
// (a JSON message), told apart by the channel's string flag.
type Message struct {
	Binary bool
	Data   []byte
}

// Closed is how a peer connection ended: a close code in the WebSocket's
// numbering (the one the peer's last terminal TECH_INFORM stands for, 1000
// for a deliberate close, 1006 for a drop), a reason, and the cause of a
// drop.
type Closed struct {
	Code   int
	Reason string
	Err    error
}

func (c *Closed) Error() string {
	switch {
	case c.Err != nil:
		return fmt.Sprintf("peer connection ended (%d): %v", c.Code, c.Err)
	case c.Reason != "":
		return fmt.Sprintf("peer connection ended (%d %s)", c.Code, c.Reason)
	}
	return fmt.Sprintf("peer connection ended (%d)", c.Code)
}

func (c *Closed) Unwrap() error { return c.Err }

// slab hands out copies of received messages from a shared arena.
type slab struct{ buf []byte }

func (s *slab) copy(b []byte) []byte {
	if len(b) > slabSize/8 {
		return append([]byte(nil), b...)
	}
	if cap(s.buf)-len(s.buf) < len(b) {
		s.buf = make([]byte, 0, slabSize)
	}
	off := len(s.buf)
	s.buf = append(s.buf, b...)
	return s.buf[off:len(s.buf):len(s.buf)]
}

// Pair is the two data channels of one peer connection, merged into one
// receive queue. The joining client's transport and the host's HostPeer are
// both a Pair.
type Pair struct {
	pc                *webrtc.PeerConnection
	metaDC, stateDC   *webrtc.DataChannel
	metaRW, stateRW   msgWriter
	metaBuf, stateBuf func() uint64 // buffered amounts

	in        chan Message
	done      chan struct{}
	endOnce   sync.Once
	endErr    *Closed
	discard   atomic.Bool  // drop what is still queued (host changed)
	lastTech  atomic.Int32 // last terminal TECH_INFORM seen on meta, -1 none
	watchPeer bool         // the joining side follows liveness and TECH_INFORM
	dropped   atomic.Uint64
	lossyOut  atomic.Uint64
	// Liveness (the client side): when the last message of either channel
	// came (since born, monotonic), whether snapshot frames flow (from a
	// frame until the next MAP_DATA, when the host may be quiet while the
	// map loads), whether any frame came at all, and whether ICE says the
	// peer is unreachable for now.
	born      time.Time
	lastIn    atomic.Int64
	streaming atomic.Bool
	framed    atomic.Bool
	iceDown   atomic.Bool
}

// NewPair makes the pair of pc's channels (pc may be nil in tests); the
// channels join it by Attach. watchPeer makes it follow what the peer sends
// for the joining side: the liveness figures (Silent, Streaming, Framed)
// and the close code of the last terminal TECH_INFORM.
func NewPair(pc *webrtc.PeerConnection, watchPeer bool) *Pair {
	p := &Pair{pc: pc, in: make(chan Message, inbox), done: make(chan struct{}), watchPeer: watchPeer, born: time.Now()}
	p.lastTech.Store(-1)
	return p
}

// Attach starts reading a detached channel.
func (p *Pair) Attach(dc *webrtc.DataChannel, rw datachannel.ReadWriteCloser, lossy bool) {
	if lossy {
		p.stateDC, p.stateRW, p.stateBuf = dc, rw, dc.BufferedAmount
	} else {
		p.metaDC, p.metaRW, p.metaBuf = dc, rw, dc.BufferedAmount
	}
	go p.read(rw, lossy)
}

// read copies each message of one channel into the merged queue.
func (p *Pair) read(r msgReader, lossy bool) {
	buf := make([]byte, firstRead)
	var arena slab
	for {
		n, isString, err := r.ReadDataChannel(buf)
		if errors.Is(err, io.ErrShortBuffer) && n > len(buf) && n <= MaxMessage {
			buf = make([]byte, n)
			continue
		}
		if err != nil {
			p.remoteEnd(fmt.Errorf("data channel: %w", err))
			return
		}
		m := Message{Binary: !isString, Data: arena.copy(buf[:n])}
		if p.watchPeer {
			p.heard(m.Data, isString, lossy)
		}
		if lossy {
			select {
			case p.in <- m:
			default:
				p.dropped.Add(1)
			}
			continue
		}
		select {
		case p.in <- m:
		case <-p.done:
			return
		}
	}
}

// heard notes a message's arrival for the liveness watch, and a
// TECH_INFORM's code for the close.
func (p *Pair) heard(b []byte, isString, lossy bool) {
	p.lastIn.Store(int64(time.Since(p.born)))
	switch {
	case !isString:
		p.streaming.Store(true)
		if !p.framed.Load() {
			p.framed.Store(true)
		}
	case !lossy && isMapData(b):
		p.streaming.Store(false)
	case !lossy:
		p.noteTech(b)
	}
}

// isMapData reports whether a text message is MAP_DATA ([3, …]).
func isMapData(b []byte) bool {
	return len(b) >= 3 && b[0] == '[' && b[1] == '3' && (b[2] == ',' || b[2] == ' ')
}

// Silent is how long nothing has come from the peer.
func (p *Pair) Silent() time.Duration {
	return time.Since(p.born) - time.Duration(p.lastIn.Load())
}

// noteTech remembers the last TECH_INFORM: a lobby host sends the reason
// of a close that way, and no code comes with the close.
func (p *Pair) noteTech(b []byte) {
	if len(b) < 3 || b[0] != '[' || b[1] != '8' || (b[2] != ',' && b[2] != ' ') {
		return
	}
	env, err := protocol.ParseEnvelope(b)
	if err != nil || env.Port != protocol.TechInformData {
		return
	}
	ti, err := protocol.ParseTechInform(env.Payload)
	switch {
	case err != nil:
	case ti.Hide:
		p.lastTech.Store(-1)
	case ti.Terminal():
		p.lastTech.Store(int32(ti.Code))
	}
}

// remoteEnd ends the connection the peer closed or lost: with the close
// code its last TECH_INFORM stands for, else as a drop (1006).
func (p *Pair) remoteEnd(cause error) {
	code := protocol.CloseAbnormal
	if c, ok := protocol.TechCloseCode(int(p.lastTech.Load())); ok {
		code, cause = c, nil
	}
	p.End(&Closed{Code: code, Err: cause})
}

// End records how the connection ended (the first call wins) and closes it.
func (p *Pair) End(ce *Closed) {
	p.endOnce.Do(func() {
		p.endErr = ce
		close(p.done)
		if p.pc != nil {
			go func() { _ = p.pc.Close() }()
		}
	})
}

// Ended waits for the end and says how it came.
func (p *Pair) Ended() *Closed {
	<-p.done
	return p.endErr
}

// Recv returns the next message of either channel. After the end, what is
// still queued comes first (a closing TECH_INFORM), unless discarded.
func (p *Pair) Recv(ctx context.Context) (Message, error) {
	if !p.discard.Load() {
		select {
		case m := <-p.in:
			return m, nil
		default:
		}
	}
	select {
	case m := <-p.in:
		if p.discard.Load() {
			return Message{}, p.Ended()
		}
		return m, nil
	case <-p.done:
		if !p.discard.Load() {
			select {
			case m := <-p.in:
				return m, nil
			default:
			}
		}
		return Message{}, p.Ended()
	case <-ctx.Done():
		return Message{}, &Closed{Code: protocol.CloseAbnormal, Err: ctx.Err()}
	}
}

// Send writes one message: lossy ones over state, the rest over meta.
func (p *Pair) Send(b []byte, isString, lossy bool) error {
	select {
	case <-p.done:
		return p.Ended()
	default:
	}
	if len(b) > MaxMessage {
		return fmt.Errorf("message of %d bytes over %d", len(b), MaxMessage)
	}
	w, buffered := p.metaRW, p.metaBuf
	if lossy {
		w, buffered = p.stateRW, p.stateBuf
	}
	if buffered() > maxBuffered {
		if lossy {
			p.lossyOut.Add(1)
			return nil
		}
		p.End(&Closed{Code: protocol.CloseAbnormal, Err: ErrSlowPeer})
		return ErrSlowPeer
	}
	if _, err := w.WriteDataChannel(b, isString); err != nil {
		return fmt.Errorf("data channel write: %w", err)
	}
	return nil
}

// Flush waits (bounded) until what was sent has left both channels.
func (p *Pair) Flush() {
	deadline := time.Now().Add(closeFlush)
	for time.Now().Before(deadline) {
		if (p.metaBuf == nil || p.metaBuf() == 0) && (p.stateBuf == nil || p.stateBuf() == 0) {
			// Buffered amounts count what SCTP has not handed to the
			// network yet; a moment more lets the last packet go out.
			time.Sleep(50 * time.Millisecond)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// WatchState ends the pair when the peer connection fails or closes;
// "disconnected" is transient and waited out.
func (p *Pair) WatchState() {
	p.pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		switch s {
		case webrtc.PeerConnectionStateDisconnected:
			p.iceDown.Store(true)
		case webrtc.PeerConnectionStateConnected:
			p.iceDown.Store(false)
		case webrtc.PeerConnectionStateFailed:
			p.remoteEnd(errors.New("the peer connection failed"))
		case webrtc.PeerConnectionStateClosed:
			p.remoteEnd(errors.New("the peer connection closed"))
		}
	})
}

// Done is closed when the connection ended.
func (p *Pair) Done() <-chan struct{} { return p.done }

// Discard drops what is still queued from now on: the old host's last
// messages after the master moved the room.
func (p *Pair) Discard() { p.discard.Store(true) }

// Dropped counts positional messages lost to a full receive queue (in) and
// lossy sends dropped under backpressure (out).
func (p *Pair) Dropped() (in, out uint64) { return p.dropped.Load(), p.lossyOut.Load() }

// Streaming reports whether snapshot frames flow: from a frame until the
// next MAP_DATA, when the host may be quiet while the map loads.
func (p *Pair) Streaming() bool { return p.streaming.Load() }

// Framed reports whether any snapshot frame came at all.
func (p *Pair) Framed() bool { return p.framed.Load() }

// ICEDown reports whether ICE says the peer is unreachable for now.
func (p *Pair) ICEDown() bool { return p.iceDown.Load() }
