package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"log/slog"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/parts/tiles"
	"vimpclient/render/camera"
	"vimpclient/render/canvas"
)

// Core is what the render loop needs from the client core each tick;
// *clientcore.Core satisfies it.
type Core interface {
	Sample(localNowMs float64) *clientcore.Hot
	TakeFrames() []clientcore.EventFrame
	MyGameID() (uint8, bool)
}

// GameSet builds a game's parts; rnd is the world's random source.
type GameSet func(rnd func() float64) *parts.Game

// canvasState is one canvas at run time.
type canvasState struct {
	spec  canvas.Spec
	size  canvas.Size
	style parts.CanvasStyle
	stage canvas.Stage // logical px
	rect  canvas.Rect  // on-screen rectangle, logical px
	img   *ebiten.Image
	mask  *ebiten.Image // circle clip
	deco  *ebiten.Image // inner glow and ring, drawn once per size
}

// World is the renderer's state: the canvases, the camera and the parts.
// Every method runs on the game loop.
type World struct {
	log      *slog.Logger
	games    map[string]GameSet
	gameID   string
	rnd      func() float64
	tex      *textures
	gfx      *gfx
	cam      *camera.Camera
	canvases []*canvasState
	pointer  int // index of the pointer canvas
	scene    *parts.Scene
	game     *parts.Game
	core     Core
	lastMap  *gamemap.Map
	onCamera func(x, y, zoom float64)
	sounds   parts.Sounds
	winW     float64
	winH     float64
	dpr      float64 // device scale factor of the last layout
	camX     float64
	camY     float64
	haveCam  bool
	nowMs    float64
	hot      hotCopy
	compOp   ebiten.DrawImageOptions
	maskOp   ebiten.DrawImageOptions
	decoOp   ebiten.DrawImageOptions
}

// configDoc is the part of CONFIG_DATA the renderer reads.
type configDoc struct {
	Modules struct {
		CanvasManager struct {
			Canvases      json.RawMessage   `json:"canvases"`
			DynamicCamera *camera.RawTuning `json:"dynamicCamera"`
			PointerCanvas string            `json:"pointerCanvas"`
		} `json:"canvasManager"`
	} `json:"modules"`
	Parts    json.RawMessage `json:"parts"`
	Snapshot json.RawMessage `json:"snapshot"`
}

// SetConfig applies CONFIG_DATA: canvases, camera tuning, the snapshot
// schema and the parts. A game recognised by its manifest id and its parts
// fingerprint gets its own renderers; anything else is drawn generically.
func (w *World) SetConfig(raw []byte) error {
	var doc configDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("config data: %w", err)
	}
	if len(doc.Modules.CanvasManager.Canvases) == 0 {
		return errors.New("config data: no canvases")
	}
	specs, err := canvas.ParseSpecs(doc.Modules.CanvasManager.Canvases)
	if err != nil {
		return fmt.Errorf("config data: %w", err)
	}
	if len(specs) == 0 {
		return errors.New("config data: no canvases")
	}
	schema, err := clientcore.ParseSchema(doc.Snapshot)
	if err != nil {
		return fmt.Errorf("config data: %w", err)
	}
	pc, err := parts.ParsePartsConfig(doc.Parts)
	if err != nil {
		return fmt.Errorf("config data: %w", err)
	}
	game := w.pickGame(pc)
	ids := make([]string, len(specs))
	for i, s := range specs {
		ids[i] = s.ID
	}
	scene, err := parts.NewScene(parts.SceneOptions{Log: w.log, Game: game, Generic: generic.Factory{}, Tex: w.tex,
		IsLocal: w.isLocal, Rand: w.rnd, Sound: w.sounds, Canvases: ids, MapFallback: tiles.MapBuilder{}}, schema, pc)
	if err != nil {
		return fmt.Errorf("config data: %w", err)
	}
	if game != nil && game.Bake != nil {
		w.tex.bake(game.Bake())
	}
	tune := camera.DefaultTuning()
	if doc.Modules.CanvasManager.DynamicCamera != nil {
		tune = doc.Modules.CanvasManager.DynamicCamera.Sanitize()
	}
	w.cam = camera.New(tune, w.rnd)
	if w.scene != nil {
		w.scene.Clear(nil, true) // the old parts let go of their sounds
	}
	for _, c := range w.canvases {
		c.release()
	}
	w.canvases = w.canvases[:0]
	w.pointer = 0
	for i, s := range specs {
		cs := &canvasState{spec: s, size: s.Initial()}
		if game != nil {
			cs.style = game.Styles[s.ID]
		}
		if s.ID == doc.Modules.CanvasManager.PointerCanvas {
			w.pointer = i
		}
		w.canvases = append(w.canvases, cs)
	}
	w.scene, w.game = scene, game
	w.resize(w.winW, w.winH)
	if w.lastMap != nil {
		w.scene.SetMap(w.lastMap)
	}
	gameID := "generic"
	if game != nil {
		gameID = game.ID
	}
	w.log.Info("renderer configured", "game", gameID, "canvases", len(specs), "fallbacks", len(scene.Fallbacks))
	return nil
}

