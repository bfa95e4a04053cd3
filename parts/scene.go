package parts

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"math/rand/v2"
	"slices"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/snapschema"
)

// Part is one live entity renderer (or a self-ending effect).
type Part interface {
	// Update applies a row of this entity (hot or event data).
	Update(row []float32)
	// Step advances animations by dtMs once per render tick; false means
	// the part has finished (effects) and is destroyed by the scene.
	Step(dtMs float64) bool
	// Destroy removes the part's drawables; why says what removed it, so
	// that a part plays a death cue only when its entity died.
	Destroy(why Removal)
}

// Removal is why the scene removes a part.
type Removal uint8

const (
	// Swept: a CLEAR, a new map or a new configuration took the part away
	// with others; nothing happened to its entity.
	Swept Removal = iota
	// Killed: a null row: the entity died or left.
	Killed
	// Finished: the part's own Step ended it (an effect that played out).
	Finished
)

// Local is the local player's game id as the scene was last told it
// (Scene.SetLocal): the world sets it each tick before the parts run, so a
// part that plays the player's own cues reads it as data.
type Local struct {
	ID    uint32
	Known bool // false until a frame has named the player (or for a spectator)
}

// Is reports whether id is the local player's entity. A nil Local knows no
// player.
func (l *Local) Is(id uint32) bool { return l != nil && l.Known && l.ID == id }

// Ctx is what a part gets at creation.
type Ctx struct {
	Stage    *Stage
	Tex      Textures
	Local    *Local            // the local player, updated by the scene each tick
	Rand     func() float64    // uniform [0, 1)
	Sound    Sounds            // nil: silent
	Key      string            // snapshot key the part was built from
	Canvases map[string]*Stage // every canvas, for parts that draw on two
	// Levels is the scene's book of heights: the map's level height and
	// where the actors stand.
	Levels *Levels
	// People are the players' names and whether to draw them (nil: none).
	People *People
	// Events are the scene's recent blasts and shots, which parts other
	// than the one that saw them react to (a tank rocking beside a blast).
	Events *Events
	// Sky says whether the scene's map is a night map.
	Sky *Sky
}

// Binding is a part class bound to one snapshot key.
type Binding interface {
	New(c *Ctx, id uint32, row []float32) Part
}

// MapBuilder is implemented by bindings that build parts from MAP_DATA.
// Dynamic parts are keyed by their row index in the map's set key.
type MapBuilder interface {
	BuildMap(c *Ctx, m *gamemap.Map) (static []Part, dynamic map[uint32]Part)
}

// Factory is a part class; Bind checks the key's fields against what the
// part reads and returns an error on any mismatch.
type Factory interface {
	Bind(key *clientcore.KeySchema) (Binding, error)
}

// CanvasStyle is a game's look for one canvas (the game CSS upstream).
type CanvasStyle struct {
	Background Color // canvas background (transparent when A = 0)
	// Placement of a fixed canvas: distance from the window's right edge as
	// a fraction of the window width, and from the top in logical px.
	RightFrac, Top float64
	Circle         bool  // clip to a circle
	Ring           Color // outer ring colour (Circle only)
	RingWidth      float64
	Glow           Color // inner glow colour (Circle only)
	GlowWidth      float64
}

// Game is a game's set of part classes and presentation.
type Game struct {
	ID     string
	Parts  map[string]Factory
	Styles map[string]CanvasStyle
	// Bake returns the game's procedural textures by name, drawn with rnd
	// for their irregularity. It runs on a goroutine of its own (drawing
	// takes long enough to freeze a frame), so it shares nothing mutable
	// with the parts; rnd is its own.
	Bake func(rnd func() float64) map[string]*image.RGBA
	// BakeTeams, if set, returns the textures Bake draws in team colours,
	// drawn in the named palette ("standard" or "colorblind"); a palette
	// change installs them over Bake's. It runs on a goroutine of its own
	// too.
	BakeTeams func(palette string) map[string]*image.RGBA
	// Recognise reports whether CONFIG_DATA's parts section is this game's.
	// It looks for the classes that make the game (HasClasses), never for
	// an exact list: a newer host adds classes (drawn generically, or not at
	// all), and the ones the client knows keep their drawers.
	Recognise func(entitiesOnCanvas map[string]string) bool
	// MaxLookAhead bounds how far the dynamic camera looks ahead of the
	// point it follows, in world units (0: only the map's edges bound it).
	MaxLookAhead float64
	// PastMapEdge lets the view follow the point past the map's edges
	// instead of holding it half a view inside them: the game draws what
	// lies around its map, and its actor must stay near the middle of the
	// view wherever it is (a snake near the arena's rim).
	PastMapEdge bool
}

