package match

import (
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"vimpclient/clientcore"
)

// recorder is an Out that decodes every frame with the client core and
// keeps the text messages.
type recorder struct {
	t       testing.TB
	dec     *clientcore.Decoder
	frame   clientcore.Frame
	frames  map[int]int
	errs    int
	texts   map[int][]string
	players map[int]clientcore.PlayerBlock
	m1rows  map[int]int
	keep    bool
	// events counts event rows per key ("w2" planted, "w2-null"
	// detonated, "w1", "w2e") over every frame of every user.
	events map[string]int
}

func newRecorder(t testing.TB, m *Match) *recorder {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(m.ConfigData(), &top); err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(top["snapshot"])
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{t: t, dec: clientcore.NewDecoder(s), frames: map[int]int{}, texts: map[int][]string{},
		players: map[int]clientcore.PlayerBlock{}, m1rows: map[int]int{}, keep: true, events: map[string]int{}}
	m.SetOut(r)
	return r
}

func (r *recorder) JSON(uid int, port int, payload any) {
	if !r.keep {
		return
	}
	b, err := json.Marshal([]any{port, payload})
	if err != nil {
		r.t.Fatalf("marshal port %d: %v", port, err)
	}
	r.texts[uid] = append(r.texts[uid], string(b))
}

func (r *recorder) Frame(uid int, b []byte, reliable bool) {
	r.frames[uid]++
	if !r.keep {
		return
	}
	if err := r.dec.Decode(b, &r.frame); err != nil {
		r.errs++
		return
	}
	if r.frame.HasPlayer {
		r.players[uid] = r.frame.Player
	}
	for _, blk := range r.frame.Blocks {
		switch blk.Key() {
		case "m1":
			r.m1rows[uid] = len(blk.Rows)
		case "w1", "w2e":
			r.events[blk.Key()] += len(blk.Rows)
		case "w2":
			for _, row := range blk.Rows {
				if row.Null {
					r.events["w2-null"]++
				} else {
					r.events["w2"]++
				}
			}
		}
	}
}

