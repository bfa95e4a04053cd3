package gameloop

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"vimpclient/audio"
	"vimpclient/clientcore"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/netgraph"
	"vimpclient/parts"
	"vimpclient/registry"
	"vimpclient/session"
	"vimpclient/world"
)

// Options configure a Loop.
type Options struct {
	Session *session.Session
	Log     *slog.Logger
	// LogOnce, if set, is reset at every new connection: the log says each
	// warning once per connection.
	LogOnce interface{ Reset() }
	// Start is the origin of the loop's clock: local milliseconds, for the
	// core and the world, are measured from it (zero: the first Tick).
	Start time.Time
	// Games are the games the client knows (nil: registry.Default()).
	Games registry.Registry
	// Rand is the world's random source (nil: math/rand).
	Rand func() float64
	// Textures are the parts' images (nil: none, as headless).
	Textures parts.Textures
	// Sounds plays the game's sounds (nil: silent). The loop loads the
	// game's catalog into it and moves its listener with the camera.
	Sounds *audio.Manager
	// SoundFetcher returns where the game's sound files are fetched from
	// for a connection target (the client's asset downloader for the
	// target's assets base, host and game version); a nil Fetcher (or a nil
	// SoundFetcher) means the sounds are not loaded.
	SoundFetcher func(t session.Target) (audio.Fetcher, error)
	// Context bounds background work (sound downloads, the drawing of the
	// game's textures).
	Context context.Context
	// Store remembers auth form values (nil: nothing remembered).
	Store hud.Store
	// Bindings are the player's own key bindings for the game (nil: the
	// game's keys). A key script never uses them.
	Bindings input.Binding
	// BindingsFor, if set, reads the player's saved bindings of a game: the
	// loop asks it for the game it plays (see GameID) when that game's keys
	// arrive, so a match whose game is known only once its host answered
	// still plays with the player's keys. What it returns replaces Bindings.
	BindingsFor func(gameID string) input.Binding
	// Interactive means a player answers forms and votes on screen. Without
	// it, an auth form the session could not answer itself, or a rejected
	// answer, is fatal (see Fatal).
	Interactive bool
	// AutoTeam: the session answers the team vote itself, so the HUD never
	// shows it.
	AutoTeam bool
	// Team is the team the run asks for (-team): a refusal of it, or a
	// full team, is what the run did not get (Unmet). Without AutoTeam the
	// team the player chooses on screen takes its place, and is rejoined
	// after every reconnect.
	Team string
	// OnGiveUp is called when the player gives up reconnecting (the
	// reconnecting screen's key): the wiring stops the runner.
	OnGiveUp func()
	// NoPrediction runs the core without the game's prediction: a demo,
	// whose player's inputs are not replayed, draws the host's own state.
	NoPrediction bool
	// FixedInterp draws the world as the engine does, at server time
	// minus the host's interpolation delay, following every frame's
	// arrival, with no extrapolation; without it the core runs the
	// adaptive render clock (clientcore.Options.Adaptive).
	FixedInterp bool
	// Observer watches events, decoded frames and ticks (nil: none).
	Observer Observer
	// Width and Height are the initial window size in logical px.
	Width, Height float64
	// Limits bound the world's parts scene and the event frames one tick
	// applies (zero fields: parts.DefaultLimits).
	Limits parts.Limits
}

// Observer watches the loop: a headless summary, a test.
type Observer interface {
	// Event sees every session event after the loop handled it.
	Event(l *Loop, ev *session.Event)
	// Frame sees every snapshot frame that decoded, decoded once by the
	// core; f is valid only during the call.
	Frame(f *clientcore.Frame)
	// Tick runs at the end of every tick.
	Tick(l *Loop, now time.Time)
}

// resyncGapMs is the pause between ticks (a minimised window, a suspended
// process) after which the buffered frames are stale and the core resyncs.
const resyncGapMs = 3000

// maxStepMs bounds the step one tick gives the world.
const maxStepMs = 100

// playerKeySet is the engine's key set of a player in the game (KEYSET_DATA
// 1); any other set (0, the spectator's) means the camera shows someone
// else.
const playerKeySet = 1

// A tick handles at most eventsPerTick session events, and no more than
// fit in eventBytesPerTick bytes of messages (the first always comes): the
// rest wait in the session's queue, in order, for the next tick, so a tick's
// work is bounded whatever the host sends. At 60 ticks a second that is
// four times the heaviest traffic of the reference games.
const (
	eventsPerTick     = 256
	eventBytesPerTick = 1 << 20
)

