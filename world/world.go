// Package world is the game world at render time, without drawing: the
// canvases laid out for the window, the camera, and the game's parts. Each
// tick the game loop hands it the client core's output and the world applies
// it in the engine's fixed order — event frames (entities, then each frame's
// camera), hot data, the hot camera — then steps the animations. A window
// draws the canvases afterwards; a headless session runs the same world for
// its sounds and never draws.
package world

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/parts/tiles"
	"vimpclient/world/camera"
	"vimpclient/world/canvas"
)

// Core is what a tick reads from the client core; *clientcore.Core
// satisfies it.
type Core interface {
	Sample(localNowMs float64) *clientcore.Hot
	// TakeFramesUpTo returns at most maxFrames queued event frames that
	// fit in maxRows rows (at least one), keeping the rest for later.
	TakeFramesUpTo(maxFrames, maxRows int) []clientcore.EventFrame
	MyGameID() (uint8, bool)
}

// Config is the world's part of CONFIG_DATA, read once by the game loop.
type Config struct {
	Schema        *clientcore.Schema
	Canvases      []canvas.Spec
	Camera        camera.Tuning
	PointerCanvas string
	Parts         parts.PartsConfig
}

// ParseCanvasManager reads modules.canvasManager: the canvases in
// declaration order, the dynamic camera's tuning and the pointer canvas.
func ParseCanvasManager(raw json.RawMessage) (specs []canvas.Spec, tune camera.Tuning, pointer string, err error) {
	var cm struct {
		Canvases      json.RawMessage   `json:"canvases"`
		DynamicCamera *camera.RawTuning `json:"dynamicCamera"`
		PointerCanvas string            `json:"pointerCanvas"`
	}
	if len(raw) == 0 {
		return nil, tune, "", errors.New("canvas manager: no canvases")
	}
	if err := json.Unmarshal(raw, &cm); err != nil {
		return nil, tune, "", fmt.Errorf("canvas manager: %w", err)
	}
	if len(cm.Canvases) == 0 {
		return nil, tune, "", errors.New("canvas manager: no canvases")
	}
	if specs, err = canvas.ParseSpecs(cm.Canvases); err != nil {
		return nil, tune, "", fmt.Errorf("canvas manager: %w", err)
	}
	if len(specs) == 0 {
		return nil, tune, "", errors.New("canvas manager: no canvases")
	}
	tune = camera.DefaultTuning()
	if cm.DynamicCamera != nil {
		tune = cm.DynamicCamera.Sanitize()
	}
	return specs, tune, cm.PointerCanvas, nil
}

// Canvas is one canvas at run time, in logical px.
type Canvas struct {
	Spec  canvas.Spec
	Size  canvas.Size
	Style parts.CanvasStyle
	Stage canvas.Stage // the world-to-canvas transform
	Rect  canvas.Rect  // on-screen rectangle
}

// Options configure a World.
type Options struct {
	Log *slog.Logger
	// Rand is the world's random source (nil: math/rand).
	Rand func() float64
	// Textures are where parts find their images (nil: none, as headless).
	Textures parts.Textures
	// Sounds is what the parts play through (nil: silent).
	Sounds parts.Sounds
	// OnCamera, if set, sees every camera application in order: the raw
	// point and the scene zoom for audio (diagnostics and tests; the game
	// loop reads Camera after each tick instead).
	OnCamera func(x, y, zoom float64)
	// Width and Height are the initial window size in logical px (default
	// 1280×720, the window's default).
	Width, Height float64
	// Limits bound the parts scene and the event frames one tick applies
	// (zero fields: parts.DefaultLimits).
	Limits parts.Limits
	// Context bounds the drawing of the game's textures in the background
	// (nil: context.Background()).
	Context context.Context
}

// World holds the canvases, the camera and the parts. Every method runs on
// the game loop.
type World struct {
	log      *slog.Logger
	rnd      func() float64
	tex      parts.Textures
	people   parts.People // the players' names, kept across configurations
	sounds   parts.Sounds
	onCamera func(x, y, zoom float64)
	lim      parts.Limits
	// refused is what the scenes replaced since New refused.
	refused parts.Refusals

	cam      *camera.Camera
	canvases []Canvas
	pointer  int // index of the pointer canvas
	scene    *parts.Scene
	game     *parts.Game
	core     Core
	lastMap  *gamemap.Map
	winW     float64
	winH     float64
	dpr      float64
	camX     float64
	camY     float64
	haveCam  bool
	nowMs    float64
	hot      hotCopy
	// follow is the hot actor the camera follows instead of the core's
	// camera (a demo watching another player).
	follow  followed
	palette string // team colours (SetPalette); "" the game's own
	// fixedScale sizes the fixed canvases (the radar) with the HUD: their
	// on-screen rectangle is this many times their logical size (0: 1).
	fixedScale float64
	bake       bakes
	clear      keptClear
}

