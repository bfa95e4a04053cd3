package host

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"vimpclient/host/game"
	"vimpclient/host/match"
	"vimpclient/protocol"
)

// tickInterval is the simulation step of the room loop (120 Hz).
const tickInterval = time.Second / match.TicksPerSecond

// maxCatchUp bounds the steps run for one wake-up after a stall; the
// backlog of a stall up to maxBacklog steps (1 s) is worked off over the
// next wake-ups, so the match's time keeps pace with the frames' server
// time (a snake never stops: steps dropped while the server time goes on
// would show as prediction error on every client). Only a longer stall's
// excess is dropped.
const (
	maxCatchUp = 12
	maxBacklog = 120
)

// room owns the match and every client's protocol state; it runs on one
// goroutine, so none of that state is locked.
type room struct {
	cfg     *Config
	match   game.Match
	joins   chan *client
	leaves  chan *client
	events  chan event
	stopped chan struct{}
	clients map[int]*client // by the match's user id (client.uid)
	// seats are the lobby players given a resume key, by their game id;
	// a seat whose client is nil is held for a player who may come back.
	seats map[string]*heldSeat
	bufs  sync.Pool
	now   time.Time
	// players and mapName are read by other goroutines (a lobby room
	// reports them to its master).
	players atomic.Int32
	mapName atomic.Pointer[string]
}

func newRoom(cfg *Config, m game.Match) *room {
	r := &room{cfg: cfg, match: m, joins: make(chan *client), leaves: make(chan *client),
		events: make(chan event, 1024), stopped: make(chan struct{}), clients: map[int]*client{},
		seats: map[string]*heldSeat{}}
	r.bufs.New = func() any { b := make([]byte, 0, 2048); return &b }
	m.SetOut(r)
	return r
}

func (r *room) putBuf(b *[]byte) { r.bufs.Put(b) }

func (r *room) run(ctx context.Context) {
	defer close(r.stopped)
	start := time.Now()
	r.now = start
	var steps int64
	ticker := time.NewTicker(tickInterval)
	defer ticker.Stop()
	nextIdle := start.Add(r.cfg.IdleCheck)
	for {
		select {
		case <-ctx.Done():
			for _, c := range r.clients {
				r.closeClient(c, websocket.StatusGoingAway, "")
			}
			return
		case c := <-r.joins:
			r.now = time.Now()
			r.admit(c)
		case c := <-r.leaves:
			r.now = time.Now()
			r.remove(c)
		case ev := <-r.events:
			r.now = time.Now()
			r.handle(ev)
		case now := <-ticker.C:
			r.now = now
			due := int64(now.Sub(start) / tickInterval)
			n := 0
			for steps < due && n < maxCatchUp {
				steps++
				n++
				// Each step carries its own server time, so steps caught
				// up after a stall keep their spacing in the frames.
				at := start.Add(time.Duration(steps) * tickInterval)
				r.match.Step(float64(at.UnixNano()) / 1e6)
			}
			steps = max(steps, due-maxBacklog) // drop the excess of a long stall
			if name := r.match.MapName(); r.mapName.Load() == nil || *r.mapName.Load() != name {
				r.mapName.Store(&name)
			}
			r.timers(now)
			r.expireSeats(now)
			if !now.Before(nextIdle) {
				nextIdle = now.Add(r.cfg.IdleCheck)
				r.idleKicks(now)
			}
		}
	}
}

// JSON implements game.Out.
func (r *room) JSON(uid int, port int, payload any) {
	c := r.clients[uid]
	if c == nil || c.closing {
		return
	}
	b, err := json.Marshal([]any{port, payload})
	if err != nil {
		r.cfg.Log.Error("host: marshal", "port", port, "err", err)
		return
	}
	if port == protocol.MapData && c.tracking {
		c.nextPing = r.now // the ping timer restarts with an immediate ping on every map
	}
	r.enqueue(c, outMsg{text: b}, true)
}

// Frame implements game.Out.
func (r *room) Frame(uid int, b []byte, reliable bool) {
	c := r.clients[uid]
	if c == nil || c.closing {
		return
	}
	buf := r.bufs.Get().(*[]byte)
	*buf = append((*buf)[:0], b...)
	if !r.enqueue(c, outMsg{binary: buf, lossy: !reliable}, reliable) {
		r.bufs.Put(buf)
	}
}

// enqueue queues m without blocking. When the queue is full an unreliable
// message is dropped and a reliable one ends the connection.
func (r *room) enqueue(c *client, m outMsg, reliable bool) bool {
	select {
	case c.out <- m:
		return true
	default:
	}
	if reliable {
		r.cfg.Log.Warn("host: client too slow, closing", "client", c.id)
		c.closing = true
		c.cancel()
		r.leaveMatch(c)
	}
	return false
}

func (r *room) send(c *client, port int, payload any) { r.JSON(c.uid, port, payload) }

