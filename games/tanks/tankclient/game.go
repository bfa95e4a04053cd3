// Package tankclient is the tanks half of the client core (clientcore.Game):
// the own tank predicted with the motion and wall contacts the host runs
// (package tanks), reconciled against the 8-float player block, drawn as an
// m1 overlay record; and the own shots spawned at once with local ids, the
// host's duplicates suppressed by author id; crates and other tanks the own
// tank touches are predicted with it.
//
// On a layered map, when the host's tank rows carry z and level, the own
// tank's level and height are predicted with the host's level rules too:
// the 8 floats of the player block hold no level, so at each block the
// level state is rebuilt from the tank's own row in the same frame (a
// climb from the ramp under it, a fall's phase from its height) and the
// prediction for that time is checked against it (Prediction's Local).
// Crates and other tanks take their levels from their rows. Rows without
// those fields keep the flat prediction.
//
// Wiring, on the game loop's goroutine: on CONFIG_DATA build the core, then
// FromConfig(schema, cfg.Prediction) and core.SetGame(g) (on error run
// without a game). MAP_DATA: core.SetMap(m) with the map parsed once for the
// whole client (the core hands it to SetMap here). PANEL_DATA:
// g.SyncPanelCells(cells). Every key message sent: core.ApplyInput(seq,
// down, command, now) with the wire seq, then render g.TakeSpawns() as event
// frames. Each render tick: core.Sample(now) (which hands the game the
// interpolated world through ObserveHot before stepping the prediction),
// then core.TakeFrames() and the hot data as usual. The headless summary's
// "prediction" and "local" objects come from g.Prediction().
package tankclient

import (
	"fmt"
	"math"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/games/tanks"
	"vimpclient/internal/angle"
	"vimpclient/predict"
	"vimpclient/snapschema"
)

// remote is the last frame row of another tank, for the shot ray.
type remote struct {
	x, y, angle, size float32
	z                 float32     // height in levels
	reach             tanks.Reach // the levels a shot meets it on
	present           bool
}

// Game predicts the own tank and its shots. It implements clientcore.Game
// and is owned by the game loop's goroutine.
type Game struct {
	cfg    Config
	schema *clientcore.Schema
	pred   *predict.Predictor
	div    *predict.Divergence

	model  *ModelConfig
	key    *clientcore.KeySchema
	row    tanks.TankRow // the model key's fields (z and level unbound: a flat host)
	motion tanks.Model
	st     tanks.Tank
	body   tanks.Body
	solver tanks.Solver
	bodies []*tanks.Body
	// terrain is what the steps collide with (nil: no map). levels is the
	// loaded map's levels while the host says where tanks are (the model
	// row has z and level), else nil: then the own tank stays on the
	// ground and terrain is the ground's alone, as a reader that knows no
	// levels sees the world.
	terrain *tanks.Terrain
	levels  *gamemap.MapLevels
	loaded  loadedMap
	// surfaces are the map's surfaces under the config's rules (nil: none
	// or a 0.13 config), stepped as the host steps them.
	surfaces *tanks.SurfaceMap
	// lv is the own tank's predicted level state; check holds what
	// compares it with the host's rows.
	lv    tanks.LevelState
	check levelCheck
	// crates are the map's dynamic bodies: followed from the drawn world,
	// predicted while the own tank pushes them, and the shot ray's boxes.
	crates  crateSet
	remotes remoteSet
	now     float64 // local time of the steps being run

	rejected uint64

	me     ownTank
	others [256]remote

	vals  []float32
	pstat [8]float32

	shots  shotState
	spawns []clientcore.EventFrame
	bomb   [2*maxBombSteps + 1]string // Turret's bomb steps, reused
}

// loadedMap is the geometry UseMap read from the map: applyLevels takes
// from it what the steps collide with.
type loadedMap struct {
	terrain *tanks.Terrain     // the map's whole terrain
	levels  *gamemap.MapLevels // its levels
	// wallHeights are the map's wall heights the shots fly over.
	wallHeights *tanks.WallHeights
}

// ownTank is the own tank as the core names it and as its last row in an
// emitted frame says.
type ownTank struct {
	id    uint8 // the own game id, with hasID
	hasID bool
	// hasRow says the own row was seen (and not removed since): cond,
	// size and team are its.
	hasRow           bool
	cond, size, team float32
}