// followed is the hot actor the camera follows, while on.
type followed struct {
	on  bool
	key string
	id  uint32
}

// New returns an empty world; Configure gives it a game.
func New(o Options) *World {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Textures == nil {
		o.Textures = parts.NoTextures{}
	}
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 1280, 720
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	return &World{bake: bakes{ctx: o.Context}, log: o.Log, rnd: o.Rand, tex: o.Textures, sounds: o.Sounds, onCamera: o.OnCamera,
		winW: o.Width, winH: o.Height, dpr: 1, lim: o.Limits.WithDefaults()}
}

// Rand is the world's random source, for building a game's parts.
func (w *World) Rand() func() float64 { return w.rnd }

// Configure applies a CONFIG_DATA: canvases, camera tuning and the parts of
// game (nil: every key drawn by the generic renderer). The parts of the
// previous configuration let go of their sounds first.
func (w *World) Configure(cfg *Config, game *parts.Game) error {
	ids := make([]string, len(cfg.Canvases))
	for i, s := range cfg.Canvases {
		ids[i] = s.ID
	}
	scene, err := parts.NewScene(parts.SceneOptions{Log: w.log, Game: game, Generic: generic.Factory{}, Tex: w.tex, People: &w.people,
		Rand: w.rnd, Sound: w.sounds, Canvases: ids, MapFallback: tiles.MapBuilder{}, Limits: w.lim}, cfg.Schema, cfg.Parts)
	if err != nil {
		return fmt.Errorf("world: %w", err)
	}
	w.startBake(game)
	w.cam = camera.New(cfg.Camera, w.rnd)
	if game != nil {
		w.cam.SetMaxOffset(game.MaxLookAhead)
	}
	if w.scene != nil {
		w.scene.Clear(nil, true)
		r := w.scene.Refused()
		w.refused.Frames += r.Frames
		w.refused.Rows += r.Rows
		if r.Reason != "" {
			w.refused.Reason = r.Reason
		}
	}
	w.canvases = w.canvases[:0]
	w.pointer = 0
	for i, s := range cfg.Canvases {
		c := Canvas{Spec: s, Size: s.Initial()}
		if game != nil {
			c.Style = game.Styles[s.ID]
		}
		if s.ID == cfg.PointerCanvas {
			w.pointer = i
		}
		w.canvases = append(w.canvases, c)
	}
	w.scene, w.game = scene, game
	w.Resize(w.winW, w.winH)
	if w.lastMap != nil {
		w.scene.SetMap(w.lastMap)
	}
	gameID := "generic"
	if game != nil {
		gameID = game.ID
	}
	w.log.Debug("world configured", "game", gameID, "canvases", len(cfg.Canvases), "fallbacks", len(scene.Fallbacks))
	return nil
}

// SetNames turns the players' names in the world on or off.
func (w *World) SetNames(show bool) { w.people.Show = show }

// SetPeople gives the world the players' names by entity id (names is not
// kept).
func (w *World) SetPeople(names map[uint32]string) { w.people.SetNames(names) }

// SetBadges gives the world the players' badges by entity id (badges is
// not kept).
func (w *World) SetBadges(badges map[uint32]parts.Badges) { w.people.SetBadges(badges) }

// Badges is entity id's badges as the world has them: tests and
// diagnostics.
func (w *World) Badges(id uint32) parts.Badges { return w.people.Badges(id) }

// Name is entity id's player name as the world has it ("" when none):
// tests and diagnostics.
func (w *World) Name(id uint32) string { return w.people.Name(id) }

// SetPalette draws the game's team colours in the named palette
// ("standard", "colorblind"): the team textures are baked again (at once
// when that palette was drawn before, else in the background, or after
// the bake going on), and at every later configuration.
func (w *World) SetPalette(name string) {
	if name == w.palette {
		return
	}
	w.palette = name
	if _, none := w.tex.(parts.NoTextures); none || w.bake.job != nil || w.game == nil || w.game.BakeTeams == nil {
		return // nothing drawn, or pollBake draws it once the bake going on is in
	}
	w.runSteps([]bakeStep{w.teamStep(w.game, name)}, name)
}

