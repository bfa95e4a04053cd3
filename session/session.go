package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"vimpclient/protocol"
)

// Options configure a Session.
type Options struct {
	Auth AuthValues
	// AutoTeam answers the team vote (VOTE_DATA "teamChange") on its own:
	// with Team when the host offered it (refused otherwise), else with the
	// first team offered.
	AutoTeam bool
	Team     string
	Recorder *Recorder
	Queue    *Queue // events for the game loop; NewQueue(4096) when nil
	Logger   *slog.Logger
	Now      func() time.Time
}

// maxErrors bounds the error strings kept for the summary.
const maxErrors = 64

// With AutoTeam the session answers the team vote like a player glancing at
// it: the list request a moment after the vote opens, the choice a moment
// after the list arrives (the pauses of the reference recordings).
const (
	TeamListPause   = time.Second
	TeamAnswerPause = 500 * time.Millisecond
)

// deferred is a read-loop reply due at a time. It goes out with the first
// message handled at or after that time (hosts in play send 30 frames/s), or
// from a timer when the host is quiet; whichever comes first sends it once.
// A lockstep (replay) connection uses only the first, so replays stay exact.
type deferred struct {
	due     time.Time
	msg     []byte
	pending string // vote name whose list this requests
	sent    *atomic.Bool
	timer   *time.Timer
}

// ErrNotInGame refuses game input before the host enabled it (MODULES_READY).
var ErrNotInGame = errors.New("not in game yet: input refused")

// Stats is a snapshot of what a session saw, across reconnects.
type Stats struct {
	Furthest    State
	Player      bool        // key set 1 arrived at least once
	Frames      int         // binary frames received
	Pongs       int         // PONGs written (a PING storm coalesces into fewer)
	Ports       map[int]int // messages received per port (binary frames under 5)
	Malformed   int         // messages that are not [port, payload] or whose payload failed to parse
	Unknown     int         // JSON messages on ports this client does not know
	Connections int
	// Resumes counts the seats taken back after a lost connection;
	// ResumesRefused the refusals that led to a fresh join.
	Resumes, ResumesRefused int
	Errors                  []string
}

// Session runs the client side of the protocol over one transport at a
// time. Its read loop is the only reader; its outbox the only writer.
type Session struct {
	opts  Options
	queue *Queue
	log   *slog.Logger
	now   func() time.Time

	mu          sync.Mutex
	stats       Stats
	lastPlaying bool // the latest connection reached StatePlaying
	droppedErrs int
	ob          *outbox
	seq         uint32
	inGame      bool
	pendingList string // vote waiting for its "teams"/"maps" list
	authForm    bool   // AUTH_DATA arrived and no accepted AUTH_RESULT yet
	submitted   map[string]string
	platform    Platform
	token       string          // identity token of the current lobby room ("" elsewhere)
	tokenErr    error           // why the target's token may not be sent (Target.RoomToken)
	secrets     []string        // redacted from kept errors
	refused     map[string]bool // refusals already said on this connection
	onPlaying   func()          // told each connection that reaches play
	seat        *seat           // the resume key of the lobby room last played
	leaveOK     bool            // this connection's host reads LEAVE (it gave a seat key)
	rejoinWhy   string          // a refused resume, said when the fresh join opens
}

// New makes a session; Run connects it.
func New(opts Options) *Session {
	s := &Session{opts: opts, queue: opts.Queue, log: opts.Logger, now: opts.Now}
	if s.queue == nil {
		s.queue = NewQueue(4096)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.stats.Ports = map[int]int{}
	return s
}

// Queue is where the game loop drains events from.
func (s *Session) Queue() *Queue { return s.queue }

// Stats returns a copy of the counters.
func (s *Session) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Ports = make(map[int]int, len(s.stats.Ports))
	for k, v := range s.stats.Ports {
		st.Ports[k] = v
	}
	st.Errors = slices.Clone(s.stats.Errors)
	if s.ob != nil {
		_, pongs := s.ob.counts()
		st.Pongs += pongs
	}
	if s.droppedErrs > 0 {
		st.Errors = append(st.Errors, fmt.Sprintf("... and %d more errors", s.droppedErrs))
	}
	return st
}

func (s *Session) noteError(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	msg = redact(msg, s.secrets)
	s.mu.Unlock()
	s.log.Warn(msg)
	s.mu.Lock()
	if len(s.stats.Errors) < maxErrors {
		s.stats.Errors = append(s.stats.Errors, msg)
	} else {
		s.droppedErrs++
	}
	s.mu.Unlock()
}