// The client core's game interface for the own tank and the roles it implements.
var (
	_ clientcore.Game               = (*Game)(nil)
	_ clientcore.BodyReconciler     = (*Game)(nil)
	_ clientcore.FrameTracker       = (*Game)(nil)
	_ clientcore.FrameFilter        = (*Game)(nil)
	_ clientcore.HotObserver        = (*Game)(nil)
	_ clientcore.Spawner            = (*Game)(nil)
	_ clientcore.KeySetFollower     = (*Game)(nil)
	_ clientcore.MapFollower        = (*Game)(nil)
	_ clientcore.PanelFollower      = (*Game)(nil)
	_ clientcore.PredictionReporter = (*Game)(nil)
	_ clientcore.TurretGame         = (*Game)(nil)
)

// New builds the tanks game for a snapshot schema and the parsed
// CONFIG_DATA.prediction. It selects the first configured model whose name
// is a snapshot key; SetModel changes it. The replay runs on the lead clock
// (predict.Predictor.SetLeadClock); Predictor().SetLeadClock(false) restores
// the engine's time base.
func New(schema *clientcore.Schema, cfg Config) *Game {
	g := &Game{cfg: cfg, schema: schema, pred: predict.New(cfg.Predict)}
	g.pred.SetLeadClock(true)
	g.bodies = make([]*tanks.Body, 0, 1+maxPredictedCrates)
	g.shots.init(schema, cfg.Weapons)
	for i := range cfg.Models {
		if schema.Key(cfg.Models[i].Name) != nil {
			g.SetModel(cfg.Models[i].Name)
			break
		}
	}
	return g
}

// SetModel selects the own tank's model by name (the auth model). An
// unknown name, or one that is not a snapshot key, stops prediction.
func (g *Game) SetModel(name string) error {
	g.model, g.key, g.row = nil, nil, tanks.TankRow{}
	g.pred.SetModel(false)
	for i := range g.cfg.Models {
		if g.cfg.Models[i].Name != name {
			continue
		}
		k := g.schema.Key(name)
		if k == nil {
			return fmt.Errorf("tanks model %q: no snapshot key", name)
		}
		b := clientcore.NewBinder(k)
		row := tanks.BindTankRow(b.Positions())
		if err := b.Err(); err != nil {
			return fmt.Errorf("tanks model %q: %w", name, err)
		}
		g.model, g.key, g.row, g.motion = &g.cfg.Models[i], k, row, g.cfg.Models[i].Motion
		hw, hh := g.motion.HalfSize()
		g.body = tanks.Body{HalfW: hw, HalfH: hh, Friction: g.motion.Friction, Restitution: g.motion.Restitution}
		g.body.SetMass(g.motion.Density)
		g.vals = make([]float32, len(k.Fields))
		g.remotes.init(k, row, g.motion)
		g.pred.SetModel(true)
		g.applyLevels()
		g.shots.setDefault(g.model.CurrentWeapon)
		return nil
	}
	return fmt.Errorf("tanks model %q: not configured", name)
}

// LoadMap parses a MAP_DATA payload and reads it with UseMap (for callers
// that hold the payload only; the client hands SetMap the map it parsed).
func (g *Game) LoadMap(raw []byte) error {
	m, err := gamemap.Parse(raw)
	if err != nil {
		return fmt.Errorf("tanks map: %w", err)
	}
	return g.UseMap(m)
}

// UseMap reads the simulation geometry (glued wall blocks, crates) from the
// parsed map, the same way the host does (SetMap calls it). The roles of
// the map-dynamics row (the schema's key named by setId) need no check
// here: snapschema.Parse held every key of the schema to the engine's role
// rules when CONFIG_DATA arrived.
func (g *Game) UseMap(m *gamemap.Map) error {
	var key *clientcore.KeySchema
	if m.SetID != "" {
		key = g.schema.Key(m.SetID)
	}
	if key != nil && key.Kind != snapschema.KindIndexedNoNull8 {
		key = nil
	}
	geom := tanks.NewGeometry(m)
	g.loaded.terrain, g.loaded.levels = geom.Terrain, geom.Levels
	sm, err := tanks.NewSurfaceMap(m, g.cfg.Core.Surfaces)
	if err != nil {
		sm = nil // malformed game data: predicted without surfaces
	}
	g.surfaces, g.crates.surfaces = sm, sm
	if g.loaded.wallHeights, err = tanks.NewWallHeights(m); err != nil {
		g.loaded.wallHeights = nil // malformed game data: every wall stops a shot
	}
	g.crates.load(geom, key)
	g.applyLevels()
	return nil
}

