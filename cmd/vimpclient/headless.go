package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"vimpclient/clientcore"
	"vimpclient/games/snakes"
	"vimpclient/games/tanks/tankclient"
	"vimpclient/predict"
	"vimpclient/protocol"
	"vimpclient/session"
)

// maxIDsPerKey bounds the distinct-id sets of the summary.
const maxIDsPerKey = 1 << 16

// frameCore is what the headless loop needs from the client core; it is
// satisfied by *clientcore.Core (through coreAdapter) and by test doubles.
type frameCore interface {
	PushFrame(b []byte, localNowMs float64) bool
	SetMap()
	Reset()
	SetActive(active bool)
	ApplyInput(seq uint32, down bool, command string, localNowMs float64)
	// LoadMap and Panel feed MAP_DATA and PANEL_DATA to the game's
	// prediction (map geometry for collisions, ammo for the fire gate).
	LoadMap(raw []byte)
	Panel(cells []protocol.PanelCell)
	// Prediction returns the prediction statistics, nil without a game.
	Prediction() *predict.Summary
	// Visit runs one render-tick sample; fn is told, by snapshot key name,
	// every entity id the frames pushed from now on carry.
	Visit(localNowMs float64, fn func(key string, id uint32))
	Counts() (decoded, dropped uint64)
}

// newCore builds the core for a CONFIG_DATA; nil when its schema is unusable.
type newCoreFunc func(cfg *protocol.Config) (frameCore, error)

func newClientCore(cfg *protocol.Config) (frameCore, error) {
	if len(cfg.Snapshot) == 0 {
		return nil, errors.New("CONFIG_DATA has no snapshot schema")
	}
	s, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		return nil, fmt.Errorf("snapshot schema: %w", err)
	}
	a := &coreAdapter{
		c:   clientcore.New(s, clientcore.Options{Delay: cfg.Interpolation.Delay, MaxFrameAge: cfg.Interpolation.MaxFrameAge}),
		dec: clientcore.NewDecoder(s),
	}
	a.game = newPredictionGame(s, cfg.Prediction)
	if a.game != nil {
		a.c.SetGame(a.game)
	}
	return a, nil
}

// predictionGame is a game half the client knows: tanks or snakes.
type predictionGame interface {
	clientcore.Game
	Predictor() *predict.Predictor
}

// newPredictionGame recognises the game by its schema and prediction
// config; nil (no prediction) for a game the client does not know.
func newPredictionGame(s *clientcore.Schema, prediction json.RawMessage) predictionGame {
	if len(prediction) == 0 {
		return nil
	}
	if g, err := tankclient.FromConfig(s, prediction); err == nil {
		return g
	}
	if g, err := snakes.FromConfig(s, prediction); err == nil {
		return g
	}
	return nil
}

// coreAdapter feeds the client core as the window would, and decodes each
// frame once more on its own to list the entity ids it carries: what the
// summary counts is every id on the wire, whatever render time reached.
type coreAdapter struct {
	c     *clientcore.Core
	game  predictionGame
	scene *soundScene // headless sound: the parts without drawing (nil: none)
	// hot is the last sample, valid until the next call into the core.
	hot   *clientcore.Hot
	dec   *clientcore.Decoder
	frame clientcore.Frame
	seen  func(key string, id uint32)
}

func (a *coreAdapter) PushFrame(b []byte, now float64) bool {
	ok := a.c.PushFrame(b, now)
	if ok && a.seen != nil && a.dec.Decode(b, &a.frame) == nil {
		for bi := range a.frame.Blocks {
			bl := &a.frame.Blocks[bi]
			if bl.Schema.Kind == clientcore.KindList16 || laterBlock(a.frame.Blocks, bi) {
				continue // list rows are positions, not entities; a repeated key counts by its last block, as the core merges it
			}
			for _, r := range bl.Rows {
				if !r.Null {
					a.seen(bl.Key(), r.ID)
				}
			}
		}
	}
	return ok
}
func laterBlock(blocks []clientcore.Block, i int) bool {
	for j := i + 1; j < len(blocks); j++ {
		if blocks[j].Schema == blocks[i].Schema {
			return true
		}
	}
	return false
}

