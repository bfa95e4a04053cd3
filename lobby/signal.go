package lobby

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"vimpclient/protocol"
	"vimpclient/sameorigin"
)

// Signaling timings: the wait for the master's welcome, the write deadline,
// and the back-off of reconnects after the socket dropped.
const (
	welcomeTimeout    = 10 * time.Second
	writeTimeout      = 5 * time.Second
	reconnectMinDelay = time.Second
	reconnectMaxDelay = 30 * time.Second
)

// ErrInvalidOrigin reports a master that refused the Origin (close 4001).
var ErrInvalidOrigin = errors.New("the master refused this client's Origin; check the address or set -origin")

// ErrNotConnected refuses a send while the signaling socket is down.
var ErrNotConnected = errors.New("signaling: not connected to the master")

// SignalConfig configures a signaling client.
type SignalConfig struct {
	URL    string // ws(s)://master/
	Origin string
	HTTP   *http.Client
	// Handle receives every message other than the ones the client
	// consumes itself (welcome, pong_host, ping rate errors). It runs on the
	// read goroutine and must not block.
	Handle func(msg any)
	// OnConnect is told each welcome; reconnect is false for the first.
	OnConnect func(w Welcome, reconnect bool)
	// Reconnect keeps reconnecting after the socket drops; without it the
	// client ends (Done) at the first drop.
	Reconnect bool
	Log       *slog.Logger
	// PingRate is the ping_host budget per second (default 4, well under the
	// master's 10 per second per address); PingInterval the least time
	// between two pings of one room (default 5 s).
	PingRate     float64
	PingInterval time.Duration
}

// Signal is a connection to the master's signaling WebSocket.
type Signal struct {
	cfg  SignalConfig
	home string // the origin of cfg.URL: the master on the other end
	log  *slog.Logger
	done chan struct{}
	ping *pinger

	mu      sync.Mutex
	conn    *websocket.Conn
	welcome Welcome
	err     error
	closed  bool
	cancel  context.CancelFunc
}

// DialSignal connects, waits for the welcome, and keeps reading in the
// background until ctx ends or Close is called.
func DialSignal(ctx context.Context, cfg SignalConfig) (*Signal, error) {
	if cfg.Origin == "" {
		return nil, errors.New("signaling: an Origin is required (the master drops connections without one)")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Handle == nil {
		cfg.Handle = func(any) {}
	}
	s := &Signal{cfg: cfg, home: sameorigin.Parse(cfg.URL), log: cfg.Log, done: make(chan struct{})}
	s.ping = newPinger(s, cfg.PingRate, cfg.PingInterval)
	conn, w, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	s.conn, s.welcome, s.cancel = conn, w, cancel
	s.mu.Unlock()
	if cfg.OnConnect != nil {
		cfg.OnConnect(w, false)
	}
	stop := context.AfterFunc(ctx, func() { _ = s.Close() })
	go func() {
		defer stop()
		s.run(rctx, conn)
	}()
	return s, nil
}

// connect dials and reads the welcome.
func (s *Signal) connect(ctx context.Context) (*websocket.Conn, Welcome, error) {
	dctx, cancel := context.WithTimeout(ctx, welcomeTimeout)
	defer cancel()
	h := http.Header{}
	h.Set("Origin", s.cfg.Origin)
	// The upgrade follows no redirect: the socket carries the token, and a
	// browser's WebSocket never follows one either.
	conn, resp, err := websocket.Dial(dctx, s.cfg.URL, &websocket.DialOptions{HTTPClient: sameorigin.WebSocketClient(s.cfg.HTTP), HTTPHeader: h})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if re, ok := sameorigin.Refused(err); ok {
		return nil, Welcome{}, fmt.Errorf("signaling: %w", re)
	}
	if err != nil {
		return nil, Welcome{}, fmt.Errorf("signaling %s: %w", s.cfg.URL, err)
	}
	conn.SetReadLimit(MaxSignalMessage)
	for {
		_, b, err := conn.Read(dctx)
		if err != nil {
			_ = conn.CloseNow()
			if websocket.CloseStatus(err) == protocol.CloseInvalidOrigin {
				return nil, Welcome{}, fmt.Errorf("signaling %s (Origin %s): %w", s.cfg.URL, s.cfg.Origin, ErrInvalidOrigin)
			}
			if dctx.Err() != nil && ctx.Err() == nil {
				return nil, Welcome{}, fmt.Errorf("signaling %s: no welcome within %s", s.cfg.URL, welcomeTimeout)
			}
			return nil, Welcome{}, fmt.Errorf("signaling %s: before the welcome: %w", s.cfg.URL, err)
		}
		msg, err := Parse(b)
		if err != nil {
			continue
		}
		if w, ok := msg.(*Welcome); ok {
			return conn, *w, nil
		}
	}
}

// run reads until the socket drops, then reconnects when configured. Reading
// also answers the master's WebSocket pings.
func (s *Signal) run(ctx context.Context, conn *websocket.Conn) {
	defer close(s.done)
	delay := reconnectMinDelay
	for {
		err := s.readLoop(ctx, conn)
		_ = conn.CloseNow()
		if ctx.Err() != nil || s.isClosed() {
			s.finish(nil)
			return
		}
		if websocket.CloseStatus(err) == protocol.CloseInvalidOrigin {
			s.finish(ErrInvalidOrigin)
			return
		}
		if !s.cfg.Reconnect {
			s.finish(fmt.Errorf("signaling: connection to the master lost: %w", err))
			return
		}
		s.log.Warn("signaling: connection lost; reconnecting", "err", err, "in", delay)
		s.mu.Lock()
		s.conn = nil
		s.mu.Unlock()
		for {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				s.finish(nil)
				return
			case <-t.C:
			}
			delay = min(delay*2, reconnectMaxDelay)
			c, w, err := s.connect(ctx)
			if err == nil {
				conn = c
				s.mu.Lock()
				s.conn, s.welcome = c, w
				s.mu.Unlock()
				delay = reconnectMinDelay
				if s.cfg.OnConnect != nil {
					s.cfg.OnConnect(w, true)
				}
				break
			}
			if errors.Is(err, ErrInvalidOrigin) || errors.Is(err, sameorigin.ErrRedirect) {
				s.finish(err)
				return
			}
			s.log.Warn("signaling: reconnect failed", "err", err, "retry in", delay)
		}
	}
}