// PartsConfig is CONFIG_DATA "parts".
type PartsConfig struct {
	GameSets         map[string][]string `json:"gameSets"`
	EntitiesOnCanvas map[string]string   `json:"entitiesOnCanvas"`
	// Sounds is the sound catalog block, handed to the sound manager as is.
	Sounds json.RawMessage `json:"sounds"`
}

type route struct {
	part  string
	bind  Binding
	ctx   *Ctx
	index int
}

type instKey struct {
	route int
	id    uint32
}

type effect struct {
	keyID uint8
	p     Part
}

// Scene dispatches the core's output to parts: per key the part classes of
// gameSets, per class the canvas of entitiesOnCanvas.
type Scene struct {
	log       *slog.Logger
	game      *Game
	schema    *clientcore.Schema
	stages    map[string]*Stage
	routes    [256][]route
	routeName []string
	inst      map[instKey]Part
	keyOf     map[int]uint8 // route index -> key id
	effects   []effect
	mapParts  []Part
	fallback  MapBuilder
	first     *Ctx
	levels    *Levels
	events    *Events
	sky       *Sky
	local     Local // what every Ctx's Local points at
	created   int   // entities the current hot sample created
	// lastRefusal is the limit and route of the last refused row, so that
	// the reason is formatted once per change.
	lastRefusal [2]int
	lim         Limits
	live        []int // live instances per route index
	refused     Refusals
	// check is ApplyFrame's scratch: the entities a frame would create
	// per route and per canvas.
	check checkScratch
	// Fallbacks lists "key/part: reason" for every route drawn by the
	// generic renderer because the game's part did not match the schema.
	Fallbacks []string
	// Drawers says, for each part class CONFIG_DATA names, what draws it:
	// the game's ID, DrawnGeneric or DrawnByNone.
	Drawers map[string]string
}

// SceneOptions configures NewScene.
type SceneOptions struct {
	Log     *slog.Logger
	Game    *Game   // nil: generic only
	Generic Factory // the renderer for unknown parts
	Tex     Textures
	// People is the world's book of player names, shared by its scenes
	// (nil: no names).
	People   *People
	Rand     func() float64
	Sound    Sounds
	Canvases []string // canvas ids in declaration order
	// MapFallback draws MAP_DATA when no part of the map's set key builds
	// it (unknown games); nil draws no map then.
	MapFallback MapBuilder
	// Limits bound the live entities and what one frame creates (zero
	// fields: DefaultLimits).
	Limits Limits
}

