// Package match is the tanks-compatible match the embedded host runs: the
// game's CONFIG_DATA and auth fields (a real tanks 0.13 host's; the 2.5D
// dialect on a layered map, see dialect.go), the map catalog (generated
// flat maps in rotation and the bundled layered bridge, which only
// Config.Map plays; Config.Map pins any one), the authoritative world
// (tanks and crates on the map's levels, stepped by the rules of package
// tanks that the client predicts with; hitscan shots and bombs at their
// level), rounds, teams, votes, chat, the scoreboard and the HUD panel,
// bots, and the 30 Hz snapshot frames, whose tank and crate rows carry
// each body's height and level when the schema names them.
// A Match is owned by one goroutine (the host's room loop) and has no
// locks; everything it sends goes through the Out it was given.
package match

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"

	"vimpclient/games/tanks"
	"vimpclient/host/game"
	"vimpclient/host/packer"
	"vimpclient/protocol"
	"vimpclient/snapschema"
)

// The match answers every optional role of a game.Match but resume, which
// resume.go adds.
var (
	_ game.Match           = (*Match)(nil)
	_ game.Catalog         = (*Match)(nil)
	_ game.Authenticator   = (*Match)(nil)
	_ game.LatencyRecorder = (*Match)(nil)
	_ game.Spectators      = (*Match)(nil)
	_ game.Chatter         = (*Match)(nil)
	_ game.Voter           = (*Match)(nil)
)

// The built-in game data of each dialect: what a tanks 0.13 host on the
// 0.14 engine sends (config.json) and what today's tanks 0.22 host on the
// 0.35–0.36 engine sends (config-0.22.json), the game's own CONFIG_DATA.
var (
	//go:embed config.json
	configJSON []byte
	//go:embed config-0.22.json
	config022JSON []byte
)

// Dialects of the built-in game data.
const (
	Dialect013 = "0.13"
	Dialect022 = "0.22"
	// DefaultDialect is today's tanks.
	DefaultDialect = Dialect022
)

// Dialects lists the dialects a match speaks, the default first.
func Dialects() []string { return []string{Dialect022, Dialect013} }

// Out receives everything the match sends to one connected user.
type Out = game.Out

// Config tunes a match.
type Config struct {
	Bots int
	// BotSkill is the bots' preset (the zero value: easy, as the game
	// ships them).
	BotSkill BotSkill
	Seed     uint64
	// RoundSeconds, MapSeconds, VoteSeconds default to 120, 600 and 10.
	RoundSeconds, MapSeconds, VoteSeconds int
	// Map pins the match to one catalog map: it is played from the start
	// and never rotated, voted or proposed away. "" plays the rotation
	// from its first map.
	Map string
	// Dialect picks the built-in game data's CONFIG_DATA: Dialect022 (""
	// too) or Dialect013. It means nothing with Game.
	Dialect string
	// Game replaces the built-in game data (config.json and the map
	// catalog) with another tanks game's; nil plays the built-in one.
	Game *GameData
	Log  *slog.Logger
}

// GameData is a tanks game's own data, as a real host of it sends it: the
// CONFIG_DATA, sent verbatim (its snapshot schema must be one the match
// writes: the rows are bound by field name, and fields the match has no
// value for are refused), and the maps' MAP_DATA, sent verbatim, in
// rotation order.
type GameData struct {
	Config []byte
	Maps   []MapData
}

// MapData is one map of a GameData: its name and MAP_DATA text.
type MapData struct {
	Name string
	Text []byte
}

// Team ids and keys (tanks: team1, team2, spectators).
const (
	Team1      = 1
	Team2      = 2
	Spectators = 3
)

// teamKey is the key of a team id in votes and informs.
func teamKey(team int) string {
	switch team {
	case Team1:
		return "team1"
	case Team2:
		return "team2"
	case Spectators:
		return "spectators"
	}
	return ""
}

// Timing in simulation ticks (120 Hz) and send ticks (every 4th).
const (
	TicksPerSecond = 120
	sendEvery      = 4
	graceTicks     = 10 * TicksPerSecond
	restartTicks   = 5 * TicksPerSecond
	mapDelayTicks  = 2 * TicksPerSecond
	maxHealth      = 100
)

// Match is one room's game.
type Match struct {
	cfg     Config
	out     Out
	log     *slog.Logger
	rng     *rand.Rand
	config  json.RawMessage
	rules   matchRules
	catalog catalog
	current *Map
	terrain terrain

	tick  int64
	nowMs float64
	game.Roster[*player]
	crates     []crateObj
	solver     tanks.Solver
	bodies     []*tanks.Body
	nextBombID uint32
	bombs      []bomb

	round  roundState
	events sendEvents
	outbox game.Outbox // the meta for everyone
	vote   *vote
	board  board      // the host's own leaderboard (ACCOLADES_DATA)
	teams  teamBoards // the teams' shared pictures
	wire   frameWriter
}

