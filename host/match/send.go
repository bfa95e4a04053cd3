package match

import (
	"strconv"

	"vimpclient/host/game"
	"vimpclient/host/packer"
)

// Step runs one 120 Hz simulation step at host wall time nowMs (epoch ms)
// and, every fourth step, sends the frames and per-tick meta to every
// ready user.
func (m *Match) Step(nowMs float64) {
	m.nowMs = nowMs
	m.tick++
	m.thinkBots()
	m.step()
	switch {
	case m.round.mapChangeAt != 0 && m.tick >= m.round.mapChangeAt:
		m.changeMap(m.round.nextMap)
	case m.round.restartAt != 0 && m.tick >= m.round.restartAt:
		m.startRound()
	case m.tick-m.round.start >= int64(m.cfg.RoundSeconds)*TicksPerSecond:
		m.startRound()
	}
	if m.vote != nil && m.tick >= m.vote.ends {
		m.finishVote()
	}
	if m.vote == nil && m.round.mapChangeAt == 0 && m.tick-m.round.mapStart >= int64(m.cfg.MapSeconds)*TicksPerSecond {
		if len(m.humansReady()) > 0 && !m.Pinned() {
			m.systemVote()
		} else {
			m.round.mapStart = m.tick
		}
	}
	if m.tick%sendEvery == 0 {
		m.send()
	}
}

func (m *Match) statRow(p *player) {
	m.outbox.StatRow(m.statCells(p))
}

func (m *Match) statCells(p *player) []any {
	status := ""
	if p.team != Spectators && (p.dead || p.tank != nil && !p.tank.alive()) {
		status = "dead"
	}
	lat := game.LatencyCell(p.Seat())
	return []any{strconv.Itoa(int(p.gid)), p.team, []any{p.name, status, p.score, p.deaths, lat}}
}

func (m *Match) fullStatRows() []any { return m.StatRows(m.statCells) }

func (m *Match) headRows() []any {
	var count [4]int
	for _, p := range m.Players {
		if p != nil {
			count[p.team]++
		}
	}
	heads := make([]any, 0, 3)
	for t := Team1; t <= Spectators; t++ {
		won, lost := 0, 0
		if t != Spectators {
			won, lost = m.round.won[t], m.round.lost[t]
		}
		heads = append(heads, []any{t, []any{count[t], "", won, lost}})
	}
	return heads
}

// send packs the shared frame body once, then sends every ready user its
// header (camera, player block) with that body, and the tick's meta.
func (m *Match) send() {
	m.wire.seq++
	m.packBody()
	reliable := len(m.events.shots) > 0 || len(m.events.planted) > 0 || len(m.events.detonated) > 0 || len(m.events.explosions) > 0 || len(m.events.removed) > 0
	meta := m.outbox.Take(m.headRows)
	secs := m.roundSecondsLeft()
	for p, seat := range m.Ready() {
		m.sendFrame(p, reliable)
		h := p.human
		h.panel.t = secs
		meta.Send(m.out, seat, panelDiff(&h.panel, &h.sentPanel))
	}
	m.sendAccolades()
	m.events.shots = m.events.shots[:0]
	m.events.planted = m.events.planted[:0]
	m.events.detonated = m.events.detonated[:0]
	m.events.explosions = m.events.explosions[:0]
	m.events.removed = m.events.removed[:0]
}

func panelDiff(cur, sent *panelState) []string {
	var items []string
	if cur.t != sent.t {
		items = append(items, "t:"+strconv.Itoa(cur.t))
	}
	if cur.active {
		if cur.h != sent.h {
			items = append(items, "h:"+strconv.Itoa(cur.h))
		}
		if cur.w1 != sent.w1 {
			items = append(items, "w1:"+strconv.Itoa(cur.w1))
		}
		if cur.w2 != sent.w2 {
			items = append(items, "w2:"+strconv.Itoa(cur.w2))
		}
		if cur.wa != sent.wa && cur.wa != "" {
			items = append(items, "wa:"+cur.wa)
		}
	}
	*sent = *cur
	return items
}

func (m *Match) row(n int) []packer.Value {
	if cap(m.wire.vals) < n {
		m.wire.vals = make([]packer.Value, n)
	}
	return m.wire.vals[:n]
}

