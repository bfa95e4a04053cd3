package tankclient

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/host/match"
)

// hostOut collects what the embedded host sends to one user.
type hostOut struct {
	t       testing.TB
	dec     *clientcore.Decoder
	frame   clientcore.Frame
	player  clientcore.PlayerBlock
	players int
	// sink, when set, receives every message (for the delayed session).
	sink func(msg hostMsg)
	// onFrame, when set, sees every decoded frame.
	onFrame func(f *clientcore.Frame)
}

// stateDiff compares the predicted tank with the host's player block bit
// for bit: the first component that differs (8: the centering flag), or
// -1, and the predicted state as the block lays it out.
func stateDiff(st tanks.Tank, p *clientcore.PlayerBlock) (int, [8]float32) {
	got := [8]float32{st.X, st.Y, st.Angle, st.VX, st.VY, st.AngVel, st.Gun, st.Throttle}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(p.State[i]) {
			return i, got
		}
	}
	if st.Centering != p.Centering {
		return 8, got
	}
	return -1, got
}

type hostMsg struct {
	port  int
	bytes []byte // frames
	json  []byte // text payloads
}

func (o *hostOut) JSON(uid, port int, payload any) {
	if o.sink == nil {
		return
	}
	b, err := json.Marshal(payload)
	if err != nil {
		o.t.Errorf("marshal port %d: %v", port, err)
		return
	}
	o.sink(hostMsg{port: port, json: b})
}