// matchRules are the rules the match steps, fires and plays bots by, as
// the CONFIG_DATA it sends announces them to the clients' prediction.
type matchRules struct {
	model  tanks.Model
	wp     weaponRules      // the config's weapons
	tilt   *tanks.Tilt      // how hulls lean (coreParams; nil: they do not)
	levels tanks.LevelRules // the levels' rules (falls of mapFallTime per level)
	skill  BotSkill         // the bots' preset
	// surfaces are coreParams.surfaces (nil: none), props coreParams.props.
	surfaces *tanks.SurfaceRules
	props    []tanks.PropType
}

// catalog is the maps a match may play.
type catalog struct {
	maps  map[string]*Map
	names []string // the catalog, in rotation order
	flat  []string // the rotation of an unpinned match: the flat maps
}

// terrain is what the rules make of the current map: its SurfaceMap and
// wall heights, built for the map of, and the current round's props of
// the map's bodies (nil: none).
type terrain struct {
	surfaces    *tanks.SurfaceMap
	wallHeights *tanks.WallHeights
	of          *Map
	props       *tanks.Props
}

// roundState is the clock of rounds and maps (in steps) and the teams'
// round tallies.
type roundState struct {
	start       int64
	restartAt   int64 // 0: none pending
	mapChangeAt int64
	nextMap     string
	mapStart    int64
	won, lost   [3]int // by team id
}

// sendEvents are the events of the current send period, which the next
// frame carries.
type sendEvents struct {
	shots      []tracer
	planted    []bomb
	detonated  []uint32
	explosions []explosion
	removed    []uint8
}

// teamBoards are the teams' shared pictures by team id, renewed at step
// next.
type teamBoards struct {
	boards [3]teamBoard
	next   int64
}

// frameWriter packs the snapshot frames: the keys of the schema the match
// sends, where each value goes in their rows, the frame being written,
// the shared body of the current one and its sequence number.
type frameWriter struct {
	keyM1, keyW1, keyW2, keyW2E, keyC1 *snapschema.Key
	rows                               rowLayouts
	frame                              packer.Frame
	body                               []byte
	vals                               []packer.Value
	seq                                uint32
}

type player struct {
	gid    uint8
	name   string
	team   int
	bot    *botBrain
	human  *human
	score  int
	deaths int
	dead   bool // in a playing team but without a live tank this round
	tank   *tankObj
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
	currentMap string
	forceReset bool
	shake      string
	panel      panelState
	sentPanel  panelState
}

type panelState struct {
	active    bool
	t         int
	h, w1, w2 int
	wa        string
}

