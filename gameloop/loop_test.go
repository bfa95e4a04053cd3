package gameloop

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/host/match"
	"vimpclient/host/packer"
	"vimpclient/hud"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/snapschema"
)

// heavyMatch is a session in play on the embedded host's tanks config and
// first map, fed by hand: the loop under test sees what a live connection
// would queue, with no network.
type heavyMatch struct {
	sess   *session.Session
	loop   *Loop
	first  []byte
	frames [2][]byte // two copies of the steady frame, alternately renumbered
	seq    uint32
	now    time.Time
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newHeavyMatch(t testing.TB, obs Observer) *heavyMatch {
	t.Helper()
	m, err := match.New(match.Config{Bots: 0, Seed: 1, Dialect: match.Dialect013}) // the scene packs 0.13 rows
	if err != nil {
		t.Fatal(err)
	}
	cfgRaw := m.ConfigData()
	mapRaw, ok := m.MapText(m.MapNames()[0])
	if !ok {
		t.Fatal("no map")
	}
	sess := session.New(session.Options{Logger: quiet(), Queue: session.NewQueue(4096)})
	h := &heavyMatch{sess: sess, now: time.Unix(1000, 0)}
	h.loop = New(Options{Session: sess, Log: quiet(), Start: h.now, AutoTeam: true, Observer: obs,
		Rand: func() float64 { return 0.5 }})
	cfg, err := protocol.ParseConfig(cfgRaw)
	if err != nil {
		t.Fatal(err)
	}
	q := sess.Queue()
	at := h.now
	q.Push(session.Event{At: at, Kind: session.EventOpen})
	q.Push(session.Event{At: at, Kind: session.EventMessage, Port: protocol.ConfigData, Msg: cfg})
	q.Push(session.Event{At: at, Kind: session.EventMessage, Port: protocol.MapData, Msg: &protocol.MapInfo{Raw: mapRaw}})
	q.Push(session.Event{At: at, Kind: session.EventMessage, Port: protocol.KeysetData, Msg: protocol.Keyset(1)})
	q.Push(session.Event{At: at, Kind: session.EventMessage, Port: protocol.TechInformData, Msg: protocol.TechInform{Hide: true}})
	var doc struct {
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := json.Unmarshal(cfgRaw, &doc); err != nil {
		t.Fatal(err)
	}
	ps, err := snapschema.Parse(doc.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	// The one-shot events (tracers, explosions) come in the first frame,
	// as a burst; the frames after carry the tanks, bombs and crates.
	h.first = heavyFrame(t, ps, true)
	for i := range h.frames {
		h.frames[i] = heavyFrame(t, ps, false)
	}
	return h
}

// heavyFrame packs the heavy tanks scene with the host's packer: 32 tanks,
// 40 bombs, 64 crates and the player block, and with events 20 tracers
// and 10 explosions.
func heavyFrame(t testing.TB, ps *snapschema.Schema, events bool) []byte {
	var f packer.Frame
	f.Start(1, 0, &packer.Camera{X: 400, Y: 300}, &packer.Player{GameID: 1, State: [8]float32{400, 300}})
	// The match's first map is flat: its tank rows have no z and level and
	// the crate rows' heads are the pose (sent without the velocity tail).
	m1 := ps.Key("m1")
	f.Block(m1)
	for i := range 32 {
		x, y := packer.Round2(250+float32(i%8)*20), packer.Round2(160+float32(i/8)*20)
		f.Row(uint32(i+1), []packer.Value{packer.F(x), packer.F(y), packer.F(0.5), packer.F(0.2), packer.F(30), packer.F(10),
			packer.F(1.5), packer.I(3), packer.I(2), packer.I(uint32(1 + i%2)), packer.F(0)}[:len(m1.Fields)])
	}
	if events {
		f.Block(ps.Key("w1"))
	}
	for i := range 20 * btoi(events) {
		f.ListRow([]packer.Value{packer.F(260), packer.F(packer.Round2(170 + float32(i))), packer.F(420), packer.F(250), packer.F(260), packer.F(170), packer.I(1), packer.I(2)})
	}
	f.Block(ps.Key("w2"))
	for i := range 40 {
		f.Row(uint32(1000+i), []packer.Value{packer.F(packer.Round2(240 + float32(i%10)*18)), packer.F(150), packer.F(0), packer.F(8), packer.F(300), packer.I(1)})
	}
	if events {
		f.Block(ps.Key("w2e"))
	}
	for i := range 10 * btoi(events) {
		f.ListRow([]packer.Value{packer.F(packer.Round2(260 + float32(i)*15)), packer.F(230), packer.F(50)})
	}
	c1 := ps.Key("c1")
	f.Block(c1)
	for i := range 64 {
		f.Row(uint32(i), []packer.Value{packer.F(float32(120 + (i%8)*54)), packer.F(float32(120 + (i/8)*54)), packer.F(0.1), packer.F(0), packer.I(0)}[:c1.OptionalFrom])
	}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), b...)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// frame queues the next heavy frame, renumbered, arriving now.
func (h *heavyMatch) frame() {
	h.seq++
	b := h.frames[h.seq%2]
	if h.seq == 1 {
		b = h.first
	}
	binary.BigEndian.PutUint32(b[2:], h.seq)
	binary.BigEndian.PutUint64(b[6:], math.Float64bits(1.7e12+float64(h.seq)*1000/30))
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventFrame, Port: 5, Data: b})
}

