package snakes

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/predict"
	"vimpclient/testkit/capturetest"
	"vimpclient/testkit/rowtest"
)

// sharedDir finds the shared test data ($VIMP_SHARED, else ../shared
// beside the module root).
func sharedDir(t testing.TB) string { return capturetest.SharedDir(t) }

const configJSON = `{"timeStep":8.333333333333334,"playerKeys":{"left":{"key":1},"right":{"key":2},"boost":{"key":4},"respawn":{"key":8,"type":1}},
"models":{"s1":{"baseSpeed":260,"boostFactor":1.9,"turnSpeed":3.4,"baseRadius":14,"radiusGain":1.6,"baseLength":150,"lengthPerCrystal":9,"pointSpacing":6,"boostDrainPerSecond":6,"boostMinCrystals":2}},"weapons":{}}`

func schema(t testing.TB) *clientcore.Schema {
	b, err := os.ReadFile(filepath.Join(sharedDir(t), "conformance", "schemas", "snakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const dt = float32(1.0 / 120.0)

func pathLen(p *Path) float64 {
	var l float64
	for i := 1; i < p.Len(); i++ {
		ax, ay := p.At(i - 1)
		bx, by := p.At(i)
		l += math.Hypot(float64(bx-ax), float64(by-ay))
	}
	return l
}

func TestMotion(t *testing.T) {
	m := S1()
	s := &Snake{Length: 150, Crystals: 0}
	for i := 0; i < 120; i++ {
		m.Step(s, Controls{Boost: true}, dt) // boost needs more than 2 crystals
	}
	if math.Abs(float64(s.X)-260) > 0.01 || s.Y != 0 {
		t.Fatalf("one second straight: (%v, %v)", s.X, s.Y)
	}
	if l := pathLen(&s.Path); math.Abs(l-150) > 1e-3 {
		t.Fatalf("body length %v, want 150", l)
	}
	if n := s.Path.Len(); n < 25 || n > 28 {
		t.Fatalf("%d nodes for 150 units at spacing 6", n)
	}
	s.Crystals = 3
	x0 := s.X
	m.Step(s, Controls{Boost: true}, dt)
	if got := s.X - x0; math.Abs(float64(got)-494.0/120) > 1e-3 {
		t.Fatalf("boost step %v", got)
	}
	a0 := s.Angle
	for i := 0; i < 10; i++ {
		m.Step(s, Controls{Left: true}, dt)
	}
	if d := float64(s.Angle - a0); math.Abs(d+3.4*10/120) > 1e-5 {
		t.Fatalf("left turn %v", d)
	}
	a0 = s.Angle
	m.Step(s, Controls{Left: true, Right: true}, dt)
	if s.Angle != a0 {
		t.Fatal("left+right turned")
	}
	// Aim behind the head: turn at the full rate towards it; aim inside the
	// dead zone: no turn.
	a0 = s.Angle
	m.Step(s, Controls{Aim: true, AimX: s.X - 100, AimY: s.Y + 1}, dt)
	if d := math.Abs(float64(s.Angle - a0)); math.Abs(d-3.4/120) > 1e-5 {
		t.Fatalf("aim turn %v", d)
	}
	a0 = s.Angle
	sn, cs := math.Sincos(float64(a0))
	m.Step(s, Controls{Aim: true, AimX: s.X + float32(cs)*2 + float32(-sn)*2, AimY: s.Y + float32(sn)*2 + float32(cs)*2}, dt)
	if s.Angle != a0 {
		t.Fatal("aim in the dead zone turned")
	}
	s.Length = 0
	m.Step(s, Controls{}, dt)
	if s.Path.Len() != 1 {
		t.Fatal("length 0 kept more than the head")
	}
}

func TestResample(t *testing.T) {
	var p Path
	p.Reset(0, 0)
	var spine [2 * SpinePoints]float32
	p.Resample(&spine)
	for k := 0; k < SpinePoints; k++ {
		if spine[2*k] != 0 || spine[2*k+1] != 0 {
			t.Fatal("zero-length path")
		}
	}
	// An L-shaped path: head (0,0) → (0,30) → (45,30), length 75.
	p.Clear()
	p.pushFront(45, 30)
	p.pushFront(0, 30)
	p.pushFront(0, 0)
	p.Resample(&spine)
	want := func(k int) (float64, float64) {
		d := 75.0 * float64(k) / 15
		if d <= 30 {
			return 0, d
		}
		return d - 30, 30
	}
	for k := 0; k < SpinePoints; k++ {
		wx, wy := want(k)
		if math.Abs(float64(spine[2*k])-wx) > 1e-4 || math.Abs(float64(spine[2*k+1])-wy) > 1e-4 {
			t.Fatalf("point %d = (%v, %v), want (%v, %v)", k, spine[2*k], spine[2*k+1], wx, wy)
		}
	}
	p.Trim(40)
	if l := pathLen(&p); math.Abs(l-40) > 1e-4 || p.Len() != 3 {
		t.Fatalf("trim: %v over %d nodes", l, p.Len())
	}
}

func newGame(t testing.TB) *Game {
	cfg, err := ParseConfig([]byte(configJSON))
	if err != nil {
		t.Fatal(err)
	}
	g := New(schema(t), cfg)
	if g.key == nil || g.key.Name != "s1" {
		t.Fatal("model s1 not selected")
	}
	g.SetActive(true)
	return g
}

func ownRow(t testing.TB, g *Game, id uint32, crystals, color float64) *clientcore.EventFrame {
	t.Helper()
	f := rowtest.Row(t, g.key, map[string]float64{"crystals": crystals, "color": color})
	return &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: g.key, Rows: []clientcore.Row{{ID: id, Fields: f}}}}}
}