func (a *coreAdapter) SetMap() { a.c.SetMap() }
func (a *coreAdapter) LoadMap(raw []byte) {
	if m, ok := a.game.(interface{ LoadMap([]byte) error }); ok {
		m.LoadMap(raw) // a map the game cannot read predicts without walls
	}
}
func (a *coreAdapter) Panel(cells []protocol.PanelCell) {
	if p, ok := a.game.(interface{ SyncPanelCells([]protocol.PanelCell) }); ok {
		p.SyncPanelCells(cells)
	}
}
func (a *coreAdapter) Prediction() *predict.Summary {
	if a.game == nil {
		return nil
	}
	s := a.game.Predictor().Summary()
	return &s
}
func (a *coreAdapter) SetActive(active bool) { a.c.SetActive(active) }
func (a *coreAdapter) ApplyInput(seq uint32, down bool, cmd string, now float64) {
	a.c.ApplyInput(seq, down, cmd, now)
	if sp, ok := a.game.(interface {
		TakeSpawns() []clientcore.EventFrame
	}); ok {
		sp.TakeSpawns() // nothing draws them headless
	}
}
func (a *coreAdapter) Reset() { a.c.Reset() }
func (a *coreAdapter) Counts() (uint64, uint64) {
	st := a.c.Stats()
	return st.Decoded, st.Dropped
}

// Visit samples the core and takes its event frames, as a render tick would.
func (a *coreAdapter) Visit(now float64, fn func(string, uint32)) {
	a.seen = fn
	h := a.c.Sample(now)
	a.hot = h
	frames := a.c.TakeFrames()
	if a.scene != nil {
		a.scene.tick(now, h, frames)
	}
}

// summary is the -summary JSON object.
type summary struct {
	State      string           `json:"state"`
	Player     bool             `json:"player"`
	Frames     frameCounts      `json:"frames"`
	Pings      int              `json:"pings"`
	Ports      map[string]int   `json:"ports"`
	Entities   map[string]int   `json:"entities"`
	Prediction *predict.Summary `json:"prediction,omitempty"`
	CloseCode  *int             `json:"closeCode"`
	Errors     []string         `json:"errors"`
	DurationMs int64            `json:"durationMs"`
}

type frameCounts struct {
	Received int    `json:"received"`
	Decoded  uint64 `json:"decoded"`
	Dropped  uint64 `json:"dropped"`
}

// gameLoop is the headless stand-in for the window's game loop: it drains
// the session's events into the client core and plays the key script.
type gameLoop struct {
	sess     *session.Session
	newCore  newCoreFunc
	now      func() time.Time
	start    time.Time
	log      *slog.Logger
	script   []scriptStep
	next     int
	playAt   time.Time // first time "playing" was reached
	core     frameCore
	decoded  uint64 // of cores already replaced
	ids      map[string]map[uint32]struct{}
	close    *session.CloseInfo
	fatal    error
	evs      []session.Event
	errs     []string
	keyState map[string]bool
	// prediction keeps the statistics of the last core retired.
	prediction *predict.Summary
	// onTick, if set, runs at the end of every tick (tests watch the
	// loop's state through it); tickAt is the time that tick sampled at.
	onTick func(*gameLoop)
	tickAt time.Time
	// sink, if set, sees every event after the core has taken it: the
	// window's world, overlays and sound.
	sink func(ev *session.Event)
	// clock, if set, converts an arrival time to the game loop's ms (the
	// window samples the core on the renderer's clock).
	clock func(t time.Time) float64
}

func newGameLoop(sess *session.Session, nc newCoreFunc, now func() time.Time, script []scriptStep, log *slog.Logger) *gameLoop {
	return &gameLoop{sess: sess, newCore: nc, now: now, start: now(), script: script, log: log,
		ids: map[string]map[uint32]struct{}{}, keyState: map[string]bool{}}
}

func (g *gameLoop) ms(t time.Time) float64 {
	if g.clock != nil {
		return g.clock(t)
	}
	return float64(t.Sub(g.start)) / float64(time.Millisecond)
}

// drain hands every queued event to the core (and the sink).
func (g *gameLoop) drain() {
	g.evs = g.sess.Queue().Drain(g.evs)
	for i := range g.evs {
		g.handle(&g.evs[i])
		if g.sink != nil {
			g.sink(&g.evs[i])
		}
	}
	clear(g.evs)
}

// tick drains every queued event, plays due script steps and samples the core.
func (g *gameLoop) tick() {
	g.drain()
	now := g.now()
	g.tickAt = now
	g.playScript(now)
	if g.core != nil {
		g.core.Visit(g.ms(now), g.see)
	}
	if g.onTick != nil {
		g.onTick(g)
	}
}

// note keeps an error for the summary, at most maxLoopErrors of them.
func (g *gameLoop) note(msg string) {
	if len(g.errs) < maxLoopErrors {
		g.errs = append(g.errs, msg)
	}
}

const maxLoopErrors = 64

func (g *gameLoop) see(key string, id uint32) {
	set := g.ids[key]
	if set == nil {
		set = map[uint32]struct{}{}
		g.ids[key] = set
	}
	if len(set) < maxIDsPerKey {
		set[id] = struct{}{}
	}
}

