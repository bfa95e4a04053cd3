// Package host is the embedded vimp host: it serves the dedicated-host HTTP
// discovery (/config, the game manifests, maps and images) and the /game
// WebSocket, admits connections the way a dedicated host does (origin,
// connection rate, message size and rate limits, handshake timeout), runs
// the per-connection port state machine and the PING/PONG kicks, and drives
// one game's match at 120 Hz with 30 Hz frames: a tanks-compatible match
// (package match) or a snakes one (package snakesmatch), as Config.Game
// chooses.
package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"vimpclient/host/art"
	"vimpclient/host/match"
)

// Config configures a host. Zero values take the dedicated host defaults.
type Config struct {
	// Addr is the listen address; default 127.0.0.1:0 (a free loopback port).
	Addr string
	// Game is the id of the game to run, one of Games; "" is DefaultGame.
	Game string
	// Games are the games the host can run (nil: the built-in Games()). A
	// game added here is found by Game like a built-in one.
	Games []GameInfo
	// Bots is the number of bots in the match.
	Bots int
	// BotSkill is the bots' preset: easy, normal or hard ("": easy, as
	// the game ships its bots).
	BotSkill string
	// Map pins the match to one map of the game's catalog (no rotation);
	// "" rotates.
	Map string
	// MaxPlayers caps authenticated humans (default 30).
	MaxPlayers int
	// PingInterval (3 s), MaxLatency (1 s) and MaxMissedPings (5) drive
	// the latency kicks.
	PingInterval   time.Duration
	MaxLatency     time.Duration
	MaxMissedPings int
	// HandshakeTimeout closes connections that are not authenticated in
	// time (120 s).
	HandshakeTimeout time.Duration
	// IdleTimeout (120 s) and IdleCheck (30 s) drive the idle kick.
	IdleTimeout time.Duration
	IdleCheck   time.Duration
	// MessageRate is the per-socket message budget per second (300).
	MessageRate int
	// ConnRate is the per-address connection budget per minute (30).
	ConnRate int
	// Seed makes the bots' choices repeatable.
	Seed uint64
	// Dialect picks the version of the game's built-in data ("" the
	// newest): tanks "0.22" or "0.13" (match.Dialects), snakes "0.15" or
	// "0.6" (snakesmatch.Dialects). Data replaces it.
	Dialect string
	// Sound returns a sound file by its name with extension (such as
	// "shot.mp3": a catalog file and one of its codecs) and its content
	// type; nil serves no sounds. Served as <assetsBase>sounds/<name>;
	// package host/sounds is the embedded match's.
	Sound func(name string) (data []byte, contentType string, ok bool)
	// Data plays another game's own data (tanks or snakes, by Game)
	// instead of the built-in one: its CONFIG_DATA and MAP_DATA sent
	// verbatim (the game's match package says what the schema must be),
	// its images drawn in the shapes its maps ask for. AuthData, when set, is the AUTH_DATA sent verbatim to a guest.
	// Together they make the host send what a real host of that game sends.
	Data     *match.GameData
	AuthData json.RawMessage
	// RoundSeconds, MapSeconds, VoteSeconds pass to the match.
	RoundSeconds, MapSeconds, VoteSeconds int
	// ResumeGrace is how long a lobby room holds the seat of a player whose
	// connection was lost (20 s): the player may take it back with the key
	// of SESSION_DATA. Negative turns resume off (no SESSION_DATA is sent,
	// as an older host). A WebSocket client's seat is never held.
	ResumeGrace time.Duration
	Log         *slog.Logger
}