func (w *World) pickGame(pc parts.PartsConfig) *parts.Game {
	if mk, ok := w.games[w.gameID]; ok {
		g := mk(w.rnd)
		if g.Recognise == nil || g.Recognise(pc.EntitiesOnCanvas) {
			return g
		}
		w.log.Error("config does not match the announced game; drawing generically", "game", w.gameID)
		return nil
	}
	if w.gameID != "" {
		return nil
	}
	for _, mk := range w.games {
		if g := mk(w.rnd); g.Recognise != nil && g.Recognise(pc.EntitiesOnCanvas) {
			return g
		}
	}
	return nil
}

// Fallbacks lists the parts drawn generically after a schema mismatch.
func (w *World) Fallbacks() []string {
	if w.scene == nil {
		return nil
	}
	return w.scene.Fallbacks
}

// GameID is the recognised game ("" before CONFIG_DATA, "generic" when unknown).
func (w *World) GameID() string {
	switch {
	case w.scene == nil:
		return ""
	case w.game == nil:
		return "generic"
	}
	return w.game.ID
}

// SetMap parses MAP_DATA and applies it with UseMap (the core's SetMap is
// the wiring's job).
func (w *World) SetMap(raw []byte) error {
	m, err := gamemap.Parse(raw)
	if err != nil {
		return err
	}
	w.UseMap(m)
	return nil
}

// UseMap applies a map parsed once for everyone who reads it.
func (w *World) UseMap(m *gamemap.Map) {
	w.lastMap = m
	if w.scene != nil {
		w.scene.SetMap(m)
	}
}

// ApplyFirstShot applies FIRST_SHOT_DATA like an event frame (it bypasses
// the core). A snapshot shape the renderer does not draw is not an error;
// the wiring answers FIRST_SHOT_READY whatever this returns.
// game and camera are the message's first two elements (protocol.FirstShot).
func (w *World) ApplyFirstShot(game, camera json.RawMessage) error {
	if w.scene == nil {
		return errors.New("first shot before CONFIG_DATA")
	}
	f, err := parts.ParseFirstShotGame(w.scene.Schema(), game, camera)
	if err != nil {
		return err
	}
	w.scene.ApplyFrame(f)
	if f.HasCamera {
		shake := ""
		if f.Camera.HasShake {
			shake = f.Camera.ShakeText()
		}
		w.applyCamera(float64(f.Camera.X), float64(f.Camera.Y), f.Camera.ForceReset, shake)
	}
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

// localTeam is the team field of the local tank's latest row (0 if none):
// a test and diagnostics helper for games whose rows have a "team" field.
func (w *World) localTeam(id uint32) int {
	if w.scene == nil {
		return 0
	}
	return w.scene.Team(id)
}

// SetCore hands the render loop its core (nil detaches it).
func (w *World) SetCore(c Core) { w.core = c }

func (w *World) isLocal(id uint32) bool {
	if w.core == nil {
		return false
	}
	my, ok := w.core.MyGameID()
	return ok && uint32(my) == id
}

// hotCopy keeps one tick's hot records after the core's buffers move on.
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

// Tick runs one render tick in the fixed order: sample the core (copying
// the hot data in full), take the event frames, apply each frame (entities,
// then its camera), then the hot entities, then the hot camera, then advance
// the animations. Drawing happens once afterwards, in Draw.
func (w *World) Tick(nowMs, dtMs float64) {
	w.nowMs = nowMs
	if w.scene == nil || w.core == nil {
		return
	}
	w.hot.copyFrom(w.core.Sample(nowMs))
	h := &w.hot.hot
	if h.Flags&clientcore.HotFrames != 0 {
		frames := w.core.TakeFrames()
		for i := range frames {
			f := &frames[i]
			w.scene.ApplyFrame(f)
			if f.HasCamera {
				shake := ""
				if f.Camera.HasShake {
					shake = f.Camera.ShakeText()
				}
				w.applyCamera(float64(f.Camera.X), float64(f.Camera.Y), f.Camera.ForceReset, shake)
			}
		}
	}
	if h.Flags&(clientcore.HotGame|clientcore.HotPredicted) != 0 {
		w.scene.ApplyHot(h)
	}
	if h.Flags&clientcore.HotCamera != 0 {
		w.applyCamera(float64(h.Camera[0]), float64(h.Camera[1]), false, "")
	}
	w.scene.Step(dtMs)
}

// ApplyEventFrame applies one event frame the game spawned locally (an own
// shot drawn at once, before the host confirms it); call it from Pump.
func (w *World) ApplyEventFrame(f *clientcore.EventFrame) {
	if w.scene != nil {
		w.scene.ApplyFrame(f)
	}
}

// ApplyCamera applies one camera (tests and spectator tools call it too).
func (w *World) applyCamera(x, y float64, reset bool, shake string) {
	if w.cam == nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return
	}
	w.camX, w.camY, w.haveCam = x, y, true
	w.cam.Update(x, y, reset, shake, w.nowMs)
	w.updateStages()
	if w.onCamera != nil {
		w.onCamera(x, y, w.AudioZoom())
	}
}