// applyLevels chooses between the layered and the flat world for the
// current map and model: levels only when the host's tank rows say where
// tanks are.
func (g *Game) applyLevels() {
	g.lv = tanks.LevelState{}
	g.levels, g.terrain = nil, g.loaded.terrain.Ground()
	if g.loaded.levels != nil && g.loaded.levels.Layered() && g.row.Layered() {
		g.levels, g.terrain = g.loaded.levels, g.loaded.terrain
	}
	g.crates.setLevels(g.levels, &g.cfg.Levels)
	g.remotes.levels, g.remotes.rules = g.levels, &g.cfg.Levels
}

// ObserveHot gives the game the drawn world of the tick (the core calls it
// inside Sample, before Update): crates that are not predicted follow it, and a crate the own tank
// starts pushing takes over from its drawn pose without a jump.
func (g *Game) ObserveHot(h *clientcore.Hot) {
	g.crates.observe(h)
	g.remotes.observe(h, g.me.id, g.me.hasID)
}

// EnableDivergence turns the divergence detector on (level 1: the
// predicted 8-float state); nil turns it off.
func (g *Game) EnableDivergence(cfg *predict.DivergenceConfig) { g.div = predict.NewDivergence(cfg) }

// TakeDivergence drains the detector (nil when off).
func (g *Game) TakeDivergence() *predict.DivergenceReport { return g.div.Take() }

// Predictor exposes the generic predictor (error statistics, visual error).
func (g *Game) Predictor() *predict.Predictor { return g.pred }

// State returns the simulated own tank (without visual error).
func (g *Game) State() tanks.Tank { return g.st }

// Step is one fixed step of the own tank, as the host's step runs it: the
// shared motion on the level the tank stands on, the predicted crates'
// integration, the contacts against the terrain and between the bodies,
// then every predicted body's level from where the contacts left it.
// Crates the tank (inflated by 2 units) touches are captured first.
func (g *Game) Step(in predict.Input, dt float32) {
	rules := &g.cfg.Levels
	g.motion.MoveOnGround(&g.st, in.Keys, dt, &g.lv, rules, g.surfaces)
	b, s := &g.body, &g.st
	if g.terrain != nil || len(g.crates.crates) != 0 || g.remotes.key != nil {
		b.X, b.Y, b.Angle, b.VX, b.VY, b.AngVel = s.X, s.Y, s.Angle, s.VX, s.VY, s.AngVel
		b.Reach = g.lv.Reach()
		g.remotes.capture(b, g.now)
		g.crates.capture(b, g.now)
		g.remotes.integrate(dt)
		g.crates.integrate(dt)
		g.bodies = g.crates.appendPredicted(g.remotes.appendPredicted(append(g.bodies[:0], b)))
		g.solver.Resolve(g.bodies, g.terrain)
		s.X, s.Y, s.Angle, s.VX, s.VY, s.AngVel = b.X, b.Y, angle.Normalize(b.Angle), b.VX, b.VY, b.AngVel
		g.remotes.touched(g.now)
		g.crates.touched(g.now)
	}
	if g.levels != nil {
		rules.StepMoving(&g.lv, g.levels, s.X, s.Y, s.VX, s.VY, s.Angle, b.HalfW, b.HalfH, dt, true)
		g.crates.stepLevels(dt)
	}
}

// Level is the own tank's predicted level state.
func (g *Game) Level() tanks.LevelState { return g.lv }

// BeginReconcile takes the newest authoritative poses of the other tanks
// (for the shot ray) and of the crates, rewinding the predicted ones.
func (g *Game) BeginReconcile(f *clientcore.Frame) {
	g.check.own = ownHeight{}
	for i := range f.Blocks {
		b := &f.Blocks[i]
		switch {
		case g.key != nil && b.Schema == g.key:
			g.remotes.begin(b, f.Player.GameID)
			for j := range b.Rows {
				r := &b.Rows[j]
				if r.ID == uint32(f.Player.GameID) && !r.Null && g.row.Layered() && g.loaded.levels != nil {
					// The row's height is in levels; the level state's in world units.
					g.check.own = ownHeight{level: g.row.Level.Get(r.Fields), z: g.row.Z.Get(r.Fields) * g.loaded.levels.LevelHeight(), ok: true}
				}
				if r.ID > 255 || r.ID == uint32(f.Player.GameID) {
					continue
				}
				o := &g.others[r.ID]
				if r.Null {
					o.present = false
					continue
				}
				*o = g.remoteOf(r)
			}
		case g.crates.key != nil && b.Schema == g.crates.key:
			g.crates.begin(b)
		}
	}
}

