package rtc

import (
	"context"
	"errors"

	"vimpclient/rtcpeer"
	"vimpclient/session"
)

// Transport is a joined room's peer connection as the session sees it.
// Recv merges both channels, telling text from binary by each message's
// string flag; Send(reliable=false) (PONG) goes over state, the rest over
// meta. Positional frames arrive out of order, twice or never, and may
// overtake JSON: the client core orders and deduplicates frames by seq.
// The end of the connection carries the close code the host's last
// TECH_INFORM stands for, so the session's close policy is the WebSocket's.
type Transport struct {
	p      *rtcpeer.Pair
	room   string
	resume bool
}

var _ session.Resumer = (*Transport)(nil)

// Resuming implements session.Resumer: the offer asked for the held seat.
func (t *Transport) Resuming() bool { return t.resume }

// Flush waits (bounded) until what was sent has left the channels: LEAVE
// goes out before the peer connection closes.
func (t *Transport) Flush() { t.p.Flush() }

var _ session.Transport = (*Transport)(nil)

// Recv implements session.Transport.
func (t *Transport) Recv(ctx context.Context) (session.Message, error) {
	m, err := t.p.Recv(ctx)
	if err != nil {
		return session.Message{}, closeError(err)
	}
	return session.Message{Binary: m.Binary, Data: m.Data}, nil
}

// Send implements session.Transport; every client message is text.
func (t *Transport) Send(_ context.Context, text []byte, reliable bool) error {
	return closeError(t.p.Send(text, true, !reliable))
}

// Close implements session.Transport: the client leaves by closing the peer
// connection (there is no close code to send).
func (t *Transport) Close(code int, reason string) error {
	t.p.End(&rtcpeer.Closed{Code: code, Reason: reason})
	return nil
}

// Room is the room this transport joined.
func (t *Transport) Room() string { return t.room }

// Dropped counts positional messages lost to a full receive queue (in) and
// lossy sends dropped under backpressure (out).
func (t *Transport) Dropped() (in, out uint64) { return t.p.Dropped() }

// Done is closed when the connection ended.
func (t *Transport) Done() <-chan struct{} { return t.p.Done() }

// endWith ends the connection for a reason the master gave (a host change,
// the room closing); discard drops what the old host still had queued.
func (t *Transport) endWith(code int, reason string, discard bool) {
	if discard {
		t.p.Discard()
	}
	t.p.End(&rtcpeer.Closed{Code: code, Reason: reason})
}

// closeError gives the session the end of the peer connection in its own
// terms, so that its close policy reads the code; other errors pass as
// they are.
func closeError(err error) error {
	var c *rtcpeer.Closed
	if !errors.As(err, &c) {
		return err
	}
	return &session.CloseError{Code: c.Code, Reason: c.Reason, Err: c.Err}
}