// AudioZoom is the scene zoom handed to audio: (currentScale·zm)/baseScale
// of the pointer canvas (client-ui.md §3.6).
func (w *World) AudioZoom() float64 {
	if len(w.canvases) == 0 || w.cam == nil {
		return 1
	}
	c := w.canvases[w.pointer]
	if c.spec.BaseScale == 0 {
		return 1
	}
	v := w.cam.ViewFor(c.spec.Dynamic, false)
	return c.size.CurrentScale * v.Zoom / c.spec.BaseScale
}

func (w *World) updateStages() {
	for _, c := range w.canvases {
		v := w.cam.ViewFor(c.spec.Dynamic, c.spec.Shake)
		c.stage = canvas.StageFor(c.size.W, c.size.H, v.CamX, v.CamY, c.size.CurrentScale*v.Zoom)
	}
}

// resize recomputes the canvases for a window of (sw, sh) logical px and
// re-applies the camera once at its last point (client-ui.md §3.2).
func (w *World) resize(sw, sh float64) {
	w.winW, w.winH = sw, sh
	for i, c := range w.canvases {
		if s, ok := c.spec.Resize(sw, sh); ok {
			c.size = s
		}
		switch {
		case !c.spec.Fixed:
			c.rect = canvas.Centered(c.size.W, c.size.H, sw, sh)
		case c.style.RightFrac != 0 || c.style.Top != 0:
			c.rect = canvas.Rect{Left: sw - sw*c.style.RightFrac - c.size.W, Top: c.style.Top, W: c.size.W, H: c.size.H}
		default:
			c.rect = canvas.Rect{Left: sw - c.size.W - 10, Top: 10 + float64(i-1)*(c.size.H+10), W: c.size.W, H: c.size.H}
		}
	}
	if w.cam != nil {
		if w.haveCam {
			w.cam.Update(w.camX, w.camY, false, "", w.nowMs)
		}
		w.updateStages()
	}
}

// ScreenToWorld converts a window point (logical px) to the world point
// under it on the pointer canvas, with the last applied camera.
func (w *World) ScreenToWorld(x, y float64) (float64, float64, bool) {
	if len(w.canvases) == 0 {
		return 0, 0, false
	}
	c := w.canvases[w.pointer]
	return canvas.ScreenToWorld(x, y, c.rect, c.size.W, c.size.H, c.stage)
}