// conn is the read loop's per-connection state; only the read loop touches it.
type conn struct {
	target   Target
	config   *protocol.Config
	form     *protocol.AuthForm
	answer   map[string]string
	answered bool // FIRST_SHOT_READY sent since the last MAP_DATA
	state    State
	terminal string // text of a terminal TECH_INFORM, kept for the close reason
	later    []deferred
	lockstep bool
	resuming bool   // RESUME_REQUEST sent, RESUME_RESULT not yet in
	rejoin   string // the seat was refused: why, and the connection ends
}

// Run drives one connection until it closes or ctx ends, then reports how it
// ended and whether the close policy reconnects.
func (s *Session) Run(ctx context.Context, t Transport, target Target) *CloseInfo {
	rec := s.opts.Recorder
	ob := newOutbox(func(b []byte) { rec.Message("c2s", Message{Data: b}) })
	s.mu.Lock()
	s.ob, s.seq, s.inGame, s.pendingList, s.lastPlaying = ob, 0, false, "", false
	s.authForm, s.submitted, s.refused, s.leaveOK = false, nil, nil, false
	s.token, s.tokenErr = target.RoomToken()
	s.stats.Connections++
	s.mu.Unlock()
	s.Redact(target.Token)

	wctx, wcancel := context.WithCancel(context.WithoutCancel(ctx))
	drain := make(chan struct{})
	wdone := make(chan struct{})
	go func() {
		defer close(wdone)
		ob.run(wctx, t, drain)
	}()

	// A transport that replays a recording asks for lockstep: each message's
	// replies are written before the next message is read, so a fast replay
	// keeps the order a live connection would have had.
	ls, ok := t.(interface{ Lockstep() bool })
	lockstep := ok && ls.Lockstep()
	c := &conn{target: target, lockstep: lockstep}
	defer c.stopTimers()
	if !s.startResume(c, ob, t) {
		// A resumed connection goes on with what the player sees: only a
		// fresh one starts over.
		s.queue.Push(Event{At: s.now(), Kind: EventOpen})
		s.mu.Lock()
		why := s.rejoinWhy
		s.rejoinWhy = ""
		s.mu.Unlock()
		if why != "" {
			s.sayRejoin(why)
		}
	}

	// Leaving (ctx ends) closes with a clean 1000 close frame first; only
	// then is the read cancelled, so the host sees a normal close.
	rctx, rcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer rcancel()
	stopWatch := make(chan struct{})
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		select {
		case <-ctx.Done():
			s.sendLeave(ob, t)
			rec.Event("client-close", map[string]any{"code": 1000})
			// A host that keeps sending, or stops reading, must not hold
			// the leave up: the close handshake gets closeGrace, then the
			// read is cancelled, which drops the connection.
			closed := make(chan struct{})
			go func() {
				_ = t.Close(1000, "")
				close(closed)
			}()
			select {
			case <-closed:
			case <-time.After(closeGrace):
				// The close frame is stuck behind a host that does not
				// read: drop the connection, which frees its writers too.
				if cn, ok := t.(interface{ CloseNow() error }); ok {
					_ = cn.CloseNow()
				}
			}
			rcancel()
		case <-stopWatch:
		}
	}()
	var info *CloseInfo
	for {
		m, err := t.Recv(rctx)
		if err != nil {
			info = s.closeInfo(ctx, c, closeErrorOf(err))
			break
		}
		s.handle(c, ob, m)
		if lockstep {
			ob.waitIdle()
		}
		if c.rejoin != "" {
			// The host refused the seat: this connection is done, the
			// runner joins afresh at once.
			_ = t.Close(1000, "")
			info = &CloseInfo{Code: 1000, Reason: c.rejoin, Reconnect: true, Rejoin: true}
			s.mu.Lock()
			s.rejoinWhy = c.rejoin
			s.mu.Unlock()
			break
		}
	}

	close(stopWatch)
	<-watchDone
	ob.close()
	close(drain)
	wait := drainTimeout
	if ctx.Err() != nil {
		wait = closeGrace / 3 // leaving: the host had its close frame
	}
	select {
	case <-wdone:
	case <-time.After(wait):
	}
	wcancel()
	<-wdone
	_, pongs := ob.counts()
	s.count(func(st *Stats) { st.Pongs += pongs })
	rec.Event("close", map[string]any{"code": info.Code, "reason": info.Reason})
	s.mu.Lock()
	s.ob, s.inGame = nil, false
	if s.seat != nil {
		if keepsSeat(info) {
			if s.seat.lostAt.IsZero() {
				s.seat.lostAt = s.now()
			}
		} else {
			s.seat = nil
		}
	}
	s.mu.Unlock()
	s.queue.Push(Event{At: s.now(), Kind: EventClosed, Close: info})
	return info
}

