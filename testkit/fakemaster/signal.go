package fakemaster

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"vimpclient/lobby"
)

// sess is one signaling connection.
type sess struct {
	id       string
	ws       *websocket.Conn
	ip       string
	out      chan []byte
	hosts    string          // the room this session hosts ("" none)
	memberOf string          // the room it is a member of (newer)
	offered  map[string]bool // rooms it offered to (the right to rate)
	// held answers wait for a candidate (CandidatesFirst).
	held map[string][]byte
}

type member struct {
	id      string
	session string
	sub     string
	nick    string
}

type room struct {
	id         string
	name       string
	region     string
	gameID     string
	mapName    string
	players    int
	reported   int // the host's last currentPlayers, in either dialect
	maxPlayers int
	rating     float64 // older dialect
	status     string
	epoch      int
	host       string // hosting session id
	members    map[string]*member
	vote       *vote
}

type vote struct {
	id       string
	eligible map[string]bool // member ids
	yes, no  map[string]bool
	timer    *time.Timer
}

// signal serves the signaling WebSocket.
func (m *Master) signal(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	if origin == "" {
		_ = ws.CloseNow() // terminated: the client sees 1006
		return
	}
	if !m.originOK(origin) {
		_ = ws.Close(4001, "invalidOrigin")
		return
	}
	ws.SetReadLimit(lobby.MaxSignalMessage)
	ip, _, _ := net.SplitHostPort(r.RemoteAddr)
	m.mu.Lock()
	s := &sess{id: m.newUUID(), ws: ws, ip: ip, out: make(chan []byte, 256), offered: map[string]bool{}, held: map[string][]byte{}}
	m.sessions[s.id] = s
	m.writeMsg(s, map[string]any{"type": "welcome", "id": s.id,
		"iceServers": []any{map[string]any{"urls": "stun:127.0.0.1:9"}}})
	m.mu.Unlock()

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case b := <-s.out:
				wctx, c := context.WithTimeout(ctx, 5*time.Second)
				err := ws.Write(wctx, websocket.MessageText, b)
				c()
				if err != nil {
					cancel()
					return
				}
			}
		}
	}()
	if m.cfg.Dialect == Newer {
		go m.pingLoop(ctx, cancel, s)
	}
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			break
		}
		m.mu.Lock()
		if len(m.raw) < maxRecorded {
			m.raw = append(m.raw, b)
		}
		m.mu.Unlock()
		var msg map[string]json.RawMessage
		if json.Unmarshal(b, &msg) != nil {
			continue
		}
		var typ string
		if json.Unmarshal(msg["type"], &typ) != nil {
			continue
		}
		m.mu.Lock()
		m.record(s.id, "in", typ)
		m.dispatch(s, typ, msg)
		m.mu.Unlock()
	}
	cancel()
	_ = ws.CloseNow()
	m.mu.Lock()
	m.removeSession(s)
	m.mu.Unlock()
}

// pingLoop is the newer master's liveness check: a ping every WSPing, the
// session dropped when none is answered for WSDeadAfter.
func (m *Master) pingLoop(ctx context.Context, cancel context.CancelFunc, s *sess) {
	t := time.NewTicker(m.cfg.WSPing)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, c := context.WithTimeout(ctx, m.cfg.WSDeadAfter)
			err := s.ws.Ping(pctx)
			c()
			if err != nil {
				cancel()
				return
			}
			m.mu.Lock()
			m.record(s.id, "in", "ws-pong")
			m.mu.Unlock()
		}
	}
}

func (m *Master) newUUID() string {
	m.nextID++
	return "5e55" + padID(m.nextID)
}

func padID(n int) string {
	const hex = "0123456789abcdef"
	b := []byte("0000-0000-4000-8000-000000000000")
	for i := len(b) - 1; i >= 0 && n > 0; i-- {
		if b[i] == '-' {
			continue
		}
		b[i] = hex[n%16]
		n /= 16
	}
	return string(b)
}

func str(msg map[string]json.RawMessage, k string) string {
	var s string
	_ = json.Unmarshal(msg[k], &s)
	return s
}

// roomArg reads roomId, else hostId.
func roomArg(msg map[string]json.RawMessage) string {
	if id := str(msg, "roomId"); id != "" {
		return id
	}
	return str(msg, "hostId")
}

// fail sends an error; the newer master says which request it answers.
func (m *Master) fail(s *sess, code, re, room string, extra map[string]any) {
	e := map[string]any{"type": "error", "code": code}
	if m.cfg.Dialect == Newer {
		if re != "" {
			e["re"] = re
		}
		if room != "" {
			e["roomId"] = room
		}
		for k, v := range extra {
			e[k] = v
		}
	}
	m.writeMsg(s, e)
}