// tick advances the clock by one 60 Hz frame and runs a loop tick, with a
// snapshot frame every other tick (30 Hz).
func (h *heavyMatch) tick(i int) {
	h.now = h.now.Add(time.Second / 60)
	if i%2 == 0 {
		h.frame()
	}
	h.loop.Tick(h.now)
}

// Every frame is decoded once, by the core: the summary's entity counter
// sees each decoded frame through the core instead of decoding it again.
func TestEachFrameDecodedOnce(t *testing.T) {
	ents := NewEntities()
	h := newHeavyMatch(t, ents)
	seen := 0
	counter := &countingObserver{Entities: ents, frames: &seen}
	h.loop.opts.Observer = counter
	h.loop.Tick(h.now)
	h.loop.Core().ObserveFrames(counter.Frame)
	for i := range 120 {
		h.tick(i)
	}
	st := h.loop.Core().Stats()
	if st.Pushed != 60 || st.Decoded != 60 || seen != 60 {
		t.Fatalf("pushed %d, decoded %d, observed %d decodes; want 60 of each", st.Pushed, st.Decoded, seen)
	}
	if ents.Count("m1") != 32 || ents.Count("w2") != 40 || ents.Count("c1") != 64 || ents.Count("w1") != 0 {
		t.Fatalf("entities m1 %d w2 %d c1 %d w1 %d", ents.Count("m1"), ents.Count("w2"), ents.Count("c1"), ents.Count("w1"))
	}
	if h.loop.World().GameID() != "tanks" || h.loop.World().Stage("vimp").Len() == 0 {
		t.Fatalf("world %q has nothing to draw", h.loop.World().GameID())
	}
}

type countingObserver struct {
	*Entities
	frames *int
}

func (c *countingObserver) Frame(f *clientcore.Frame) {
	*c.frames++
	c.Entities.Frame(f)
}

// A pause of 3 s or more between ticks resyncs the core (its buffered
// frames are stale); shorter pauses do not.
func TestResyncAfterLongPause(t *testing.T) {
	h := newHeavyMatch(t, nil)
	for i := range 10 {
		h.tick(i)
	}
	if h.loop.Core().Buffered() == 0 {
		t.Fatal("nothing buffered")
	}
	h.frame()
	h.now = h.now.Add(2999 * time.Millisecond)
	h.loop.Tick(h.now)
	if h.loop.Core().Buffered() == 0 {
		t.Fatal("a 2999 ms pause dropped the buffer")
	}
	h.now = h.now.Add(3000 * time.Millisecond)
	h.loop.Tick(h.now)
	if n := h.loop.Core().Buffered(); n != 0 {
		t.Fatalf("%d frames buffered after a 3 s pause", n)
	}
}