// Loop is one client's game loop: it owns the connection's HUD, core,
// world and controller, and orders the concerns around them (see the
// package doc). Everything but SetTarget runs on the goroutine that calls
// Tick.
type Loop struct {
	opts Options
	log  *slog.Logger
	// noMouseAim is the player's setting turning pointer aim off (it is on
	// unless turned off), kept for each new controller.
	noMouseAim bool
	sess       *session.Session
	target     atomic.Pointer[session.Target]
	clock      clock

	core  *clientcore.Core // nil before CONFIG_DATA
	world *world.World
	hud   *hud.HUD
	// statSeen is set by a STAT_DATA message: the world's names are taken
	// from the scoreboard again at the end of the drain.
	statSeen bool
	names    map[uint32]string // reused for each copy of the names
	// accoladesSeen is set by an ACCOLADES_DATA message: the badges are
	// taken from it again at the end of the drain.
	accoladesSeen bool
	badges        map[uint32]parts.Badges // reused for each copy
	ctrl          *input.Controller       // nil before CONFIG_DATA
	input         Input
	inTick        InputTick // reused: handing a fresh one to an interface would move it to the heap each tick
	graph         *netgraph.Graph
	rtt           roundTrip
	snd           *gameSounds // nil: silent
	evs           []session.Event

	fb    feedback // feedback.go
	disp  display  // display.go
	rep   report   // report.go
	lat   latency  // latency.go
	fatal error
	// leaving: the run is ending (Leaving).
	leaving bool
}

// clock is the loop's time: local milliseconds from start, the first
// Tick's time when the options gave none.
type clock struct {
	start   time.Time
	started bool
	now     float64 // at the last tick
}

func (c *clock) ms(t time.Time) float64 { return float64(t.Sub(c.start)) / float64(time.Millisecond) }

// advance moves the clock to t and returns the ms since the last tick (0
// for the first, and for a clock that went back).
func (c *clock) advance(t time.Time) (dt float64) {
	if !c.started {
		c.start, c.started = t, true
	}
	now := c.ms(t)
	dt = now - c.now
	if c.now == 0 || dt < 0 {
		dt = 0
	}
	c.now = now
	return dt
}