// verified checks a token as the master does; nil claims when refused.
func (m *Master) verified(msg map[string]json.RawMessage) *lobby.Claims {
	if m.cfg.Keys == nil {
		return nil
	}
	c, err := m.cfg.Keys.Verifier().Verify(context.Background(), str(msg, "token"))
	if err != nil {
		return nil
	}
	return &c
}

func (m *Master) dispatch(s *sess, typ string, msg map[string]json.RawMessage) {
	switch typ {
	case "register_host":
		m.registerHost(s, msg)
	case "update_host":
		if rm := m.rooms[s.hosts]; rm != nil {
			var n float64
			if json.Unmarshal(msg["currentPlayers"], &n) == nil {
				rm.reported = min(max(int(n), 0), rm.maxPlayers)
				if m.cfg.Dialect == Older {
					rm.players = rm.reported
				}
				m.bump()
			}
			if mn := str(msg, "mapName"); mn != "" {
				rm.mapName = mn
			}
			m.bump()
		}
	case "heartbeat":
	case "webrtc_offer":
		m.offer(s, msg)
	case "webrtc_answer":
		m.answer(s, msg)
	case "ice_candidate":
		m.candidate(s, msg)
	case "ping_host":
		if !m.allowPing(s.ip, time.Now()) {
			m.fail(s, "rateLimited", "ping_host", "", nil)
			return
		}
		if rm := m.rooms[roomArg(msg)]; rm != nil && m.sessions[rm.host] != nil {
			m.writeMsg(m.sessions[rm.host], map[string]any{"type": "ping_host", "clientId": s.id, "pingId": msg["pingId"]})
		}
	case "pong_host":
		c := m.sessions[str(msg, "clientId")]
		if rm := m.rooms[s.hosts]; rm != nil && c != nil {
			out := map[string]any{"type": "pong_host", "hostId": rm.id, "pingId": msg["pingId"]}
			if m.cfg.Dialect == Newer {
				out["roomId"] = rm.id
			}
			m.writeMsg(c, out)
		}
	case "like_host", "unlike_host":
		if m.cfg.Dialect != Older {
			return // only the older master rates hosters
		}
		id := str(msg, "hostId")
		switch {
		case !s.offered[id]:
			m.fail(s, "voteRejected", typ, "", nil)
		case m.rooms[id] == nil:
			m.fail(s, "unknownHost", typ, "", nil)
		case m.verified(msg) == nil:
			m.fail(s, "invalidToken", typ, "", nil)
		}
	case "join_room":
		m.joinRoom(s, msg)
	case "leave_room":
		if m.cfg.Dialect == Newer && s.memberOf == roomArg(msg) {
			m.leaveMembership(s)
		}
	case "host_vote_start":
		m.voteStart(s, msg)
	case "host_vote_answer":
		m.voteAnswer(s, msg)
	}
}

func (m *Master) registerHost(s *sess, msg map[string]json.RawMessage) {
	if s.hosts != "" {
		m.fail(s, "alreadyRegistered", "register_host", "", nil)
		return
	}
	if m.verified(msg) == nil {
		m.fail(s, "invalidToken", "register_host", "", nil)
		return
	}
	if m.cfg.OneRoomPerAddress {
		for _, rm := range m.rooms {
			if h := m.sessions[rm.host]; h != nil && h.ip == s.ip {
				m.fail(s, "hostLimit", "register_host", "", nil)
				return
			}
		}
	}
	var maxPlayers float64
	_ = json.Unmarshal(msg["maxPlayers"], &maxPlayers)
	name := str(msg, "name")
	if m.cfg.Dialect == Newer {
		name = str(msg, "info")
	}
	rm := &room{id: m.newID(), name: name, region: "unknown", gameID: str(msg, "gameId"), mapName: str(msg, "mapName"),
		maxPlayers: min(max(int(maxPlayers), 1), 30), status: "online", epoch: 1, host: s.id, members: map[string]*member{}}
	m.rooms[rm.id] = rm
	m.order = append(m.order, rm.id)
	s.hosts = rm.id
	out := map[string]any{"type": "host_registered", "hostId": rm.id, "hostSecret": "secret", "gameId": rm.gameID,
		"mapsVersion": nil, "codeVersion": map[string]any{"engine": nil}}
	if m.cfg.Dialect == Newer {
		out["roomId"], out["epoch"], out["roomSecret"] = rm.id, rm.epoch, "secret"
	}
	m.writeMsg(s, out)
	m.bump()
}