// Refused is what the world's scenes refused under their limits since
// New, the current one's included.
func (w *World) Refused() parts.Refusals {
	r := w.refused
	if w.scene != nil {
		c := w.scene.Refused()
		r.Frames += c.Frames
		r.Rows += c.Rows
		if c.Reason != "" {
			r.Reason = c.Reason
		}
	}
	return r
}

// Scene is the parts scene of the last Configure (nil before one), for
// tests and diagnostics that count what it holds.
func (w *World) Scene() *parts.Scene { return w.scene }

// Configured reports whether a CONFIG_DATA was applied.
func (w *World) Configured() bool { return w.scene != nil }

// Fallbacks lists the parts drawn generically after a schema mismatch.
func (w *World) Fallbacks() []string {
	if w.scene == nil {
		return nil
	}
	return w.scene.Fallbacks
}

// Drawers says what draws each part class of CONFIG_DATA (see
// parts.Scene.Drawers); nil before CONFIG_DATA.
func (w *World) Drawers() map[string]string {
	if w.scene == nil {
		return nil
	}
	return w.scene.Drawers
}

// GameID is the game the parts belong to ("" before CONFIG_DATA, "generic"
// when the game is unknown).
func (w *World) GameID() string {
	switch {
	case w.scene == nil:
		return ""
	case w.game == nil:
		return "generic"
	}
	return w.game.ID
}

// SetMap hands MAP_DATA's map to the map parts (kept for a later Configure).
func (w *World) SetMap(m *gamemap.Map) {
	w.lastMap = m
	if w.scene != nil && m != nil {
		w.scene.SetMap(m)
	}
}

// Map is the last MAP_DATA's map (nil: none since the last full CLEAR).
func (w *World) Map() *gamemap.Map { return w.lastMap }

// ApplyFirstShot applies FIRST_SHOT_DATA like an event frame (it bypasses
// the core). A snapshot shape the parts do not draw is not an error the
// handshake cares about: the session answers FIRST_SHOT_READY regardless.
func (w *World) ApplyFirstShot(game, camera json.RawMessage) error {
	if w.scene == nil {
		return errors.New("first shot before CONFIG_DATA")
	}
	f, err := parts.ParseFirstShotGame(w.scene.Schema(), game, camera)
	if err != nil {
		return err
	}
	w.applyFrame(f)
	return nil
}

// Clear applies CLEAR: the parts of the listed keys, or everything.
func (w *World) Clear(keys []string, all bool) {
	if w.scene != nil {
		w.scene.Clear(keys, all)
	}
	if all {
		w.lastMap = nil
	}
}

// Team is the team field of entity id's latest row (0 if none), for games
// whose rows have a team field: tests and diagnostics.
func (w *World) Team(id uint32) int {
	if w.scene == nil {
		return 0
	}
	return w.scene.Team(id)
}

// SetCore hands the world the core it samples (nil detaches it).
func (w *World) SetCore(c Core) { w.core = c }

// tellLocal hands the scene the local player's game id, as the core knows
// it now, before the parts run.
func (w *World) tellLocal() {
	my, ok := w.core.MyGameID()
	w.scene.SetLocal(uint32(my), ok)
}

// hotCopy keeps one tick's hot records while the core is asked for its
// event frames: the core's buffers are only valid until the next call.
type hotCopy struct {
	hot  clientcore.Hot
	vals []float32
}

func (h *hotCopy) copyFrom(src *clientcore.Hot) {
	n := 0
	for _, g := range [][]clientcore.Record{src.Actors, src.Dynamics, src.Tail} {
		for i := range g {
			n += len(g[i].Fields)
		}
	}
	if cap(h.vals) < n {
		h.vals = make([]float32, 0, 2*n)
	}
	h.vals = h.vals[:0]
	h.hot.Flags, h.hot.Camera = src.Flags, src.Camera
	h.hot.Actors = h.copyGroup(h.hot.Actors[:0], src.Actors)
	h.hot.Dynamics = h.copyGroup(h.hot.Dynamics[:0], src.Dynamics)
	h.hot.Tail = h.copyGroup(h.hot.Tail[:0], src.Tail)
}

func (h *hotCopy) copyGroup(dst, src []clientcore.Record) []clientcore.Record {
	for i := range src {
		start := len(h.vals)
		h.vals = append(h.vals, src[i].Fields...)
		dst = append(dst, clientcore.Record{Schema: src[i].Schema, ID: src[i].ID, Fields: h.vals[start:len(h.vals):len(h.vals)]})
	}
	return dst
}