// New builds a loop for o.Session.
func New(o Options) *Loop {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Games == nil {
		o.Games = registry.Default()
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	l := &Loop{opts: o, log: o.Log, sess: o.Session, graph: netgraph.New(), input: NoInput{},
		clock: clock{start: o.Start, started: !o.Start.IsZero()}, snd: newGameSounds(&o),
		disp: display{bindings: o.Bindings}, rep: newReport()}
	l.fb = newFeedback(&o, l.rep.note)
	l.lat.init()
	l.world = world.New(world.Options{Log: o.Log, Rand: o.Rand, Textures: o.Textures, Sounds: l.snd.forParts(),
		Width: o.Width, Height: o.Height, Limits: o.Limits, Context: o.Context})
	l.hud = hud.New("", "", o.Store)
	return l
}

// Tick runs one tick at now: drain the session's events through the
// router, feed the tick's input, send what the overlays want sent, then
// tick the HUD, the world, the sounds and the net graph.
func (l *Loop) Tick(now time.Time) {
	dt := l.clock.advance(now)
	if dt >= resyncGapMs && l.core != nil {
		l.core.Resync()
	}
	l.drain()
	l.feedInput(now)
	l.sendHUD()
	l.hud.Update(l.clock.now)
	l.giveNames()
	l.giveBadges()
	l.world.Tick(l.clock.now, min(dt, maxStepMs))
	l.checkRefused()
	l.updateWatching()
	l.snd.tick(l.world)
	if l.core != nil {
		l.graph.Observe(l.clock.now, netgraph.CoreCounters(l.core), netgraph.CorePrediction(l.core))
	}
	if l.opts.Observer != nil {
		l.opts.Observer.Tick(l, now)
	}
}

// drain routes the queued session events, in arrival order, as many as
// one tick takes.
func (l *Loop) drain() {
	l.evs = l.sess.Queue().DrainUpTo(l.evs, eventsPerTick, eventBytesPerTick)
	for i := range l.evs {
		routeTo(l).event(&l.evs[i])
		if l.opts.Observer != nil {
			l.opts.Observer.Event(l, &l.evs[i])
		}
	}
	clear(l.evs)
	l.evs = l.evs[:0]
}

// feedInput hands the input source what it needs for this tick: the
// controller, the HUD and its open modes, the world's size, the time in
// play.
func (l *Loop) feedInput(now time.Time) {
	t := &l.inTick
	*t = InputTick{NowMs: l.clock.now, Controller: l.ctrl, HUD: l.hud, Modes: l.hud.Modes()}
	t.Width, t.Height = l.world.Size()
	if at := l.rep.playAt; !at.IsZero() {
		t.Playing, t.PlayingFor = true, now.Sub(at)
	}
	l.input.Feed(t)
}

// sendHUD puts what the overlays want sent on the wire, and lets the
// concerns that remember the player's answers see them.
func (l *Loop) sendHUD() {
	for _, o := range l.hud.Outgoing() {
		if err := l.send(o); err != nil {
			l.log.Warn("not sent", "kind", o.Kind, "err", err)
			if o.Kind == hud.OutChat {
				// A chat line or command the player typed: say why it
				// went nowhere (a lobby command the master lacks, say).
				l.hud.Notice(err.Error(), hud.NoticeError)
			}
			continue
		}
		l.fb.sent(o)
		l.disp.sent(o)
	}
}

// send puts one of the overlays' messages on the wire (the menu's own
// entries and the give-up key have nothing to send).
func (l *Loop) send(o hud.Out) error {
	switch o.Kind {
	case hud.OutAuth:
		return l.sess.SubmitAuth(o.Values)
	case hud.OutChat:
		return l.sess.Chat(o.Text)
	case hud.OutVoteRequest:
		return l.sess.VoteRequest(o.Vote, o.Text)
	case hud.OutVoteAnswer:
		return l.sess.VoteAnswer(o.Vote, o.Text)
	case hud.OutEngineAnswer:
		// The session hands an engine vote's answer to the platform:
		// never the host's vote port.
		if session.IsEngineVote(o.Vote) {
			return l.sess.VoteAnswer(o.Vote, o.Text)
		}
	}
	return nil
}

// Behind reports whether work was carried to the next tick: session events
// still queued, or event frames the world has not applied yet.
func (l *Loop) Behind() bool {
	return l.sess.Queue().Len() > 0 || (l.core != nil && l.core.Pending() > 0)
}

// SetTarget records the host the session is connecting to; the runner calls
// it from its own goroutine before each connection.
func (l *Loop) SetTarget(t session.Target) { l.target.Store(&t) }

// Target is the host the current connection is to.
func (l *Loop) Target() session.Target { return l.currentTarget() }

func (l *Loop) currentTarget() session.Target {
	if t := l.target.Load(); t != nil {
		return *t
	}
	return session.Target{}
}

// SetInput sets where player input comes from (the default is none).
func (l *Loop) SetInput(in Input) {
	if in == nil {
		in = NoInput{}
	}
	l.input = in
}

// Session is the loop's session.
func (l *Loop) Session() *session.Session { return l.sess }

// World is the world the window draws after each tick.
func (l *Loop) World() *world.World { return l.world }

// HUD is the overlays' model, which the window draws after each tick.
func (l *Loop) HUD() *hud.HUD { return l.hud }

// Core is the current client core (nil before CONFIG_DATA).
func (l *Loop) Core() *clientcore.Core { return l.core }

// Controller is the current input controller (nil before CONFIG_DATA).
func (l *Loop) Controller() *input.Controller { return l.ctrl }

// NetGraph is the net graph model the loop feeds each tick.
func (l *Loop) NetGraph() *netgraph.Graph { return l.graph }

// NowMs is the loop clock at the last tick.
func (l *Loop) NowMs() float64 { return l.clock.now }

// Fatal is what makes this session unplayable as configured (an auth form
// nobody can answer, a rejected answer, a key script the game cannot play);
// nil while there is none.
func (l *Loop) Fatal() error { return l.fatal }

// Leaving says the run is ending: the connection is closing and the
// render clock's figures stop counting (frames stop coming because the
// client leaves, not because the network holds them).
func (l *Loop) Leaving() {
	l.leaving = true
	if l.core != nil {
		l.core.HoldFigures()
	}
}

// Ms converts a time to the loop's clock.
func (l *Loop) Ms(t time.Time) float64 { return l.clock.ms(t) }
