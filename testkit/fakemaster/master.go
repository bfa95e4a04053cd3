// Package fakemaster is an in-process lobby master for tests: the HTTP
// discovery (/config, /servers with paging, search and regions, a game
// manifest, /auth/jwks signed by a test key, /rooms/:id), and the signaling
// WebSocket with the Origin rule, the ping rate limit and the error codes,
// in either generation of the master. It relays offers, answers and
// candidates between real peers, and scripts what a test needs: a host
// migration, a closed room, the "Change host" vote, a candidate that
// overtakes its answer. The newer master relays an offer's resume flag to
// the room's host, as the master of session resume does.
package fakemaster

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Dialect selects the generation of the master.
type Dialect int

const (
	// Older is the runnable upstream master: rooms by hostId, no members.
	Older Dialect = iota
	// Newer adds roomId, members, epochs, migration and the host vote.
	Newer
)

// Config configures a fake master. Zero values take the master's defaults.
type Config struct {
	Dialect Dialect
	Keys    *Keys
	// PingLimit is ping_host per second per address (10).
	PingLimit int
	// RegionThreshold (15), DefaultLimit (10) and MaxLimit (50) shape /servers.
	RegionThreshold, DefaultLimit, MaxLimit int
	// WSPing is the newer master's WebSocket ping period (5 s); a session
	// that answers none for WSDeadAfter (12 s) is dropped.
	WSPing, WSDeadAfter time.Duration
	// CandidatesFirst holds each answer until the host's first candidate
	// for that client went out (the candidate race), at most AnswerHold.
	CandidatesFirst bool
	AnswerHold      time.Duration
	// OneRoomPerAddress refuses a second room from one address (hostLimit).
	OneRoomPerAddress bool
	// VoteDuration is the "Change host" vote's length (15 s).
	VoteDuration time.Duration
	// OnVotePassed is told a passed vote (a test then calls Migrate).
	OnVotePassed func(room string)
	// Redirect, when set, sees every request first, the signaling
	// WebSocket's upgrade included: a URL it returns is answered with a 302
	// to it ("" serves the request as usual). A hostile master sends the
	// client to another origin with it.
	Redirect func(r *http.Request) string
	// AnyOrigin accepts every Origin on the signaling socket, as a master
	// that wants what another master's clients send would.
	AnyOrigin bool
	// AuthService, when set, is published as the upstream master does in
	// production: the extra origin of connect-src in the
	// Content-Security-Policy header of every answer.
	AuthService string
	// ConfigExtra adds fields to the /config answer.
	ConfigExtra map[string]any
	Log         *slog.Logger
}

// Request is an HTTP request as the master got it.
type Request struct {
	Method string
	URI    string // path and query
	Header http.Header
}

// maxRecorded bounds each record the master keeps.
const maxRecorded = 10000

// Master is a running fake master.
type Master struct {
	cfg  Config
	srv  *httptest.Server
	port string

	mu       sync.Mutex
	sessions map[string]*sess
	rooms    map[string]*room
	order    []string // room ids in registration order
	pings    map[string]*window
	nextID   int
	log      []Logged
	requests []Request
	raw      [][]byte      // every signaling message received, as sent
	changed  chan struct{} // closed when rooms or members change
	// resumeOffers counts the offers relayed with resume (newer master).
	resumeOffers int
}

// ResumeOffers is the number of offers relayed to a host with resume: a
// guest coming back to the seat it held.
func (m *Master) ResumeOffers() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resumeOffers
}

// Logged is one signaling message as the master saw it.
type Logged struct {
	Session string // the session it came from or went to
	Dir     string // "in" (to the master) or "out"
	Type    string
	At      time.Time
}

type window struct {
	start time.Time
	n     int
}

