package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/coder/websocket"

	"vimpclient/protocol"
)

// Peer is a client connection other than the host's WebSocket: a lobby
// room's pair of WebRTC data channels. The room runs the same port state
// machine over it; only the writer knows which channel a message takes.
type Peer interface {
	// Recv returns the next client message, both channels merged.
	Recv(ctx context.Context) ([]byte, error)
	// Send writes one message, binary or text; lossy ones go over the
	// unordered channel (PING, positional frames), the rest over the
	// reliable one.
	Send(b []byte, binary, lossy bool) error
	// Close ends the connection once what was sent is delivered (waiting a
	// bounded time).
	Close() error
}

// TokenVerifier checks a lobby joiner's identity token and returns the nick
// it carries.
type TokenVerifier func(ctx context.Context, token string) (nick string, err error)

// errNoVerifier refuses every lobby joiner of a host given no verifier.
var errNoVerifier = errors.New("this host cannot verify identity tokens")

// verifyTimeout bounds one token check (a key fetch at worst).
const verifyTimeout = 10 * time.Second

// ServePeer runs one lobby joiner until its connection ends or the host
// stops: the same admission, handshake, pings and kicks as a WebSocket
// client, with the nick taken from the verified token.
func (s *Server) ServePeer(ctx context.Context, p Peer, verify TokenVerifier) {
	s.ServePeerResume(ctx, p, verify, false)
}

// ServePeerResume is ServePeer for a joiner whose offer asked for resume:
// when the host holds seats, its first message must be RESUME_REQUEST (no
// CONFIG_DATA is sent); otherwise it is served as any joiner.
func (s *Server) ServePeerResume(ctx context.Context, p Peer, verify TokenVerifier, resume bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &client{id: int(s.nextID.Add(1)), out: make(chan outMsg, outQueue), cancel: cancel, lobby: true, resume: resume}
	select {
	case s.room.joins <- c:
	case <-ctx.Done():
		_ = p.Close()
		return
	case <-s.room.stopped:
		_ = p.Close()
		return
	}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		s.writeLoop(ctx, peerTransport{p}, c)
	}()
	s.readPeer(ctx, p, c, verify)
	select {
	case s.room.leaves <- c:
	case <-s.room.stopped:
	}
	cancel()
	<-writerDone
	_ = p.Close()
}

// readPeer forwards a peer's messages to the room under the same message
// budget as the WebSocket; the token of an AUTH_RESPONSE or a
// RESUME_REQUEST is verified here.
func (s *Server) readPeer(ctx context.Context, p Peer, c *client, verify TokenVerifier) {
	budget := messageBudget{limit: s.cfg.MessageRate}
	for {
		data, err := p.Recv(ctx)
		if err != nil {
			return
		}
		if len(data) > protocol.MaxClientMessage {
			return // the WebSocket closes with 1009 here; a peer just ends
		}
		if !budget.admit(time.Now()) {
			continue
		}
		port, payload, ok := ParseClientMessage(data)
		if !ok {
			continue
		}
		ev := event{c: c, port: port, payload: payload}
		if port == protocol.AuthResponse || port == protocol.ResumeRequest {
			ev.nick, ev.authErr = s.verifyAuth(ctx, payload, verify)
		}
		if !s.forward(ctx, ev) {
			return
		}
	}
}

func (s *Server) verifyAuth(ctx context.Context, payload json.RawMessage, verify TokenVerifier) (string, error) {
	if verify == nil {
		return "", errNoVerifier
	}
	var obj struct {
		Token string `json:"token"`
	}
	if json.Unmarshal(payload, &obj) != nil || obj.Token == "" {
		return "", errors.New("no token in the auth response")
	}
	vctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	return verify(vctx, obj.Token)
}

// peerTransport is a lobby peer's data channels: frames and PING go over
// the unordered channel when marked lossy, the rest over the ordered one.
type peerTransport struct{ p Peer }

func (t peerTransport) write(_ context.Context, m *outMsg) error {
	if m.binary != nil {
		return t.p.Send(*m.binary, true, m.lossy)
	}
	return t.p.Send(m.text, false, m.lossy)
}

// close has no code to send on a data channel: the reason went ahead as
// TECH_INFORM, and closing waits for it to be delivered.
func (t peerTransport) close(websocket.StatusCode, string) { _ = t.p.Close() }

// Players is the number of authenticated players in the match.
func (s *Server) Players() int { return int(s.room.players.Load()) }

// MapName is the map being played ("" before the first tick).
func (s *Server) MapName() string {
	if p := s.room.mapName.Load(); p != nil {
		return *p
	}
	return ""
}

// MaxPlayers is the cap on authenticated players.
func (s *Server) MaxPlayers() int { return s.cfg.MaxPlayers }

// GameID is the id of the game the host runs.
func (s *Server) GameID() string { return s.game.ID }

// Version is the host's game version (a digest of its config, maps and art).
func (s *Server) Version() string { return s.version }