func (r *recorder) has(uid int, prefix string) bool {
	for _, s := range r.texts[uid] {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func joinHuman(t testing.TB, m *Match, uid int, name string) {
	if _, ok := m.Join(uid, name); !ok {
		t.Fatal("join refused")
	}
	m.ModulesReady(uid)
	m.MapReady(uid)
	m.FirstShotReady(uid)
}

func TestMatchSoak(t *testing.T) {
	m, err := New(Config{Bots: 15, Seed: 3, Log: quiet(), RoundSeconds: 40})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Alice")
	if !r.has(1, `[3,{`) || !r.has(1, `[4,[`) || !r.has(1, `[16,{"name":"teamChange"}]`) {
		t.Fatalf("handshake messages missing: %v", r.texts[1])
	}
	m.Vote(1, json.RawMessage(`["teamChange","team1"]`))
	if !r.has(1, `[17,1]`) {
		t.Fatalf("no keyset 1 after joining team1: %v", r.texts[1])
	}
	m.Keys(1, "1:down:forward")
	now := 1.7e12
	for i := 0; i < 120*90; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	if r.errs != 0 {
		t.Fatalf("%d frames failed to decode", r.errs)
	}
	if r.frames[1] < 90*30-5 {
		t.Fatalf("%d frames in 90 s, want about 2700", r.frames[1])
	}
	kills := 0
	for _, s := range r.texts[1] {
		if strings.HasPrefix(s, `[15,"s:4:`) {
			kills++
		}
	}
	if kills < 3 {
		t.Fatalf("bots killed %d tanks in 90 s, want a fight", kills)
	}
	if !r.has(1, `[7,[1]]`) || !r.has(1, `[6,"roundStart"]`) {
		t.Fatal("no round start in 90 s")
	}
	if !r.has(1, `[13,["t:`) || !r.has(1, `[14,[`) {
		t.Fatal("no panel or stat deltas")
	}
	if r.m1rows[1] < 10 {
		t.Fatalf("m1 block carries %d tanks", r.m1rows[1])
	}
}

func TestMatchInputMovesTank(t *testing.T) {
	m, r, step := playing(t, Config{Log: quiet(), Dialect: Dialect013}, 7, "Bob", "team2") // a 0.3 s fuse
	step(8)
	p0, ok := r.players[7]
	if !ok {
		t.Fatal("no player block")
	}
	m.Keys(7, "5:down:forward")
	step(120)
	p1 := r.players[7]
	dx, dy := p1.State[0]-p0.State[0], p1.State[1]-p0.State[1]
	if dx*dx+dy*dy < 100 || p1.LastInputSeq != 5 {
		t.Fatalf("tank moved (%v,%v) seq %d", dx, dy, p1.LastInputSeq)
	}
	m.Keys(7, "6:up:forward")
	m.Keys(7, "7:down:nextWeapon")
	m.Keys(7, "8:down:fire")
	step(60)
	if !r.has(7, `[13,["wa:w2"`) && !r.has(7, `[13,["w2:99"`) {
		t.Fatalf("weapon switch and bomb not on the panel: %v", r.texts[7][len(r.texts[7])-5:])
	}
	if r.events["w2"] != 1 || r.events["w2-null"] != 1 || r.events["w2e"] != 1 {
		t.Fatalf("bomb events %v, want one plant, one detonation, one explosion", r.events)
	}
	m.Keys(7, "9:down:prevWeapon")
	m.Keys(7, "10:down:fire")
	step(8)
	if r.events["w1"] != 1 || !r.has(7, `[13,["w1:199"`) {
		t.Fatalf("tracer events %v after one shot", r.events)
	}
}

func TestMatchVotesAndChat(t *testing.T) {
	m, err := New(Config{Log: quiet(), VoteSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(m.ConfigData()), `"templates"`) || !strings.Contains(string(m.ConfigData()), `"time":1000}`) {
		t.Fatal("CONFIG_DATA vote time is not the host's vote time")
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Alice")
	joinHuman(t, m, 2, "Alice") // renamed Alice#1
	now := 1.7e12
	step := func(n int) {
		for i := 0; i < n; i++ {
			now += 1000.0 / 120
			m.Step(now)
		}
	}
	m.Chat(2, "hello\x01 there")
	m.Chat(1, "/nosuch")
	m.Vote(1, json.RawMessage(`"maps"`))
	step(40)
	if !r.has(1, `[15,["hello there","Alice#1",3]]`) || !r.has(1, `[15,"c:0"]`) || !r.has(1, `[16,["crossing","yard"]]`) {
		t.Fatalf("chat/vote replies missing: %v", r.texts[1])
	}
	// The layered map speaks another dialect: not in the flat rotation.
	m.Vote(1, json.RawMessage(`["mapChange","bridge"]`))
	step(8)
	if r.has(2, `[16,{"name":"mapChangeByUser"`) {
		t.Fatalf("the layered map was proposed to a flat match: %v", r.texts[2])
	}
	m.Vote(1, json.RawMessage(`["mapChange","maze"]`))
	step(8)
	if !r.has(2, `[16,{"name":"mapChangeByUser","params":["Alice","maze"]}]`) {
		t.Fatalf("no user vote for the other player: %v", r.texts[2])
	}
	m.Vote(2, json.RawMessage(`["mapChangeByUser","Yes"]`))
	step(120*4 + 8)
	if !r.has(2, `[15,"v:4"]`) || !r.has(2, `[11,null]`) || m.current.Name != "maze" {
		t.Fatalf("map vote did not pass: map %s", m.current.Name)
	}
	m.MapReady(2)
	if !r.has(2, `[4,[`) {
		t.Fatal("no first shot after the map change")
	}
}

func FuzzMatchInput(f *testing.F) {
	for _, s := range []string{"1:down:forward", "2:up:fire", "x:down:left", "4294967296:down:back", "3:aim:1:2:1",
		`["teamChange","team1"]`, `["mapChange","yard"]`, `"teams"`, `"maps"`, `[1,2]`, "/name Zed", "/timeleft"} {
		f.Add(s)
	}
	m, err := New(Config{Bots: 2, Log: quiet()})
	if err != nil {
		f.Fatal(err)
	}
	r := newRecorder(f, m)
	r.keep = false
	joinHuman(f, m, 1, "Fuzz")
	now := 1.7e12
	f.Fuzz(func(t *testing.T, s string) {
		m.Keys(1, s)
		m.Chat(1, s)
		if json.Valid([]byte(s)) {
			m.Vote(1, json.RawMessage(s))
		}
		now += 1000.0 / 120
		m.Step(now)
	})
}

// hostOut does what the host's room does with the match's output short of
// the socket: marshal each JSON message and copy each frame.
type hostOut struct {
	buf   []byte
	bytes int
}

func (o *hostOut) JSON(uid int, port int, payload any) {
	b, _ := json.Marshal([]any{port, payload})
	o.bytes += len(b)
}

func (o *hostOut) Frame(uid int, b []byte, reliable bool) {
	o.buf = append(o.buf[:0], b...)
	o.bytes += len(b)
}

// BenchmarkSendTick measures one host send period at 1 player + 15 bots:
// four 120 Hz simulation steps (bots, motion, contacts, weapons, rounds)
// and, on the fourth, the frame and meta send with JSON marshalling.
func BenchmarkSendTick(b *testing.B) {
	m, err := New(Config{Bots: 15, Seed: 1, Log: quiet(), RoundSeconds: 100000})
	if err != nil {
		b.Fatal(err)
	}
	out := &hostOut{}
	m.SetOut(out)
	joinHuman(b, m, 1, "Bench")
	m.Vote(1, json.RawMessage(`["teamChange","team1"]`))
	now := 1.7e12
	for i := 0; i < 120; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	b.ReportAllocs()
	b.ResetTimer()
	out.bytes = 0
	cpu0 := processCPU()
	for b.Loop() {
		for j := 0; j < sendEvery; j++ {
			now += 1000.0 / 120
			m.Step(now)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(out.bytes)/float64(b.N), "B-sent/op")
}

// BenchmarkSimStep measures one 120 Hz simulation step alone.
func BenchmarkSimStep(b *testing.B) { benchSimStep(b, "") }

// benchSimStep steps a match of 15 bots and one player on the named map
// ("": the rotation's first).
func benchSimStep(b *testing.B, mapName string) {
	m, err := New(Config{Bots: 15, Seed: 1, Log: quiet(), RoundSeconds: 100000, Map: mapName})
	if err != nil {
		b.Fatal(err)
	}
	r := newRecorder(b, m)
	r.keep = false
	joinHuman(b, m, 1, "Bench")
	m.Vote(1, json.RawMessage(`["teamChange","team1"]`))
	b.ReportAllocs()
	for b.Loop() {
		m.tick++
		m.thinkBots()
		m.step()
	}
}

func TestCrateRowsMatchMap(t *testing.T) {
	m, err := New(Config{Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Cr")
	now := 1.7e12
	for i := 0; i < sendEvery; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	var rows []clientcore.Row
	var key *clientcore.KeySchema
	for _, b := range r.frame.Blocks {
		if b.Key() == "c1" {
			rows, key = b.Rows, b.Schema
		}
	}
	if key == nil {
		t.Fatal("no c1 block")
	}
	fb := clientcore.NewBinder(key)
	fx, fy, fa := fb.Require("x"), fb.Require("y"), fb.Require("angle")
	fvx, fvy, fw := fb.Require("vx"), fb.Require("vy"), fb.Require("angvel")
	if err := fb.Err(); err != nil {
		t.Fatal(err)
	}
	crates := m.current.Data.Dynamic
	if len(crates) == 0 || len(rows) != len(crates) {
		t.Fatalf("%d c1 rows for %d crates", len(rows), len(crates))
	}
	for i, c := range crates {
		row := rows[i]
		wantX, wantY := c.X*m.current.Data.Scale, c.Y*m.current.Data.Scale
		wantA := c.AngleDeg * 3.141592653589793 / 180
		v := row.Fields
		if row.ID != uint32(i) || abs(float32(fx.Float64(v)-wantX)) > 0.011 || abs(float32(fy.Float64(v)-wantY)) > 0.011 || abs(float32(fa.Float64(v)-wantA)) > 0.011 {
			t.Errorf("crate %d row %v, want corner (%v,%v) angle %v", i, row.Fields, wantX, wantY, wantA)
		}
		if fvx.Get(v) != 0 || fvy.Get(v) != 0 || fw.Get(v) != 0 {
			t.Errorf("resting crate %d carries a velocity tail %v", i, row.Fields)
		}
	}
}

func TestLonePlayerMapChangeAndTeams(t *testing.T) {
	m, err := New(Config{Bots: 4, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Solo")
	m.Vote(1, json.RawMessage(`["teamChange","team2"]`))
	m.Vote(1, json.RawMessage(`["teamChange","team2"]`))
	m.Vote(1, json.RawMessage(`["teamChange","spectators"]`))
	now := 1.7e12
	for i := 0; i < 40; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	for _, want := range []string{`[15,"s:2:team2"]`, `[15,"s:1:team2"]`, `[15,"s:3"]`} {
		if !r.has(1, want) {
			t.Errorf("no %s in %v", want, r.texts[1])
		}
	}
	r.texts[1] = nil
	m.Vote(1, json.RawMessage(`["mapChange","crossing"]`))
	if m.current.Name != "crossing" {
		t.Fatalf("lone player's map change not immediate: %s", m.current.Name)
	}
	want := []string{`[13,["t:`, `[17,0]`, `[11,null]`, `[8,[2]]`, `[3,{`}
	if len(r.texts[1]) < len(want) {
		t.Fatalf("map change sequence %v", r.texts[1])
	}
	for i, w := range want {
		if !strings.HasPrefix(r.texts[1][i], w) {
			t.Fatalf("message %d = %.40s, want %s…", i, r.texts[1][i], w)
		}
	}
	frames := r.frames[1]
	for i := 0; i < 8; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	if r.frames[1] != frames {
		t.Fatal("frames sent between the map change and FIRST_SHOT_READY")
	}
	m.MapReady(1)
	m.FirstShotReady(1)
	if !r.has(1, `[4,[`) || !r.has(1, `[16,{"name":"teamChange"}]`) {
		t.Fatal("no first shot and team vote after the new map")
	}
}

func TestBotCommand(t *testing.T) {
	m, err := New(Config{Bots: 0, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Boss")
	m.Chat(1, "/bot 2")
	m.Vote(1, json.RawMessage(`["teamChange","team1"]`))
	m.Chat(1, "/bot 3 team2")
	m.Chat(1, "/bot x")
	m.Chat(1, "/bot 1 blue")
	bots := func(team int) int {
		n := 0
		for _, p := range m.Players {
			if p != nil && p.bot != nil && (team == 0 || p.team == team) {
				n++
			}
		}
		return n
	}
	if bots(Team2) != 3 || bots(0) != 3 {
		t.Fatalf("bots: %d in team2, %d total, want 3/3", bots(Team2), bots(0))
	}
	m.Chat(1, "/bot 0 team2")
	if bots(0) != 0 {
		t.Fatalf("%d bots left after /bot 0 team2", bots(0))
	}
	now := 1.7e12
	for i := 0; i < 120; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	for _, want := range []string{`[15,"b:0"]`, `[15,"b:3:3,team2"]`, `[15,"b:1"]`, `[15,"b:2"]`, `[15,"b:4:team2"]`} {
		if !r.has(1, want) {
			t.Errorf("no %s", want)
		}
	}
}
