package snakesmatch

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"vimpclient/games/snakes"
	"vimpclient/host/game"
	"vimpclient/protocol"
)

// Keys applies a KEYS_DATA payload: "seq:down|up:command" or the pointer's
// "seq:aim:x:y:flags" (flags bit 0 pressed, bit 1 a double tap: boost).
func (m *Match) Keys(uid int, payload string) {
	p, parts, ok := m.Users.Keys(uid, payload)
	if !ok {
		return
	}
	o := p.snake
	if parts[1] == "aim" {
		if len(parts) != 5 || o == nil {
			return
		}
		x, errX := strconv.ParseFloat(parts[2], 32)
		y, errY := strconv.ParseFloat(parts[3], 32)
		flags, errF := strconv.ParseUint(parts[4], 10, 32)
		if errX != nil || errY != nil || errF != nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return
		}
		applyAim(o, float32(x), float32(y), uint32(flags))
		return
	}
	down := parts[1] == "down"
	if len(parts) != 3 || !down && parts[1] != "up" {
		return
	}
	if o == nil {
		if down && p.human.Ready && (parts[2] == "nextPlayer" || parts[2] == "prevPlayer") {
			m.switchWatch(p, parts[2] == "nextPlayer")
		}
		return
	}
	applyKey(o, parts[2], down)
}

// applyAim is the pointer rule the client predicts with: a release drops
// the aim and the pointer's boost.
func applyAim(o *snakeObj, x, y float32, flags uint32) {
	if flags&1 == 0 {
		o.aim, o.ptrBoost = false, false
		return
	}
	o.aim, o.aimX, o.aimY, o.ptrBoost = true, x, y, flags&2 != 0
}

// applyKey: left, right and boost are held; a left or right press takes
// the steering back from the pointer; respawn is a request a crashed snake
// takes on its next step (pressed while alive it is dropped).
func applyKey(o *snakeObj, name string, down bool) {
	var bit uint32
	switch name {
	case "left":
		bit = keyLeft
	case "right":
		bit = keyRight
	case "boost":
		bit = keyBoost
	case "respawn":
		if down && !o.s.Alive {
			o.respawn = true
		}
		return
	default:
		return
	}
	if !down {
		o.held &^= bit
		return
	}
	o.held |= bit
	if bit != keyBoost {
		o.aim = false
	}
}

// switchWatch moves a watching player's camera to the next (or the
// previous) live snake.
func (m *Match) switchWatch(p *player, forward bool) {
	if game.SwitchWatch(m.Players[:], &p.human.Watch, forward, hasLiveSnake) {
		p.human.forceReset = true
	}
}

// Vote handles VOTE_DATA: "teams" asks for the list, ["teamChange", team]
// plays or watches (the older game; 0.15 has no vote).
func (m *Match) Vote(uid int, raw json.RawMessage) {
	p := m.Users[uid]
	if p == nil || !p.human.Ready || m.rules.joinPlays {
		return // a game without the vote to play has none to answer
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "teams" {
			p.human.QueueVote([]string{"players", "spectators"})
		}
		return
	}
	var pair []string
	if json.Unmarshal(raw, &pair) != nil || len(pair) != 2 || pair[0] != "teamChange" {
		return
	}
	m.teamChange(p, pair[1])
}

func (m *Match) teamChange(p *player, key string) {
	team := 0
	switch key {
	case "players":
		team = Players
	case "spectators":
		team = Spectators
	default:
		return
	}
	h := p.human
	if team == p.team {
		h.QueueChat("s:1:" + key)
		return
	}
	m.outbox.StatGone(p.gid, p.team)
	p.team = team
	if team == Spectators {
		m.dropSnake(p)
		m.statRow(p)
		m.out.JSON(h.UID, protocol.KeysetData, 0)
		h.QueueChat("s:3")
		return
	}
	m.spawn(p)
	h.QueueChat("s:2:" + key)
}

// Chat handles a CHAT_DATA line: a command or a line for everyone.
func (m *Match) Chat(uid int, text string) {
	p := m.Users[uid]
	if p == nil || !p.human.Ready {
		return
	}
	text, f, ok := game.ReadChat(text)
	if !ok {
		return
	}
	if f == nil {
		// The name in the colour of the player's snake, as a 4th element.
		line := []any{text, p.name, p.team}
		if p.snake != nil {
			line = append(line, snakes.CSSColour(p.snake.color))
		}
		m.outbox.Chat(line)
		return
	}
	h := p.human
	switch f[0] {
	case "/mapname":
		h.QueueChat("m:0:arena")
	case "/name":
		if name, ok := m.outbox.Rename(m.out, &h.Seat, p.name, f, m.UniqueName); ok {
			p.name = name
			m.statRow(p)
		}
	case "/bot":
		m.botCommand(f[1:])
	default:
		h.QueueChat("c:0")
	}
}

// botCommand is "/bot N": the arena gets exactly N bot snakes.
func (m *Match) botCommand(args []string) {
	n, err := strconv.Atoi(strings.TrimSpace(strings.Join(args, "")))
	if len(args) != 1 || err != nil || n < 0 {
		m.outbox.Chat("g:1")
		return
	}
	for _, p := range m.Players {
		if p != nil && p.bot != nil {
			m.removePlayer(p)
		}
	}
	made := 0
	for made < n && m.addBot() {
		made++
	}
	m.outbox.Chat("g:0:" + strconv.Itoa(made))
}
