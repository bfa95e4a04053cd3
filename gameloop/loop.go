// Package gameloop owns a client's game loop: once per tick it drains the
// session's events into the client core, the world (parts and camera), the
// HUD and the sound manager, hands the tick's player input to the input
// controller, and samples the core into the world.
//
// The window and a headless session run this same loop; they differ only in
// where input comes from (the keyboard and pointer, or a key script) and in
// whether anything draws the world afterwards. The loop imports no graphics:
// the window reads its world and HUD after each tick.
package gameloop

import (
	"context"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"vimpclient/audio"
	"vimpclient/clientcore"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/netgraph"
	"vimpclient/parts"
	"vimpclient/protocol"
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
	// Context bounds background work (sound downloads).
	Context context.Context
	// Store remembers auth form values (nil: nothing remembered).
	Store hud.Store
	// Bindings are the player's own key bindings for the game (nil: the
	// game's keys). A key script never uses them.
	Bindings input.Binding
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

// Loop is one client's game loop. Everything but SetTarget runs on the
// goroutine that calls Tick.
type Loop struct {
	opts   Options
	log    *slog.Logger
	sess   *session.Session
	games  registry.Registry
	target atomic.Pointer[session.Target]

	core   *clientcore.Core // nil before CONFIG_DATA
	world  *world.World
	hud    *hud.HUD
	ctrl   *input.Controller
	input  Input
	inTick InputTick
	graph  *netgraph.Graph
	snd    *partSounds
	// catalog is the sound catalog of the current CONFIG_DATA.
	catalog *audio.Catalog

	started bool
	lastMs  float64
	nowMs   float64
	playAt  time.Time // when this connection reached play (zero: not yet)
	evs     []session.Event
	// retired counts what replaced cores decoded, and keeps the last
	// prediction statistics, so the session's totals survive reconnects.
	retired    uint64
	prediction *clientcore.PredictionSummary
	local      *clientcore.LocalActor
	fatal      error
	errs       []string
	// Snapshot frames dropped for their format, the last reason, and
	// whether this connection already said so.
	badFrames      uint64
	badFrameReason string
	badFramesSaid  bool
	// The scene's refusals seen so far, and whether this connection
	// already said so.
	refusedRows uint64
	refusedSaid bool
	close       *session.CloseInfo
	// What the run asked for and carries over reconnects (feedback.go).
	team     string         // the team asked for, or chosen on screen
	unmet    error          // the team refused or full, not joined since
	rejoin   bool           // the connection's first team vote is answered with team
	heldVote *protocol.Vote // that vote, held from the HUD until the host lists the teams
	autoVote *protocol.Vote // the team vote the session answers, shown if it refuses
	authSent map[string]string
	authKept map[string]string // the player's answer the host accepted
	gaveUp   bool
	// The player's settings kept across connections (display.go), and the
	// game's keys before the bindings.
	reduced       bool
	palette       string
	settingsEntry bool
	settingsAsked bool
	browserEntry  string
	browserAsked  bool
	// The lobby's platform (platform.go): why the room was closed, and
	// when this connection's CONFIG_DATA arrived.
	roomClosed string
	configAt   time.Time
	story      lobbyStory // the room's story for the summary (lobbystory.go)
	keys       input.Config
	haveKeys   bool
}

// maxLoopErrors bounds the errors kept for the summary.
const maxLoopErrors = 64

// A tick handles at most eventsPerTick session events, and no more than
// fit in eventBytesPerTick bytes of messages (the first always comes): the
// rest wait in the session's queue, in order, for the next tick, so a tick's
// work is bounded whatever the host sends. At 60 ticks a second that is
// four times the heaviest traffic of the reference games.
const (
	eventsPerTick     = 256
	eventBytesPerTick = 1 << 20
)

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
	l := &Loop{opts: o, log: o.Log, sess: o.Session, games: o.Games, graph: netgraph.New(), input: NoInput{}, team: o.Team,
		story: lobbyStory{gapFor: -1}}
	if o.Sounds != nil {
		l.snd = newPartSounds(o.Sounds)
	}
	var snd parts.Sounds
	if l.snd != nil {
		snd = l.snd
	}
	l.world = world.New(world.Options{Log: o.Log, Rand: o.Rand, Textures: o.Textures, Sounds: snd,
		Width: o.Width, Height: o.Height, Limits: o.Limits})
	l.hud = hud.New("", "", o.Store)
	if !o.Start.IsZero() {
		l.started = true
	}
	return l
}

// SetTarget records the host the session is connecting to; the runner calls
// it from its own goroutine before each connection.
func (l *Loop) SetTarget(t session.Target) { l.target.Store(&t) }

// Target is the host the current connection is to.
func (l *Loop) Target() session.Target { return l.currentTarget() }

// Bindings are the player's key bindings for the game in use (nil: none).
func (l *Loop) Bindings() input.Binding { return l.opts.Bindings }

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
func (l *Loop) NowMs() float64 { return l.nowMs }

// Fatal is what makes this session unplayable as configured (an auth form
// nobody can answer, a rejected answer, a key script the game cannot play);
// nil while there is none.
func (l *Loop) Fatal() error { return l.fatal }

// Ms converts a time to the loop's clock.
func (l *Loop) Ms(t time.Time) float64 {
	return float64(t.Sub(l.opts.Start)) / float64(time.Millisecond)
}

