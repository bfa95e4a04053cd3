// Package snakesmatch is the snakes match the embedded host runs: the
// game's CONFIG_DATA and auth fields, the one arena map that grows and
// shrinks with the number of snakes, the authoritative world (snakes
// stepped by the motion rules of package snakes that the client predicts
// with, the boost's crystal drain, crystals that grow a snake, crashes
// into the edge or another snake's body that scatter its crystals, kills
// that hand the victim's score to the killer, respawn on request), bots,
// the panel that drives the client's crash card, the stat table, chat and
// the play-or-watch vote, and the 30 Hz snapshot frames.
// A Match is owned by one goroutine (the host's room loop) and has no
// locks; everything it sends goes through the Out it was given.
package snakesmatch

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"

	"vimpclient/games/snakes"
	"vimpclient/host/game"
	"vimpclient/host/match"
	"vimpclient/host/packer"
	"vimpclient/protocol"
	"vimpclient/snapschema"
)

//go:embed config.json
var configJSON []byte

// The match answers every optional role of a game.Match but resume.
var (
	_ game.Match           = (*Match)(nil)
	_ game.Catalog         = (*Match)(nil)
	_ game.Authenticator   = (*Match)(nil)
	_ game.LatencyRecorder = (*Match)(nil)
	_ game.Spectators      = (*Match)(nil)
	_ game.Chatter         = (*Match)(nil)
	_ game.Voter           = (*Match)(nil)
)

// Config tunes a match.
type Config struct {
	Bots int
	Seed uint64
	// Map must be "" or "arena", the one map.
	Map string
	// VoteSeconds is the vote window (default 10).
	VoteSeconds int
	// Dialect is the built-in game version (Dialects; "" the default,
	// 0.15).
	Dialect string
	// Game is another snakes game's own data, as a real host of it sends
	// it: its CONFIG_DATA verbatim (the snake and crystal rows bound by
	// field name; a field the match has no value for is refused) and its
	// one arena map, sent verbatim while the arena has its size. It
	// replaces the dialect.
	Game *match.GameData
	Log  *slog.Logger
}

// Team ids: the snakes play in one team.
const (
	Players    = 1
	Spectators = 2
)

func teamKey(team int) string {
	if team == Players {
		return "players"
	}
	return "spectators"
}

// Timing in simulation ticks (120 Hz), frames every fourth, bots think at
// the frame rate.
const (
	TicksPerSecond = 120
	sendEvery      = 4
	dt             = float32(1) / TicksPerSecond
	roundSeconds   = 3600
)

// Key bits of prediction.playerKeys.
const (
	keyLeft    = 1
	keyRight   = 2
	keyBoost   = 4
	keyRespawn = 8
)

// MapNames is the catalog: one arena, sized by the population.
func MapNames() []string { return []string{"arena"} }

// Match is one room's game.
type Match struct {
	cfg    Config
	out    game.Out
	log    *slog.Logger
	rng    *rand.Rand
	config json.RawMessage
	model  snakes.Model
	world  worldRules
	rules  rules
	shape  arenaShape

	arena arena
	field field
	tick  int64
	nowMs float64
	game.Roster[*player]
	nextColor uint8
	nulls     []uint8 // s1 rows to remove in the next frame

	outbox game.Outbox // the meta for everyone
	boards boards      // the host's own leaderboards, for ACCOLADES_DATA
	wire   frameWriter
}

// frameWriter packs the snapshot frames: the snake and crystal keys of
// the schema the match sends and the game's row layouts bound to them,
// the frame being written, the shared body of the current one, its
// sequence number, and the scratch the rows are made in.
type frameWriter struct {
	keyS1, keyCr *snapschema.Key
	s1           snakes.SnakeRow
	cr           snakes.CrystalRow
	frame        packer.Frame
	body         []byte
	seq          uint32
	vals         []packer.Value
	crRows       []crRow
	spine        [2 * snakes.SpinePoints]float32
}

type player struct {
	gid   uint8
	name  string
	team  int
	bot   *botBrain
	human *human
	snake *snakeObj // nil for a spectator
	// The stat table's counters, kept through crashes: crystals eaten,
	// snakes that crashed into this one, and the score (eaten plus the
	// whole score of every snake this one killed).
	eaten, kills, score int
}

// Seat, Plays and Nick make a player a game.Member.
func (p *player) Seat() *game.Seat {
	if p.human == nil {
		return nil
	}
	return &p.human.Seat
}
func (p *player) Plays() bool  { return p.team != Spectators }
func (p *player) Nick() string { return p.name }

type human struct {
	game.Seat
	sentSize   int // the arena size of the last MAP_DATA sent
	forceReset bool
	panel      panel
	sentPanel  panel
}

