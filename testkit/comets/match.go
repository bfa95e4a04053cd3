package comets

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"vimpclient/host"
	"vimpclient/host/game"
	"vimpclient/host/packer"
	"vimpclient/protocol"
	"vimpclient/snapschema"
)

// GameID is the game's manifest id: what a host announces, -game names
// and the client's registry matches.
const GameID = "comets"

// The host's clock: the room loop steps a match 120 times a second; the
// match sends a frame every sendEvery steps (30 a second).
const (
	stepsPerSecond = 120
	sendEvery      = 4
	maxComets      = 200 // ids are one byte (an indexed8 key)
)

// snapshot is the schema of the game's frames: one key, k1, with a row
// per comet.
const snapshot = `{"version":5,"port":5,"keys":{"k1":{"id":1,"kind":"indexed8","class":"hot","fields":[
	{"name":"x","ty":"f32","interp":"lerp"},
	{"name":"y","ty":"f32","interp":"lerp"},
	{"name":"angle","ty":"f32","interp":"lerpAngle"}]}}}`

// HostGame is the game as the embedded host lists it: a host that should
// run it lists it in host.Config.Games.
func HostGame() host.GameInfo {
	return host.GameInfo{ID: GameID, Title: "Comets", Maps: []string{"field"},
		New: func(o host.MatchOptions) (game.Match, error) { return NewMatch(o) }}
}

// Match is one room of comets.
type Match struct {
	out    game.Out
	log    *slog.Logger
	config json.RawMessage
	mapTxt []byte
	key    *snapschema.Key
	rnd    *rand.Rand
	frame  packer.Frame
	vals   [3]packer.Value

	comets  [maxComets]*Comet
	bots    []uint8 // ids of the bots' comets
	players map[int]*player
	gone    []uint8 // ids whose removal the next frame carries
	steps   int
	seq     uint32
	nowMs   float64
}

// player is one connected user.
type player struct {
	name  string
	id    uint8 // the user's comet, 0 before the first shot
	ready bool
	seq   uint32 // the last input seq, echoed in the player block
}

// NewMatch builds a room with o.Bots bot comets.
func NewMatch(o host.MatchOptions) (*Match, error) {
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	schema, err := snapschema.Parse([]byte(snapshot))
	if err != nil {
		return nil, fmt.Errorf("comets: %w", err)
	}
	m := &Match{log: log, key: schema.Key("k1"), players: map[int]*player{},
		rnd: rand.New(rand.NewPCG(o.Seed, 1))}
	if m.config, err = configData(); err != nil {
		return nil, err
	}
	if m.mapTxt, err = mapData(); err != nil {
		return nil, err
	}
	for range min(o.Bots, 16) {
		if id, ok := m.spawn(); ok {
			m.bots = append(m.bots, id)
		}
	}
	return m, nil
}

// configData is CONFIG_DATA: the engine's modules as far as the game uses
// them (one canvas, the camera, two turn keys), the parts section that
// names the Comet class, and the snapshot schema.
func configData() (json.RawMessage, error) {
	b, err := json.Marshal(map[string]any{
		"interpolation": map[string]any{"delay": 100, "maxFrameAge": 1000},
		"modules": map[string]any{
			"canvasManager": map[string]any{"canvases": map[string]any{
				"vimp": map[string]any{"width": FieldW, "height": FieldH, "aspectRatio": "16:10", "baseScale": "1:1"}}},
			"controls": map[string]any{
				"cmds":       map[string]string{"13": "enter", "27": "escape"},
				"keySetList": []map[string]string{{}, {"65": "left", "68": "right", "37": "left", "39": "right"}},
			},
		},
		"parts": map[string]any{
			"gameSets":         map[string][]string{"k1": {"Comet"}},
			"entitiesOnCanvas": map[string]string{"Comet": "vimp"},
		},
		"snapshot": json.RawMessage(snapshot),
	})
	if err != nil {
		return nil, fmt.Errorf("comets: CONFIG_DATA: %w", err)
	}
	return b, nil
}

// mapData is the one map: an empty field of 32-unit cells.
func mapData() ([]byte, error) {
	const step = 32
	grid := make([][]int, FieldH/step)
	for i := range grid {
		grid[i] = make([]int, FieldW/step)
	}
	b, err := json.Marshal(map[string]any{"setId": "c1", "scale": 1, "step": step, "map": grid, "layers": map[string]any{}})
	if err != nil {
		return nil, fmt.Errorf("comets: MAP_DATA: %w", err)
	}
	return b, nil
}

// spawn adds a comet at a random place and heading.
func (m *Match) spawn() (uint8, bool) {
	for id := 1; id < maxComets; id++ {
		if m.comets[id] == nil {
			m.comets[id] = &Comet{X: float32(m.rnd.Float64() * FieldW), Y: float32(m.rnd.Float64() * FieldH),
				Angle: float32(m.rnd.Float64()*2*math.Pi - math.Pi)}
			return uint8(id), true
		}
	}
	return 0, false
}

func (m *Match) remove(id uint8) {
	if id != 0 && m.comets[id] != nil {
		m.comets[id] = nil
		m.gone = append(m.gone, id)
	}
}

// SetOut implements game.Match.
func (m *Match) SetOut(o game.Out) { m.out = o }

// ConfigData implements game.Match.
func (m *Match) ConfigData() json.RawMessage { return m.config }

