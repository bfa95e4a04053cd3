package snakesmatch

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/games/snakes"
	"vimpclient/predict"
	"vimpclient/protocol"
)

// sink records what the match sends to users.
type sink struct {
	t      testing.TB
	dec    *clientcore.Decoder
	frame  clientcore.Frame
	frames int
	json   []string // "port payload"
	// onFrame sees every decoded frame.
	onFrame func(uid int, f *clientcore.Frame)
}

func (s *sink) JSON(uid, port int, payload any) {
	b, err := json.Marshal(payload)
	if err != nil {
		s.t.Errorf("marshal port %d: %v", port, err)
	}
	s.json = append(s.json, fmt.Sprintf("%d %s", port, b))
}

func (s *sink) Frame(uid int, b []byte, reliable bool) {
	if err := s.dec.Decode(b, &s.frame); err != nil {
		s.t.Errorf("decode: %v", err)
		return
	}
	s.frames++
	if s.onFrame != nil {
		s.onFrame(uid, &s.frame)
	}
}

// sent reports whether a JSON message on port contains text.
func (s *sink) sent(port int, text string) bool {
	for _, m := range s.json {
		if strings.HasPrefix(m, fmt.Sprint(port)+" ") && strings.Contains(m, text) {
			return true
		}
	}
	return false
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

type harness struct {
	m      *Match
	out    *sink
	schema *clientcore.Schema
	pred   json.RawMessage
	now    float64
}

// newHarness is a match of the default game with bots and one human (uid
// 1) playing.
func newHarness(t testing.TB, bots int) *harness { return newHarnessIn(t, bots, "") }

// newHarnessIn is newHarness in a dialect; in the older game the human
// votes to play.
func newHarnessIn(t testing.TB, bots int, dialect string) *harness {
	m, err := New(Config{Bots: bots, Seed: 3, Dialect: dialect, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(m.ConfigData(), &top); err != nil {
		t.Fatal(err)
	}
	schema, err := clientcore.ParseSchema(top["snapshot"])
	if err != nil {
		t.Fatal(err)
	}
	out := &sink{t: t, dec: clientcore.NewDecoder(schema)}
	m.SetOut(out)
	if _, ok := m.Join(1, "Probe"); !ok {
		t.Fatal("join refused")
	}
	m.ModulesReady(1)
	m.MapReady(1)
	m.FirstShotReady(1)
	m.Vote(1, json.RawMessage(`["teamChange","players"]`))
	return &harness{m: m, out: out, schema: schema, pred: top["prediction"], now: 1.7e12}
}

func (h *harness) step() {
	h.now += 1000.0 / TicksPerSecond
	h.m.Step(h.now)
}

func (h *harness) me() *player { return h.m.Users[1] }

// The arena's side follows the population table of the reference game
// (8 snakes or fewer: 20 cells, then 24, 28, 32, 35, 37, 40 … up to 57 at
// 61–64), its disc is inscribed in the grid and its respawn points lie
// within 0.72 of the radius; it grows at once and shrinks only once the
// count has dropped by 4 below the size's population.
func TestArenaSizes(t *testing.T) {
	want := map[int]int{0: 20, 8: 20, 9: 24, 12: 24, 13: 28, 16: 28, 17: 32, 20: 32, 21: 35, 24: 35, 25: 37, 28: 37, 29: 40, 32: 40, 61: 57, 64: 57}
	for n, size := range want {
		if got := arenaSizeFor(n); got != size {
			t.Errorf("%d snakes: %d cells, want %d", n, got, size)
		}
	}
	a := newArena(13, arenaShape{})
	if a.size != 28 || a.radius != 28*128/2 || a.cx != a.radius || a.cy != a.radius || len(a.spawns) != 64 {
		t.Fatalf("arena for 13: size %d radius %v centre %v,%v spawns %d", a.size, a.radius, a.cx, a.cy, len(a.spawns))
	}
	for _, s := range a.spawns {
		if d := math.Hypot(s[0]-float64(a.cx), s[1]-float64(a.cy)); d > 0.72*float64(a.radius)+1 {
			t.Fatalf("respawn %v at %v from the centre", s, d)
		}
	}
	var m struct {
		Step int     `json:"step"`
		Map  [][]int `json:"map"`
	}
	if err := json.Unmarshal(a.text, &m); err != nil || m.Step != 128 || len(m.Map) != 28 || len(m.Map[0]) != 28 {
		t.Fatalf("MAP_DATA: %v step %d rows %d", err, m.Step, len(m.Map))
	}
	if _, ok := a.resized(14); ok {
		t.Error("14 snakes resize the arena of 13")
	}
	if s, ok := a.resized(17); !ok || s != 32 {
		t.Errorf("17 snakes: %d %v, want a grow to 32", s, ok)
	}
	if _, ok := a.resized(10); ok {
		t.Error("10 snakes shrink the arena of 13 (hysteresis 4)")
	}
	if s, ok := a.resized(9); !ok || s != 24 {
		t.Errorf("9 snakes: %d %v, want a shrink to 24", s, ok)
	}
}

// Joining bots grows the arena and every ready human gets the new MAP_DATA.
func TestArenaGrowsWithBots(t *testing.T) {
	h := newHarness(t, 8)
	h.step()
	if h.m.arena.size != 24 {
		t.Fatalf("9 snakes: %d cells, want 24", h.m.arena.size)
	}
	if !h.out.sent(3, `"map":[[1`) || h.me().human.sentSize != 24 {
		t.Fatalf("no MAP_DATA of the grown arena: sent size %d", h.me().human.sentSize)
	}
}

// In the older game (0.6) a snake that crashes into another's body
// scatters 80 % of its crystals along its body in the largest tiers they
// pay for, and its whole score goes to the snake it hit; its panel shows the crash (d = carried + 1),
// its row leaves in a reliable frame, and R brings it back small.
func TestCrashAndRespawn(t *testing.T) {
	h := newHarnessIn(t, 1, Dialect06)
	var bot *player
	for _, p := range h.m.Players {
		if p != nil && p.bot != nil {
			bot = p
		}
	}
	me := h.me()
	h.step()
	me.score, me.eaten = 30, 30
	o, b := me.snake, bot.snake
	bot.bot = nil // the bot stops thinking and drives straight down
	// The bot's body lies across the own snake's way: laid by stepping it
	// down from above the centre, then the own snake comes from the left.
	h.m.place(b, h.m.arena.cx, h.m.arena.cy-300, 90)
	b.s.Grace = 0 // past its spawn grace
	b.crystals = 60
	b.s.Length = h.m.length(b.crystals)
	for range 120 {
		h.m.model.Step(&b.s, snakes.Controls{}, dt)
	}
	h.m.place(o, h.m.arena.cx-150, h.m.arena.cy, 0)
	o.s.Grace = 0
	o.s.Length = 400
	for range 20 { // a body to scatter the crystals along
		h.m.model.Step(&o.s, snakes.Controls{}, dt)
	}
	o.crystals = 30
	h.m.field.clear()
	var nulls int
	h.out.onFrame = func(uid int, f *clientcore.Frame) {
		for i := range f.Blocks {
			for _, r := range f.Blocks[i].Rows {
				if f.Blocks[i].Schema.Name == "s1" && r.Null && r.ID == uint32(me.gid) {
					nulls++
				}
			}
		}
	}
	for i := 0; i < 120 && o.s.Alive; i++ {
		h.step()
	}
	for range 4 {
		h.step()
	}
	if o.s.Alive || o.crystals != 0 {
		t.Fatalf("the snake did not crash: alive %v at %v,%v", o.s.Alive, o.s.X, o.s.Y)
	}
	if bot.kills != 1 || bot.score != 30 {
		t.Errorf("the bot: kills %d score %d, want 1 and the victim's 30", bot.kills, bot.score)
	}
	sum := 0
	for _, c := range h.m.field.crystals {
		sum += h.m.world.tier(c.tier).Value
	}
	if sum != 24 { // round(30 × 0.8): 8 + 8 + 8
		t.Errorf("%d crystals' worth scattered, want 24", sum)
	}
	if nulls != 1 || !h.out.sent(13, `"d:31"`) || !h.out.sent(15, "s:4:Probe,") {
		t.Errorf("null rows %d, crash panel %v, chat %v", nulls, h.out.sent(13, `"d:31"`), h.out.sent(15, "s:4:Probe,"))
	}
	h.m.Keys(1, "9:down:respawn")
	h.step()
	if !o.s.Alive || o.crystals != 0 || o.s.Length != 150 || me.score != 30 {
		t.Fatalf("respawn: alive %v crystals %d length %v score %d", o.s.Alive, o.crystals, o.s.Length, me.score)
	}
}

// Boosting burns 6 crystals a second, whole ones, shed at the tail as new
// crystals, and stops at 2 crystals; the drive mode follows it.
func TestBoostDrain(t *testing.T) {
	h := newHarness(t, 0)
	h.step()
	h.m.field.clear()
	o := h.me().snake
	h.m.place(o, h.m.arena.cx, h.m.arena.cy, 0)
	o.s.Grace = 0 // past its spawn grace
	o.crystals = 5
	h.m.Keys(1, "1:down:boost")
	h.m.Keys(1, "2:down:left")
	x0 := o.s.X
	h.step()
	if !o.boosting || h.me().human.panel.wa != modeBoost {
		t.Fatal("not boosting with 5 crystals")
	}
	for range TicksPerSecond {
		h.step()
	}
	if o.crystals != 2 || o.boosting || len(h.m.field.crystals) < 3 {
		t.Fatalf("after 1 s: %d crystals (want 2), boosting %v, %d shed", o.crystals, o.boosting, len(h.m.field.crystals))
	}
	if h.me().human.panel.wa != modeCruise || o.s.X == x0 {
		t.Fatalf("mode %q", h.me().human.panel.wa)
	}
}

// The host's snake and the client's predicted snake (package snakes' Game,
// fed the same keys and pointer messages by the wire rules) step
// bit-identically: head and heading after every step over a long random
// session with turns, pointer aims, boosts and crystals. Both step through
// snakes.Model.Step with the model read from the same CONFIG_DATA.
func TestPredictorParity(t *testing.T) {
	h := newHarness(t, 0)
	h.step()
	cfg, err := snakes.ParseConfig(h.pred)
	if err != nil {
		t.Fatal(err)
	}
	g := snakes.New(h.schema, cfg)
	dt := g.Predictor().DT()
	if dt != float32(1)/TicksPerSecond {
		t.Fatalf("config step %v, host step %v", dt, float32(1)/TicksPerSecond)
	}
	o := h.me().snake
	seed := func() {
		o.crystals = 40
		*g.Snake() = o.s
	}
	seed()
	rng := rand.New(rand.NewPCG(5, 6))
	var in predict.Input
	bits := map[string]uint32{"left": keyLeft, "right": keyRight, "boost": keyBoost}
	names := []string{"left", "right", "boost"}
	seq := 0
	compared, aimed, boosted, respawns := 0, 0, 0, 0
	for tick := 0; tick < 120*120; tick++ {
		switch r := rng.IntN(40); {
		case r == 0:
			name := names[rng.IntN(len(names))]
			down := rng.IntN(2) == 0
			seq++
			h.m.Keys(1, fmt.Sprintf("%d:%s:%s", seq, map[bool]string{true: "down", false: "up"}[down], name))
			if down {
				in.Keys |= bits[name]
				if name != "boost" {
					in.Aim = false
				}
			} else {
				in.Keys &^= bits[name]
			}
		case r == 1:
			// Aim at a point of the arena (the pointer sends 2 decimals).
			x, y := h.m.arena.randomPoint(rng, 200)
			x, y = float32(math.Round(float64(x)*100)/100), float32(math.Round(float64(y)*100)/100)
			flags := uint32(1 + 2*rng.IntN(2))
			if rng.IntN(5) == 0 {
				flags = 0
			}
			seq++
			h.m.Keys(1, fmt.Sprintf("%d:aim:%.2f:%.2f:%d", seq, x, y, flags))
			in.Aim, in.AimX, in.AimY, in.PointerBoost = flags&1 != 0, x, y, flags&2 != 0
			if flags&1 == 0 {
				in.PointerBoost = false
			}
		}
		// The player block tells the predictor the crystals and length.
		s := g.Snake()
		s.Crystals, s.Length = float32(o.crystals), h.m.length(o.crystals)
		h.step()
		if !o.s.Alive {
			seq++
			h.m.Keys(1, fmt.Sprintf("%d:down:respawn", seq))
			h.step()
			respawns++
			seed()
			continue
		}
		g.Step(in, dt)
		if o.boosting {
			boosted++
		}
		if o.aim && o.held&(keyLeft|keyRight) == 0 {
			aimed++
		}
		for i, pair := range [3][2]float32{{s.X, o.s.X}, {s.Y, o.s.Y}, {s.Angle, o.s.Angle}} {
			if math.Float32bits(pair[0]) != math.Float32bits(pair[1]) {
				t.Fatalf("tick %d: component %d: predicted %v, host %v (in %+v, host held %b aim %v %v,%v ptr %v crystals %d boosting %v)", tick, i, pair[0], pair[1],
					in, o.held, o.aim, o.aimX, o.aimY, o.ptrBoost, o.crystals, o.boosting)
			}
		}
		compared++
		if o.crystals < 4 {
			o.crystals = 40 // keep the boost fuelled
		}
	}
	t.Logf("%d steps compared bit for bit, %d aimed, %d boosting, %d respawns", compared, aimed, boosted, respawns)
	if compared < 10000 || aimed < 1000 || boosted < 1000 {
		t.Fatalf("too little coverage: %d steps, %d aimed, %d boosting", compared, aimed, boosted)
	}
}

// A snake spawns into its grace: for two seconds it stands still, its row
// carries the grace bit (and not the boost, though the key is held), its
// player block counts the grace down, and another snake's head on its body
// crashes neither; then it moves and can crash again.
func TestSpawnGrace(t *testing.T) {
	h := newHarness(t, 1)
	me := h.me()
	var bot *player
	for _, p := range h.m.Players {
		if p != nil && p.bot != nil {
			bot = p
		}
	}
	if bot == nil || bot.snake == nil || me.snake == nil {
		t.Fatal("no bot or own snake")
	}
	o, b := me.snake, bot.snake
	bot.bot = nil
	h.m.place(o, h.m.arena.cx, h.m.arena.cy, 0)
	laid := pathLength(&o.s.Path)
	o.crystals = 20
	h.m.Keys(1, "1:down:boost")
	// The bot's head sits on the own snake's body, which is in its grace.
	h.m.place(b, h.m.arena.cx, h.m.arena.cy, 90)
	b.s.Grace = 0
	var flags float64
	var grace float32
	var rowSeen bool
	h.out.onFrame = func(uid int, f *clientcore.Frame) {
		if f.HasPlayer {
			grace = f.Player.State[7]
		}
		for i := range f.Blocks {
			for _, r := range f.Blocks[i].Rows {
				if f.Blocks[i].Schema.Name == "s1" && !r.Null && r.ID == uint32(me.gid) {
					l := snakes.BindSnakeRow(clientcore.NewBinder(f.Blocks[i].Schema).Positions())
					flags, rowSeen = float64(l.Boost.Get(r.Fields)), true
				}
			}
		}
	}
	x0, y0 := o.s.X, o.s.Y
	for range TicksPerSecond {
		h.step()
	}
	if want := float64(h.m.length(h.m.world.StartCrystals)); math.Abs(laid-want) > 1 {
		t.Fatalf("body of %v at the spawn, want it laid out whole (%v)", laid, want)
	}
	if o.s.X != x0 || o.s.Y != y0 {
		t.Fatalf("moved in its grace: (%v, %v) to (%v, %v)", x0, y0, o.s.X, o.s.Y)
	}
	if !o.s.Alive || !b.s.Alive {
		t.Fatalf("a crash in the grace: own alive %v, bot alive %v", o.s.Alive, b.s.Alive)
	}
	if boost, inGrace := snakes.Flags(flags); !rowSeen || boost || !inGrace {
		t.Fatalf("row flags %v (seen %v): want the grace bit alone", flags, rowSeen)
	}
	if grace < 0.9 || grace > 1.1 {
		t.Fatalf("player block grace %v after 1 s, want about 1", grace)
	}
	for range TicksPerSecond + sendEvery {
		h.step()
	}
	if o.s.X == x0 && o.s.Y == y0 {
		t.Fatal("still standing after the grace")
	}
	if boost, inGrace := snakes.Flags(flags); !boost || inGrace || grace != 0 {
		t.Fatalf("after the grace: flags %v, block grace %v", flags, grace)
	}
}

func pathLength(p *snakes.Path) float64 {
	var l float64
	for i := 1; i < p.Len(); i++ {
		ax, ay := p.At(i - 1)
		bx, by := p.At(i)
		l += math.Hypot(float64(bx-ax), float64(by-ay))
	}
	return l
}

// In the older game (0.6) a life that ends with a haul is a result on the
// host's boards: the
// room's places go out on ACCOLADES_DATA, the best life for the day and
// the sum of lives for the month, and a user who becomes ready later gets
// the picture at once.
func TestAccoladesFromLives(t *testing.T) {
	h := newHarnessIn(t, 0, Dialect06)
	h.step()
	me := h.me()
	last := func() *protocol.Accolades {
		for i := len(h.out.json) - 1; i >= 0; i-- {
			if raw, ok := strings.CutPrefix(h.out.json[i], fmt.Sprint(protocol.AccoladesData)+" "); ok {
				a, err := protocol.ParseAccolades(json.RawMessage(raw))
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
		}
		return nil
	}
	for range 10 {
		h.step()
	}
	if last() != nil {
		t.Fatal("accolades before any life ended")
	}
	id := strconv.Itoa(int(me.gid))
	me.snake.crystals = 7
	h.m.crash(me, nil)
	for range sendEvery {
		h.step()
	}
	me.snake.s.Alive, me.snake.crystals = true, 5
	h.m.crash(me, nil)
	for range sendEvery {
		h.step()
	}
	a := last()
	if a == nil || a.Places[id]["daily"] != 1 || a.Places[id]["monthly"] != 1 {
		t.Fatalf("places %+v", a)
	}
	day, month := a.Boards["day"], a.Boards["month"]
	if len(day) != 1 || day[0].Nick != "Probe" || day[0].Score != 7 || len(month) != 1 || month[0].Score != 12 {
		t.Fatalf("boards %+v", a.Boards)
	}
	n := len(h.out.json)
	if _, ok := h.m.Join(2, "Late"); !ok {
		t.Fatal("join refused")
	}
	h.m.ModulesReady(2)
	h.m.MapReady(2)
	found := false
	for _, m := range h.out.json[n:] {
		found = found || strings.HasPrefix(m, fmt.Sprint(protocol.AccoladesData)+" ")
	}
	if !found {
		t.Fatal("a user who became ready got no accolades")
	}
}

// A player's chat line carries the colour of its snake as its 4th element,
// which the clients give the name; a spectator's line has none.
func TestChatNameColour(t *testing.T) {
	h := newHarnessIn(t, 0, Dialect06)
	h.step()
	me := h.me()
	me.snake.color = 5
	h.m.Chat(1, "hello")
	for range 3 * sendEvery { // one chat message a frame
		h.step()
	}
	if !h.out.sent(protocol.ChatData, `["hello","Probe",1,"#3ab7ff"]`) {
		t.Fatalf("chat sent %v", h.out.json)
	}
	h.m.Vote(1, json.RawMessage(`["teamChange","spectators"]`))
	h.step()
	h.m.Chat(1, "bye")
	for range 3 * sendEvery { // one chat message a frame
		h.step()
	}
	found := false
	for _, m := range h.out.json {
		found = found || strings.Contains(m, `["bye","Probe",`) && !strings.Contains(m, `"#`)
	}
	if !found {
		t.Fatalf("spectator's line: %v", h.out.json)
	}
}

// The auth screen names the game as the game does today: "Snakes".
func TestAuthTitle(t *testing.T) {
	h := newHarness(t, 0)
	b, err := json.Marshal(h.m.AuthTexts())
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal(b, &v); err != nil || v.Title != "Snakes" {
		t.Fatalf("title %q (%v)", v.Title, err)
	}
}
