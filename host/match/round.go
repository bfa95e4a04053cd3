package match

import (
	"encoding/json"
	"strconv"
	"strings"

	"vimpclient/games/tanks"
)

func (m *Match) loadMap(name string) {
	m.current = m.maps[name]
	m.mapStart = m.tick
	m.bombs = m.bombs[:0]
	m.resetCrates()
}

// addBot adds a bot to the smaller playing team; it waits as dead for the
// next round.
func (m *Match) addBot() bool { return m.addBotTo(0) }

// addBotTo adds a bot to team, or to the smaller team when team is 0.
func (m *Match) addBotTo(team int) bool {
	gid := m.freeGID()
	if gid == 0 {
		return false
	}
	var counts [4]int
	for _, p := range m.players {
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
	for _, p := range m.players {
		if p != nil && p.bot != nil {
			n++
		}
	}
	p := &player{gid: gid, name: m.uniqueName(botName(n)), team: team, bot: &botBrain{}}
	p.dead = true
	m.players[gid] = p
	if m.restartAt == 0 && m.tick-m.roundStart <= graceTicks {
		m.spawnAtFreeSpot(p) // within the grace period a newcomer plays at once
	}
	m.statRow(p)
	return true
}

// startRound respawns every team member and tells every ready human.
func (m *Match) startRound() {
	m.recordScores() // the round that ends is a result
	m.roundStart = m.tick
	m.restartAt = 0
	for _, id := range m.activeIDs() {
		m.removed = append(m.removed, id)
	}
	m.bombs = m.bombs[:0]
	m.resetCrates()
	var used [3]int
	for _, p := range m.players {
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
			*p.bot = botBrain{}
		}
	}
	for _, p := range m.players {
		if p == nil || p.human == nil || !p.human.ready {
			continue
		}
		uid := p.human.uid
		m.out.JSON(uid, 11, []string{"w2", "m1", "w1", "w2e"})
		if p.tank != nil {
			m.sendFullPanel(p)
			m.out.JSON(uid, 17, 1)
		} else {
			m.sendEmptyPanel(p)
			m.out.JSON(uid, 17, 0)
		}
		p.human.forceReset = true
		m.out.JSON(uid, 6, "roundStart")
		m.out.JSON(uid, 7, []any{1})
	}
}

func (m *Match) activeIDs() []uint8 {
	var ids []uint8
	for _, p := range m.players {
		if p != nil && p.tank != nil {
			ids = append(ids, p.gid)
		}
	}
	return ids
}

func (m *Match) roundSecondsLeft() int {
	left := int64(m.cfg.RoundSeconds)*TicksPerSecond - (m.tick - m.roundStart)
	return int(max(0, (left+TicksPerSecond-1)/TicksPerSecond))
}

func (m *Match) sendFullPanel(p *player) {
	h := p.human
	t := p.tank
	h.panel = panelState{active: true, t: m.roundSecondsLeft(), h: t.health, w1: t.ammo[0], w2: t.ammo[1], wa: weaponKey(t.weapon)}
	h.sentPanel = h.panel
	h.sentPanel.wa = "w1" // the full panel carries no wa; a change to w2 still goes out
	m.out.JSON(h.uid, 13, []string{"t:" + strconv.Itoa(h.panel.t), "h:" + strconv.Itoa(t.health),
		"w1:" + strconv.Itoa(t.ammo[0]), "w2:" + strconv.Itoa(t.ammo[1])})
}

func (m *Match) sendEmptyPanel(p *player) {
	h := p.human
	h.panel = panelState{t: m.roundSecondsLeft()}
	h.sentPanel = h.panel
	m.out.JSON(h.uid, 13, []string{"t:" + strconv.Itoa(h.panel.t), "h", "w1", "w2"})
}