// Tick runs one render tick in the engine's order: sample the core (copying
// the hot data in full), tell the scene who the local player is, take the
// event frames, apply each frame (entities,
// then its camera), then the hot entities, then the hot camera, then advance
// the animations by dtMs. Drawing, if any, happens afterwards.
func (w *World) Tick(nowMs, dtMs float64) {
	w.nowMs = nowMs
	w.pollBake(false)
	if w.scene == nil || w.core == nil {
		return
	}
	w.hot.copyFrom(w.core.Sample(nowMs))
	w.tellLocal()
	h := &w.hot.hot
	if h.Flags&clientcore.HotFrames != 0 {
		frames := w.core.TakeFramesUpTo(w.lim.FramesPerTick, w.lim.RowsPerTick)
		for i := range frames {
			w.applyFrame(&frames[i])
		}
	}
	if h.Flags&(clientcore.HotGame|clientcore.HotPredicted) != 0 {
		w.scene.ApplyHot(h)
	}
	switch {
	case w.follow.on:
		if x, y, ok := w.actorAt(w.follow.key, w.follow.id); ok {
			w.applyCamera(x, y, false, "")
		}
	case h.Flags&clientcore.HotCamera != 0:
		w.applyCamera(float64(h.Camera[0]), float64(h.Camera[1]), false, "")
	}
	w.scene.Step(dtMs)
}

// Actor is a hot actor the camera can follow.
type Actor struct {
	Key string
	ID  uint32
}

// Actors appends the hot actors of the last tick that have a position (an
// x and a y field), in the hot data's order.
func (w *World) Actors(dst []Actor) []Actor {
	for i := range w.hot.hot.Actors {
		r := &w.hot.hot.Actors[i]
		if _, _, ok := position(r); ok {
			dst = append(dst, Actor{Key: r.Key(), ID: r.ID})
		}
	}
	return dst
}

// Follow makes the camera follow a hot actor instead of the core's camera;
// Unfollow returns to the core's camera.
func (w *World) Follow(a Actor) { w.follow.on, w.follow.key, w.follow.id = true, a.Key, a.ID }

// Unfollow returns the camera to the core's.
func (w *World) Unfollow() { w.follow.on = false }

// Following reports the followed actor.
func (w *World) Following() (Actor, bool) {
	return Actor{Key: w.follow.key, ID: w.follow.id}, w.follow.on
}

// watchRadius is how close, in world units, a hot actor must be to the
// camera point to be the one the camera shows: the host's camera is the
// watched actor's own position, interpolated the same way.
const watchRadius = 1.0

// Watched is the hot actor the camera shows: the followed one, else the
// actor nearest the last camera point within watchRadius. ok is false when
// no actor stands there (a camera kept where nobody is).
func (w *World) Watched() (Actor, bool) {
	if w.follow.on {
		return Actor{Key: w.follow.key, ID: w.follow.id}, true
	}
	if !w.haveCam {
		return Actor{}, false
	}
	best, found := watchRadius*watchRadius, -1
	for i := range w.hot.hot.Actors {
		r := &w.hot.hot.Actors[i]
		x, y, ok := position(r)
		if !ok {
			continue
		}
		if d := (x-w.camX)*(x-w.camX) + (y-w.camY)*(y-w.camY); d <= best {
			best, found = d, i
		}
	}
	if found < 0 {
		return Actor{}, false
	}
	r := &w.hot.hot.Actors[found]
	return Actor{Key: r.Key(), ID: r.ID}, true
}

func (w *World) actorAt(key string, id uint32) (float64, float64, bool) {
	for i := range w.hot.hot.Actors {
		r := &w.hot.hot.Actors[i]
		if r.ID == id && r.Key() == key {
			return position(r)
		}
	}
	return 0, 0, false
}

// position reads a record's x and y fields, found by name.
func position(r *clientcore.Record) (float64, float64, bool) {
	xi, yi := -1, -1
	for i, f := range r.Schema.Fields {
		switch f.Name {
		case "x":
			xi = i
		case "y":
			yi = i
		}
	}
	if xi < 0 || yi < 0 || xi >= len(r.Fields) || yi >= len(r.Fields) {
		return 0, 0, false
	}
	return float64(r.Fields[xi]), float64(r.Fields[yi]), true
}