// FinishReconcile folds the predicted crates' corrections into their
// visual error.
func (g *Game) FinishReconcile() {
	g.crates.finish()
	g.remotes.finish()
}

// OnServerState rewinds to the player block and replays.
func (g *Game) OnServerState(p *clientcore.PlayerBlock, serverTime, offset, localNow float64) {
	if !g.pred.Accepts() {
		return
	}
	if !saneState(&p.State) {
		g.rejected++
		return
	}
	if g.div != nil && g.pred.HasState() {
		s := &g.st
		g.pstat = [8]float32{s.X, s.Y, s.Angle, s.VX, s.VY, s.AngVel, s.Gun, s.Throttle}
		g.div.Observe(predict.SourceState, g.pstat[:], &p.State, serverTime, localNow, offset, p.LastInputSeq, g.pred.LastWindow())
	}
	g.now = localNow
	old := g.st
	had := g.pred.Rewound()
	v := &p.State
	g.st = tanks.Tank{X: v[0], Y: v[1], Angle: v[2], VX: v[3], VY: v[4], AngVel: v[5], Gun: v[6], Throttle: v[7],
		Centering: p.Centering, EngineLoad: old.EngineLoad}
	g.rewindLevel(serverTime)
	g.pred.Replay(p.LastInputSeq, serverTime, offset, localNow, g)
	g.pred.Correct(had, old.X-g.st.X, old.Y-g.st.Y, angle.Normalize(old.Angle-g.st.Angle))
}

// Limits of a believable state: a block outside them is dropped (the
// motion's angle wrap would spin on huge or infinite values).
const (
	maxCoord    = 1e6
	maxSpeed    = 1e5
	maxAngle    = 64
	maxAngVel   = 1e3
	maxGunOrThr = 64
)

func finite32(v, lim float32) bool { return v >= -lim && v <= lim } // false for NaN

func saneState(v *[8]float32) bool {
	return finite32(v[0], maxCoord) && finite32(v[1], maxCoord) && finite32(v[2], maxAngle) &&
		finite32(v[3], maxSpeed) && finite32(v[4], maxSpeed) && finite32(v[5], maxAngVel) &&
		finite32(v[6], maxGunOrThr) && finite32(v[7], maxGunOrThr)
}

func sanePose(p pose) bool {
	return finite32(p.x, maxCoord) && finite32(p.y, maxCoord) && finite32(p.angle, maxAngle) &&
		finite32(p.vx, maxSpeed) && finite32(p.vy, maxSpeed) && finite32(p.w, maxAngVel)
}

// Rejected counts player blocks dropped as out of range.
func (g *Game) Rejected() uint64 { return g.rejected }

// TrackFrame follows the own tank through each emitted frame: force-reset,
// condition/size/team, death; and remembers the other tanks for the ray.
func (g *Game) TrackFrame(myID uint8, hasID bool, f *clientcore.EventFrame) {
	g.me.id, g.me.hasID = myID, hasID
	if f.HasCamera && f.Camera.ForceReset {
		g.pred.Reset(false)
		g.crates.reset()
		g.remotes.reset()
	}
	for i := range f.Blocks {
		b := &f.Blocks[i]
		if g.key == nil || b.Schema != g.key {
			continue
		}
		for j := range b.Rows {
			r := &b.Rows[j]
			if r.ID > 255 || r.Local != 0 {
				continue
			}
			if hasID && r.ID == uint32(myID) {
				if r.Null {
					g.me.hasRow = false
					continue
				}
				if g.row.Layered() {
					g.check.local.MaxLevel = max(g.check.local.MaxLevel, int(g.row.Level.Get(r.Fields)))
				}
				g.me.hasRow = true
				g.me.cond, g.me.size, g.me.team = g.row.Cond.Get(r.Fields), g.row.Size.Get(r.Fields), g.row.Team.Get(r.Fields)
				g.pred.SetFrozen(g.me.cond == 0)
				g.others[r.ID].present = false
				continue
			}
			o := &g.others[r.ID]
			if r.Null {
				o.present = false
				continue
			}
			*o = g.remoteOf(r)
		}
	}
}