// Tick runs one tick at now: the session's queued events, the tick's input,
// the HUD's outgoing messages, the world's sample and apply, the sound
// manager's update and the net graph.
func (l *Loop) Tick(now time.Time) {
	if !l.started {
		l.opts.Start, l.started = now, true
	}
	nowMs := l.Ms(now)
	dt := nowMs - l.lastMs
	if l.lastMs == 0 || dt < 0 {
		dt = 0
	}
	if dt >= resyncGapMs && l.core != nil {
		l.core.Resync()
	}
	l.lastMs, l.nowMs = nowMs, nowMs
	l.drain()
	t := &l.inTick // reused: handing it to an interface would move a fresh one to the heap each tick
	*t = InputTick{NowMs: nowMs, Controller: l.ctrl, HUD: l.hud, Modes: l.hud.Modes()}
	t.Width, t.Height = l.world.Size()
	if !l.playAt.IsZero() {
		t.Playing, t.PlayingFor = true, now.Sub(l.playAt)
	}
	l.input.Feed(t)
	l.sendHUD()
	l.hud.Update(nowMs)
	l.world.Tick(nowMs, min(dt, 100))
	l.checkRefused()
	l.updateWatching()
	if s := l.opts.Sounds; s != nil {
		if x, y, ok := l.world.Camera(); ok {
			s.SetListener(x, y)
			s.SetZoom(l.world.AudioZoom())
		}
		s.Tick()
	}
	if l.core != nil {
		l.graph.Observe(nowMs, netgraph.CoreCounters(l.core), netgraph.CorePrediction(l.core))
	}
	if l.opts.Observer != nil {
		l.opts.Observer.Tick(l, now)
	}
}

// drain hands the queued session events to the loop's parts, in arrival
// order, as many as one tick takes.
func (l *Loop) drain() {
	l.evs = l.sess.Queue().DrainUpTo(l.evs, eventsPerTick, eventBytesPerTick)
	for i := range l.evs {
		l.handle(&l.evs[i])
		if l.opts.Observer != nil {
			l.opts.Observer.Event(l, &l.evs[i])
		}
	}
	clear(l.evs)
	l.evs = l.evs[:0]
}

// Behind reports whether work was carried to the next tick: session events
// still queued, or event frames the world has not applied yet.
func (l *Loop) Behind() bool {
	return l.sess.Queue().Len() > 0 || (l.core != nil && l.core.Pending() > 0)
}

// sendHUD puts what the overlays want sent on the wire.
func (l *Loop) sendHUD() {
	for _, o := range l.hud.Outgoing() {
		var err error
		switch o.Kind {
		case hud.OutAuth:
			err = l.sess.SubmitAuth(o.Values)
		case hud.OutChat:
			err = l.sess.Chat(o.Text)
		case hud.OutVoteRequest:
			err = l.sess.VoteRequest(o.Vote, o.Text)
		case hud.OutVoteAnswer:
			err = l.sess.VoteAnswer(o.Vote, o.Text)
		case hud.OutEngineAnswer:
			// The session hands an engine vote's answer to the platform:
			// never the host's vote port.
			if session.IsEngineVote(o.Vote) {
				err = l.sess.VoteAnswer(o.Vote, o.Text)
			}
		}
		if err != nil {
			l.log.Warn("not sent", "kind", o.Kind, "err", err)
			if o.Kind == hud.OutChat {
				// A chat line or command the player typed: say why it
				// went nowhere (a lobby command the master lacks, say).
				l.hud.Notice(err.Error(), hud.NoticeError)
			}
			continue
		}
		l.sentHUD(o)
	}
}

// note keeps an error for the summary, each once, at most maxLoopErrors
// of them.
func (l *Loop) note(msg string) {
	if slices.Contains(l.errs, msg) {
		return // a host repeating itself says it once
	}
	if len(l.errs) < maxLoopErrors {
		l.errs = append(l.errs, msg)
	}
}

// Stats are the loop's totals over every connection of the session.
type Stats struct {
	Decoded uint64 // frames the cores decoded
	Dropped uint64 // frames the cores could not decode
	// Prediction is the last prediction statistics (nil: no game predicted).
	Prediction *clientcore.PredictionSummary
	// Local is where the own actor was on the map's levels (nil: the game
	// does not say).
	Local  *clientcore.LocalActor
	Errors []string
	// Undecodable counts the snapshot frames dropped for their format (a
	// wrong version, not a frame, a schema mismatch); Reason is the last why.
	Undecodable       uint64
	UndecodableReason string
	// Refused is what the scene refused under its limits.
	Refused parts.Refusals
	Close   *session.CloseInfo // how the last connection ended (nil: open)
	PlayAt  time.Time          // when the last connection reached play
}

// Stats returns the loop's totals.
func (l *Loop) Stats() Stats {
	s := Stats{Decoded: l.retired, Prediction: l.prediction, Local: l.local, Errors: l.errs, Close: l.close, PlayAt: l.playAt,
		Undecodable: l.badFrames, UndecodableReason: l.badFrameReason, Refused: l.world.Refused()}
	if l.core != nil {
		st := l.core.Stats()
		s.Decoded += st.Decoded
		s.Dropped = st.Dropped
		if r, ok := l.core.Prediction(); ok {
			s.Prediction = &r.Summary
			if r.HasLocal {
				s.Local = &r.Local
			}
		}
	}
	return s
}

// retireCore ends the current core, keeping its totals.
func (l *Loop) retireCore() {
	if l.core == nil {
		return
	}
	l.retired += l.core.Stats().Decoded
	if r, ok := l.core.Prediction(); ok {
		l.prediction = &r.Summary
		if r.HasLocal {
			l.local = &r.Local
		}
	}
	l.core.ObserveFrames(nil)
	l.core = nil
	l.world.SetCore(nil)
}