func block(x, y, angle, crystals, length float32, alive bool, seq uint32) *clientcore.PlayerBlock {
	a := float32(0)
	if alive {
		a = 1
	}
	s, c := math.Sincos(float64(angle))
	return &clientcore.PlayerBlock{GameID: 2, LastInputSeq: seq, State: [8]float32{x, y, float32(c), float32(s), crystals, length, a, 0}}
}

// A host running the same model, inputs applied as they arrive 40 ms after
// they were sent, frames arriving 40 ms after they were sent: once the host
// has acknowledged the last key change, the prediction for each frame's time
// equals the host's state (the same model replayed from the same state).
func TestReplayMatchesHost(t *testing.T) {
	g := newGame(t)
	g.TrackFrame(2, true, ownRow(t, g, 2, 5, 7))
	m := S1()
	host := &Snake{X: 500, Y: 400, Length: 195, Crystals: 5, Alive: true}
	host.Path.Reset(host.X, host.Y)
	g.OnServerState(block(host.X, host.Y, 0, 5, 195, true, 0), 0, 0, 0)
	g.Update(0)
	// Inputs at local times; the host receives each 40 ms later and steps
	// on the same 120 Hz grid; frames every 4 steps reach the client 40 ms
	// after they are sent. offset = −40 (server time = local − 40 on arrival).
	type ev struct {
		at   float64
		name string
		down bool
	}
	evs := []ev{{100, "left", true}, {300, "left", false}, {350, "boost", true}, {500, "right", true}, {700, "right", false}}
	var hostIn Controls
	seq, hostSeq := uint32(0), uint32(0)
	stepMs := 1000.0 / 120
	type frame struct {
		at  float64
		blk *clientcore.PlayerBlock
		t   float64
	}
	var inflight []frame
	var keysAt []struct {
		at   float64
		seq  uint32
		name string
		down bool
	}
	next, settled := 0, 0
	for tick := 1; tick <= 180; tick++ {
		now := float64(tick) * stepMs
		for next < len(evs) && evs[next].at <= now {
			seq++
			g.ApplyInput(seq, evs[next].down, evs[next].name, evs[next].at)
			keysAt = append(keysAt, struct {
				at   float64
				seq  uint32
				name string
				down bool
			}{evs[next].at + 40, seq, evs[next].name, evs[next].down})
			next++
		}
		for len(keysAt) > 0 && keysAt[0].at <= now { // applied before the host step
			k := keysAt[0]
			keysAt = keysAt[1:]
			switch k.name {
			case "left":
				hostIn.Left = k.down
			case "right":
				hostIn.Right = k.down
			case "boost":
				hostIn.Boost = k.down
			}
			hostSeq = k.seq
		}
		m.Step(host, hostIn, dt)
		if tick%4 == 0 {
			inflight = append(inflight, frame{at: now + 40, blk: block(host.X, host.Y, host.Angle, 5, 195, true, hostSeq), t: now})
		}
		for len(inflight) > 0 && inflight[0].at <= now {
			f := inflight[0]
			inflight = inflight[1:]
			g.OnServerState(f.blk, f.t, -40, now)
			if f.t > 700+40+2*40 && g.Predictor().LastError() > 1e-3 {
				t.Fatalf("frame at %v: prediction error %v after the last input was acknowledged", f.t, g.Predictor().LastError())
			}
			if f.t > 700+40+2*40 {
				settled++
			}
		}
		g.Update(now)
	}
	sum := g.Predictor().Summary()
	if sum.Samples < 30 || settled < 10 || sum.Snaps != 0 {
		t.Fatalf("replay against an exact host: %+v, %d settled frames", sum, settled)
	}
	t.Logf("40 ms each way: %+v", sum)
	tail, cam, ok := g.Overlay(2, true, nil)
	if !ok || len(tail) != 1 || len(tail[0].Fields) != len(g.key.Fields) {
		t.Fatalf("overlay %v %+v", ok, tail)
	}
	f := tail[0].Fields
	get := func(name string) float32 { return rowtest.Get(t, g.key, f, name) }
	if get("crystals") != 5 || get("color") != 7 || get("boost") != 1 || math.Abs(float64(get("radius"))-(14+1.6*math.Sqrt(5))) > 1e-5 ||
		cam != [2]float32{get("p0x"), get("p0y")} {
		t.Fatalf("overlay row %v cam %v", f, cam)
	}
}