// remoteOf is another tank's pose for the shot ray.
func (g *Game) remoteOf(r *clientcore.Row) remote {
	f := &g.row
	o := remote{x: f.X.Get(r.Fields), y: f.Y.Get(r.Fields), angle: f.Angle.Get(r.Fields), size: f.Size.Get(r.Fields), present: true}
	if g.levels != nil {
		lv := g.cfg.Levels.Restore(g.levels, o.x, o.y, int(g.row.Level.Get(r.Fields)), g.row.Z.Get(r.Fields)*g.levels.LevelHeight(), g.pred.DT(), true)
		o.reach, o.z = lv.Reach(), lv.Z
	}
	return o
}

// FilterFrame suppresses the host's copies of the own shots (their author id is the own game id).
func (g *Game) FilterFrame(f *clientcore.EventFrame, myID uint8, hasID bool, localNow float64) {
	g.me.id, g.me.hasID = myID, hasID
	g.shots.filter(f, myID, hasID, localNow)
}

// Update advances the prediction to localNow in fixed steps; predicted
// crates decay their error and return to following once idle.
func (g *Game) Update(localNow float64) {
	g.now = localNow
	elapsed := g.pred.Update(localNow, g)
	f := predict.DecayFactor(elapsed)
	g.crates.settle(localNow, f, g.pred.Steppable())
	g.remotes.settle(localNow, f, g.pred.Steppable())
}

// renderPose is the simulated pose plus the visual error.
func (g *Game) renderPose() (x, y, angle float32) {
	e := g.pred.Err
	ex, ey := g.wallClearError(e.X, e.Y)
	return g.st.X + ex, g.st.Y + ey, g.st.Angle + e.Angle
}

// wallClearError shortens the visual error (ex, ey) so that it never moves
// the drawn tank into a wall: the predicted tank rests against a wall the
// host's lagging state had not reached yet, and the error, still pointing
// where the host's tank was going, would draw it up to a unit or more inside
// the wall while it decays. The error is cut at the wall face in front of
// the tank's box along the error's direction (a ray from the centre, less
// the box's extent that way).
func (g *Game) wallClearError(ex, ey float32) (float32, float32) {
	d := float32(math.Hypot(float64(ex), float64(ey)))
	if g.terrain == nil || d < 1e-4 {
		return ex, ey
	}
	ux, uy := ex/d, ey/d
	sin, cos := math.Sincos(float64(g.st.Angle))
	along := float32(math.Abs(float64(ux)*cos+float64(uy)*sin))*g.body.HalfW +
		float32(math.Abs(float64(uy)*cos-float64(ux)*sin))*g.body.HalfH
	free := g.terrain.Ray(g.lv.Level, g.st.X, g.st.Y, ux, uy, along+d) - along
	if free >= d {
		return ex, ey
	}
	free = max(free, 0)
	return ux * free, uy * free
}

// Overlay appends the predicted own tank as an m1 record; its position is
// the camera.
func (g *Game) Overlay(myID uint8, hasID bool, tail []clientcore.Record) ([]clientcore.Record, [2]float32, bool) {
	g.me.id, g.me.hasID = myID, hasID
	if !hasID || g.key == nil || !g.me.hasRow || !g.pred.HasState() {
		return g.crates.rows(g.remotes.rows(tail)), [2]float32{}, false
	}
	x, y, a := g.renderPose()
	s, f, v := &g.st, &g.row, g.vals
	clear(v)
	f.X.Set(v, x)
	f.Y.Set(v, y)
	f.Angle.Set(v, a)
	f.Gun.Set(v, s.Gun)
	f.VX.Set(v, s.VX)
	f.VY.Set(v, s.VY)
	f.Load.Set(v, s.EngineLoad)
	f.Cond.Set(v, g.me.cond)
	f.Size.Set(v, g.me.size)
	f.Team.Set(v, g.me.team)
	f.AngVel.Set(v, s.AngVel)
	g.row.Z.Set(v, g.lv.Z)
	g.row.Level.Set(v, float32(g.lv.Level))
	tail = append(tail, clientcore.Record{Schema: g.key, ID: uint32(myID), Fields: g.vals})
	return g.crates.rows(g.remotes.rows(tail)), [2]float32{x, y}, true
}

