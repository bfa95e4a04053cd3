package match

import (
	"strconv"

	"vimpclient/games/tanks"
	"vimpclient/host/game"
	"vimpclient/protocol"
)

func (m *Match) loadMap(name string) {
	m.current = m.catalog.maps[name]
	m.round.mapStart = m.tick
	m.bombs = m.bombs[:0]
	m.resetCrates()
}

// addBot adds a bot to the smaller playing team; it waits as dead for the
// next round.
func (m *Match) addBot() bool { return m.addBotTo(0) }

// addBotTo adds a bot to team, or to the smaller team when team is 0.
func (m *Match) addBotTo(team int) bool {
	gid := m.FreeID()
	if gid == 0 {
		return false
	}
	var counts [4]int
	for _, p := range m.Players {
		if p != nil {
			counts[p.team]++
		}
	}
	if team == 0 {
		team = Team1
		if counts[Team2] < counts[Team1] {
			team = Team2
		}
	}
	if counts[team] >= len(m.current.Data.Spawns(teamKey(team))) {
		return false
	}
	n := 0
	for _, p := range m.Players {
		if p != nil && p.bot != nil {
			n++
		}
	}
	p := &player{gid: gid, name: m.UniqueName(botName(n)), team: team, bot: m.newBotBrain()}
	p.dead = true
	m.Players[gid] = p
	if m.round.restartAt == 0 && m.tick-m.round.start <= graceTicks {
		m.spawnAtFreeSpot(p) // within the grace period a newcomer plays at once
	}
	m.statRow(p)
	return true
}

// startRound respawns every team member and tells every ready human.
func (m *Match) startRound() {
	m.recordScores() // the round that ends is a result
	m.round.start = m.tick
	m.round.restartAt = 0
	for _, id := range m.activeIDs() {
		m.events.removed = append(m.events.removed, id)
	}
	m.bombs = m.bombs[:0]
	m.resetCrates()
	var used [3]int
	for _, p := range m.Players {
		if p == nil {
			continue
		}
		p.tank = nil
		p.dead = false
		if p.team == Spectators {
			continue
		}
		spots := m.current.Data.Spawns(teamKey(p.team))
		if used[p.team] >= len(spots) {
			p.dead = true
			continue
		}
		s := spots[used[p.team]]
		used[p.team]++
		m.spawnTank(p, s)
		m.statRow(p)
		if p.bot != nil {
			p.bot.reset()
		}
	}
	for _, p := range m.Players {
		if p == nil || p.human == nil || !p.human.Ready {
			continue
		}
		uid := p.human.UID
		m.out.JSON(uid, protocol.Clear, []string{"w2", "m1", "w1", "w2e"})
		if p.tank != nil {
			m.sendFullPanel(p)
			m.out.JSON(uid, protocol.KeysetData, 1)
		} else {
			m.sendEmptyPanel(p)
			m.out.JSON(uid, protocol.KeysetData, 0)
		}
		p.human.forceReset = true
		m.out.JSON(uid, protocol.SoundData, "roundStart")
		m.out.JSON(uid, protocol.GameInformData, []any{1})
	}
}

func (m *Match) activeIDs() []uint8 {
	var ids []uint8
	for _, p := range m.Players {
		if p != nil && p.tank != nil {
			ids = append(ids, p.gid)
		}
	}
	return ids
}

func (m *Match) roundSecondsLeft() int {
	left := int64(m.cfg.RoundSeconds)*TicksPerSecond - (m.tick - m.round.start)
	return int(max(0, (left+TicksPerSecond-1)/TicksPerSecond))
}

func (m *Match) sendFullPanel(p *player) {
	h := p.human
	t := p.tank
	h.panel = panelState{active: true, t: m.roundSecondsLeft(), h: t.health, w1: t.ammo[0], w2: t.ammo[1], wa: weaponKey(t.weapon)}
	h.sentPanel = h.panel
	h.sentPanel.wa = "w1" // the full panel carries no wa; a change to w2 still goes out
	m.out.JSON(h.UID, protocol.PanelData, []string{"t:" + strconv.Itoa(h.panel.t), "h:" + strconv.Itoa(t.health),
		"w1:" + strconv.Itoa(t.ammo[0]), "w2:" + strconv.Itoa(t.ammo[1])})
}