// Start runs a master on a free loopback port.
func Start(cfg Config) *Master {
	if cfg.PingLimit <= 0 {
		cfg.PingLimit = 10
	}
	if cfg.RegionThreshold <= 0 {
		cfg.RegionThreshold = 15
	}
	if cfg.DefaultLimit <= 0 {
		cfg.DefaultLimit = 10
	}
	if cfg.MaxLimit <= 0 {
		cfg.MaxLimit = 50
	}
	if cfg.WSPing <= 0 {
		cfg.WSPing = 5 * time.Second
	}
	if cfg.WSDeadAfter <= 0 {
		cfg.WSDeadAfter = 12 * time.Second
	}
	if cfg.AnswerHold <= 0 {
		cfg.AnswerHold = 2 * time.Second
	}
	if cfg.VoteDuration <= 0 {
		cfg.VoteDuration = 15 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	m := &Master{cfg: cfg, sessions: map[string]*sess{}, rooms: map[string]*room{}, pings: map[string]*window{}}
	m.srv = httptest.NewServer(m.front(m.routes()))
	_, m.port, _ = net.SplitHostPort(m.srv.Listener.Addr().String())
	return m
}

// URL is the master's base URL (http://127.0.0.1:port).
func (m *Master) URL() string { return m.srv.URL }

// Origin is an Origin the master accepts.
func (m *Master) Origin() string { return "https://127.0.0.1:" + m.port }

// Close stops the master and drops every socket.
func (m *Master) Close() {
	m.mu.Lock()
	for _, s := range m.sessions {
		_ = s.ws.CloseNow()
	}
	m.mu.Unlock()
	m.srv.CloseClientConnections()
	m.srv.Close()
}

// front records every request, then redirects it when the test asks.
func (m *Master) front(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		if len(m.requests) < maxRecorded {
			m.requests = append(m.requests, Request{Method: r.Method, URI: r.URL.RequestURI(), Header: r.Header.Clone()})
		}
		m.mu.Unlock()
		if m.cfg.AuthService != "" {
			w.Header().Set("Content-Security-Policy", policy(m.cfg.AuthService))
		}
		if m.cfg.Redirect != nil {
			if to := m.cfg.Redirect(r); to != "" {
				http.Redirect(w, r, to, http.StatusFound)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Requests returns the HTTP requests the master got, the WebSocket
// upgrades included.
func (m *Master) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.requests...)
}

// Saw reports whether s appeared anywhere in what the master got: a
// request's path, query or headers, or a signaling message.
func (m *Master) Saw(s string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.requests {
		if strings.Contains(r.URI, s) {
			return true
		}
		for _, vs := range r.Header {
			for _, v := range vs {
				if strings.Contains(v, s) {
					return true
				}
			}
		}
	}
	for _, b := range m.raw {
		if strings.Contains(string(b), s) {
			return true
		}
	}
	return false
}

// Log returns the signaling messages seen so far.
func (m *Master) Log() []Logged {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Logged(nil), m.log...)
}

func (m *Master) newID() string {
	m.nextID++
	if m.cfg.Dialect == Newer {
		// 8 characters of lower-case Crockford base32, like the newer master.
		const abc = "0123456789abcdefghjkmnpqrstvwxyz"
		n := m.nextID*7919 + 12345
		b := make([]byte, 8)
		for i := range b {
			b[i] = abc[n%32]
			n /= 32
		}
		return string(b)
	}
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", m.nextID)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (m *Master) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /config", func(w http.ResponseWriter, r *http.Request) {
		cfg := map[string]any{"mode": "lobby"}
		for k, v := range m.cfg.ConfigExtra {
			cfg[k] = v
		}
		writeJSON(w, http.StatusOK, cfg)
	})
	mux.HandleFunc("GET /quickplay/{game}", m.quickPlay)
	mux.HandleFunc("GET /servers", m.servers)
	mux.HandleFunc("GET /rooms/{id}", func(w http.ResponseWriter, r *http.Request) {
		if m.cfg.Dialect != Newer {
			http.NotFound(w, r)
			return
		}
		m.mu.Lock()
		rm := m.rooms[r.PathValue("id")]
		var item map[string]any
		if rm != nil {
			item = m.public(rm)
			item["status"] = rm.status
		}
		m.mu.Unlock()
		if item == nil {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknownRoom"})
			return
		}
		writeJSON(w, http.StatusOK, item)
	})
	mux.HandleFunc("GET /auth/jwks", func(w http.ResponseWriter, r *http.Request) {
		if m.cfg.Keys == nil {
			writeJSON(w, http.StatusBadGateway, map[string]string{"error": "authServiceUnavailable"})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(m.cfg.Keys.JWKS())
	})
	mux.HandleFunc("GET /games/manifest.json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, []any{manifest})
	})
	mux.HandleFunc("GET /games/{id}/manifest.json", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != "tanks" {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknownGame"})
			return
		}
		writeJSON(w, http.StatusOK, manifest)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		m.signal(w, r)
	})
	return mux
}

var manifest = map[string]any{"id": "tanks", "engineApi": 3, "version": "fake", "title": "Tanks",
	"assetsBase": "/games/tanks/", "maps": map[string]any{"version": "fake", "list": []string{}}}

// public is a room as /servers lists it.
func (m *Master) public(r *room) map[string]any {
	if m.cfg.Dialect == Newer {
		return map[string]any{"roomId": r.id, "hostId": r.id, "gameId": r.gameID, "info": r.name,
			"mapName": r.mapName, "currentPlayers": m.players(r), "maxPlayers": r.maxPlayers, "region": r.region}
	}
	return map[string]any{"hostId": r.id, "name": r.name, "mapName": r.mapName, "currentPlayers": r.players,
		"maxPlayers": r.maxPlayers, "region": r.region, "gameId": r.gameID, "rating": r.rating}
}

func toInt(s string, def, lo, hi int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return min(max(n, lo), hi)
}

