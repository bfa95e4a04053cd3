// Package session is the network half of the client: it resolves a host,
// owns the transport, runs the client side of the vimp handshake, answers
// PINGs from its read loop, and hands typed, validated events to the game loop
// through a bounded queue. Nothing above it touches the socket; input flows
// back down through its rate-limited outbox.
package session

import (
	"context"
	"errors"
	"fmt"

	"vimpclient/protocol"
)

// Message is one transport message: a JSON text message or a binary snapshot
// frame. Routing is by the transport's frame type, never by content.
type Message struct {
	Binary bool
	Data   []byte
}

// Transport is what the session needs from a connection. A WebSocket
// implements it today; a WebRTC pair of data channels or an in-process
// loopback can implement it later without the session knowing.
type Transport interface {
	// Recv blocks for the next message. When the connection ends it returns
	// a *CloseError (code 1006 when no close frame arrived).
	Recv(ctx context.Context) (Message, error)
	// Send writes one text message. reliable=false marks messages a lossy
	// channel may drop (PONG); a WebSocket ignores it.
	Send(ctx context.Context, text []byte, reliable bool) error
	// Close ends the connection with a close code and reason.
	Close(code int, reason string) error
}

// CloseError is how a transport reports the end of its connection.
type CloseError struct {
	Code   int
	Reason string
	Err    error // underlying cause when the close was not a clean close frame
}

func (e *CloseError) Error() string {
	var s string
	switch {
	case e.Reason != "":
		s = fmt.Sprintf("connection closed (%d %s)", e.Code, e.Reason)
	case e.Code == 1000:
		s = "the connection was closed"
	case e.Code == protocol.CloseAbnormal:
		s = "the connection was lost"
	default:
		s = fmt.Sprintf("connection closed (code %d)", e.Code)
	}
	if e.Err != nil {
		return s + ": " + e.Err.Error()
	}
	return s
}

func (e *CloseError) Unwrap() error { return e.Err }

// closeErrorOf extracts a CloseError, treating any other error as an abnormal drop.
func closeErrorOf(err error) *CloseError {
	var ce *CloseError
	if errors.As(err, &ce) {
		return ce
	}
	return &CloseError{Code: protocol.CloseAbnormal, Err: err}
}