// closeClient sends an optional TECH_INFORM first (kicks), then the close.
func (r *room) closeClient(c *client, code websocket.StatusCode, reason string) {
	if c.closing {
		return
	}
	select {
	case c.out <- outMsg{closeCode: code, reason: reason}:
	default:
		c.cancel()
	}
	c.closing = true
	r.leaveMatch(c)
}

func (r *room) kick(c *client, tech int, code websocket.StatusCode) {
	r.send(c, protocol.TechInformData, []int{tech})
	r.closeClient(c, code, "")
}

func (r *room) leaveMatch(c *client) {
	if c.joined {
		c.joined = false
		r.players.Add(-1)
		r.match.Leave(c.uid)
		r.dropSeat(c)
	}
}

func (r *room) authenticated() int {
	n := 0
	for _, c := range r.clients {
		if c.joined {
			n++
		}
	}
	for _, st := range r.seats {
		if st.client == nil {
			n++ // held for a player who may come back
		}
	}
	return n
}

// admit is the port machine's connect: room full, else CONFIG_DATA.
func (r *room) admit(c *client) {
	c.admitted = r.now
	c.rtt = 100
	c.uid = c.id
	r.clients[c.uid] = c
	if c.resume && r.resumable() {
		// A connection offered with resume: its first message must be
		// RESUME_REQUEST; a held seat is already counted.
		c.state = stateResume
		return
	}
	if r.authenticated() >= r.cfg.MaxPlayers {
		r.send(c, protocol.TechInformData, []any{6, []int{r.cfg.MaxPlayers}})
		r.closeClient(c, protocol.CloseRoomFull, "")
		return
	}
	r.send(c, protocol.ConfigData, r.match.ConfigData())
}

// remove ends a client whose connection is gone. A lobby player who left
// without LEAVE keeps its seat for the grace period; everyone else leaves
// the match at once.
func (r *room) remove(c *client) {
	if r.clients[c.uid] != c {
		return // its seat was taken over by a resumed connection
	}
	delete(r.clients, c.uid)
	if !c.closing && c.joined && c.seat != nil && !c.left {
		r.detach(c)
		return
	}
	r.leaveMatch(c)
}

type authError struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

// authData is the auth form: a guest name field on the WebSocket, none for
// a lobby joiner (the nick comes from its identity token).
func (r *room) authData(lobby bool) any {
	if r.cfg.AuthData != nil && !lobby {
		return r.cfg.AuthData
	}
	params := []any{}
	if !lobby {
		params = append(params, map[string]any{"name": "name", "value": "", "options": map[string]any{
			"control": "text", "label": "Name", "validator": "isValidName", "storage": "playerName",
			"required": true, "maxlength": 15}})
	}
	for _, p := range authParams(r.match) {
		params = append(params, p)
	}
	return map[string]any{
		"elems": map[string]string{"authId": "auth", "errorId": "auth-error", "enterId": "auth-enter",
			"fieldsId": "auth-fields", "titleId": "auth-title", "informsId": "auth-informs"},
		"params": params,
		"texts":  authTexts(r.match),
	}
}

// handle runs one client message through the port state machine; a port
// not enabled in the client's state is ignored.
func (r *room) handle(ev event) {
	c := ev.c
	if r.clients[c.uid] != c || c.closing {
		return
	}
	if ev.port == protocol.Leave {
		r.leave(c)
		return
	}
	switch c.state {
	case stateResume:
		if ev.port == protocol.ResumeRequest {
			r.resume(c, ev)
		}
	case 0:
		if ev.port == protocol.ConfigReady {
			c.state = 1
			r.send(c, protocol.AuthData, r.authData(c.lobby))
		}
	case 1:
		if ev.port == protocol.AuthResponse {
			r.auth(c, ev)
		}
	case 2:
		if ev.port == protocol.ModulesReady {
			c.state = 3
			r.match.ModulesReady(c.uid)
		}
	case 3:
		r.inGame(c, ev)
	}
}