func (s *Signal) readLoop(ctx context.Context, conn *websocket.Conn) error {
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			return err
		}
		msg, err := Parse(b)
		if err != nil {
			s.log.Debug("signaling: message ignored", "err", err)
			continue
		}
		switch m := msg.(type) {
		case *Welcome:
			continue
		case *PongHost:
			s.ping.pong(m)
			continue
		case *Error:
			if m.Code == "rateLimited" || m.Re == TypePingHost {
				s.ping.refused()
				continue
			}
		case Unknown:
			continue
		}
		s.cfg.Handle(msg)
	}
}

func (s *Signal) finish(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.conn = nil
	s.mu.Unlock()
}

// Send writes one message.
func (s *Signal) Send(ctx context.Context, msg []byte) error {
	if len(msg) > MaxSignalMessage {
		return fmt.Errorf("signaling: message of %d bytes over %d", len(msg), MaxSignalMessage)
	}
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return ErrNotConnected
	}
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	if err := conn.Write(wctx, websocket.MessageText, msg); err != nil {
		return fmt.Errorf("signaling: send: %w", err)
	}
	return nil
}

// SendToken sends the message msg builds around tok's value, once tok is
// known to belong to this socket's master (the dial followed no redirect,
// so the master is the one at the socket's address). Any other token is not
// sent: the error names its master and this one.
func (s *Signal) SendToken(ctx context.Context, tok Token, msg func(token string) []byte) error {
	if err := tok.CheckSend(s.home); err != nil {
		return fmt.Errorf("signaling %s: %w", s.cfg.URL, err)
	}
	return s.Send(ctx, msg(tok.Value))
}

// Welcome is the latest welcome (this session's id and ICE servers).
func (s *Signal) Welcome() Welcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.welcome
}

// Done is closed when the client stopped for good; Err then says why (nil
// after Close or the end of its context).
func (s *Signal) Done() <-chan struct{} { return s.done }

// Err is why the client stopped, once Done is closed.
func (s *Signal) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Ping measures a room's latency through the master (client → master →
// host and back), within the ping budget; see pinger.
func (s *Signal) Ping(ctx context.Context, room string) (time.Duration, error) {
	return s.ping.ping(ctx, room)
}

// Latency is the last measured latency of a room.
func (s *Signal) Latency(room string) (time.Duration, bool) { return s.ping.latency(room) }

func (s *Signal) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close closes the socket with a normal close, stops reconnecting and
// returns once the client stopped.
func (s *Signal) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	conn, cancel := s.conn, s.cancel
	s.mu.Unlock()
	var err error
	if conn != nil {
		err = conn.Close(websocket.StatusNormalClosure, "")
	}
	if cancel != nil {
		cancel()
	}
	<-s.done
	return err
}