func TestAimAndRespawn(t *testing.T) {
	g := newGame(t)
	g.TrackFrame(2, true, ownRow(t, g, 2, 0, 1))
	g.ApplyAim(1, 10, 20, 3, 0)
	if in := g.pred.Live(); !in.Aim || !in.PointerBoost || in.AimX != 10 {
		t.Fatalf("aim %+v", in)
	}
	g.ApplyInput(2, true, "left", 0)
	if in := g.pred.Live(); in.Aim || !in.PointerBoost {
		t.Fatalf("left did not drop the aim: %+v", in)
	}
	g.ApplyAim(3, 0, 0, 0, 0)
	if in := g.pred.Live(); in.Aim || in.PointerBoost {
		t.Fatalf("release: %+v", in)
	}
	n := g.pred.HistoryLen()
	g.ApplyInput(4, true, "respawn", 0)
	if g.pred.HistoryLen() != n {
		t.Fatal("respawn recorded")
	}
	g.OnServerState(block(0, 0, 0, 0, 150, true, 0), 0, 0, 0)
	g.OnServerState(block(30, 0, 0, 0, 150, false, 0), 10, 0, 10) // died
	g.OnServerState(block(500, 500, 0, 0, 150, true, 0), 20, 0, 20)
	if g.pred.Err != (predict.VisualError{}) || g.s.Path.Len() != 2 {
		t.Fatalf("respawn: err %+v path %d", g.pred.Err, g.s.Path.Len())
	}
	g.TrackFrame(2, true, &clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: g.key, Rows: []clientcore.Row{{ID: 2, Null: true}}}}})
	if _, _, ok := g.Overlay(2, true, nil); ok || !g.pred.Frozen() {
		t.Fatal("dead snake drawn")
	}
	g.Reset()
	if !g.pred.HasState() || g.s.Path.Len() != 0 {
		t.Fatal("snakes reset must keep the state and clear the path")
	}
}