// BenchmarkLoopTickHeavy is one loop tick on the heavy tanks scene: drain a
// frame (every other tick), the core's decode and sample, the world's apply
// and the parts' step — everything but drawing.
func BenchmarkLoopTickHeavy(b *testing.B) {
	h := newHeavyMatch(b, nil)
	// Warm: buffers grown, parts created, and the first frame's burst of
	// shots and blasts played out (its effects outlive 4 s), so every op
	// is a steady tick.
	for i := range 360 {
		h.tick(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		h.tick(i)
	}
}

// Frames the client cannot read are counted and said once per connection,
// with the reason, in the errors of the summary.
func TestUndecodableFramesSaidOnce(t *testing.T) {
	h := newHeavyMatch(t, nil)
	h.loop.Tick(h.now)
	q := h.sess.Queue()
	for range 5 {
		q.Push(session.Event{At: h.now, Kind: session.EventFrame, Data: []byte(`{"serverTime":1,"seq":1,"body":[]}`)})
	}
	q.Push(session.Event{At: h.now, Kind: session.EventFrame, Data: []byte{5, 4, 0, 0}})
	h.loop.Tick(h.now.Add(time.Millisecond))
	st := h.loop.Stats()
	if st.Undecodable != 6 || st.UndecodableReason == "" {
		t.Fatalf("undecodable %d (%q), want 6", st.Undecodable, st.UndecodableReason)
	}
	if len(st.Errors) != 1 || !strings.Contains(st.Errors[0], "JSON text") {
		t.Fatalf("errors %q, want one naming the JSON frames", st.Errors)
	}
	s := Summarize(h.loop, nil, 0)
	if s.Undecodable == nil || s.Undecodable.Frames != 6 {
		t.Fatalf("summary %+v", s.Undecodable)
	}
	// The window shows it over the game, once, and it stays.
	h.loop.Tick(h.now.Add(time.Minute))
	if ns := h.loop.HUD().Notices(); len(ns) != 1 || ns[0].Kind != hud.NoticeError || !strings.Contains(ns[0].Text, "JSON text") {
		t.Fatalf("notices %+v", ns)
	}
	// A new connection says it again.
	q.Push(session.Event{At: h.now, Kind: session.EventOpen})
	q.Push(session.Event{At: h.now, Kind: session.EventFrame, Data: []byte(`{}`)})
	h.loop.Tick(h.now.Add(2 * time.Millisecond))
	if st := h.loop.Stats(); len(st.Errors) != 2 || !strings.Contains(st.Errors[1], "no usable snapshot schema") {
		t.Fatalf("after a reconnect: %q", st.Errors)
	}
}

// The summary carries the own actor's levels from the game's prediction
// report ("local"), and keeps them when the connection's core is retired.
func TestSummaryLocalActor(t *testing.T) {
	h := newHeavyMatch(t, nil)
	for i := range 60 {
		h.tick(i)
	}
	s := Summarize(h.loop, nil, 0)
	if s.Local == nil || s.Local.MaxLevel != 0 || s.Local.X == 0 {
		t.Fatalf("local %+v", s.Local)
	}
	var out strings.Builder
	if err := WriteSummary(&out, s); err != nil || !strings.Contains(out.String(), `"local":{"x":`) || !strings.Contains(out.String(), `"maxLevel":0`) {
		t.Fatalf("summary line %s (%v)", out.String(), err)
	}
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventOpen})
	h.loop.Tick(h.now.Add(time.Millisecond))
	if after := Summarize(h.loop, nil, 0); after.Local == nil || after.Local.X != s.Local.X {
		t.Fatalf("after a reconnect: %+v, before %+v", after.Local, s.Local)
	}
}