// servers lists rooms as the master does: a search ignores regions and
// paging; a small list is given whole; a long one by region and page.
func (m *Master) servers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	m.mu.Lock()
	var online []*room
	for _, id := range m.order {
		if rm := m.rooms[id]; rm != nil && (rm.status == "online" || m.cfg.Dialect == Older) {
			online = append(online, rm)
		}
	}
	list := func(rs []*room) []any {
		out := make([]any, 0, len(rs))
		for _, rm := range rs {
			out = append(out, m.public(rm))
		}
		return out
	}
	defer m.mu.Unlock()
	if s := strings.ToLower(strings.TrimSpace(q.Get("search"))); s != "" {
		game, name, slash := strings.Cut(s, "/")
		var found []*room
		for _, rm := range online {
			if !slash && strings.Contains(strings.ToLower(rm.name), s) ||
				slash && strings.Contains(strings.ToLower(rm.gameID), game) && strings.Contains(strings.ToLower(rm.name), name) {
				found = append(found, rm)
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"total": len(found), "servers": list(found)})
		return
	}
	if len(online) <= m.cfg.RegionThreshold {
		writeJSON(w, http.StatusOK, map[string]any{"total": len(online), "servers": list(online)})
		return
	}
	filtered := online
	if region := q.Get("region"); region != "" {
		filtered = nil
		for _, rm := range online {
			if rm.region == region {
				filtered = append(filtered, rm)
			}
		}
	}
	off := toInt(q.Get("offset"), 0, 0, 1<<30)
	lim := toInt(q.Get("limit"), m.cfg.DefaultLimit, 1, m.cfg.MaxLimit)
	end := min(off+lim, len(filtered))
	if off > end {
		off = end
	}
	writeJSON(w, http.StatusOK, map[string]any{"total": len(filtered), "servers": list(filtered[off:end])})
}

// AddListed lists a room that has no host behind it (for list tests).
func (m *Master) AddListed(name, region string, players, maxPlayers int) string {
	return m.AddRoom(Listed{Name: name, Region: region, Players: players, MaxPlayers: maxPlayers})
}

// Listed is a room with no host behind it, whatever its texts hold (for
// tests of what the client prints). An empty ID is a fresh one; an empty
// GameID is tanks, an empty MapName arena. Rating is what the older
// dialect lists.
type Listed struct {
	ID, Name, Region, GameID, MapName string
	Players, MaxPlayers               int
	Rating                            float64
}

// AddRoom lists l and returns its id.
func (m *Master) AddRoom(l Listed) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := l.ID
	if id == "" {
		id = m.newID()
	}
	r := &room{id: id, name: l.Name, region: l.Region, gameID: l.GameID, mapName: l.MapName, players: l.Players,
		maxPlayers: l.MaxPlayers, rating: l.Rating, status: "online", members: map[string]*member{}}
	if r.gameID == "" {
		r.gameID = "tanks"
	}
	if r.mapName == "" {
		r.mapName = "arena"
	}
	m.rooms[id] = r
	m.order = append(m.order, id)
	return id
}

// AddListedAs lists a room with no host behind it under a given id (a
// hostile master lists another master's rooms as its own).
func (m *Master) AddListedAs(id, name, region string, players, maxPlayers int) {
	m.AddRoom(Listed{ID: id, Name: name, Region: region, Players: players, MaxPlayers: maxPlayers})
}

// RoomIDs lists the registered rooms in order.
func (m *Master) RoomIDs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.order))
	for _, id := range m.order {
		if m.rooms[id] != nil {
			out = append(out, id)
		}
	}
	return out
}

// Members lists a room's member ids (newer dialect), sorted.
func (m *Master) Members(room string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	rm := m.rooms[room]
	if rm == nil {
		return nil
	}
	var out []string
	for id := range rm.members {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// origins the master accepts: https on its own port, as the real one.
func (m *Master) originOK(o string) bool {
	if m.cfg.AnyOrigin {
		return o != ""
	}
	return o == "https://127.0.0.1:"+m.port || o == "https://localhost:"+m.port
}

// record logs a message; callers hold m.mu.
func (m *Master) record(session, dir, typ string) {
	if len(m.log) < maxRecorded {
		m.log = append(m.log, Logged{Session: session, Dir: dir, Type: typ, At: time.Now()})
		m.bump()
	}
}

// allowPing counts a ping against its address's budget (a fixed second).
func (m *Master) allowPing(ip string, now time.Time) bool {
	w := m.pings[ip]
	if w == nil || now.Sub(w.start) >= time.Second {
		w = &window{start: now}
		m.pings[ip] = w
	}
	w.n++
	return w.n <= m.cfg.PingLimit
}

// writeMsg sends a message on a session (never blocking the caller long).
func (m *Master) writeMsg(s *sess, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	var typ struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(b, &typ)
	m.record(s.id, "out", typ.Type)
	select {
	case s.out <- b:
	default:
		_ = s.ws.CloseNow()
	}
}
