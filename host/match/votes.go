package match

import (
	"encoding/json"

	"vimpclient/protocol"
)

// Votes: the team change, map proposals and the system votes.

// Vote handles VOTE_DATA: "teams", "maps" or [name, value].
func (m *Match) Vote(uid int, raw json.RawMessage) {
	p := m.Users[uid]
	if p == nil || !p.human.Ready {
		return
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "teams":
			p.human.QueueVote([]string{"team1", "team2", "spectators"})
		case "maps":
			list := []string{}
			for _, n := range m.rotation() {
				if n != m.current.Name {
					list = append(list, n)
				}
			}
			p.human.QueueVote(list)
		}
		return
	}
	var pair []json.RawMessage
	if json.Unmarshal(raw, &pair) != nil || len(pair) != 2 {
		return
	}
	var name, value string
	if json.Unmarshal(pair[0], &name) != nil || json.Unmarshal(pair[1], &value) != nil {
		return
	}
	switch name {
	case "teamChange":
		m.teamChange(p, value)
	case "mapChange":
		m.proposeMap(p, value)
	default:
		m.ballot(p, name, value)
	}
}

// teamChange moves p to the team key names: the same team is only
// confirmed, a team without room is refused, and while fewer than two
// other humans play the scores reset and a new round starts.
func (m *Match) teamChange(p *player, key string) {
	team := 0
	for i := Team1; i <= Spectators; i++ {
		if teamKey(i) == key {
			team = i
		}
	}
	h := p.human
	if team == 0 {
		return
	}
	if team == p.team {
		h.QueueChat("s:1:" + teamKey(team))
		return
	}
	if team != Spectators && !m.makeRoom(team) {
		h.QueueChat("s:0:" + teamKey(team) + "," + teamKey(p.team))
		return
	}
	m.outbox.StatGone(p.gid, p.team)
	if p.tank != nil {
		m.events.removed = append(m.events.removed, p.gid)
		p.tank = nil
	}
	p.team = team
	p.dead = team != Spectators
	m.statRow(p)
	if m.balanceTeams() {
		m.checkWipe()
	}
	others := 0
	for _, q := range m.Players {
		if q != nil && q != p && q.human != nil && q.team != Spectators {
			others++
		}
	}
	switch {
	case others < 2 && team != Spectators:
		m.recordScores()
		for _, q := range m.Players {
			if q != nil {
				q.score, q.deaths = 0, 0
				m.statRow(q)
			}
		}
		h.QueueChat("s:2:" + teamKey(team))
		m.startRound()
	case team == Spectators:
		m.sendEmptyPanel(p)
		m.out.JSON(h.UID, protocol.KeysetData, 0)
		h.QueueChat("s:3")
		m.checkWipe()
	default:
		h.QueueChat("s:2:" + teamKey(team))
		if m.tick-m.round.start <= graceTicks {
			m.spawnAtFreeSpot(p)
			m.sendFullPanel(p)
			m.out.JSON(h.UID, protocol.KeysetData, 1)
		} else {
			m.sendEmptyPanel(p)
			m.out.JSON(h.UID, protocol.KeysetData, 0)
		}
	}
}

// makeRoom reports whether team has a free respawn slot, moving a bot to
// the other team (or, with no room there either, out of the match) if
// needed.
func (m *Match) makeRoom(team int) bool {
	n := 0
	var bot *player
	for _, q := range m.Players {
		if q != nil && q.team == team {
			n++
			if q.bot != nil {
				bot = q
			}
		}
	}
	if n < len(m.current.Data.Spawns(teamKey(team))) {
		return true
	}
	if bot == nil {
		return false
	}
	other := 3 - team
	n = 0
	for _, q := range m.Players {
		if q != nil && q.team == other {
			n++
		}
	}
	if n < len(m.current.Data.Spawns(teamKey(other))) {
		m.moveBot(bot, other) // the bot changes sides rather than leaves
		return true
	}
	m.removePlayer(bot)
	return true
}

func (m *Match) spawnAtFreeSpot(p *player) {
	spots := m.current.Data.Spawns(teamKey(p.team))
	scale := float32(m.current.Data.Scale)
	for _, s := range spots {
		x, y := float32(s.X)*scale, float32(s.Y)*scale
		free := true
		for _, q := range m.Players {
			if q != nil && q.tank != nil {
				dx, dy := q.tank.st.X-x, q.tank.st.Y-y
				if dx*dx+dy*dy < 100 {
					free = false
				}
			}
		}
		if free {
			m.spawnTank(p, s)
			return
		}
	}
	m.spawnTank(p, spots[0])
}

type vote struct {
	name    string
	mapName string
	ends    int64
	ballots map[uint8]string
	system  bool
}

func (m *Match) humansReady() []*player {
	var hs []*player
	for _, p := range m.Players {
		if p != nil && p.human != nil && p.human.Ready {
			hs = append(hs, p)
		}
	}
	return hs
}

func (m *Match) proposeMap(p *player, name string) {
	if !m.inRotation(name) {
		return // only the rotation's maps, and none on a pinned match; an unknown name must not crash the room
	}
	hs := m.humansReady()
	if len(hs) <= 1 {
		m.changeMap(name)
		return
	}
	if m.vote != nil || m.round.mapChangeAt != 0 {
		p.human.QueueChat("v:3")
		return
	}
	m.vote = &vote{name: "mapChangeByUser", mapName: name, ends: m.tick + int64(m.cfg.VoteSeconds)*TicksPerSecond,
		ballots: map[uint8]string{p.gid: "Yes"}}
	p.human.QueueChat("v:0", "v:1")
	for _, q := range hs {
		if q != p {
			q.human.QueueVote(map[string]any{"name": "mapChangeByUser", "params": []string{p.name, name}})
		}
	}
}

func (m *Match) ballot(p *player, name, value string) {
	if m.vote == nil || m.vote.name != name {
		return
	}
	m.vote.ballots[p.gid] = value
	p.human.QueueChat("v:2")
}

func (m *Match) systemVote() {
	var list []string
	for _, n := range m.rotation() {
		if n != m.current.Name {
			list = append(list, n)
		}
	}
	m.vote = &vote{name: "mapChangeBySystem", ends: m.tick + int64(m.cfg.VoteSeconds)*TicksPerSecond,
		ballots: map[uint8]string{}, system: true}
	m.outbox.Vote(map[string]any{"name": "mapChangeBySystem", "values": list})
}

func (m *Match) finishVote() {
	v := m.vote
	m.vote = nil
	winner := ""
	if v.system {
		count := map[string]int{}
		for _, b := range v.ballots {
			if m.inRotation(b) {
				count[b]++
			}
		}
		best := 0
		for _, n := range m.rotation() {
			if count[n] > best {
				best, winner = count[n], n
			}
		}
		if winner == "" {
			m.round.mapStart = m.tick // nobody voted: the current map is extended
			return
		}
	} else {
		yes, no := 0, 0
		for _, b := range v.ballots {
			if b == "Yes" {
				yes++
			} else {
				no++
			}
		}
		if yes <= no {
			m.outbox.Chat("v:5")
			return
		}
		winner = v.mapName
	}
	m.outbox.Chat("v:4", "m:1:"+winner)
	m.round.nextMap = winner
	m.round.mapChangeAt = m.tick + mapDelayTicks
}