func (g *gameLoop) retireCore() {
	if g.core != nil {
		d, _ := g.core.Counts()
		g.decoded += d
		if p := g.core.Prediction(); p != nil {
			g.prediction = p
		}
		g.core = nil
	}
}

func (g *gameLoop) handle(ev *session.Event) {
	switch ev.Kind {
	case session.EventOpen:
		g.retireCore()
	case session.EventFrame:
		if g.core != nil {
			g.core.PushFrame(ev.Data, g.ms(ev.At))
		}
	case session.EventState:
		if ev.State == session.StatePlaying && g.playAt.IsZero() {
			g.playAt = ev.At
		}
	case session.EventClosed:
		g.close = ev.Close
	case session.EventMessage:
		switch v := ev.Value.(type) {
		case *protocol.Config:
			g.retireCore()
			c, err := g.newCore(v)
			if err != nil {
				g.note(err.Error())
				return
			}
			g.core = c
			c.Visit(g.ms(ev.At), g.see)
		case *protocol.AuthForm:
			if ev.Err != nil {
				g.fatal = ev.Err
			}
		case protocol.AuthVerdict:
			if !v.OK {
				g.fatal = errors.New("auth rejected")
			}
		case *protocol.MapInfo:
			if g.core != nil {
				g.core.LoadMap(v.Raw)
				g.core.SetMap()
			}
		case protocol.Panel:
			if g.core != nil {
				g.core.Panel(v)
			}
		case protocol.ClearScope:
			if g.core != nil {
				g.core.Reset()
			}
		case protocol.Keyset:
			if g.core != nil {
				g.core.SetActive(v == 1)
			}
			// A new key set: keys the script holds get a fresh down (the
			// browser would lose them; client-ui.md recommends resending).
			for cmd, down := range g.keyState {
				if down {
					g.key(protocol.KeyDown, cmd, ev.At)
				}
			}
		}
	}
}

func (g *gameLoop) playScript(now time.Time) {
	if g.playAt.IsZero() {
		return
	}
	for g.next < len(g.script) && now.Sub(g.playAt) >= g.script[g.next].Offset {
		st := g.script[g.next]
		g.next++
		if err := g.key(st.Action, st.Command, now); err != nil {
			g.note(fmt.Sprintf("script %s %s %s: %v", st.Offset, st.Action, st.Command, err))
			continue
		}
		g.keyState[st.Command] = st.Action == protocol.KeyDown
	}
}

// key sends a key transition and feeds it to the core's prediction with the
// same seq, as the window's input path does.
func (g *gameLoop) key(action protocol.KeyAction, cmd string, at time.Time) error {
	seq, err := g.sess.Key(action, cmd)
	if err != nil {
		return err
	}
	if g.core != nil {
		g.core.ApplyInput(seq, action == protocol.KeyDown, cmd, g.ms(at))
	}
	return nil
}

func (g *gameLoop) summary(d time.Duration) summary {
	st := g.sess.Stats()
	g.retireCore()
	s := summary{State: st.Furthest.String(), Player: st.Player, Pings: st.Pongs,
		Ports: map[string]int{}, Entities: map[string]int{}, DurationMs: d.Milliseconds()}
	s.Frames = frameCounts{Received: st.Frames, Decoded: g.decoded}
	s.Prediction = g.prediction
	if st.Frames > int(g.decoded) {
		s.Frames.Dropped = uint64(st.Frames) - g.decoded
	}
	for p, n := range st.Ports {
		s.Ports[strconv.Itoa(p)] = n
	}
	for k, set := range g.ids {
		s.Entities[k] = len(set)
	}
	if g.close != nil && !g.close.Local {
		code := g.close.Code
		s.CloseCode = &code
	}
	s.Errors = append(append([]string{}, st.Errors...), g.errs...)
	if g.fatal != nil && len(s.Errors) == 0 {
		s.Errors = append(s.Errors, g.fatal.Error())
	}
	return s
}

// driveHeadless runs the game loop at tickHz until run returns, then drains
// what is left. run is the connection (runner or replay); it ends when ctx
// ends. A fatal auth problem cancels the run.
func driveHeadless(ctx context.Context, g *gameLoop, run func(ctx context.Context) (*session.CloseInfo, error), tickHz int) (*session.CloseInfo, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		info *session.CloseInfo
		err  error
	}
	done := make(chan result, 1)
	go func() {
		info, err := run(ctx)
		done <- result{info, err}
	}()
	tk := time.NewTicker(time.Second / time.Duration(tickHz))
	defer tk.Stop()
	for {
		select {
		case r := <-done:
			g.tick()
			return r.info, r.err
		case <-tk.C:
		case <-g.sess.Queue().Ready():
		}
		g.tick()
		if g.fatal != nil {
			cancel()
		}
	}
}

func writeSummary(w io.Writer, s summary) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
