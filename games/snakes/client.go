package snakes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/predict"
	"vimpclient/snapschema"
)

// Config is CONFIG_DATA.prediction for snakes: the generic part and the
// motion constants of each model.
type Config struct {
	Predict predict.Config
	Models  map[string]Model
}

type rawModel struct {
	BaseSpeed        *float64 `json:"baseSpeed"`
	BoostFactor      *float64 `json:"boostFactor"`
	TurnSpeed        *float64 `json:"turnSpeed"`
	BaseRadius       *float64 `json:"baseRadius"`
	RadiusGain       *float64 `json:"radiusGain"`
	BaseLength       *float64 `json:"baseLength"`
	LengthPerCrystal *float64 `json:"lengthPerCrystal"`
	PointSpacing     *float64 `json:"pointSpacing"`
	BoostMinCrystals *float64 `json:"boostMinCrystals"`
	TurnSpeedFalloff *float64 `json:"turnSpeedFalloff"`
	TurnSpeedMin     *float64 `json:"turnSpeedMin"`
}

const maxModels = 16

// maxGrace bounds the spawn grace a player block may claim (seconds): the
// game's is two, and a hostile host must not freeze the replica for long.
const maxGrace = 10

// ParseConfig reads CONFIG_DATA.prediction; constants a model leaves out
// take the s1 values.
func ParseConfig(raw []byte) (Config, error) {
	pc, err := predict.ParseConfig(raw)
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Predict: pc, Models: map[string]Model{}}
	if len(bytes.TrimSpace(raw)) == 0 {
		return cfg, nil
	}
	var top struct {
		Models map[string]rawModel `json:"models"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return Config{}, fmt.Errorf("snakes prediction config: %w", err)
	}
	if len(top.Models) > maxModels {
		return Config{}, fmt.Errorf("snakes prediction config: %d models", len(top.Models))
	}
	for name, rm := range top.Models {
		m := S1()
		for _, f := range []struct {
			dst *float32
			v   *float64
		}{
			{&m.BaseSpeed, rm.BaseSpeed}, {&m.BoostFactor, rm.BoostFactor}, {&m.TurnSpeed, rm.TurnSpeed},
			{&m.BaseRadius, rm.BaseRadius}, {&m.RadiusGain, rm.RadiusGain}, {&m.BaseLength, rm.BaseLength},
			{&m.LengthPerCrystal, rm.LengthPerCrystal}, {&m.PointSpacing, rm.PointSpacing},
			{&m.BoostMinCrystals, rm.BoostMinCrystals}, {&m.TurnSpeedFalloff, rm.TurnSpeedFalloff},
			{&m.TurnSpeedMin, rm.TurnSpeedMin},
		} {
			if f.v == nil {
				continue
			}
			if math.IsNaN(*f.v) || *f.v < 0 || *f.v > 1e6 {
				return Config{}, fmt.Errorf("snakes prediction config: model %q: value %v out of range", name, *f.v)
			}
			*f.dst = float32(*f.v)
		}
		if m.PointSpacing <= 0 {
			return Config{}, fmt.Errorf("snakes prediction config: model %q: pointSpacing must be positive", name)
		}
		cfg.Models[name] = m
	}
	return cfg, nil
}

// FromConfig builds the snakes game when CONFIG_DATA is a snakes game's: a
// prediction model whose snapshot key is an indexed8 key with every field
// of the s1 row (16 spine points, angle, radius, crystals, color, boost).
// Otherwise it returns an error.
func FromConfig(schema *clientcore.Schema, prediction []byte) (*Game, error) {
	cfg, err := ParseConfig(prediction)
	if err != nil {
		return nil, err
	}
	best := ""
	for name := range cfg.Models {
		k := schema.Key(name)
		if k == nil || k.Kind != snapschema.KindIndexed8 {
			continue
		}
		b := clientcore.NewBinder(k)
		if BindSnakeRow(b.Positions()); b.Err() != nil {
			continue
		}
		if best == "" || name < best {
			best = name
		}
	}
	if best == "" {
		return nil, fmt.Errorf("snakes: no prediction model with the snake row layout")
	}
	g := New(schema, cfg)
	if err := g.SetModel(best); err != nil {
		return nil, err
	}
	return g, nil
}

// Game predicts the own snake (clientcore.Game).
type Game struct {
	schema *clientcore.Schema
	pred   *predict.Predictor
	div    *predict.Divergence
	models map[string]Model

	model Model
	key   *clientcore.KeySchema
	row   SnakeRow // the model key's fields
	bits  struct{ left, right, boost uint32 }

	s       Snake
	hasRow  bool
	crystal float32 // crystals and colour of the own snake's last row
	color   float32

	rejected uint64

	spine   [2 * SpinePoints]float32
	vals    []float32
	cam     [2]float32
	hasCam  bool
	camPred [2]float32
}

// The client core's game interface for the own snake and the roles it implements.
var (
	_ clientcore.Game               = (*Game)(nil)
	_ clientcore.FrameTracker       = (*Game)(nil)
	_ clientcore.Aimer              = (*Game)(nil)
	_ clientcore.KeySetFollower     = (*Game)(nil)
	_ clientcore.MapFollower        = (*Game)(nil)
	_ clientcore.PredictionReporter = (*Game)(nil)
)

// New builds the snakes game; it selects the first model (by name order)
// that is a snapshot key. The replay runs on the lead clock, as in tanks
// (Predictor().SetLeadClock(false) restores the engine's time base).
func New(schema *clientcore.Schema, cfg Config) *Game {
	g := &Game{schema: schema, pred: predict.New(cfg.Predict), models: cfg.Models}
	g.pred.SetLeadClock(true)
	if kb, ok := g.pred.Lookup("left"); ok {
		g.bits.left = kb.Bit
	}
	if kb, ok := g.pred.Lookup("right"); ok {
		g.bits.right = kb.Bit
	}
	if kb, ok := g.pred.Lookup("boost"); ok {
		g.bits.boost = kb.Bit
	}
	best := ""
	for name := range cfg.Models {
		if schema.Key(name) != nil && (best == "" || name < best) {
			best = name
		}
	}
	if best != "" {
		g.SetModel(best)
	}
	return g
}

// SetModel selects the own snake's model.
func (g *Game) SetModel(name string) error {
	m, ok := g.models[name]
	k := g.schema.Key(name)
	if !ok || k == nil {
		g.key, g.row = nil, SnakeRow{}
		g.pred.SetModel(false)
		return fmt.Errorf("snakes model %q: not configured or no snapshot key", name)
	}
	b := clientcore.NewBinder(k)
	row := BindSnakeRow(b.Positions())
	if err := b.Err(); err != nil {
		g.key, g.row = nil, SnakeRow{}
		g.pred.SetModel(false)
		return fmt.Errorf("snakes model %q: %w", name, err)
	}
	g.model, g.key, g.row = m, k, row
	g.vals = make([]float32, len(k.Fields))
	g.pred.SetModel(true)
	return nil
}

// EnableDivergence turns the detector on (level 0: the overlay camera).
func (g *Game) EnableDivergence(cfg *predict.DivergenceConfig) { g.div = predict.NewDivergence(cfg) }

// TakeDivergence drains the detector (nil when off).
func (g *Game) TakeDivergence() *predict.DivergenceReport { return g.div.Take() }

// Predictor exposes the generic predictor.
func (g *Game) Predictor() *predict.Predictor { return g.pred }

// Snake returns the simulated own snake.
func (g *Game) Snake() *Snake { return &g.s }

func (g *Game) controls(in predict.Input) Controls {
	return Controls{Left: in.Keys&g.bits.left != 0, Right: in.Keys&g.bits.right != 0,
		Boost: in.Keys&g.bits.boost != 0 || in.PointerBoost, Aim: in.Aim, AimX: in.AimX, AimY: in.AimY}
}

// Step is one fixed step of the own snake (predict.Model). A crashed
// snake lies still until the host respawns it, as the host's does: the
// player block keeps coming (alive 0), and replaying it forward would
// count a frame's travel as error on every block.
func (g *Game) Step(in predict.Input, dt float32) {
	if !g.s.Alive {
		return
	}
	if g.s.Grace > 0 { // frozen in its spawn grace, as on the host
		g.s.Grace = max(g.s.Grace-dt, 0)
		return
	}
	g.model.Step(&g.s, g.controls(in), dt)
}

// Pos is the simulated head (predict.Model).
func (g *Game) Pos() (float32, float32) { return g.s.X, g.s.Y }

// OnServerState rewinds the head to the player block [x, y, cos, sin,
// crystals, length, alive, grace] and replays; the body path is kept. The
// last slot is the seconds of spawn grace left (0 from older hosts, and
// outside a grace).
func (g *Game) OnServerState(p *clientcore.PlayerBlock, serverTime, offset, localNow float64) {
	if !g.pred.Accepts() {
		return
	}
	for i, v := range p.State {
		lim := float32(1e6)
		if i == 2 || i == 3 {
			lim = 2 // cos, sin
		}
		if !(v >= -lim && v <= lim) { // also NaN
			g.rejected++
			return
		}
	}
	if g.div != nil && g.hasCam {
		g.camPred = g.cam
		g.div.Observe(predict.SourceCamera, g.camPred[:], &p.State, serverTime, localNow, offset, p.LastInputSeq, g.pred.LastWindow())
	}
	v := &p.State
	g.pred.CatchUp(localNow, g)
	old := g.s
	had := g.pred.Rewound()
	alive := v[6] != 0
	respawned := had && !old.Alive && alive
	g.s.X, g.s.Y = v[0], v[1]
	g.s.Angle = float32(math.Atan2(float64(v[3]), float64(v[2])))
	g.s.Crystals, g.s.Length, g.s.Alive = v[4], v[5], alive
	g.s.Grace = min(max(v[7], 0), maxGrace)
	switch {
	case (respawned || !had || g.s.Path.Len() == 0) && g.s.Grace > 0:
		// A host that plays the grace spawns its snakes whole.
		g.s.Path.LayOut(g.s.X, g.s.Y, g.s.Angle, g.s.Length, g.model.PointSpacing)
	case respawned || !had || g.s.Path.Len() == 0:
		g.s.Path.Reset(g.s.X, g.s.Y)
	default:
		g.s.Path.SetHead(g.s.X, g.s.Y)
	}
	g.pred.Replay(p.LastInputSeq, serverTime, offset, localNow, g)
	if respawned {
		had = false
	}
	g.pred.Correct(had, old.X-g.s.X, old.Y-g.s.Y, 0)
}

// Rejected counts player blocks dropped as out of range.
func (g *Game) Rejected() uint64 { return g.rejected }

// TrackFrame follows the own snake: force-reset, its row (crystals,
// colour), its death (null row: no prediction until it is back).
func (g *Game) TrackFrame(myID uint8, hasID bool, f *clientcore.EventFrame) {
	if f.HasCamera && f.Camera.ForceReset {
		g.reset()
	}
	if !hasID || g.key == nil {
		return
	}
	for i := range f.Blocks {
		b := &f.Blocks[i]
		if b.Schema != g.key {
			continue
		}
		for j := range b.Rows {
			r := &b.Rows[j]
			if r.ID != uint32(myID) || r.Local != 0 {
				continue
			}
			if r.Null {
				g.hasRow = false
				g.pred.SetFrozen(true)
				continue
			}
			g.hasRow = true
			g.crystal, g.color = g.row.Crystals.Get(r.Fields), g.row.Color.Get(r.Fields)
			g.pred.SetFrozen(false)
		}
	}
}

// Update advances the prediction.
func (g *Game) Update(localNow float64) { g.pred.Update(localNow, g) }

// Overlay appends the predicted own snake as an s1 record; the head is the
// camera.
func (g *Game) Overlay(myID uint8, hasID bool, tail []clientcore.Record) ([]clientcore.Record, [2]float32, bool) {
	g.hasCam = false
	if !hasID || g.key == nil || !g.hasRow || !g.pred.HasState() {
		return tail, [2]float32{}, false
	}
	e := g.pred.Err
	g.s.Path.Resample(&g.spine)
	f, v := &g.row, g.vals
	clear(v)
	for k := 1; k < SpinePoints; k++ {
		f.Spine[k][0].Set(v, g.spine[2*k]+e.X)
		f.Spine[k][1].Set(v, g.spine[2*k+1]+e.Y)
	}
	hx, hy := g.s.X+e.X, g.s.Y+e.Y
	f.Spine[0][0].Set(v, hx)
	f.Spine[0][1].Set(v, hy)
	f.Angle.Set(v, g.s.Angle)
	f.Radius.Set(v, g.model.Radius(g.s.Crystals))
	f.Crystals.Set(v, g.crystal)
	f.Color.Set(v, g.color)
	live := g.controls(g.pred.Live())
	var flags float32
	if g.s.Grace > 0 {
		flags = FlagGrace
	} else if live.Boost && g.s.Crystals > g.model.BoostMinCrystals {
		flags = FlagBoost
	}
	f.Boost.Set(v, flags)
	g.cam, g.hasCam = [2]float32{hx, hy}, true
	return append(tail, clientcore.Record{Schema: g.key, ID: uint32(myID), Fields: g.vals}), g.cam, true
}

// ApplyInput mirrors a KEYS_DATA message: left, right and boost are held
// keys; a left/right down drops the pointer aim; respawn is not predicted.
func (g *Game) ApplyInput(seq uint32, down bool, name string, localNow float64) {
	kb, ok := g.pred.Lookup(name)
	if !ok || name == "respawn" {
		return
	}
	in := g.pred.Live()
	var shot uint32
	switch {
	case !down:
		in.Keys &^= kb.Bit
	case kb.OneShot:
		shot = kb.Bit
	default:
		in.Keys |= kb.Bit
	}
	if down && (name == "left" || name == "right") {
		in.Aim = false
	}
	g.pred.Record(seq, localNow, in, shot)
}

// ApplyAim mirrors a pointer message: flags bit 0 pressed (aim at x, y),
// bit 1 double tap (boost).
func (g *Game) ApplyAim(seq uint32, x, y float32, flags uint32, localNow float64) {
	in := g.pred.Live()
	if flags&1 == 0 {
		in.Aim, in.PointerBoost = false, false
	} else {
		in.Aim, in.AimX, in.AimY, in.PointerBoost = true, x, y, flags&2 != 0
	}
	g.pred.Record(seq, localNow, in, 0)
}

// SetActive follows KEYSET_DATA.
func (g *Game) SetActive(active bool) { g.pred.SetActive(active) }

// reset is the snakes predictor reset: the state is kept, the body path
// regrows from the head.
func (g *Game) reset() {
	g.pred.Reset(true)
	g.s.Path.Clear()
}

// SetMap follows MAP_DATA; snakes predict without map geometry.
func (g *Game) SetMap(*gamemap.Map) { g.reset() }

// Prediction reports the own snake's prediction figures and where its
// head is (the arena has one level).
func (g *Game) Prediction() (clientcore.PredictionReport, bool) {
	r := g.pred.Report()
	r.HasLocal = true
	r.Local.X = math.Round(float64(g.s.X)*1000) / 1000
	r.Local.Y = math.Round(float64(g.s.Y)*1000) / 1000
	return r, true
}

// Reset follows CLEAR: also the own row is forgotten.
func (g *Game) Reset() {
	g.reset()
	g.hasRow = false
	g.pred.SetFrozen(false)
}