func (s *Session) closeInfo(ctx context.Context, c *conn, ce *CloseError) *CloseInfo {
	if ctx.Err() != nil {
		return &CloseInfo{Code: 1000, Reason: "Disconnected.", Local: true}
	}
	info := &CloseInfo{Code: ce.Code, Reconnect: !protocol.ClosePolicyStays(ce.Code)}
	switch {
	case c.terminal != "":
		info.Reason = c.terminal
	case ce.Reason != "" && ce.Code >= protocol.CloseHostMigrating:
		info.Reason = ce.Reason // a lobby transport's own words (room closed, ...)
	default:
		info.Reason = protocol.CloseReason(ce.Code)
	}
	if ce.Err != nil && ce.Code == protocol.CloseAbnormal {
		s.noteError("connection dropped: %v", ce.Err)
	}
	return info
}

func (s *Session) setState(c *conn, st State) {
	if st <= c.state {
		return
	}
	c.state = st
	s.mu.Lock()
	var played func()
	if st == StatePlaying {
		s.lastPlaying, played = true, s.onPlaying
	}
	if st > s.stats.Furthest {
		s.stats.Furthest = st
	}
	s.mu.Unlock()
	if played != nil {
		played()
	}
	s.queue.Push(Event{At: s.now(), Kind: EventState, State: st})
}

// reply queues a read-loop answer in the priority lane.
func (s *Session) reply(ob *outbox, msg []byte, reliable bool) {
	if err := ob.push(outMsg{data: msg, reliable: reliable}, true); err != nil && !errors.Is(err, ErrOutboxClose) {
		s.noteError("reply not sent: %v", err)
	}
}