// packBody packs the blocks every user shares: m1, w1, w2, w2e, c1.
func (m *Match) packBody() {
	f := &m.wire.frame
	f.Start(0, 0, nil, nil)
	f.Block(m.wire.keyM1)
	for _, id := range m.events.removed {
		if m.Players[id] == nil || m.Players[id].tank == nil {
			f.NullRow(uint32(id))
		}
	}
	for _, p := range m.Players {
		if p == nil || p.tank == nil {
			continue
		}
		r := p.tank.values(p, m.rules.model.Size, m.current.geom)
		v := m.row(len(m.wire.keyM1.Fields))
		packTank(&m.wire.rows.m1, v, &r)
		f.Row(uint32(p.gid), v)
	}
	if len(m.events.shots) > 0 {
		f.Block(m.wire.keyW1)
		for i := range m.events.shots {
			v := m.row(len(m.wire.keyW1.Fields))
			packTracer(&m.wire.rows.w1, v, &m.events.shots[i])
			f.ListRow(v)
		}
	}
	if len(m.events.planted) > 0 || len(m.events.detonated) > 0 {
		f.Block(m.wire.keyW2)
		l := &m.wire.rows.w2
		for _, b := range m.events.planted {
			v := m.row(len(m.wire.keyW2.Fields))
			v[l.X.Index()], v[l.Y.Index()], v[l.Angle.Index()] = packer.F(packer.Round2(b.x)), packer.F(packer.Round2(b.y)), packer.F(0)
			v[l.Size.Index()], v[l.Time.Index()], v[l.Author.Index()] = packer.I(m.rules.wp.w2Size), packer.I(m.rules.wp.w2FuseMs), packer.I(uint32(b.owner))
			if l.Level.Bound() {
				v[l.Level.Index()] = packer.I(uint32(max(b.level, 0)))
			}
			f.Row(b.id, v)
		}
		for _, id := range m.events.detonated {
			f.NullRow(id)
		}
	}
	if len(m.events.explosions) > 0 {
		f.Block(m.wire.keyW2E)
		for i := range m.events.explosions {
			v := m.row(len(m.wire.keyW2E.Fields))
			packExplosion(&m.wire.rows.w2e, v, &m.events.explosions[i])
			f.ListRow(v)
		}
	}
	f.Block(m.wire.keyC1)
	cl, width := &m.wire.rows.c1, len(m.wire.keyC1.Fields)
	for i := range m.crates {
		b := &m.crates[i].body
		ox, oy := b.Corner()
		// A resting body sends only the mandatory head (the pose).
		moving := abs(b.VX) >= 0.01 || abs(b.VY) >= 0.01 || abs(b.AngVel) >= 0.01
		n := width
		if !moving && m.wire.keyC1.OptionalFrom > 0 {
			n = m.wire.keyC1.OptionalFrom
		}
		v := m.row(width)
		v[cl.X.Index()], v[cl.Y.Index()], v[cl.Angle.Index()] = packer.F(packer.Round2(ox)), packer.F(packer.Round2(oy)), packer.F(packer.Round2(b.Angle))
		v[cl.VX.Index()], v[cl.VY.Index()], v[cl.AngVel.Index()] = packer.F(packer.Round2(b.VX)), packer.F(packer.Round2(b.VY)), packer.F(packer.Round2(b.AngVel))
		if cl.Layered() {
			lv := &m.crates[i].lv
			v[cl.Z.Index()], v[cl.Level.Index()] = packer.F(packer.Round2(lv.Z)), packer.I(uint32(lv.Level))
		}
		if cl.State.Bound() {
			v[cl.State.Index()] = packer.I(uint32(m.terrain.props.State(i)))
		}
		f.Row(uint32(i), v[:n])
	}
	body, err := f.Bytes()
	if err != nil {
		m.log.Error("pack frame body", "err", err)
		m.wire.body = m.wire.body[:0]
		return
	}
	m.wire.body = append(m.wire.body[:0], body[headerLen:]...)
}

// headerLen is the size of a frame header without camera or player block.
const headerLen = 15

func abs(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

func (m *Match) sendFrame(p *player, reliable bool) {
	h := p.human
	camera := packer.Camera{ForceReset: h.forceReset}
	cam := &camera
	var pl *packer.Player
	var block packer.Player
	if t := p.tank; t != nil && t.alive() && p.team != Spectators {
		cam.X, cam.Y = packer.Round2(t.st.X), packer.Round2(t.st.Y)
		s := &t.st
		block = packer.Player{GameID: p.gid, InputSeq: h.InputSeq,
			State: [8]float32{s.X, s.Y, s.Angle, s.VX, s.VY, s.AngVel, s.Gun, s.Throttle}, Centering: s.Centering}
		pl = &block
	} else if w := m.watched(p); w != nil {
		cam.X, cam.Y = packer.Round2(w.tank.st.X), packer.Round2(w.tank.st.Y)
	} else {
		// Nobody alive to watch: the frame carries no camera, which a client
		// reads as "keep the last one" (a camera at the origin would throw
		// the view to the map's corner). A pending reset or shake goes with
		// it, as it went with the origin before: the next camera comes
		// with a reset of its own (a round start, a kill, a switch).
		cam = nil
	}
	if cam != nil {
		if h.shake != "" {
			cam.Shake = h.shake
			reliable = true
		}
		if h.forceReset {
			reliable = true
		}
	}
	h.forceReset, h.shake = false, ""
	m.wire.frame.Start(m.wire.seq, m.nowMs, cam, pl)
	if err := game.SendFrame(m.out, h.UID, &m.wire.frame, m.wire.body, reliable); err != nil {
		m.log.Error("frame not sent", "err", err)
	}
}

// watched returns the player a spectator or dead player looks at: the
// chosen one if still alive, else the first alive tank.
func (m *Match) watched(p *player) *player {
	w, _ := game.Watched(m.Players[:], &p.human.Watch, hasLiveTank)
	return w
}

// hasLiveTank reports whether q is one a camera may follow.
func hasLiveTank(q *player) bool { return q.tank != nil && q.tank.alive() }