// Hot is the hot data the last Tick applied (the world's own copy, valid
// until the next Tick).
func (w *World) Hot() *clientcore.Hot { return &w.hot.hot }

func (w *World) applyFrame(f *clientcore.EventFrame) {
	w.scene.ApplyFrame(f)
	if f.HasCamera {
		shake := ""
		if f.Camera.HasShake {
			shake = f.Camera.ShakeText()
		}
		w.applyCamera(float64(f.Camera.X), float64(f.Camera.Y), f.Camera.ForceReset, shake)
	}
}

func (w *World) applyCamera(x, y float64, reset bool, shake string) {
	if w.cam == nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return
	}
	w.camX, w.camY, w.haveCam = x, y, true
	w.cam.Update(x, y, reset, shake, w.nowMs)
	w.limitLookAhead()
	w.updateStages()
	if w.onCamera != nil {
		w.onCamera(x, y, w.AudioZoom())
	}
}

// Camera is the raw camera point last applied (the audio listener's place);
// ok is false before any camera.
func (w *World) Camera() (x, y float64, ok bool) { return w.camX, w.camY, w.haveCam }

// AudioZoom is the scene zoom handed to audio: the pointer canvas's current
// scale times the camera zoom, over its base scale, so sound distances stay
// in world units whatever the window size.
func (w *World) AudioZoom() float64 {
	if len(w.canvases) == 0 || w.cam == nil {
		return 1
	}
	c := &w.canvases[w.pointer]
	if c.Spec.BaseScale == 0 {
		return 1
	}
	v := w.cam.ViewFor(c.Spec.Dynamic, false)
	return c.Size.CurrentScale * v.Zoom / c.Spec.BaseScale
}

func (w *World) updateStages() {
	w.updateClear()
	for i := range w.canvases {
		c := &w.canvases[i]
		v := w.cam.ViewFor(c.Spec.Dynamic, false)
		s := c.Size.CurrentScale * v.Zoom
		if lo, hi, ok := w.viewRange(c, s); ok {
			v.CamX = clampCentre(v.CamX, lo[0], hi[0])
			v.CamY = clampCentre(v.CamY, lo[1], hi[1])
		}
		if c.Spec.Dynamic && !c.Spec.Fixed {
			v.CamX += w.clear.x
			v.CamY += w.clear.y
		}
		if c.Spec.Shake {
			if _, sx, sy := w.cam.Shaking(); sx != 0 || sy != 0 {
				v.CamX += sx
				v.CamY += sy
			}
		}
		c.Stage = canvas.StageFor(c.Size.W, c.Size.H, v.CamX, v.CamY, s)
	}
}

// updateClear eases the view's clearance shift towards what the first
// dynamic canvas needs now (see keepclear.go).
func (w *World) updateClear() {
	dt := w.nowMs - w.clear.at
	w.clear.at = w.nowMs
	for i := range w.canvases {
		c := &w.canvases[i]
		if !c.Spec.Dynamic || c.Spec.Fixed {
			continue
		}
		v := w.cam.ViewFor(true, false)
		s := c.Size.CurrentScale * v.Zoom
		if lo, hi, ok := w.viewRange(c, s); ok {
			v.CamX = clampCentre(v.CamX, lo[0], hi[0])
			v.CamY = clampCentre(v.CamY, lo[1], hi[1])
		}
		tx, ty := w.clearShift(c, v.CamX, v.CamY, s)
		w.easeClear(tx, ty, dt, false)
		return
	}
}

// viewRange is the range the centre of canvas c, drawn at scale s, may
// take so that the canvas shows no void past the map's edges: half the
// canvas in from each edge. An axis on which the map is smaller than the
// canvas has lo > hi (the map is centred on it). ok is false for canvases
// that are not kept inside the map: the fixed ones (a radar shows the
// void around the player on purpose), every canvas before MAP_DATA, and
// all of them for a game whose view follows past the map's edges.
func (w *World) viewRange(c *Canvas, s float64) (lo, hi [2]float64, ok bool) {
	m := w.lastMap
	if c.Spec.Fixed || m == nil || len(m.Levels) == 0 || !(s > 0) || w.game != nil && w.game.PastMapEdge {
		return lo, hi, false
	}
	mw, mh := m.WorldSize()
	if !(mw > 0) || !(mh > 0) {
		return lo, hi, false
	}
	hw, hh := c.Size.W/(2*s), c.Size.H/(2*s)
	return [2]float64{hw, hh}, [2]float64{mw - hw, mh - hh}, true
}