// New builds a match with its bots.
func New(cfg Config) (*Match, error) {
	if cfg.Map != "" && cfg.Map != "arena" && cfg.Game == nil {
		return nil, fmt.Errorf("snakes: no map %q (the catalog: arena)", cfg.Map)
	}
	if cfg.VoteSeconds <= 0 {
		cfg.VoteSeconds = 10
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	config, err := builtinConfig(&cfg)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(config, &top); err != nil {
		return nil, fmt.Errorf("snakes config: %w", err)
	}
	schema, err := snapschema.Parse(top["snapshot"])
	if err != nil {
		return nil, fmt.Errorf("snakes config: %w", err)
	}
	// The motion constants the host steps with are the ones the clients
	// predict with: both read them from CONFIG_DATA.prediction.
	pc, err := snakes.ParseConfig(top["prediction"])
	if err != nil {
		return nil, fmt.Errorf("snakes config: %w", err)
	}
	model, ok := pc.Models["s1"]
	if !ok {
		return nil, fmt.Errorf("snakes config: no model s1")
	}
	var pred struct {
		Models map[string]struct {
			BoostDrain float32    `json:"boostDrainPerSecond"`
			World      worldRules `json:"world"`
		} `json:"models"`
	}
	if err := json.Unmarshal(top["prediction"], &pred); err != nil {
		return nil, fmt.Errorf("snakes config: prediction: %w", err)
	}
	world := pred.Models["s1"].World
	world.BoostDrain = pred.Models["s1"].BoostDrain
	if len(world.Tiers) == 0 || len(world.TierWeights) == 0 || world.SpawnInterval <= 0 {
		return nil, fmt.Errorf("snakes config: the world has no tiers or spawn interval")
	}
	if g := world.SpawnGrace; g != nil && (math.IsNaN(float64(*g)) || *g < 0 || *g > maxSpawnGrace) {
		return nil, fmt.Errorf("snakes config: spawnGraceSeconds %v out of range", *g)
	}
	r, err := readRules(config)
	if err != nil {
		return nil, err
	}
	shape := arenaShape{spiralOrder: cfg.Dialect != Dialect06 || cfg.Game != nil}
	if cfg.Game != nil {
		if shape.data, err = readDataArena(cfg.Game.Maps); err != nil {
			return nil, err
		}
	}
	compact, err := json.Marshal(json.RawMessage(config))
	if err != nil {
		return nil, fmt.Errorf("snakes config: %w", err)
	}
	m := &Match{cfg: cfg, log: cfg.Log, rng: rand.New(rand.NewPCG(cfg.Seed, 0x736e616b6573)),
		config: compact, wire: frameWriter{keyS1: schema.Key("s1"), keyCr: schema.Key("cr")},
		model: model, world: world, rules: r, shape: shape, Roster: game.Roster[*player]{Users: game.Users[*player]{}}, out: game.Discard{}}
	if m.wire.keyS1 == nil || m.wire.keyCr == nil {
		return nil, fmt.Errorf("snakes config: the snapshot has no s1 or no cr key")
	}
	s1, cr := snapschema.NewBinder(m.wire.keyS1), snapschema.NewBinder(m.wire.keyCr)
	m.wire.s1, m.wire.cr = snakes.BindSnakeRow(s1), snakes.BindCrystalRow(cr)
	if err := errors.Join(s1.Complete(), cr.Complete()); err != nil {
		return nil, fmt.Errorf("snakes config: %w", err)
	}
	m.arena = newArena(cfg.Bots, m.shape)
	for range cfg.Bots {
		m.addBot()
	}
	return m, nil
}

// SetOut connects the match to its transport.
func (m *Match) SetOut(o game.Out) { m.out = o }

// ConfigData is the CONFIG_DATA payload.
func (m *Match) ConfigData() json.RawMessage { return m.config }

// MapNames returns the catalog: the arena, named as the game's own data
// names it.
func (m *Match) MapNames() []string { return []string{m.MapName()} }

// MapText returns the arena's MAP_DATA at its current size.
func (m *Match) MapText(name string) ([]byte, bool) {
	if name != m.MapName() {
		return nil, false
	}
	return m.arena.text, true
}

// MapName is the map being played.
func (m *Match) MapName() string {
	if m.shape.data != nil {
		return m.shape.data.name
	}
	return "arena"
}

// ArenaRadius is the current arena's radius in world units.
func (m *Match) ArenaRadius() float32 { return m.arena.radius }

// AuthParams are the game's own auth fields.
func (m *Match) AuthParams() []game.AuthParam {
	return []game.AuthParam{{Name: "model", Value: "s1", Options: map[string]any{
		"control": "select", "label": "Snake", "options": []string{"s1"},
		"validator": "isValidModel", "storage": "model",
	}}}
}

// AuthTexts is the auth screen text block: the 0.15 game's, or the older
// one's with its vote key.
func (m *Match) AuthTexts() any {
	line := func(k, t string) map[string]any { return map[string]any{"keys": k, "text": t} }
	sep := map[string]any{"separator": true}
	if m.cfg.Dialect == Dialect06 {
		last := line("Tab", "stats")
		last["last"] = true
		return map[string]any{"title": "Snakes", "sections": []any{
			map[string]any{"heading": "How to play", "lines": []any{
				line("A, D", "turn"), line("W", "boost (burns crystals)"), line("R", "respawn after a crash"), sep,
				line("", "eat crystals to grow"), line("", "the edge and other snakes kill you"), line("", "your own tail does not"), sep,
				line("C", "chat"), line("M", "vote"), last,
			}},
		}}
	}
	last := line("<Tab>", "stats")
	last["last"] = true
	return map[string]any{"title": "Snakes", "sections": []any{
		map[string]any{"heading": "How to play", "lines": []any{
			line("a, d", "turn"), line("w", "boost (burns crystals)"), line("r", "respawn after a crash"), sep,
			line("", "eat crystals to grow"), line("", "the edge and other snakes kill you"), line("", "your own tail does not"), sep,
			line("c", "chat"), last,
		}},
	}}
}

// ValidateAuth checks the game's fields.
func (m *Match) ValidateAuth(fields map[string]string) []string {
	if fields["model"] != "s1" {
		return []string{"model"}
	}
	return nil
}

// Join creates the participant of an authenticated user: a spectator
// until it votes to play, or, in a game without that vote, a player whose
// snake comes when it is ready.
func (m *Match) Join(uid int, name string) (string, bool) {
	gid := m.FreeID()
	if gid == 0 {
		return "", false
	}
	team := Spectators
	if m.rules.joinPlays {
		team = Players // one team, no spectators: the snake comes when ready
	}
	p := &player{gid: gid, name: m.UniqueName(name), team: team, human: &human{Seat: game.Seat{UID: uid}}}
	m.AddUser(uid, gid, p)
	m.statRow(p)
	return p.name, true
}

// Leave removes a user's participant at once; everyone is told when it
// was in the game.
func (m *Match) Leave(uid int) {
	if p, ok := m.Users.Take(uid); ok && p != nil {
		m.removePlayer(p)
		if p.human.Ready {
			m.outbox.Chat("s:6:" + p.name)
		}
	}
}

func (m *Match) removePlayer(p *player) {
	m.dropSnake(p)
	m.Drop(p.gid)
	m.outbox.StatGone(p.gid, p.team)
	m.outbox.HeadsDue()
}

// SetLatency records a user's smoothed round-trip time for the stat table.
func (m *Match) SetLatency(uid int, ms int) {
	if p, ok := m.Users.SetLatency(uid, ms); ok {
		m.statRow(p)
	}
}

// ModulesReady sends the arena.
func (m *Match) ModulesReady(uid int) {
	p, ok := m.Users.EnterGame(uid)
	if !ok {
		return
	}
	m.out.JSON(uid, protocol.TechInformData, []int{2})
	m.sendMap(p)
}

func (m *Match) sendMap(p *player) {
	p.human.sentSize = m.arena.size
	m.out.JSON(p.human.UID, protocol.MapData, json.RawMessage(m.arena.text))
}

// MapReady answers the first MAP_READY with FIRST_SHOT_DATA, the stat
// table and the panel; a MAP_READY after a resize needs no answer.
func (m *Match) MapReady(uid int) {
	p := m.Users[uid]
	if p == nil || !p.human.InGame || p.human.Ready {
		return
	}
	h := p.human
	m.out.JSON(h.UID, protocol.FirstShotData, []any{m.firstShot(), 0, m.nowMs, 0})
	// The whole table goes with the first shot in both versions; 0.15 sends
	// no updates after it (Tab shows the leaderboard), so this is where its
	// clients learn the names of those already in the room.
	m.out.JSON(h.UID, protocol.StatData, []any{m.fullStatRows(), m.headRows(), true})
	m.sendAccoladesTo(p)
	h.panel = panel{}
	h.sentPanel = panel{t: -1}
	m.out.JSON(h.UID, protocol.KeysetData, 0)
}

// FirstShotReady makes the user ready: frames and meta start flowing, and
// the crystal field is sent whole with the next frame.
func (m *Match) FirstShotReady(uid int) {
	p := m.Users[uid]
	if p == nil || !p.human.InGame || p.human.Ready {
		return
	}
	p.human.Ready = true
	m.field.resync = true
	m.out.JSON(uid, protocol.TechInformData, nil)
	if m.rules.joinPlays {
		// One team and no vote: the player is in the arena at once.
		if p.snake == nil {
			m.spawn(p)
		}
	} else {
		m.out.JSON(uid, protocol.VoteData, map[string]string{"name": "teamChange"})
	}
	m.outbox.Chat("s:5:" + p.name)
}

// firstShot lists the live snakes (FIRST_SHOT_DATA carries no crystals).
func (m *Match) firstShot() any {
	shot := game.NewFirstShot(m.wire.keyS1)
	for _, p := range m.Players {
		if p == nil || !hasLiveSnake(p) {
			continue
		}
		var r snakeRow
		m.rowOf(p.snake, &r)
		v := m.row(len(m.wire.keyS1.Fields))
		packSnake(&m.wire.s1, v, &r)
		shot.Add(p.gid, v)
	}
	return shot.Snapshot()
}