// MapNames and MapText implement game.Catalog, MapName game.Match: one
// map.
func (m *Match) MapNames() []string { return []string{"field"} }
func (m *Match) MapText(name string) ([]byte, bool) {
	return m.mapTxt, name == "field"
}
func (m *Match) MapName() string { return "field" }

// AuthParams, AuthTexts and ValidateAuth implement game.Authenticator:
// the host's own name field is all the game asks.
func (m *Match) AuthParams() []game.AuthParam            { return nil }
func (m *Match) AuthTexts() any                          { return nil }
func (m *Match) ValidateAuth(map[string]string) []string { return nil }

// Join implements game.Match: the user watches until its first shot.
func (m *Match) Join(uid int, name string) (string, bool) {
	if len(m.players) >= maxComets/2 {
		return "", false
	}
	m.players[uid] = &player{name: name}
	return name, true
}

// Leave implements game.Match: the user's comet goes with it.
func (m *Match) Leave(uid int) {
	if p := m.players[uid]; p != nil {
		m.remove(p.id)
		delete(m.players, uid)
	}
}

// SetLatency implements game.LatencyRecorder, Playing game.Spectators.
func (m *Match) SetLatency(int, int)  {}
func (m *Match) Playing(uid int) bool { return m.players[uid] != nil }

// ModulesReady implements game.Match: the loading notice, then the map.
func (m *Match) ModulesReady(uid int) {
	if m.players[uid] == nil {
		return
	}
	m.out.JSON(uid, protocol.TechInformData, []int{2})
	m.out.JSON(uid, protocol.MapData, json.RawMessage(m.mapTxt))
}

// MapReady implements game.Match: the first shot (the live comets, as the
// snapshot key's rows by id) and the spectators' key set.
func (m *Match) MapReady(uid int) {
	if m.players[uid] == nil {
		return
	}
	rows := map[string][]float32{}
	for id, c := range m.comets {
		if c != nil {
			rows[fmt.Sprint(id)] = []float32{c.X, c.Y, c.Angle}
		}
	}
	m.out.JSON(uid, protocol.FirstShotData, []any{map[string]any{"k1": rows}, 0, m.nowMs, 0})
	m.out.JSON(uid, protocol.KeysetData, 0)
}

// FirstShotReady implements game.Match: the user gets a comet and the
// players' key set, and frames start.
func (m *Match) FirstShotReady(uid int) {
	p := m.players[uid]
	if p == nil || p.ready {
		return
	}
	id, ok := m.spawn()
	if !ok {
		return
	}
	p.id, p.ready = id, true
	m.out.JSON(uid, protocol.TechInformData, nil)
	m.out.JSON(uid, protocol.KeysetData, 1)
}

// Keys implements game.Match: "seq:down:left" and the like turn the
// user's comet while held. Anything else is ignored.
func (m *Match) Keys(uid int, payload string) {
	p := m.players[uid]
	if p == nil || p.id == 0 {
		return
	}
	f := strings.Split(payload, ":")
	if len(f) != 3 || (f[1] != "down" && f[1] != "up") {
		return
	}
	seq, err := strconv.ParseUint(f[0], 10, 32)
	if err != nil {
		return
	}
	p.seq = uint32(seq)
	c := m.comets[p.id]
	var dir int8
	switch f[2] {
	case "left":
		dir = -1
	case "right":
		dir = 1
	default:
		return
	}
	switch {
	case f[1] == "down":
		c.Turn = dir
	case c.Turn == dir:
		c.Turn = 0
	}
}

// Chat and Vote implement game.Chatter and game.Voter: the game has
// neither.
func (m *Match) Chat(int, string)          {}
func (m *Match) Vote(int, json.RawMessage) {}

// Step implements game.Match: every comet moves; the bots change their
// turn now and then; every sendEvery steps each ready user gets a frame.
func (m *Match) Step(nowMs float64) {
	m.nowMs = nowMs
	m.steps++
	for _, id := range m.bots {
		if m.steps%stepsPerSecond == int(id)%stepsPerSecond {
			m.comets[id].Turn = int8(m.rnd.IntN(3)) - 1
		}
	}
	for _, c := range m.comets {
		if c != nil {
			c.Step(1.0 / stepsPerSecond)
		}
	}
	if m.steps%sendEvery == 0 {
		m.send()
	}
}

// send packs and sends each ready user its frame: the camera on its comet,
// the player block (its comet's id and pose, the last input seq), every
// comet's row and the removals since the last frame.
func (m *Match) send() {
	m.seq++
	for uid, p := range m.players {
		if !p.ready {
			continue
		}
		own := m.comets[p.id]
		cam := &packer.Camera{X: own.X, Y: own.Y}
		pl := &packer.Player{GameID: p.id, InputSeq: p.seq, State: [8]float32{own.X, own.Y, own.Angle}}
		m.frame.Start(m.seq, m.nowMs, cam, pl)
		m.frame.Block(m.key)
		for _, id := range m.gone {
			m.frame.NullRow(uint32(id))
		}
		for id, c := range m.comets {
			if c != nil {
				m.vals = [3]packer.Value{packer.F(c.X), packer.F(c.Y), packer.F(c.Angle)}
				m.frame.Row(uint32(id), m.vals[:])
			}
		}
		b, err := m.frame.Bytes()
		if err != nil {
			m.log.Error("comets: pack frame", "err", err)
			continue
		}
		m.out.Frame(uid, b, len(m.gone) > 0)
	}
	m.gone = m.gone[:0]
}