// CursorToWorld is ScreenToWorld for a point in the game screen's pixels,
// as ebiten.CursorPosition and touch positions report them (device pixels
// on a HiDPI display).
func (w *World) CursorToWorld(x, y float64) (float64, float64, bool) {
	d := w.dpr
	if d <= 0 {
		d = 1
	}
	return w.ScreenToWorld(x/d, y/d)
}

// WorldToScreen converts a world point to window logical px on canvas i.
func (w *World) WorldToScreen(i int, wx, wy float64) (float64, float64, bool) {
	if i < 0 || i >= len(w.canvases) {
		return 0, 0, false
	}
	c := w.canvases[i]
	x, y := c.stage.ToScreen(wx, wy)
	return c.rect.Left + x*c.rect.W/c.size.W, c.rect.Top + y*c.rect.H/c.size.H, true
}

// CanvasRect returns canvas i's on-screen rectangle in logical px.
func (w *World) CanvasRect(i int) (canvas.Rect, bool) {
	if i < 0 || i >= len(w.canvases) {
		return canvas.Rect{}, false
	}
	return w.canvases[i].rect, true
}

func (c *canvasState) release() {
	if c.img != nil {
		c.img.Deallocate()
		c.img = nil
	}
	if c.mask != nil {
		c.mask.Deallocate()
		c.mask = nil
	}
	if c.deco != nil {
		c.deco.Deallocate()
		c.deco = nil
	}
}

func toColor(c parts.Color) color.Color {
	return color.NRGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), uint8(c.A * 255)}
}

// Draw draws every canvas once, in declaration order, then composites them
// into screen; dpr is the device scale factor.
func (w *World) Draw(screen *ebiten.Image, dpr float64) {
	for _, c := range w.canvases {
		pw, ph := int(math.Ceil(c.size.W*dpr)), int(math.Ceil(c.size.H*dpr))
		if c.img == nil || c.img.Bounds().Dx() != pw || c.img.Bounds().Dy() != ph {
			c.release()
			c.img = ebiten.NewImage(max(1, pw), max(1, ph))
		}
		c.img.Clear()
		if c.style.Background.A > 0 {
			c.img.Fill(toColor(c.style.Background))
		}
		st := canvas.Stage{X: c.stage.X * dpr, Y: c.stage.Y * dpr, S: c.stage.S * dpr}
		w.gfx.begin(c.img, st)
		if stage := w.scene.Stage(c.spec.ID); stage != nil {
			stage.Draw(w.gfx)
		}
		if c.style.Circle {
			w.clipCircle(c, dpr)
		}
		op := &w.compOp
		op.GeoM.Reset()
		op.GeoM.Scale(c.rect.W/c.size.W, c.rect.H/c.size.H)
		op.GeoM.Translate(c.rect.Left*dpr, c.rect.Top*dpr)
		screen.DrawImage(c.img, op)
	}
}

// clipCircle cuts the canvas to a circle and adds the inner glow and ring
// (both drawn once per canvas size, then reused).
func (w *World) clipCircle(c *canvasState, dpr float64) {
	b := c.img.Bounds()
	if c.mask == nil || c.mask.Bounds() != b {
		if c.mask != nil {
			c.mask.Deallocate()
			c.deco.Deallocate()
		}
		c.mask = ebiten.NewImage(b.Dx(), b.Dy())
		c.deco = ebiten.NewImage(b.Dx(), b.Dy())
		cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
		r := math.Min(cx, cy)
		g := w.gfx
		g.begin(c.mask, canvas.Stage{S: 1})
		g.Disc(cx, cy, r, parts.White())
		g.begin(c.deco, canvas.Stage{S: 1})
		if c.style.GlowWidth > 0 {
			// Inset glow: faint rings fading towards the centre.
			gw := math.Min(c.style.GlowWidth*dpr, r)
			for i := range 8 {
				f := float64(i) / 8
				g.Ring(cx, cy, r-gw*f, gw/8+1, c.style.Glow.WithAlpha(0.25*(1-f)))
			}
		}
		if c.style.RingWidth > 0 {
			g.Ring(cx, cy, r-c.style.RingWidth*dpr/2, c.style.RingWidth*dpr, c.style.Ring)
		}
	}
	c.img.DrawImage(c.deco, &w.decoOp)
	w.maskOp.Blend = ebiten.BlendDestinationIn
	c.img.DrawImage(c.mask, &w.maskOp)
}