func (m *Master) offer(s *sess, msg map[string]json.RawMessage) {
	id := roomArg(msg)
	rm := m.rooms[id]
	host := (*sess)(nil)
	if rm != nil {
		host = m.sessions[rm.host]
	}
	if m.cfg.Dialect == Newer && rm != nil && (host == nil || rm.status != "online") {
		m.fail(s, "migrating", "webrtc_offer", id, nil)
		return
	}
	if host == nil {
		if m.cfg.Dialect == Newer {
			m.fail(s, "unknownRoom", "webrtc_offer", id, map[string]any{"alias": "unknownHost"})
		} else {
			m.fail(s, "unknownHost", "", "", nil)
		}
		return
	}
	s.offered[id] = true
	out := map[string]any{"type": "webrtc_offer", "clientId": s.id, "sdp": msg["sdp"]}
	if m.cfg.Dialect == Newer {
		out["memberId"], out["epoch"] = str(msg, "memberId"), rm.epoch
		// A guest coming back to its held seat: the host expects
		// RESUME_REQUEST first. The older master knows no resume.
		var resume bool
		if json.Unmarshal(msg["resume"], &resume) == nil && resume {
			out["resume"] = true
			m.resumeOffers++
		}
	}
	m.writeMsg(host, out)
}

func (m *Master) answer(s *sess, msg map[string]json.RawMessage) {
	rm := m.rooms[s.hosts]
	c := m.sessions[str(msg, "clientId")]
	if rm == nil || c == nil {
		return
	}
	out := map[string]any{"type": "webrtc_answer", "hostId": rm.id, "sdp": msg["sdp"]}
	if m.cfg.Dialect == Newer {
		out["roomId"], out["epoch"] = rm.id, rm.epoch
	}
	if m.cfg.CandidatesFirst {
		b, _ := json.Marshal(out)
		c.held[rm.id] = b
		cid, rid := c.id, rm.id
		time.AfterFunc(m.cfg.AnswerHold, func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			m.release(m.sessions[cid], rid)
		})
		return
	}
	m.writeMsg(c, out)
}

// release sends an answer held for the candidate race.
func (m *Master) release(c *sess, room string) {
	if c == nil {
		return
	}
	if b, ok := c.held[room]; ok {
		delete(c.held, room)
		m.record(c.id, "out", "webrtc_answer")
		select {
		case c.out <- b:
		default:
		}
	}
}

func (m *Master) candidate(s *sess, msg map[string]json.RawMessage) {
	target := m.sessions[str(msg, "targetId")]
	if target == nil {
		if rm := m.rooms[str(msg, "targetId")]; rm != nil {
			target = m.sessions[rm.host]
		}
	}
	if target == nil {
		return
	}
	out := map[string]any{"type": "ice_candidate", "fromId": s.id, "candidate": msg["candidate"]}
	if rm := m.rooms[s.hosts]; rm != nil {
		out["fromId"] = rm.id
		if m.cfg.Dialect == Newer {
			out["epoch"] = rm.epoch
		}
	}
	m.writeMsg(target, out)
	if rm := m.rooms[s.hosts]; rm != nil && m.cfg.CandidatesFirst {
		m.release(target, rm.id) // the host's first candidate went ahead of its answer
	}
}

func (m *Master) joinRoom(s *sess, msg map[string]json.RawMessage) {
	if m.cfg.Dialect != Newer {
		return // unknown to the older master
	}
	id, mid := str(msg, "roomId"), str(msg, "memberId")
	if len(mid) != 36 {
		return
	}
	c := m.verified(msg)
	if c == nil {
		m.fail(s, "invalidToken", "join_room", id, nil)
		return
	}
	rm := m.rooms[id]
	if rm == nil {
		m.fail(s, "unknownRoom", "join_room", id, nil)
		return
	}
	if old := rm.members[mid]; old != nil && old.sub != c.Subject {
		m.fail(s, "memberTaken", "join_room", id, nil)
		return
	}
	if s.memberOf != "" && s.memberOf != id {
		m.leaveMembership(s)
	}
	rm.members[mid] = &member{id: mid, session: s.id, sub: c.Subject, nick: c.Nick}
	s.memberOf = id
	m.writeMsg(s, map[string]any{"type": "room_joined", "roomId": id, "epoch": rm.epoch})
	m.bump()
}

func (m *Master) leaveMembership(s *sess) {
	if rm := m.rooms[s.memberOf]; rm != nil {
		for id, mb := range rm.members {
			if mb.session == s.id {
				delete(rm.members, id)
			}
		}
	}
	s.memberOf = ""
	m.bump()
}

func (m *Master) removeSession(s *sess) {
	delete(m.sessions, s.id)
	if rm := m.rooms[s.hosts]; rm != nil {
		if m.cfg.Dialect == Older || len(rm.members) == 0 {
			delete(m.rooms, rm.id) // a room leaves the list the moment its socket closes
		} else {
			rm.host, rm.status = "", "migrating"
		}
	}
	if s.memberOf != "" {
		m.leaveMembership(s)
	}
	m.bump()
}