func (s *Session) count(f func(st *Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

// handle processes one message on the read loop. It never blocks: replies go
// to the outbox, events to the bounded queue.
func (s *Session) handle(c *conn, ob *outbox, m Message) {
	at := s.now()
	s.flushDeferred(c, ob, at)
	s.redactSeatKey(m)
	s.opts.Recorder.Message("s2c", m)
	if m.Binary {
		s.count(func(st *Stats) { st.Frames++; st.Ports[protocol.ShotData]++ })
		s.queue.Push(Event{At: at, Kind: EventFrame, Port: protocol.ShotData, Data: m.Data})
		return
	}
	env, err := protocol.ParseEnvelope(m.Data)
	if err != nil {
		s.count(func(st *Stats) { st.Malformed++ })
		s.log.Debug("malformed message ignored", "err", err)
		return
	}
	s.count(func(st *Stats) { st.Ports[env.Port]++ })

	// Replies that must happen whatever the payload holds.
	switch env.Port {
	case protocol.MapData:
		c.answered = false
		s.reply(ob, protocol.Null(protocol.MapReady), true)
	case protocol.FirstShotData:
		s.reply(ob, protocol.Null(protocol.FirstShotReady), true)
		c.answered = true
	}

	msg, err := protocol.DecodePayload(env.Port, env.Payload)
	if err != nil {
		s.count(func(st *Stats) { st.Malformed++ })
		s.log.Debug("malformed payload ignored", "port", env.Port, "err", err)
		return
	}
	ev := Event{At: at, Kind: EventMessage, Port: env.Port, Msg: msg}

	// The kinds the session acts on itself; the rest go up as they are.
	switch v := msg.(type) {
	case protocol.Unknown:
		// A port added by a later host, or a JSON message on the binary
		// SHOT_DATA: ignored, counted.
		s.count(func(st *Stats) { st.Unknown++ })
		return
	case protocol.PingID:
		// Answered here, on the session's goroutine, whatever the game
		// loop is doing: a stalled window never gets the player kicked.
		if err := ob.push(outMsg{data: protocol.PongMsg(json.RawMessage(v)), pong: true}, true); err != nil && !errors.Is(err, ErrOutboxClose) {
			s.noteError("pong not sent: %v", err)
		}
		s.queue.Push(Event{At: at, Kind: EventPing, Size: len(m.Data)})
		return
	case protocol.SessionInfo:
		s.sessionData(c, v)
		return // the key stays in the session: nothing above it sees it
	case protocol.ResumeAnswer:
		s.resumeResult(c, v)
		return
	case *protocol.Config:
		if c.resuming {
			s.freshInstead(c)
		}
		c.config = v
		for _, p := range v.Problems {
			s.noteError("CONFIG_DATA: %s", p)
		}
		s.setState(c, StateConfig)
		s.reply(ob, protocol.Null(protocol.ConfigReady), true)
	case *protocol.AuthForm:
		c.form = v
		s.mu.Lock()
		s.authForm = true
		s.mu.Unlock()
		s.setState(c, StateAuth)
		if ev.Err = s.answerAuth(c, ob, nil); ev.Err == nil {
			ev.Answer = c.answer
		}
	case protocol.AuthVerdict:
		if v.OK {
			s.mu.Lock()
			if s.submitted != nil {
				c.answer = s.submitted
			}
			s.authForm, s.submitted = false, nil
			s.mu.Unlock()
			if c.form != nil && c.answer != nil {
				if err := s.opts.Auth.Remember(c.form, c.answer, c.target.Host, c.target.GameID); err != nil {
					s.noteError("remember auth values: %v", err)
				}
			}
			s.mu.Lock()
			s.inGame = true
			s.mu.Unlock()
			s.setState(c, StateMap)
			s.reply(ob, protocol.Null(protocol.ModulesReady), true)
		} else {
			for _, fe := range v.Errors {
				s.noteError("auth rejected: %s", fe)
			}
		}
	case protocol.TechInform:
		if v.Hide {
			c.terminal = ""
			if c.answered {
				s.setState(c, StatePlaying)
			}
		} else if v.Terminal() {
			var list []string
			if c.config != nil {
				list = c.config.TechInformList
			}
			c.terminal = techText(list, v.Inform)
		}
	case protocol.Keyset:
		if v == 1 {
			s.count(func(st *Stats) { st.Player = true })
		}
	case protocol.Vote:
		if v.Open != nil && IsEngineVote(v.Open.Name) {
			// Names starting with "@" belong to the platform: a host
			// cannot open one.
			s.count(func(st *Stats) { st.Unknown++ })
			return
		}
		s.vote(c, ob, v)
	case protocol.MiscEntry:
		s.miscName(c, v)
	}
	ev.Size = len(m.Data)
	s.queue.Push(ev)
}

func (s *Session) answerAuth(c *conn, ob *outbox, explicit map[string]string) error {
	values := explicit
	if values == nil {
		var err error
		values, err = s.opts.Auth.Answer(c.form, c.target.Host, c.target.GameID)
		if err != nil {
			s.noteError("%v", err)
			return err
		}
	}
	token, err := c.target.RoomToken()
	if err != nil {
		s.noteError("auth: %v", err)
		return err
	}
	msg, err := protocol.AuthResponseMsg(withToken(values, token))
	if err != nil {
		s.noteError("%v", err)
		return err
	}
	c.answer = values
	s.reply(ob, msg, true)
	return nil
}

// TokenField is the AUTH_RESPONSE field of a lobby room's identity token.
const TokenField = "token"

// withToken adds a lobby room's identity token to the form values (a copy;
// the values without it are what is remembered).
func withToken(values map[string]string, token string) map[string]string {
	if token == "" {
		return values
	}
	out := make(map[string]string, len(values)+1)
	for k, v := range values {
		out[k] = v
	}
	out[TokenField] = token
	return out
}

func (s *Session) miscName(c *conn, m protocol.MiscEntry) {
	if m.Key != protocol.MiscNameReplace || c.form == nil || s.opts.Auth.Store == nil {
		return
	}
	nick := protocol.ParseScalarText(m.Value)
	for _, p := range c.form.Params {
		if p.Name == NickField && p.Options.Storage != "" && nick != "" {
			if err := s.opts.Auth.Store.Save(c.target.Host, c.target.GameID, map[string]string{p.Options.Storage: nick}); err != nil {
				s.noteError("remember new nick: %v", err)
			}
		}
	}
}

// SubmitAuth answers the auth form with values a player entered (after the
// session could not answer it, or after AUTH_RESULT rejected the answer).
// Every field of the form must be present; values are remembered on success.
func (s *Session) SubmitAuth(values map[string]string) error {
	s.mu.Lock()
	token, tokenErr := s.token, s.tokenErr
	s.mu.Unlock()
	if tokenErr != nil {
		return fmt.Errorf("submit auth: %w", tokenErr)
	}
	msg, err := protocol.AuthResponseMsg(withToken(values, token))
	if err != nil {
		return err
	}
	s.mu.Lock()
	ob, open := s.ob, s.authForm
	if ob != nil && open {
		s.submitted = values
	}
	s.mu.Unlock()
	if ob == nil || !open {
		return errors.New("submit auth: no auth form is waiting for an answer")
	}
	if err := ob.push(outMsg{data: msg, reliable: true}, true); err != nil {
		return fmt.Errorf("submit auth: %w", err)
	}
	return nil
}

// Pending reports how many messages wait in the outbox.
func (s *Session) Pending() int {
	s.mu.Lock()
	ob := s.ob
	s.mu.Unlock()
	if ob == nil {
		return 0
	}
	return ob.pending()
}

// OnPlaying sets what is told each time a connection reaches play (the
// host accepted the player and the match runs); it is called on the
// session's read goroutine and must not block. nil removes it.
func (s *Session) OnPlaying(f func()) {
	s.mu.Lock()
	s.onPlaying = f
	s.mu.Unlock()
}

func (s *Session) lastReachedPlaying() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastPlaying
}