// New builds a match with its maps and starts the first round.
func New(cfg Config) (*Match, error) {
	if cfg.RoundSeconds <= 0 {
		cfg.RoundSeconds = 120
	}
	if cfg.MapSeconds <= 0 {
		cfg.MapSeconds = 600
	}
	if cfg.VoteSeconds <= 0 {
		cfg.VoteSeconds = 10
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.BotSkill < BotEasy || cfg.BotSkill > BotHard {
		return nil, fmt.Errorf("match: %v is no bot skill", cfg.BotSkill)
	}
	var maps map[string]*Map
	var names []string
	var err error
	if cfg.Game != nil {
		maps, names, err = gameMaps(cfg.Game.Maps)
	} else {
		maps, err = catalogMaps()
		names = MapNames()
		if cfg.Dialect != Dialect013 {
			names = rotation022()
		}
	}
	if err != nil {
		return nil, err
	}
	first := names[0]
	if cfg.Map != "" {
		if maps[cfg.Map] == nil {
			return nil, fmt.Errorf("match: no map %q (the catalog: %s)", cfg.Map, strings.Join(names, ", "))
		}
		first = cfg.Map
	}
	compact, err := configData(&cfg, maps[first])
	if err != nil {
		return nil, fmt.Errorf("match config: %w", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(compact, &top); err != nil {
		return nil, fmt.Errorf("match config: %w", err)
	}
	schema, err := snapschema.Parse(top["snapshot"])
	if err != nil {
		return nil, fmt.Errorf("match config: %w", err)
	}
	rows, err := bindRowLayouts(schema)
	if err != nil {
		return nil, fmt.Errorf("match config: %w", err)
	}
	// The fall time the clients predict with is the one the match steps
	// with: both read prediction.mapFallTime (the game's default when the
	// dialect has none).
	levels := tanks.DefaultLevelRules()
	var pred struct {
		MapFallTime *float64        `json:"mapFallTime"`
		Models      json.RawMessage `json:"models"`
		Weapons     json.RawMessage `json:"weapons"`
		CoreParams  json.RawMessage `json:"coreParams"`
	}
	if err := json.Unmarshal(top["prediction"], &pred); err != nil {
		return nil, fmt.Errorf("match config: prediction: %w", err)
	}
	// The tank and the weapons the clients predict are the ones the match
	// steps and fires.
	model, err := parseModel(pred.Models)
	if err != nil {
		return nil, fmt.Errorf("match config: prediction: %w", err)
	}
	wp, err := parseWeapons(pred.Weapons)
	if err != nil {
		return nil, fmt.Errorf("match config: prediction: %w", err)
	}
	if pred.MapFallTime != nil {
		levels.Fall.TimePerLevel = float32(*pred.MapFallTime)
	}
	// The 0.22 rules (ballistic flight, surfaces) the clients predict
	// with are the ones the match steps with: both read coreParams.
	core, err := tanks.ParseCoreParams(pred.CoreParams)
	if err != nil {
		return nil, fmt.Errorf("match config: prediction: %w", err)
	}
	var tilt *tanks.Tilt
	if core.Levels != nil {
		core.Levels.Apply(&levels)
		tilt = &core.Levels.Tilt
	}
	m := &Match{
		cfg: cfg, log: cfg.Log, rng: rand.New(rand.NewPCG(cfg.Seed, 0x74616e6b73)),
		config: compact,
		wire: frameWriter{keyM1: schema.Key("m1"), keyW1: schema.Key("w1"), keyW2: schema.Key("w2"),
			keyW2E: schema.Key("w2e"), keyC1: schema.Key("c1"), rows: rows},
		catalog: catalog{maps: maps, names: names, flat: flatNames(maps, names)},
		Roster:  game.Roster[*player]{Users: game.Users[*player]{}},
		out:     game.Discard{},
		rules: matchRules{model: model, wp: wp, levels: levels, skill: cfg.BotSkill,
			surfaces: core.Surfaces, props: core.Props, tilt: tilt},
		teams: teamBoards{boards: [3]teamBoard{{rolesAt: -1}, {rolesAt: -1}, {rolesAt: -1}}},
	}
	m.loadMap(first)
	for i := 0; i < cfg.Bots; i++ {
		m.addBot()
	}
	m.startRound()
	return m, nil
}

// SetOut connects the match to its transport.
func (m *Match) SetOut(o Out) { m.out = o }

// ConfigData is the CONFIG_DATA payload.
func (m *Match) ConfigData() json.RawMessage { return m.config }

// MapNames returns the catalog.
func (m *Match) MapNames() []string { return m.catalog.names }

// Pinned reports whether the match plays one map only (Config.Map).
func (m *Match) Pinned() bool { return m.cfg.Map != "" }

// rotation is the maps a vote may move the match to: none when pinned,
// else the catalog's flat maps (a layered map speaks another dialect than
// the one the connection was configured with, so only a pinned match plays
// one).
func (m *Match) rotation() []string {
	if m.Pinned() {
		return nil
	}
	return m.catalog.flat
}

// inRotation reports whether a vote may move the match to the map name.
func (m *Match) inRotation(name string) bool {
	for _, n := range m.rotation() {
		if n == name {
			return true
		}
	}
	return false
}

// MapText returns the catalog JSON of a map (for the HTTP map endpoints).
func (m *Match) MapText(name string) ([]byte, bool) {
	mp, ok := m.catalog.maps[name]
	if !ok {
		return nil, false
	}
	return mp.Text, true
}

// AuthParam is one auth form field descriptor.
type AuthParam = game.AuthParam

// AuthParams are the game's own auth fields (the host puts its guest
// name field first).
func (m *Match) AuthParams() []AuthParam {
	return []AuthParam{{Name: "model", Value: "m1", Options: map[string]any{
		"control": "select", "label": "Model", "options": []string{"m1"},
		"validator": "isValidModel", "storage": "model",
	}}}
}

// AuthTexts is the auth screen text block, as the tanks game writes it: a
// line with last ends a group of the controls, a separator line stands
// between the command groups.
func (m *Match) AuthTexts() any {
	line := func(k, t string) map[string]any { return map[string]any{"keys": k, "text": t} }
	last := func(k, t string) map[string]any { return map[string]any{"keys": k, "text": t, "last": true} }
	return map[string]any{"title": "Tank Battle", "sections": []any{
		map[string]any{"heading": "Controls", "lines": []any{
			line("w, a, s, d", "move the tank"), line("k, l", "turn the gun"), line("u", "center the gun"),
			line("j", "fire"), last("n, p", "switch weapon/player"),
			line("c", "chat/command line"), line("m", "menu"), last("<Tab>", "stats"),
		}},
		map[string]any{"heading": "Command line", "lines": []any{
			line("/name <name>", "change nickname"), line("/mapname", "show current map name"), line("/timeleft", "map time left"),
			map[string]any{"separator": true},
			line("/bot <count>", "add bot(s)"), line("/bot <count> <team>", "add to team"),
			line("/bot 0", "remove all bots"), line("/bot 0 <team>", "remove from team"),
		}},
	}}
}

// ValidateAuth checks the game's fields; it returns the names of the
// fields whose validator failed.
func (m *Match) ValidateAuth(fields map[string]string) []string {
	if fields["model"] != "m1" {
		return []string{"model"}
	}
	return nil
}

// MapName is the name of the map being played.
func (m *Match) MapName() string {
	if m.current == nil {
		return ""
	}
	return m.current.Name
}

// Full reports whether no game id is left for another participant.
func (m *Match) Full() bool { return m.FreeID() == 0 }

// Join creates the participant of an authenticated user as a spectator and
// returns its final name, or false when no game id is free.
func (m *Match) Join(uid int, name string) (string, bool) {
	gid := m.FreeID()
	if gid == 0 {
		return "", false
	}
	p := &player{gid: gid, name: m.UniqueName(name), team: Spectators, human: &human{Seat: game.Seat{UID: uid}}}
	m.AddUser(uid, gid, p)
	m.statRow(p)
	m.board.dirty = true // a new participant's place
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
		if p.team != Spectators && m.balanceTeams() {
			m.checkWipe()
		}
	}
}

func (m *Match) removePlayer(p *player) {
	m.recordScore(p)
	m.board.dirty = true
	if p.tank != nil {
		m.events.removed = append(m.events.removed, p.gid)
	}
	m.Drop(p.gid)
	m.outbox.StatGone(p.gid, p.team)
	m.outbox.HeadsDue()
	if m.vote != nil {
		delete(m.vote.ballots, p.gid)
	}
	m.checkWipe()
}

// SetLatency records a user's smoothed round-trip time for the scoreboard.
func (m *Match) SetLatency(uid int, ms int) {
	if p, ok := m.Users.SetLatency(uid, ms); ok {
		m.statRow(p)
	}
}

// ModulesReady starts loading the current map for the user.
func (m *Match) ModulesReady(uid int) {
	p, ok := m.Users.EnterGame(uid)
	if !ok {
		return
	}
	m.sendMap(p)
}

func (m *Match) sendMap(p *player) {
	p.human.Ready = false
	p.human.currentMap = m.current.Name
	m.out.JSON(p.human.UID, protocol.TechInformData, []int{2})
	m.out.JSON(p.human.UID, protocol.MapData, json.RawMessage(m.current.Text))
}

// MapReady answers a MAP_READY.
func (m *Match) MapReady(uid int) {
	p := m.Users[uid]
	if p == nil || !p.human.InGame {
		return
	}
	h := p.human
	switch {
	case h.currentMap != m.current.Name:
		m.sendMap(p)
	case !h.Ready:
		m.out.JSON(h.UID, protocol.FirstShotData, []any{m.firstShot(), 0, m.nowMs, 0})
		m.out.JSON(h.UID, protocol.StatData, []any{m.fullStatRows(), m.headRows(), true})
		m.sendEmptyPanel(p)
		m.out.JSON(h.UID, protocol.KeysetData, 0)
	}
}

// FirstShotReady makes the user ready: frames and meta start flowing.
func (m *Match) FirstShotReady(uid int) {
	p := m.Users[uid]
	if p == nil || !p.human.InGame {
		return
	}
	p.human.Ready = true
	m.out.JSON(uid, protocol.TechInformData, nil)
	m.sendAccoladesTo(p)
	m.out.JSON(uid, protocol.VoteData, map[string]string{"name": "teamChange"})
	m.outbox.Chat("s:5:" + p.name)
}

func (m *Match) firstShot() any {
	shot := game.NewFirstShot(m.wire.keyM1)
	for _, p := range m.Players {
		if p == nil || p.tank == nil {
			continue
		}
		r := p.tank.values(p, m.rules.model.Size, m.current.geom)
		v := m.row(len(m.wire.keyM1.Fields))
		packTank(&m.wire.rows.m1, v, &r)
		shot.Add(p.gid, v)
	}
	return shot.Snapshot()
}
