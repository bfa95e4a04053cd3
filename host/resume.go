package host

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"vimpclient/host/game"
	"vimpclient/protocol"
)

// DefaultResumeGrace is how long a lobby player's seat is held after its
// connection was lost.
const DefaultResumeGrace = 20 * time.Second

// resumeRequestTimeout closes a connection offered with resume that sends
// no RESUME_REQUEST in time.
const resumeRequestTimeout = 5 * time.Second

// heldSeat is a lobby player's participant as resume sees it: the key that
// takes it back, the verified nick it belongs to, and its connection (nil
// while held for a player who lost it).
type heldSeat struct {
	gameID string
	uid    int
	key    string
	nick   string
	client *client
	lostAt time.Time
}

// resumer is the match's resume side, nil when resume is off (a negative
// grace, or a game that cannot hold seats).
func (r *room) resumer() game.Resumer {
	if r.cfg.ResumeGrace <= 0 {
		return nil
	}
	res, _ := r.match.(game.Resumer)
	return res
}

func (r *room) resumable() bool { return r.resumer() != nil }

// newResumeKey is 128 random bits in hex.
func newResumeKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type sessionData struct {
	Key    string `json:"resumeKey"`
	GameID string `json:"gameId"`
}

// issueSeat gives a lobby player in the game its seat's key (SESSION_DATA),
// once; a resume gives a new one.
func (r *room) issueSeat(c *client) {
	res := r.resumer()
	if res == nil || !c.lobby || c.nick == "" || c.seat != nil || !c.joined {
		return
	}
	gid, ok := res.SeatID(c.uid)
	if !ok {
		return
	}
	st := &heldSeat{gameID: gid, uid: c.uid, key: newResumeKey(), nick: c.nick, client: c}
	r.seats[gid] = st
	c.seat = st
	r.send(c, protocol.SessionData, sessionData{Key: st.key, GameID: gid})
}

// dropSeat forgets the seat of a client that left the match.
func (r *room) dropSeat(c *client) {
	if st := c.seat; st != nil {
		if r.seats[st.gameID] == st {
			delete(r.seats, st.gameID)
		}
		c.seat = nil
	}
}

// detach holds the seat of a player whose connection was lost: the
// participant stays in the match (counted, its tank where it was, keys
// released) until it resumes or the grace period ends.
func (r *room) detach(c *client) {
	st := c.seat
	st.client, st.lostAt = nil, r.now
	r.resumer().Detach(c.uid)
	r.cfg.Log.Info("host: seat held", "client", c.id, "gameId", st.gameID, "grace", r.cfg.ResumeGrace)
}

// expireSeats releases the seats held longer than the grace period.
func (r *room) expireSeats(now time.Time) {
	for gid, st := range r.seats {
		if st.client != nil || now.Sub(st.lostAt) < r.cfg.ResumeGrace {
			continue
		}
		delete(r.seats, gid)
		r.players.Add(-1)
		r.match.Leave(st.uid)
		r.cfg.Log.Info("host: held seat released", "gameId", gid)
	}
}

// leave is LEAVE: the player goes on purpose, its participant is removed
// at once and its seat is not held.
func (r *room) leave(c *client) {
	c.left = true
	r.closeClient(c, websocket.StatusNormalClosure, "")
}

type resumeResult struct {
	OK     bool   `json:"ok"`
	GameID string `json:"gameId,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// resume answers RESUME_REQUEST: a held seat whose key matches and whose
// player the token names is taken over by this connection; anything else
// is refused with a reason and the connection closed (the client then joins
// afresh).
func (r *room) resume(c *client, ev event) {
	var req struct {
		V      *int            `json:"v"`
		GameID json.RawMessage `json:"gameId"`
		Key    string          `json:"resumeKey"`
	}
	if json.Unmarshal(ev.payload, &req) != nil || req.V == nil || *req.V != protocol.ResumeVersion {
		r.refuseResume(c, protocol.ResumeVersionReason)
		return
	}
	st := r.seats[seatKey(req.GameID)]
	if st == nil || len(req.Key) != len(st.key) || subtle.ConstantTimeCompare([]byte(req.Key), []byte(st.key)) != 1 {
		r.refuseResume(c, protocol.ResumeUnknown)
		return
	}
	if ev.authErr != nil || ev.nick != st.nick {
		r.refuseResume(c, protocol.ResumeAuth)
		return
	}
	if old := st.client; old != nil {
		// The old connection is still open (half-open after a loss the
		// host did not notice): the new one takes the seat over, and the
		// old one ends without leaving the match.
		old.seat, old.joined = nil, false
		r.closeClient(old, websocket.StatusNormalClosure, "")
	}
	delete(r.clients, c.uid)
	c.uid = st.uid
	r.clients[c.uid] = c
	c.joined, c.state, c.nick, c.seat = true, 3, st.nick, st
	c.tracking, c.nextPing, c.lastActive = true, r.now.Add(r.cfg.PingInterval), r.now
	st.client = c
	st.lostAt = time.Time{}
	r.cfg.Log.Info("host: seat resumed", "client", c.id, "gameId", st.gameID)
	r.send(c, protocol.ResumeResult, resumeResult{OK: true, GameID: st.gameID})
	r.resumer().Resume(c.uid)
	st.key = newResumeKey()
	r.send(c, protocol.SessionData, sessionData{Key: st.key, GameID: st.gameID})
}

func (r *room) refuseResume(c *client, reason string) {
	r.cfg.Log.Info("host: resume refused", "client", c.id, "reason", reason)
	r.send(c, protocol.ResumeResult, resumeResult{Reason: reason})
	r.closeClient(c, websocket.StatusNormalClosure, "")
}

// seatKey is a game id as the seats are keyed: a JSON string's text or a
// number's digits; "" for anything else.
func seatKey(raw json.RawMessage) string {
	if len(raw) > protocol.MaxGameID {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}