func (c *Config) defaults() {
	if c.Addr == "" {
		c.Addr = "127.0.0.1:0"
	}
	if c.MaxPlayers <= 0 {
		c.MaxPlayers = 30
	}
	if c.PingInterval <= 0 {
		c.PingInterval = 3 * time.Second
	}
	if c.MaxLatency <= 0 {
		c.MaxLatency = time.Second
	}
	if c.MaxMissedPings <= 0 {
		c.MaxMissedPings = 5
	}
	if c.ResumeGrace == 0 {
		c.ResumeGrace = DefaultResumeGrace
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = 120 * time.Second
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 120 * time.Second
	}
	if c.IdleCheck <= 0 {
		c.IdleCheck = 30 * time.Second
	}
	if c.MessageRate <= 0 {
		c.MessageRate = 300
	}
	if c.ConnRate <= 0 {
		c.ConnRate = 30
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
}

// Server is a running host.
type Server struct {
	cfg     Config
	game    GameInfo
	ln      net.Listener
	http    *http.Server
	room    *room
	port    int
	host    string
	version string
	images  map[string][]byte
	done    chan struct{}

	nextID atomic.Int64

	connMu sync.Mutex
	conns  map[string]*connWindow
	wg     sync.WaitGroup
}

type connWindow struct {
	start time.Time
	count int
}

// Start listens on cfg.Addr and runs the host until ctx is cancelled; then
// every socket is closed with 1001 and Done is closed.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	cfg.defaults()
	m, info, err := newMatch(&cfg)
	if err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	images, err := art.Images()
	if err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	if cfg.Data != nil {
		if images, err = gameImages(cfg.Data.Maps); err != nil {
			return nil, fmt.Errorf("host: %w", err)
		}
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("host: listen %s: %w", cfg.Addr, err)
	}
	host, _, _ := net.SplitHostPort(cfg.Addr)
	s := &Server{cfg: cfg, game: info, ln: ln, port: ln.Addr().(*net.TCPAddr).Port, host: host, images: images,
		done: make(chan struct{}), conns: map[string]*connWindow{}}
	h := sha256.New()
	h.Write([]byte(info.ID))
	h.Write(m.ConfigData())
	for _, n := range mapNames(m) {
		b, _ := mapText(m, n)
		h.Write(b)
	}
	for _, n := range slices.Sorted(maps.Keys(images)) {
		h.Write(images[n])
	}
	s.version = hex.EncodeToString(h.Sum(nil))[:16]
	s.room = newRoom(&s.cfg, m)
	// Request contexts do not derive from ctx: on shutdown the room first
	// closes every socket with 1001, then the handlers end.
	s.http = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	roomDone := make(chan struct{})
	go func() {
		defer close(roomDone)
		s.room.run(ctx)
	}()
	go func() {
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			cfg.Log.Error("host: serve", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		<-roomDone
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.http.Shutdown(sctx)
		s.wg.Wait()
		close(s.done)
	}()
	cfg.Log.Info("host: listening", "url", s.URL(), "game", info.ID, "bots", cfg.Bots, "botSkill", cfg.BotSkill)
	return s, nil
}

// URL is the base URL clients use, e.g. http://127.0.0.1:3002.
func (s *Server) URL() string {
	host := s.host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(s.port))
}

// Port is the TCP port the host listens on.
func (s *Server) Port() int { return s.port }

// Done is closed when the host has fully stopped after its context ended.
func (s *Server) Done() <-chan struct{} { return s.done }

// allowConn counts a connection attempt against the per-address budget
// (a fixed 60 s window).
func (s *Server) allowConn(addr string, now time.Time) bool {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	for k, w := range s.conns {
		if now.Sub(w.start) >= time.Minute {
			delete(s.conns, k)
		}
	}
	w := s.conns[addr]
	if w == nil {
		w = &connWindow{start: now}
		s.conns[addr] = w
	}
	w.count++
	return w.count <= s.cfg.ConnRate
}

// originAllowed accepts http://localhost:P, http://127.0.0.1:P and
// http://<the -addr host>:P; on a wildcard address any http origin on the
// listening port, so LAN clients that dial the machine's address get in.
func (s *Server) originAllowed(origin string) bool {
	p := strconv.Itoa(s.port)
	if origin == "http://localhost:"+p || origin == "http://127.0.0.1:"+p {
		return true
	}
	switch s.host {
	case "", "0.0.0.0", "::":
		host, port, err := net.SplitHostPort(origin[min(len(origin), len("http://")):])
		return len(origin) > 7 && origin[:7] == "http://" && err == nil && port == p && host != ""
	}
	return origin == "http://"+net.JoinHostPort(s.host, p)
}