// clampCentre keeps a view centre in [lo, hi], or at the middle of the
// two when the map is smaller than the view (lo > hi).
func clampCentre(v, lo, hi float64) float64 {
	if lo > hi {
		return (lo + hi) / 2
	}
	return min(max(v, lo), hi)
}

// limitLookAhead holds the camera's look-ahead inside the range the first
// dynamic canvas's centre may take, so that an offset the clamp would hide
// is never built up (see camera.LimitOffset).
func (w *World) limitLookAhead() {
	for i := range w.canvases {
		c := &w.canvases[i]
		if !c.Spec.Dynamic || c.Spec.Fixed {
			continue
		}
		if lo, hi, ok := w.viewRange(c, c.Size.CurrentScale*w.cam.Zoom()); ok {
			w.cam.LimitOffset(lo[0], lo[1], hi[0], hi[1])
		}
		return
	}
}

// Resize lays the canvases out for a window of (sw, sh) logical px and
// re-applies the camera once at its last point, so the view does not jump.
func (w *World) Resize(sw, sh float64) {
	w.winW, w.winH = sw, sh
	for i := range w.canvases {
		c := &w.canvases[i]
		if s, ok := c.Spec.Resize(sw, sh); ok {
			c.Size = s
		}
		k := w.fixedScale
		if k <= 0 {
			k = 1
		}
		fw, fh := c.Size.W*k, c.Size.H*k
		switch {
		case !c.Spec.Fixed:
			c.Rect = canvas.Centered(c.Size.W, c.Size.H, sw, sh)
		case c.Style.RightFrac != 0 || c.Style.Top != 0:
			c.Rect = canvas.Rect{Left: sw - sw*c.Style.RightFrac - fw, Top: c.Style.Top * k, W: fw, H: fh}
		default:
			c.Rect = canvas.Rect{Left: sw - fw - 10*k, Top: (10 + float64(i-1)*(c.Size.H+10)) * k, W: fw, H: fh}
		}
	}
	if w.cam != nil {
		if w.haveCam {
			w.cam.Update(w.camX, w.camY, false, "", w.nowMs)
		}
		w.updateStages()
	}
}

// SetFixedScale draws the fixed canvases (the radar) k times their logical
// size, so they grow and shrink with the HUD around them; their contents
// keep their scale in world units per canvas px.
func (w *World) SetFixedScale(k float64) {
	if !(k > 0) || math.IsInf(k, 0) || k == w.fixedScale {
		return
	}
	w.fixedScale = k
	w.Resize(w.winW, w.winH)
}

// Size is the window size of the last Resize, in logical px.
func (w *World) Size() (float64, float64) { return w.winW, w.winH }

// SetDeviceScale records the display's device scale factor (HiDPI), with
// which CursorToWorld converts pointer positions.
func (w *World) SetDeviceScale(dpr float64) {
	if dpr > 0 {
		w.dpr = dpr
	}
}

// Canvases are the canvases in declaration order; the slice is the world's
// and valid until the next Configure.
func (w *World) Canvases() []Canvas { return w.canvases }

// Stage is the parts' drawing list of canvas id (nil before Configure or
// for an unknown id).
func (w *World) Stage(id string) *parts.Stage {
	if w.scene == nil {
		return nil
	}
	return w.scene.Stage(id)
}

// ScreenToWorld converts a window point (logical px) to the world point
// under it on the pointer canvas, with the last applied camera.
func (w *World) ScreenToWorld(x, y float64) (float64, float64, bool) {
	if len(w.canvases) == 0 {
		return 0, 0, false
	}
	c := &w.canvases[w.pointer]
	return canvas.ScreenToWorld(x, y, c.Rect, c.Size.W, c.Size.H, c.Stage)
}

// CursorToWorld is ScreenToWorld for a point in the screen's device pixels,
// as cursor and touch positions are reported on a HiDPI display.
func (w *World) CursorToWorld(x, y float64) (float64, float64, bool) {
	return w.ScreenToWorld(x/w.dpr, y/w.dpr)
}

// WorldToScreen converts a world point to window logical px on canvas i.
func (w *World) WorldToScreen(i int, wx, wy float64) (float64, float64, bool) {
	if i < 0 || i >= len(w.canvases) {
		return 0, 0, false
	}
	c := &w.canvases[i]
	x, y := c.Stage.ToScreen(wx, wy)
	return c.Rect.Left + x*c.Rect.W/c.Size.W, c.Rect.Top + y*c.Rect.H/c.Size.H, true
}