// ApplyInput mirrors a KEYS_DATA message; fire and weapon switching act on
// the down at once (local shot, local weapon cycle).
func (g *Game) ApplyInput(seq uint32, down bool, name string, localNow float64) {
	if _, ok := g.pred.KeyEvent(seq, down, name, localNow); !ok || !down {
		return
	}
	switch name {
	case "fire":
		g.tryFire(localNow)
	case "nextWeapon":
		g.cycle(1)
	case "prevWeapon":
		g.cycle(-1)
	}
}

// SetActive follows KEYSET_DATA.
func (g *Game) SetActive(active bool) {
	g.pred.SetActive(active)
	g.shots.keysetReset()
}

// SetMap follows MAP_DATA: predictor and shot state reset, then the wall
// geometry and crates of the new map (none when m is nil or unreadable: the
// tank is predicted without walls).
func (g *Game) SetMap(m *gamemap.Map) {
	g.pred.Reset(false)
	g.shots.fullReset()
	g.crates.reset()
	g.remotes.reset()
	g.loaded.terrain, g.loaded.levels, g.surfaces, g.crates.surfaces, g.loaded.wallHeights = nil, nil, nil, nil, nil
	if m == nil || g.UseMap(m) != nil {
		g.crates.load(&tanks.Geometry{}, nil) // no map, or one refused: no walls, no crates
		g.loaded.terrain, g.loaded.levels = nil, nil
		g.applyLevels()
	}
	g.check.track.reset()
}

// Prediction reports the own tank's prediction figures and where it is on
// the map's levels.
func (g *Game) Prediction() (clientcore.PredictionReport, bool) {
	r := g.pred.Report()
	r.Local, r.HasLocal = g.check.local, true
	r.Local.X, r.Local.Y = round3(g.st.X), round3(g.st.Y)
	r.Local.Level, r.Local.Z = g.lv.Level, round3(g.lv.WorldZ(g.levels))
	r.Local.ZErrorMax = math.Round(r.Local.ZErrorMax*1000) / 1000
	return r, true
}

// round3 rounds a report figure to three decimals.
func round3(v float32) float64 { return math.Round(float64(v)*1000) / 1000 }

// Reset follows CLEAR: predictor, shots and the own tank's meta reset.
func (g *Game) Reset() {
	g.pred.Reset(false)
	g.shots.fullReset()
	g.crates.reset()
	g.remotes.reset()
	g.me.hasRow = false
	g.me.hasID = false
	g.pred.SetFrozen(false)
	g.others = [256]remote{}
	g.check.track.reset()
}

// SyncPanel mirrors one PANEL_DATA cell ("wa:<weapon>", "<weapon>:<ammo>",
// a bare "<weapon>") into the shot predictor: the fire gate reads the ammo.
func (g *Game) SyncPanel(key, value string, set bool) { g.shots.panelItem(key, value, set) }

// SyncPanelItems is SyncPanel for raw "key:value" items.
func (g *Game) SyncPanelItems(items []string) { g.shots.syncPanel(items) }

// FromConfig builds the tanks game when CONFIG_DATA is a tanks game's: a
// prediction model whose snapshot key is an indexed8 key with every field
// of the tank row (bound by name; fields it does not know are left as the
// host sends them). Otherwise it returns an error and the shell runs
// without prediction.
func FromConfig(schema *clientcore.Schema, prediction []byte) (*Game, error) {
	cfg, err := ParseConfig(prediction)
	if err != nil {
		return nil, err
	}
	for _, m := range cfg.Models {
		k := schema.Key(m.Name)
		if k == nil || k.Kind != snapschema.KindIndexed8 {
			continue
		}
		b := clientcore.NewBinder(k)
		tanks.BindTankRow(b.Positions())
		if b.Err() == nil {
			g := New(schema, cfg)
			if err := g.SetModel(m.Name); err != nil {
				return nil, err
			}
			return g, nil
		}
	}
	return nil, fmt.Errorf("tanks: no prediction model with the tank row layout")
}

// TakeSpawns returns the locally spawned shots since the last call, as
// event frames (a w1 list row, or a w2 row with Local set); the core hands
// them to the renderer through TakeFrames.
func (g *Game) TakeSpawns() []clientcore.EventFrame {
	out := g.spawns
	g.spawns = nil
	return out
}

func predictInput(keys uint32) predict.Input { return predict.Input{Keys: keys} }

// Pos is the simulated own tank position (predict.Model).
func (g *Game) Pos() (float32, float32) { return g.st.X, g.st.Y }