func (o *hostOut) Frame(uid int, b []byte, reliable bool) {
	if o.sink != nil {
		o.sink(hostMsg{port: clientcore.FramePort, bytes: append([]byte(nil), b...)})
		return
	}
	if err := o.dec.Decode(b, &o.frame); err != nil {
		o.t.Errorf("decode: %v", err)
		return
	}
	if o.frame.HasPlayer {
		o.player = o.frame.Player
		o.players++
	}
	if o.onFrame != nil {
		o.onFrame(&o.frame)
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// embedded is a host match with one human player (uid 1) in team 1.
type embedded struct {
	m      *match.Match
	out    *hostOut
	schema *clientcore.Schema
	pred   json.RawMessage
	mapRaw []byte
	now    float64
}

func newEmbedded(t testing.TB, sink func(hostMsg)) *embedded {
	return newEmbeddedBots(t, sink, 0)
}

func newEmbeddedBots(t testing.TB, sink func(hostMsg), bots int) *embedded {
	return newEmbeddedOn(t, sink, bots, "")
}

// newEmbeddedOn is newEmbeddedBots on a pinned map ("" for the rotation's
// first).
func newEmbeddedOn(t testing.TB, sink func(hostMsg), bots int, mapName string) *embedded {
	return newEmbeddedWith(t, sink, match.Config{Bots: bots, Map: mapName})
}

// newEmbeddedWith is newEmbedded with the match configured by cfg (its
// log, seed and times are the tests').
func newEmbeddedWith(t testing.TB, sink func(hostMsg), cfg match.Config) *embedded {
	mapName := cfg.Map
	cfg.Log, cfg.Seed, cfg.RoundSeconds, cfg.MapSeconds = quiet(), 1, 600, 6000
	if cfg.Dialect == "" && cfg.Game == nil {
		// The scenarios here were laid out for tanks 0.13 (its speeds, its
		// fuse, the 2.5D roles on the bridge); today's are the 0.22 tests'.
		cfg.Dialect = match.Dialect013
	}
	m, err := match.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(m.ConfigData(), &top); err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(top["snapshot"])
	if err != nil {
		t.Fatal(err)
	}
	out := &hostOut{t: t, dec: clientcore.NewDecoder(s), sink: sink}
	m.SetOut(out)
	if mapName == "" {
		mapName = m.MapNames()[0]
	}
	raw, ok := m.MapText(mapName)
	if !ok {
		t.Fatal("no map text")
	}
	e := &embedded{m: m, out: out, schema: s, pred: top["prediction"], mapRaw: raw, now: 1.7e12}
	if _, ok := m.Join(1, "Pilot"); !ok {
		t.Fatal("join refused")
	}
	m.ModulesReady(1)
	m.MapReady(1)
	m.FirstShotReady(1)
	m.Vote(1, json.RawMessage(`["teamChange","team1"]`))
	return e
}

func (e *embedded) step() {
	e.now += 1000.0 / 120
	e.m.Step(e.now)
}

func newGame(t testing.TB, e *embedded) *Game {
	cfg, err := ParseConfig(e.pred)
	if err != nil {
		t.Fatal(err)
	}
	g := New(e.schema, cfg)
	if err := g.LoadMap(e.mapRaw); err != nil {
		t.Fatal(err)
	}
	return g
}

var motionKeys = []string{"forward", "back", "left", "right", "gunLeft", "gunRight", "gunCenter"}

// The predictor's step (shared motion, wall contacts, captured crates)
// reproduces the host's tank bit for bit over long random input sequences,
// walls and pushed crates included (the crates start from the same MAP_DATA
// geometry and only the own tank moves them); and every crate the predictor
// steps matches the host's after every step, bit for bit: both integrate
// through tanks.Body.Integrate and wrap angles through tanks.Normalize.
func TestHostParity(t *testing.T) {
	for _, d := range match.Dialects() {
		t.Run(d, func(t *testing.T) { hostParity(t, d) })
	}
}

func hostParity(t *testing.T, dialect string) {
	e := newEmbeddedWith(t, nil, match.Config{Dialect: dialect})
	g := newGame(t, e)
	for i := 0; i < 8; i++ {
		e.step()
	}
	if e.out.players == 0 {
		t.Fatal("no player block")
	}
	seed := func() {
		p := &e.out.player
		v := p.State
		g.st = tanks.Tank{X: v[0], Y: v[1], Angle: v[2], VX: v[3], VY: v[4], AngVel: v[5], Gun: v[6], Throttle: v[7], Centering: p.Centering}
	}
	seed()
	rng := rand.New(rand.NewPCG(7, 8))
	var held, shots uint32
	seq := uint32(0)
	compared, touching, crateSteps, crateCompared, crateMoving := 0, 0, 0, 0, 0
	var hostCrates []tanks.Body
	dt := g.pred.DT()
	if dt != tanks.Step {
		t.Fatalf("config step %v s, host step %v s", dt, tanks.Step)
	}
	for tick := 0; tick < 120*100; tick++ {
		if rng.IntN(20) == 0 {
			name := motionKeys[rng.IntN(len(motionKeys))]
			kb, _ := g.pred.Lookup(name)
			down := rng.IntN(2) == 0
			seq++
			e.m.Keys(1, fmt.Sprintf("%d:%s:%s", seq, map[bool]string{true: "down", false: "up"}[down], name))
			switch {
			case kb.OneShot:
				if down {
					shots |= kb.Bit
				}
			case down:
				held |= kb.Bit
			default:
				held &^= kb.Bit
			}
		}
		before := e.out.players
		e.step()
		g.Step(predictInput(held|shots), dt)
		shots = 0
		if g.body.Touched {
			touching++
		}
		for i := range g.crates.crates {
			if c := &g.crates.crates[i]; c.predicted && c.sim.Touched {
				crateSteps++
				break
			}
		}
		// Every crate the predictor steps (tanks.Body.Integrate, then the
		// contacts) matches the host's body of the same step bit for bit.
		hostCrates = e.m.CrateBodies(hostCrates[:0])
		if len(hostCrates) != len(g.crates.crates) {
			t.Fatalf("host has %d crates, the client %d", len(hostCrates), len(g.crates.crates))
		}
		for i := range g.crates.crates {
			c := &g.crates.crates[i]
			if !c.predicted {
				continue
			}
			got, want := c.pose(), hostCrates[i]
			for j, pair := range [6][2]float32{{got.x, want.X}, {got.y, want.Y}, {got.angle, want.Angle},
				{got.vx, want.VX}, {got.vy, want.VY}, {got.w, want.AngVel}} {
				if math.Float32bits(pair[0]) != math.Float32bits(pair[1]) {
					t.Fatalf("tick %d crate %d: component %d: predicted %v, host %v (%+v vs %+v)", tick, i, j, pair[0], pair[1], got, want)
				}
			}
			crateCompared++
			if got.vx != 0 || got.vy != 0 || got.w != 0 {
				crateMoving++
			}
		}
		if e.out.players == before {
			continue
		}
		p := &e.out.player
		if i, got := stateDiff(g.st, p); i >= 0 {
			t.Fatalf("tick %d: component %d differs (centering %v vs %v): predicted %v, host %v", tick, i, g.st.Centering, p.Centering, got, p.State)
		}
		compared++
	}
	t.Logf("%d player blocks compared bit for bit, %d steps with contacts, %d with a predicted crate in a contact; "+
		"%d predicted crate states compared bit for bit, %d of them moving", compared, touching, crateSteps, crateCompared, crateMoving)
	if compared < 2000 || touching < 50 || crateSteps < 20 || crateMoving < 50 {
		t.Fatalf("too little coverage: %d blocks, %d contact steps, %d crate steps, %d moving crate states", compared, touching, crateSteps, crateMoving)
	}
}