func (r *room) auth(c *client, ev event) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(ev.payload, &obj) != nil || obj == nil {
		return
	}
	fields := map[string]string{}
	names := []string{"name"}
	if c.lobby {
		// No guest path: a lobby room admits only a verified identity.
		if ev.authErr != nil || ev.nick == "" {
			r.cfg.Log.Info("host: lobby joiner refused", "client", c.id, "err", ev.authErr)
			r.send(c, protocol.AuthResult, []authError{{"token", "invalid"}})
			return
		}
		names = names[:0]
		fields["name"] = ev.nick
	}
	for _, p := range authParams(r.match) {
		names = append(names, p.Name)
	}
	for _, n := range names {
		raw, ok := obj[n]
		if !ok {
			r.send(c, protocol.AuthResult, []authError{{n, "Property is missing"}})
			return
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			r.send(c, protocol.AuthResult, []authError{{n, "Property must be a string"}})
			return
		}
		fields[n] = s
	}
	var errs []authError
	if !c.lobby && !game.ValidName(fields["name"]) {
		errs = append(errs, authError{"name", "not valid"})
	}
	for _, n := range invalidAuth(r.match, fields) {
		errs = append(errs, authError{n, "not valid"})
	}
	if len(errs) > 0 {
		r.send(c, protocol.AuthResult, errs)
		return
	}
	if r.authenticated() >= r.cfg.MaxPlayers {
		r.send(c, protocol.TechInformData, []any{6, []int{r.cfg.MaxPlayers}})
		r.closeClient(c, protocol.CloseRoomFull, "")
		return
	}
	if _, ok := r.match.Join(c.uid, fields["name"]); !ok {
		r.send(c, protocol.TechInformData, []any{6, []int{r.cfg.MaxPlayers}})
		r.closeClient(c, protocol.CloseRoomFull, "")
		return
	}
	c.joined = true
	c.nick = ev.nick
	r.players.Add(1)
	c.state = 2
	c.tracking = true
	c.nextPing = r.now.Add(r.cfg.PingInterval)
	c.lastActive = r.now
	r.send(c, protocol.TechInformData, []int{2})
	r.send(c, protocol.AuthResult, nil)
}

func (r *room) inGame(c *client, ev event) {
	switch ev.port {
	case protocol.MapReady:
		r.match.MapReady(c.uid)
	case protocol.FirstShotReady:
		r.match.FirstShotReady(c.uid)
		r.issueSeat(c)
	case protocol.KeysData:
		var s string
		if json.Unmarshal(ev.payload, &s) == nil {
			c.lastActive = r.now
			r.match.Keys(c.uid, s)
		}
	case protocol.ChatSend:
		var s string
		if json.Unmarshal(ev.payload, &s) == nil {
			c.lastActive = r.now
			if ch, ok := r.match.(game.Chatter); ok {
				ch.Chat(c.uid, s)
			}
		}
	case protocol.VoteSend:
		p := strings.TrimSpace(string(ev.payload))
		if p == "null" || p == "false" || p == "0" || p == `""` {
			return
		}
		c.lastActive = r.now
		if v, ok := r.match.(game.Voter); ok {
			v.Vote(c.uid, ev.payload)
		}
	case protocol.Pong:
		r.pong(c, ev.payload)
	}
}

func (r *room) pong(c *client, payload []byte) {
	var id float64
	if !c.pingOpen || json.Unmarshal(payload, &id) != nil || id != float64(c.pingID) {
		return
	}
	c.pingOpen = false
	c.missed = 0
	sample := float64(r.now.Sub(c.pingSent)) / float64(time.Millisecond)
	c.rtt = 0.9*c.rtt + 0.1*sample
	if l, ok := r.match.(game.LatencyRecorder); ok {
		l.SetLatency(c.uid, int(math.Round(c.rtt)))
	}
	if c.rtt > float64(r.cfg.MaxLatency)/float64(time.Millisecond) {
		r.kick(c, 4, protocol.CloseKickMaxLatency)
	}
}

// timers sends the pings, counts missed ones and enforces the handshake
// timeout.
func (r *room) timers(now time.Time) {
	for _, c := range r.clients {
		if c.closing {
			continue
		}
		if c.state == stateResume {
			if now.Sub(c.admitted) >= resumeRequestTimeout {
				r.closeClient(c, protocol.CloseHandshakeTimeout, "handshakeTimeout")
			}
			continue
		}
		if !c.joined {
			if now.Sub(c.admitted) >= r.cfg.HandshakeTimeout {
				r.closeClient(c, protocol.CloseHandshakeTimeout, "handshakeTimeout")
			}
			continue
		}
		if !c.tracking || now.Before(c.nextPing) {
			continue
		}
		c.nextPing = now.Add(r.cfg.PingInterval)
		if c.pingOpen {
			c.missed++
			if c.missed >= r.cfg.MaxMissedPings {
				r.kick(c, 5, protocol.CloseKickMissedPings)
				continue
			}
		}
		c.pingID++
		c.pingOpen = true
		c.pingSent = now
		b, _ := json.Marshal([]int{protocol.Ping, c.pingID})
		r.enqueue(c, outMsg{text: b, lossy: true}, false)
	}
}

// idleKicks closes players in a playing team who sent no key, chat or
// vote for IdleTimeout.
func (r *room) idleKicks(now time.Time) {
	for _, c := range r.clients {
		if c.closing || !c.joined || c.state != 3 || !playing(r.match, c.uid) {
			continue
		}
		if now.Sub(c.lastActive) >= r.cfg.IdleTimeout {
			r.kick(c, 3, protocol.CloseKickIdle)
		}
	}
}