func (m *Match) sendEmptyPanel(p *player) {
	h := p.human
	h.panel = panelState{t: m.roundSecondsLeft()}
	h.sentPanel = h.panel
	m.out.JSON(h.UID, protocol.PanelData, []string{"t:" + strconv.Itoa(h.panel.t), "h", "w1", "w2"})
}

// Keys applies a KEYS_DATA payload "seq:action:name".
func (m *Match) Keys(uid int, payload string) {
	p, parts, ok := m.Users.Keys(uid, payload)
	if !ok {
		return
	}
	down := parts[1] == "down"
	if !down && parts[1] != "up" {
		return // aim messages and unknown actions: tanks has no pointer
	}
	if p.tank == nil || !p.tank.alive() || p.team == Spectators {
		if down && p.human.Ready && (parts[2] == "nextPlayer" || parts[2] == "prevPlayer") {
			m.switchWatch(p, parts[2] == "nextPlayer")
		}
		return
	}
	bit, ok := keyBit(parts[2])
	if !ok {
		return
	}
	t := p.tank
	switch {
	case bit&tanks.OneShotKeys != 0:
		if down {
			t.oneShot |= bit
		}
	case down:
		t.keys |= bit
	default:
		t.keys &^= bit
	}
}

// keyBit maps a player key command to its prediction.playerKeys bit.
func keyBit(name string) (uint32, bool) {
	switch name {
	case "forward":
		return tanks.KeyForward, true
	case "back":
		return tanks.KeyBack, true
	case "left":
		return tanks.KeyLeft, true
	case "right":
		return tanks.KeyRight, true
	case "gunCenter":
		return tanks.KeyGunCenter, true
	case "gunLeft":
		return tanks.KeyGunLeft, true
	case "gunRight":
		return tanks.KeyGunRight, true
	case "fire":
		return tanks.KeyFire, true
	case "nextWeapon":
		return tanks.KeyNextWeapon, true
	case "prevWeapon":
		return tanks.KeyPrevWeapon, true
	}
	return 0, false
}

// botName is the n-th bot's name.
func botName(n int) string {
	names := [...]string{"Bolt", "Rivet", "Gauge", "Sprocket", "Piston", "Ratchet", "Torque", "Axle",
		"Flange", "Gasket", "Crank", "Spindle", "Ferrule", "Tappet", "Cam", "Lug"}
	return names[n%len(names)]
}

// switchWatch moves a watching player's camera to the next (or the
// previous) live tank.
func (m *Match) switchWatch(p *player, forward bool) {
	if game.SwitchWatch(m.Players[:], &p.human.Watch, forward, hasLiveTank) {
		p.human.forceReset = true
	}
}

// changeMap moves every human to the spectators and sends the new map.
func (m *Match) changeMap(name string) {
	m.round.mapChangeAt = 0
	m.vote = nil
	m.recordScores()
	m.loadMap(name)
	m.events.removed = append(m.events.removed, m.activeIDs()...)
	for _, p := range m.Players {
		if p == nil {
			continue
		}
		p.score, p.deaths = 0, 0
		p.tank = nil
		if p.human == nil {
			continue
		}
		if p.team != Spectators {
			m.outbox.StatGone(p.gid, p.team)
			p.team = Spectators
		}
		h := p.human
		h.DropQueues()
		if !h.InGame {
			continue
		}
		m.sendEmptyPanel(p)
		m.out.JSON(h.UID, protocol.KeysetData, 0)
		m.out.JSON(h.UID, protocol.Clear, nil)
		m.sendMap(p)
	}
	m.round.won, m.round.lost = [3]int{}, [3]int{}
	for _, p := range m.Players {
		if p != nil {
			m.statRow(p)
		}
	}
	m.startRound()
}