func TestDivergenceLevel0(t *testing.T) {
	g := newGame(t)
	c, err := predict.ParseDivergence([]byte(`{"defaultThreshold":0.5}`))
	if err != nil {
		t.Fatal(err)
	}
	g.EnableDivergence(c)
	g.TrackFrame(2, true, ownRow(t, g, 2, 0, 1))
	g.OnServerState(block(0, 0, 0, 0, 150, true, 0), 0, 0, 0)
	g.Overlay(2, true, nil)
	g.OnServerState(block(3, 0, 0, 0, 150, true, 0), 10, 0, 10)
	rep := g.TakeDivergence()
	if rep.Samples != 1 || rep.Violations != 1 || rep.Records[0].Source != "camera" || len(rep.Records[0].Delta) != 2 {
		t.Fatalf("%+v", rep)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(configJSON))
	f.Add([]byte(`{"models":{"s1":{"pointSpacing":0}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := ParseConfig(b)
		if err != nil {
			return
		}
		for _, m := range cfg.Models {
			if !(m.PointSpacing > 0) {
				t.Fatalf("accepted %+v", m)
			}
		}
	})
}

func BenchmarkUpdateOverlay(b *testing.B) {
	g := newGame(b)
	g.TrackFrame(2, true, ownRow(b, g, 2, 30, 1))
	g.OnServerState(block(0, 0, 0, 30, 420, true, 0), 0, 0, 0)
	g.ApplyInput(1, true, "left", 0)
	tail := make([]clientcore.Record, 0, 2)
	now := 0.0
	b.ReportAllocs()
	for b.Loop() {
		now += 1000.0 / 60
		g.Update(now)
		tail, _, _ = g.Overlay(2, true, tail[:0])
	}
}

func TestFromConfig(t *testing.T) {
	g, err := FromConfig(schema(t), []byte(configJSON))
	if err != nil || g.key.Name != "s1" {
		t.Fatalf("snakes config: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(sharedDir(t), "conformance", "schemas", "tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromConfig(ts, []byte(`{"models":{"m1":{}}}`)); err == nil {
		t.Fatal("tanks taken for snakes")
	}
}

// The player block's last slot is the spawn grace left: the predicted snake
// stands still through it and its row carries the grace bit, not the boost;
// once the grace has run out it moves (and boosts) again. A block with 0
// there, as older hosts send, never freezes it.
func TestPredictedGrace(t *testing.T) {
	g := newGame(t)
	g.TrackFrame(2, true, ownRow(t, g, 2, 30, 1))
	blk := block(100, 100, 0, 30, 420, true, 0)
	blk.State[7] = 0.5
	g.OnServerState(blk, 0, 0, 0)
	if l := pathLen(&g.s.Path); math.Abs(l-420) > 1 {
		t.Fatalf("a body of %v in the grace, want the block's 420 laid out whole", l)
	}
	g.ApplyInput(1, true, "boost", 0)
	flags := func() (bool, bool) {
		recs, _, ok := g.Overlay(2, true, nil)
		if !ok || len(recs) != 1 {
			t.Fatal("no predicted row")
		}
		return Flags(float64(g.row.Boost.Get(recs[0].Fields)))
	}
	now := 0.0
	for now < 400 {
		now += 1000.0 / 60
		g.Update(now)
	}
	if x, y := g.Pos(); x != 100 || y != 100 {
		t.Fatalf("moved to (%v, %v) in its grace", x, y)
	}
	if boost, grace := flags(); boost || !grace {
		t.Fatalf("in grace: flags boost %v grace %v", boost, grace)
	}
	for now < 800 {
		now += 1000.0 / 60
		g.Update(now)
	}
	if x, _ := g.Pos(); x <= 100 {
		t.Fatalf("still at x %v after the grace", x)
	}
	if boost, grace := flags(); !boost || grace {
		t.Fatalf("after the grace: flags boost %v grace %v", boost, grace)
	}
	// A hostile grace is cut at maxGrace; a negative one is none.
	blk.State[7] = 1e5
	g.OnServerState(blk, 900, 0, 900)
	if g.s.Grace != maxGrace {
		t.Fatalf("grace %v, want it cut at %v", g.s.Grace, maxGrace)
	}
	blk.State[7] = -3
	g.OnServerState(blk, 1000, 0, 1000)
	if g.s.Grace != 0 {
		t.Fatalf("grace %v from a negative slot", g.s.Grace)
	}
}

// A body laid out whole runs straight back from the head, as long as asked,
// a node every spacing units; a bad length or spacing gives the head alone.
func TestLayOut(t *testing.T) {
	var p Path
	p.LayOut(100, 50, math.Pi/2, 150, 6)
	if x, y := p.At(0); x != 100 || y != 50 {
		t.Fatalf("head at %v,%v", x, y)
	}
	if l := pathLen(&p); math.Abs(l-150) > 1e-3 || p.Len() != 26 {
		t.Fatalf("length %v over %d nodes, want 150 over 26", l, p.Len())
	}
	if x, y := p.At(p.Len() - 1); math.Abs(float64(x)-100) > 1e-3 || math.Abs(float64(y)-(50-150)) > 1e-3 {
		t.Fatalf("tail at %v,%v, want straight back from the head", x, y)
	}
	for _, c := range [][2]float32{{0, 6}, {-5, 6}, {150, 0}, {float32(math.NaN()), 6}, {float32(math.Inf(1)), 6}} {
		p.LayOut(1, 2, 0, c[0], c[1])
		if pathLen(&p) != 0 {
			t.Fatalf("length %v spacing %v: a body of %v", c[0], c[1], pathLen(&p))
		}
	}
	p.LayOut(0, 0, 0, 1e9, 0.001) // bounded by the ring
	if p.Len() > MaxPathNodes {
		t.Fatalf("%d nodes", p.Len())
	}
}