// Keys applies a KEYS_DATA payload "seq:action:name".
func (m *Match) Keys(uid int, payload string) {
	p := m.byUID[uid]
	if p == nil {
		return
	}
	parts := strings.SplitN(payload, ":", 4)
	if len(parts) < 3 {
		return
	}
	seq, err := strconv.ParseUint(parts[0], 10, 32)
	if err != nil {
		return
	}
	p.human.inputSeq = uint32(seq)
	down := parts[1] == "down"
	if !down && parts[1] != "up" {
		return // aim messages and unknown actions: tanks has no pointer
	}
	if p.tank == nil || !p.tank.alive() || p.team == Spectators {
		if down && p.human.ready && (parts[2] == "nextPlayer" || parts[2] == "prevPlayer") {
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

func (m *Match) switchWatch(p *player, forward bool) {
	var ids []uint8
	for _, q := range m.players {
		if q != nil && q.tank != nil && q.tank.alive() {
			ids = append(ids, q.gid)
		}
	}
	if len(ids) == 0 {
		return
	}
	cur := -1
	for i, id := range ids {
		if id == p.human.watch {
			cur = i
		}
	}
	next := 0
	if cur >= 0 {
		if forward {
			next = (cur + 1) % len(ids)
		} else {
			next = (cur - 1 + len(ids)) % len(ids)
		}
	}
	p.human.watch = ids[next]
	p.human.forceReset = true
}

// Chat handles a CHAT_DATA line: commands or a broadcast.
func (m *Match) Chat(uid int, text string) {
	p := m.byUID[uid]
	if p == nil || !p.human.ready {
		return
	}
	text = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, text)
	if r := []rune(text); len(r) > 60 {
		text = string(r[:60])
	}
	if text == "" {
		return
	}
	if strings.HasPrefix(text, "/") {
		m.command(p, text)
		return
	}
	m.chatAll = enqueue(m.chatAll, []any{text, p.name, p.team})
}

func (m *Match) command(p *player, text string) {
	f := strings.Fields(text)
	h := p.human
	switch f[0] {
	case "/timeleft":
		left := int64(m.cfg.MapSeconds)*TicksPerSecond - (m.tick - m.mapStart)
		s := max(0, left/TicksPerSecond)
		h.chat = enqueue(h.chat, []any{strconv.Itoa(int(s/60)) + ":" + pad2(int(s%60))})
	case "/mapname":
		h.chat = enqueue(h.chat, "m:0:"+m.current.Name)
	case "/name":
		if len(f) != 2 || !ValidName(f[1]) {
			h.chat = enqueue(h.chat, "n:0")
			return
		}
		old := p.name
		p.name = m.uniqueName(f[1])
		m.statRow(p)
		m.chatAll = enqueue(m.chatAll, "n:1:"+old+","+p.name)
		m.out.JSON(h.uid, 9, map[string]string{"key": "localstorageNameReplace", "value": p.name})
	case "/bot":
		m.botCommand(p, f[1:])
	default:
		h.chat = enqueue(h.chat, "c:0")
	}
}

// botCommand handles /bot <count> [team]: a count adds bots, 0 removes
// them (from one team or all).
func (m *Match) botCommand(p *player, args []string) {
	h := p.human
	if p.team == Spectators {
		h.chat = enqueue(h.chat, "b:0")
		return
	}
	if len(args) == 0 || len(args) > 2 {
		h.chat = enqueue(h.chat, "b:1")
		return
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || n > 20 {
		h.chat = enqueue(h.chat, "b:1")
		return
	}
	team := 0
	if len(args) == 2 {
		if args[1] == teamKey(Team1) {
			team = Team1
		} else if args[1] == teamKey(Team2) {
			team = Team2
		} else {
			h.chat = enqueue(h.chat, "b:2")
			return
		}
	}
	if n == 0 {
		for _, q := range m.players {
			if q != nil && q.bot != nil && (team == 0 || q.team == team) {
				m.removePlayer(q)
			}
		}
		if team == 0 {
			m.chatAll = enqueue(m.chatAll, "b:6")
		} else {
			m.chatAll = enqueue(m.chatAll, "b:4:"+teamKey(team))
		}
		return
	}
	added := 0
	for added < n && m.addBotTo(team) {
		added++
	}
	if team == 0 {
		m.chatAll = enqueue(m.chatAll, "b:5:"+strconv.Itoa(added))
	} else {
		m.chatAll = enqueue(m.chatAll, "b:3:"+strconv.Itoa(added)+","+teamKey(team))
	}
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// ValidName is the engine's isValidName rule: ^[a-zA-Z]([\w\s#]{0,13})[\w]$.
func ValidName(s string) bool {
	if len(s) < 2 || len(s) > 15 {
		return false
	}
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || !word(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !word(c) && c != '#' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}

// Vote handles VOTE_DATA: "teams", "maps" or [name, value].
func (m *Match) Vote(uid int, raw json.RawMessage) {
	p := m.byUID[uid]
	if p == nil || !p.human.ready {
		return
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "teams":
			p.human.votes = enqueue(p.human.votes, []string{"team1", "team2", "spectators"})
		case "maps":
			list := []string{}
			for _, n := range m.rotation() {
				if n != m.current.Name {
					list = append(list, n)
				}
			}
			p.human.votes = enqueue(p.human.votes, list)
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
		h.chat = enqueue(h.chat, "s:1:"+teamKey(team))
		return
	}
	if team != Spectators && !m.makeRoom(team) {
		h.chat = enqueue(h.chat, "s:0:"+teamKey(team)+","+teamKey(p.team))
		return
	}
	m.statRows = append(m.statRows, []any{strconv.Itoa(int(p.gid)), p.team, nil})
	if p.tank != nil {
		m.removed = append(m.removed, p.gid)
		p.tank = nil
	}
	p.team = team
	p.dead = team != Spectators
	m.statRow(p)
	others := 0
	for _, q := range m.players {
		if q != nil && q != p && q.human != nil && q.team != Spectators {
			others++
		}
	}
	switch {
	case others < 2 && team != Spectators:
		m.recordScores()
		for _, q := range m.players {
			if q != nil {
				q.score, q.deaths = 0, 0
				m.statRow(q)
			}
		}
		h.chat = enqueue(h.chat, "s:2:"+teamKey(team))
		m.startRound()
	case team == Spectators:
		m.sendEmptyPanel(p)
		m.out.JSON(h.uid, 17, 0)
		h.chat = enqueue(h.chat, "s:3")
		m.checkWipe()
	default:
		h.chat = enqueue(h.chat, "s:2:"+teamKey(team))
		if m.tick-m.roundStart <= graceTicks {
			m.spawnAtFreeSpot(p)
			m.sendFullPanel(p)
			m.out.JSON(h.uid, 17, 1)
		} else {
			m.sendEmptyPanel(p)
			m.out.JSON(h.uid, 17, 0)
		}
	}
}

// makeRoom reports whether team has a free respawn slot, evicting a bot to
// the other team's bench if needed.
func (m *Match) makeRoom(team int) bool {
	n := 0
	var bot *player
	for _, q := range m.players {
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
	m.removePlayer(bot)
	return true
}

func (m *Match) spawnAtFreeSpot(p *player) {
	spots := m.current.Data.Spawns(teamKey(p.team))
	scale := float32(m.current.Data.Scale)
	for _, s := range spots {
		x, y := float32(s.X)*scale, float32(s.Y)*scale
		free := true
		for _, q := range m.players {
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
	for _, p := range m.players {
		if p != nil && p.human != nil && p.human.ready {
			hs = append(hs, p)
		}
	}
	return hs
}

func (m *Match) proposeMap(p *player, name string) {
	if _, ok := m.maps[name]; !ok || m.Pinned() {
		return // only listed maps, and none on a pinned match; an unknown name must not crash the room
	}
	hs := m.humansReady()
	if len(hs) <= 1 {
		m.changeMap(name)
		return
	}
	if m.vote != nil || m.mapChangeAt != 0 {
		p.human.chat = enqueue(p.human.chat, "v:3")
		return
	}
	m.vote = &vote{name: "mapChangeByUser", mapName: name, ends: m.tick + int64(m.cfg.VoteSeconds)*TicksPerSecond,
		ballots: map[uint8]string{p.gid: "Yes"}}
	p.human.chat = enqueue(p.human.chat, "v:0", "v:1")
	for _, q := range hs {
		if q != p {
			q.human.votes = enqueue(q.human.votes, map[string]any{"name": "mapChangeByUser", "params": []string{p.name, name}})
		}
	}
}

func (m *Match) ballot(p *player, name, value string) {
	if m.vote == nil || m.vote.name != name {
		return
	}
	m.vote.ballots[p.gid] = value
	p.human.chat = enqueue(p.human.chat, "v:2")
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
	m.voteAll = enqueue(m.voteAll, map[string]any{"name": "mapChangeBySystem", "values": list})
}

func (m *Match) finishVote() {
	v := m.vote
	m.vote = nil
	winner := ""
	if v.system {
		count := map[string]int{}
		for _, b := range v.ballots {
			if _, ok := m.maps[b]; ok {
				count[b]++
			}
		}
		best := 0
		for _, n := range MapNames() {
			if count[n] > best {
				best, winner = count[n], n
			}
		}
		if winner == "" {
			m.mapStart = m.tick // nobody voted: the current map is extended
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
			m.chatAll = enqueue(m.chatAll, "v:5")
			return
		}
		winner = v.mapName
	}
	m.chatAll = enqueue(m.chatAll, "v:4", "m:1:"+winner)
	m.nextMap = winner
	m.mapChangeAt = m.tick + mapDelayTicks
}

// changeMap moves every human to the spectators and sends the new map.
func (m *Match) changeMap(name string) {
	m.mapChangeAt = 0
	m.vote = nil
	m.recordScores()
	m.loadMap(name)
	m.removed = append(m.removed, m.activeIDs()...)
	for _, p := range m.players {
		if p == nil {
			continue
		}
		p.score, p.deaths = 0, 0
		p.tank = nil
		if p.human == nil {
			continue
		}
		if p.team != Spectators {
			m.statRows = append(m.statRows, []any{strconv.Itoa(int(p.gid)), p.team, nil})
			p.team = Spectators
		}
		h := p.human
		h.chat, h.votes = nil, nil
		if !h.inGame {
			continue
		}
		m.sendEmptyPanel(p)
		m.out.JSON(h.uid, 17, 0)
		m.out.JSON(h.uid, 11, nil)
		m.sendMap(p)
	}
	m.roundsWon, m.roundsLost = [3]int{}, [3]int{}
	for _, p := range m.players {
		if p != nil {
			m.statRow(p)
		}
	}
	m.startRound()
}