// NewScene binds every key of the schema to its parts. A part class that
// is unknown or does not match the schema is replaced by the generic
// renderer and reported in Fallbacks (and the log), never drawn wrongly.
func NewScene(o SceneOptions, schema *clientcore.Schema, pc PartsConfig) (*Scene, error) {
	if len(o.Canvases) == 0 {
		return nil, errors.New("scene: no canvases")
	}
	if o.Generic == nil {
		return nil, errors.New("scene: no generic renderer")
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	s := &Scene{log: o.Log, game: o.Game, schema: schema, stages: map[string]*Stage{},
		inst: map[instKey]Part{}, keyOf: map[int]uint8{}, fallback: o.MapFallback, levels: NewLevels(), events: &Events{}, sky: &Sky{}, lim: o.Limits.WithDefaults()}
	for _, id := range o.Canvases {
		s.stages[id] = NewStage(id)
	}
	s.first = &Ctx{Stage: s.stages[o.Canvases[0]], Tex: o.Tex, Local: &s.local, Rand: o.Rand, Canvases: s.stages, Levels: s.levels, People: o.People, Events: s.events, Sky: s.sky}
	s.Drawers = map[string]string{}
	for name := range pc.EntitiesOnCanvas {
		s.Drawers[name] = DrawnByNone // until a key's rows name it
	}
	for _, k := range schema.Keys {
		if k == nil {
			continue
		}
		names := pc.GameSets[k.Name]
		if len(names) == 0 {
			names = []string{"generic"}
		}
		// The game's parts bind first; what they cannot draw falls to the
		// generic renderer, once per key. A class the game does not know
		// (a newer host's) on a key one of its parts already draws adds
		// nothing: the key is on screen, and a marker over it would only
		// hide the game's own drawing.
		type pending struct {
			name    string
			err     error
			unknown bool
		}
		var left []pending
		gameDrawn := false
		for _, name := range names {
			var b Binding
			var err error
			unknown := false
			if o.Game != nil {
				if f := o.Game.Parts[name]; f != nil {
					if b, err = f.Bind(k); err != nil {
						b = nil
					}
				} else if name != "generic" {
					err, unknown = fmt.Errorf("part %s unknown to game %s", name, o.Game.ID), true
				}
			} else if name != "generic" {
				err = fmt.Errorf("no game renderer for part %s", name)
			}
			if b == nil {
				left = append(left, pending{name: name, err: err, unknown: unknown})
				continue
			}
			gameDrawn = true
			s.Drawers[name] = o.Game.ID
			s.addRoute(k, name, b, s.ctxFor(o, pc, k, name))
		}
		for _, p := range left {
			if p.unknown && gameDrawn {
				s.log.Debug("part not drawn: its key is drawn by the game", "key", k.Name, "part", p.name)
				continue
			}
			if p.err != nil {
				s.Fallbacks = append(s.Fallbacks, k.Name+"/"+p.name+": "+p.err.Error())
				s.log.Debug("part falls back to the generic renderer", "key", k.Name, "part", p.name, "err", p.err)
			}
			if s.Drawers[p.name] != o.gameID() {
				s.Drawers[p.name] = DrawnGeneric
			}
			if slices.ContainsFunc(s.routes[k.ID], func(r route) bool { _, g := r.bind.(genericMarker); return g }) {
				continue // one generic view per key is enough
			}
			b, err := o.Generic.Bind(k)
			if err != nil {
				return nil, fmt.Errorf("scene: generic renderer for %s: %w", k.Name, err)
			}
			s.addRoute(k, "generic", b, s.ctxFor(o, pc, k, p.name))
		}
	}
	delete(s.Drawers, "generic")
	return s, nil
}

// What Scene.Drawers says of a part class that no game part draws.
const (
	DrawnGeneric = "generic" // the generic renderer's markers
	DrawnByNone  = "none"    // nothing: no key names it, or the game draws its key
)

func (o *SceneOptions) gameID() string {
	if o.Game == nil {
		return ""
	}
	return o.Game.ID
}

// ctxFor is the drawing context of part class name on key k: the canvas
// CONFIG_DATA puts the class on, else the first.
func (s *Scene) ctxFor(o SceneOptions, pc PartsConfig, k *clientcore.KeySchema, name string) *Ctx {
	st := s.stages[pc.EntitiesOnCanvas[name]]
	if st == nil {
		st = s.stages[o.Canvases[0]]
	}
	return &Ctx{Stage: st, Tex: o.Tex, Local: &s.local, Rand: o.Rand, Sound: o.Sound, Key: k.Name, Canvases: s.stages, Levels: s.levels, People: o.People, Events: s.events, Sky: s.sky}
}

// addRoute sends k's rows to binding b of part name.
func (s *Scene) addRoute(k *clientcore.KeySchema, name string, b Binding, ctx *Ctx) {
	r := route{part: name, bind: b, ctx: ctx, index: len(s.routeName)}
	s.routes[k.ID] = append(s.routes[k.ID], r)
	s.routeName = append(s.routeName, name)
	s.live = append(s.live, 0)
	s.keyOf[r.index] = k.ID
}

// genericMarker tags the generic renderer's bindings.
type genericMarker interface{ Generic() bool }

// SetLocal tells the scene the local player's game id (known false: none,
// as for a spectator or before the first frame). The world calls it each
// tick before it applies frames and hot data.
func (s *Scene) SetLocal(id uint32, known bool) { s.local = Local{ID: id, Known: known} }

// Local is the local player as the scene was last told it.
func (s *Scene) Local() Local { return s.local }

// Stage returns the draw list of a canvas.
func (s *Scene) Stage(id string) *Stage { return s.stages[id] }

// Levels is the scene's book of heights.
func (s *Scene) Levels() *Levels { return s.levels }

// Events is the scene's ring of recent blasts and shots.
func (s *Scene) Events() *Events { return s.events }

// Game returns the game in use (nil for generic only).
func (s *Scene) Game() *Game { return s.game }

// Schema returns the schema the scene was bound to.
func (s *Scene) Schema() *clientcore.Schema { return s.schema }

// ApplyFrame applies one event frame's blocks (not its camera). A frame
// that would take the scene past its Limits is not applied at all, and is
// counted in Refused.
func (s *Scene) ApplyFrame(f *clientcore.EventFrame) {
	if err := s.checkFrame(f); err != nil {
		s.refuseFrame(err)
		return
	}
	for bi := range f.Blocks {
		blk := &f.Blocks[bi]
		if blk.Schema == nil {
			continue
		}
		keyID := blk.Schema.ID
		routes := s.routes[keyID]
		for ri := range routes {
			r := &routes[ri]
			for i := range blk.Rows {
				row := &blk.Rows[i]
				if blk.Schema.Kind == snapschema.KindList16 {
					if row.Null {
						continue
					}
					if p := r.bind.New(r.ctx, row.ID, row.Fields); p != nil {
						s.effects = append(s.effects, effect{keyID: keyID, p: p})
					}
					continue
				}
				s.applyRow(r, row.ID, row.Null, row.Fields)
			}
		}
	}
}

func (s *Scene) applyRow(r *route, id uint32, null bool, row []float32) {
	k := instKey{route: r.index, id: id}
	if p, ok := s.inst[k]; ok {
		if null {
			s.destroy(k, p, Killed)
			return
		}
		p.Update(row)
		return
	}
	if null {
		return
	}
	if !s.roomFor(r) {
		s.refuseRow(r)
		return
	}
	s.created++
	if p := r.bind.New(r.ctx, id, row); p != nil {
		s.inst[k] = p
		s.live[r.index]++
	}
}

// destroy removes a live instance.
func (s *Scene) destroy(k instKey, p Part, why Removal) {
	p.Destroy(why)
	delete(s.inst, k)
	s.live[k.route]--
}

// ApplyHot applies one tick's hot records in order (later records win).
// A sample's new entities past the Limits are not created (and counted in
// Refused); the ones it already has are updated.
func (s *Scene) ApplyHot(h *clientcore.Hot) {
	s.created = 0
	s.applyRecords(h.Actors)
	s.applyRecords(h.Dynamics)
	s.applyRecords(h.Tail)
}

func (s *Scene) applyRecords(recs []clientcore.Record) {
	for i := range recs {
		rec := &recs[i]
		if rec.Schema == nil {
			continue
		}
		routes := s.routes[rec.Schema.ID]
		if len(routes) == 0 {
			continue
		}
		for ri := range routes {
			s.applyRow(&routes[ri], rec.ID, false, rec.Fields)
		}
	}
}

// Step advances every part and drops finished effects.
func (s *Scene) Step(dtMs float64) {
	for _, p := range s.inst {
		p.Step(dtMs)
	}
	for _, p := range s.mapParts {
		p.Step(dtMs)
	}
	n := 0
	for _, e := range s.effects {
		if e.p.Step(dtMs) {
			s.effects[n] = e
			n++
		} else {
			e.p.Destroy(Finished)
		}
	}
	clear(s.effects[n:])
	s.effects = s.effects[:n]
	for _, st := range s.stages {
		st.Advance(dtMs)
	}
}

// SetMap rebuilds the map parts from MAP_DATA.
func (s *Scene) SetMap(m *gamemap.Map) {
	for _, p := range s.mapParts {
		p.Destroy(Swept)
	}
	s.mapParts = s.mapParts[:0]
	s.levels.SetLevelHeight(m.LevelHeight)
	s.sky.SetNight(false) // until the new map's part says otherwise
	built := false
	defer func() {
		if !built && s.fallback != nil {
			static, _ := s.fallback.BuildMap(s.first, m)
			s.mapParts = append(s.mapParts, static...)
		}
	}()
	k := s.schema.Key(m.SetID)
	if k == nil {
		s.log.Debug("map set id not in the schema; drawing the tiles generically", "setId", m.SetID)
		return
	}
	for ri := range s.routes[k.ID] {
		r := &s.routes[k.ID][ri]
		mb, ok := r.bind.(MapBuilder)
		if !ok {
			continue
		}
		for key, p := range s.inst {
			if key.route == r.index {
				s.destroy(key, p, Swept)
			}
		}
		built = true
		static, dyn := mb.BuildMap(r.ctx, m)
		s.mapParts = append(s.mapParts, static...)
		for id, p := range dyn {
			s.inst[instKey{route: r.index, id: id}] = p
			s.live[r.index]++
		}
	}
}

// Clear removes the parts built from the listed keys; all = true removes
// every part on every canvas (CLEAR without a list), the map included.
func (s *Scene) Clear(keys []string, all bool) {
	ids := map[uint8]bool{}
	for _, name := range keys {
		if k := s.schema.Key(name); k != nil {
			ids[k.ID] = true
		}
	}
	for key, p := range s.inst {
		if all || ids[s.keyOf[key.route]] {
			s.destroy(key, p, Swept)
		}
	}
	n := 0
	for _, e := range s.effects {
		if all || ids[e.keyID] {
			e.p.Destroy(Swept)
			continue
		}
		s.effects[n] = e
		n++
	}
	clear(s.effects[n:])
	s.effects = s.effects[:n]
	if all {
		for _, p := range s.mapParts {
			p.Destroy(Swept)
		}
		s.mapParts = s.mapParts[:0]
	}
}

// Parts lists the live parts: the entities' instances, the effects and the
// map's static parts (for tests and diagnostics; it allocates).
func (s *Scene) Parts() []Part {
	out := make([]Part, 0, len(s.inst)+len(s.effects)+len(s.mapParts))
	for _, p := range s.inst {
		out = append(out, p)
	}
	for _, e := range s.effects {
		out = append(out, e.p)
	}
	return append(out, s.mapParts...)
}

// Counts reports live instances per part class name and the effect count.
func (s *Scene) Counts() (perPart map[string]int, effects int) {
	perPart = map[string]int{}
	for k := range s.inst {
		perPart[s.routeName[k.route]]++
	}
	return perPart, len(s.effects)
}

// ParsePartsConfig reads CONFIG_DATA "parts".
func ParsePartsConfig(raw json.RawMessage) (PartsConfig, error) {
	var pc PartsConfig
	if len(raw) == 0 {
		return pc, nil
	}
	if err := json.Unmarshal(raw, &pc); err != nil {
		return pc, fmt.Errorf("parts config: %w", err)
	}
	return pc, nil
}

// Teamer is implemented by parts that know their entity's team.
type Teamer interface {
	Team() int
}

// Team returns the team of the first live part with entity id that knows
// one (0 when none does).
func (s *Scene) Team(id uint32) int {
	for k, p := range s.inst {
		if k.id != id {
			continue
		}
		if tp, ok := p.(Teamer); ok {
			if t := tp.Team(); t != 0 {
				return t
			}
		}
	}
	return 0
}

// HasClasses reports whether CONFIG_DATA's entitiesOnCanvas names every one
// of classes: the usual Recognise, given the classes that make a game.
func HasClasses(entitiesOnCanvas map[string]string, classes ...string) bool {
	for _, c := range classes {
		if _, ok := entitiesOnCanvas[c]; !ok {
			return false
		}
	}
	return len(classes) > 0
}
