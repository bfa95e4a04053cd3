package host

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"vimpclient/protocol"
)

// outMsg is one queued message for a client's writer: text, binary, or a
// close with a code.
type outMsg struct {
	text      []byte
	binary    *[]byte // pooled frame copy, returned after writing
	closeCode websocket.StatusCode
	reason    string
	// lossy marks what a lobby peer sends over its unordered, unreliable
	// channel: PING and positional frames. A WebSocket ignores it.
	lossy bool
}

// outQueue is the per-client send queue length. A reliable message that
// does not fit ends the connection (the client reads too slowly); an
// unreliable one is dropped.
const outQueue = 512

// client is a connection as the room sees it. Fields below the line are
// owned by the room goroutine.
type client struct {
	id     int
	out    chan outMsg
	cancel context.CancelFunc

	state      int // 0 H0, 1 H1 await auth, 2 H2 authenticated, 3 H3 in game
	admitted   time.Time
	closing    bool
	tracking   bool
	pingID     int
	pingOpen   bool
	pingSent   time.Time
	nextPing   time.Time
	missed     int
	rtt        float64
	lastActive time.Time
	joined     bool // participant exists in the match
	// lobby marks a lobby room's joiner: its auth form has no name field,
	// the nick comes from its verified identity token.
	lobby bool
	// resume marks a connection offered with resume (set before the room
	// sees it): it must open with RESUME_REQUEST.
	resume bool
	// uid is the match's user id: the client's own id, or the id of the
	// seat it resumed.
	uid  int
	nick string    // the verified nick of a lobby player
	seat *heldSeat // the seat whose key this client was given
	left bool      // LEAVE received: the seat is not held
}

type event struct {
	c       *client
	port    int
	payload []byte
	// For a lobby joiner's AUTH_RESPONSE: the nick of its verified token,
	// or why the token was refused. Verified on the peer's own goroutine,
	// so a slow key fetch never stalls the room.
	nick    string
	authErr error
}

// The handshake state of a connection offered with resume, before its
// RESUME_REQUEST (the others are 0-3, H0 to H3).
const stateResume = -1

func (s *Server) serveGame(w http.ResponseWriter, r *http.Request) {
	// Counted before the upgrade: until then http.Server.Shutdown waits
	// for this request, so the count is taken before Done's Wait starts.
	s.wg.Add(1)
	defer s.wg.Done()
	origin := r.Header.Get("Origin")
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.cfg.Log.Debug("host: upgrade", "err", err)
		return
	}
	if origin == "" {
		_ = ws.CloseNow() // no close frame: the client sees 1006
		return
	}
	addr, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		_ = ws.CloseNow()
		return
	}
	if !s.allowConn(addr, time.Now()) {
		_ = ws.Close(protocol.CloseTooManyConnections, "tooManyConnections")
		return
	}
	if !s.originAllowed(origin) {
		_ = ws.Close(protocol.CloseInvalidOrigin, "invalidOrigin")
		return
	}
	ws.SetReadLimit(protocol.MaxClientMessage)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	c := &client{id: int(s.nextID.Add(1)), out: make(chan outMsg, outQueue), cancel: cancel}
	select {
	case s.room.joins <- c:
	case <-ctx.Done():
		_ = ws.CloseNow()
		return
	case <-s.room.stopped:
		_ = ws.Close(websocket.StatusGoingAway, "")
		return
	}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		s.writeLoop(ctx, wsTransport{ws}, c)
	}()
	s.readLoop(ctx, ws, c)
	select {
	case s.room.leaves <- c:
	case <-s.room.stopped:
	}
	cancel()
	<-writerDone
	_ = ws.CloseNow()
}

// readLoop forwards every parsable message to the room, dropping what
// exceeds the per-second message budget before parsing it.
func (s *Server) readLoop(ctx context.Context, ws *websocket.Conn, c *client) {
	budget := messageBudget{limit: s.cfg.MessageRate}
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) && !errors.Is(err, context.Canceled) {
				s.cfg.Log.Debug("host: read", "client", c.id, "err", err)
			}
			return
		}
		if !budget.admit(time.Now()) {
			continue
		}
		port, payload, ok := ParseClientMessage(data)
		if !ok {
			continue
		}
		if !s.forward(ctx, event{c: c, port: port, payload: payload}) {
			return
		}
	}
}

// forward hands a client's message to the room; false when the client or
// the room is gone.
func (s *Server) forward(ctx context.Context, ev event) bool {
	select {
	case s.room.events <- ev:
		return true
	case <-ctx.Done():
		return false
	case <-s.room.stopped:
		return false
	}
}

// transport is what the write loop needs of a client's connection: the
// WebSocket of a dedicated client, or a lobby peer's data channels.
type transport interface {
	// write sends one message: the frame of m.binary, else the text.
	write(ctx context.Context, m *outMsg) error
	// close ends the connection, with the code and reason where the
	// transport carries them.
	close(code websocket.StatusCode, reason string)
}

// writeLoop sends the client's queue over t until the queue asks to close,
// a write fails or ctx ends; either end cancels the client.
func (s *Server) writeLoop(ctx context.Context, t transport, c *client) {
	for {
		var m outMsg
		select {
		case m = <-c.out:
		case <-ctx.Done():
			return
		}
		if m.closeCode != 0 {
			t.close(m.closeCode, m.reason)
			c.cancel()
			return
		}
		err := t.write(ctx, &m)
		if m.binary != nil {
			s.room.putBuf(m.binary)
		}
		if err != nil {
			c.cancel()
			return
		}
	}
}

// wsTransport is a dedicated client's WebSocket.
type wsTransport struct{ ws *websocket.Conn }

func (w wsTransport) write(ctx context.Context, m *outMsg) error {
	if m.binary != nil {
		return w.ws.Write(ctx, websocket.MessageBinary, *m.binary)
	}
	return w.ws.Write(ctx, websocket.MessageText, m.text)
}

func (w wsTransport) close(code websocket.StatusCode, reason string) { _ = w.ws.Close(code, reason) }
