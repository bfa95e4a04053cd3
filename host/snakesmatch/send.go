package snakesmatch

import (
	"math"
	"strconv"
	"strings"

	"vimpclient/games/snakes"
	"vimpclient/host/game"
	"vimpclient/host/packer"
)

// panel is a human's panel: crystals eaten, kills, score, crystals
// carried, dead (0 alive, else carried-at-crash + 1: the client's crash
// card), the drive mode and the round time.
type panel struct {
	active        bool
	e, k, s, c, d int
	wa            string
	t             int
}

// diff lists the items that changed since sent and makes sent current.
func (p *panel) diff(sent *panel) []string {
	var items []string
	num := func(key string, cur, old int) {
		if cur != old {
			items = append(items, key+":"+strconv.Itoa(cur))
		}
	}
	num("t", p.t, sent.t)
	if p.active && !sent.active {
		// A new snake's panel goes out whole.
		*sent = panel{t: p.t, e: -1, k: -1, s: -1, c: -1, d: -1}
	}
	if p.active || sent.active {
		num("e", p.e, sent.e)
		num("k", p.k, sent.k)
		num("s", p.s, sent.s)
		num("c", p.c, sent.c)
		num("d", p.d, sent.d)
		if p.wa != sent.wa && p.wa != "" {
			items = append(items, "wa:"+p.wa)
		}
	}
	*sent = *p
	return items
}

// panelItems keeps the items whose key the game's panel names (all of
// them when it names none): 0.15 has no eaten or kills cell.
func (m *Match) panelItems(items []string) []string {
	if len(m.rules.panelKeys) == 0 {
		return items
	}
	kept := items[:0]
	for _, it := range items {
		if k, _, ok := strings.Cut(it, ":"); ok && m.rules.panelKeys[k] {
			kept = append(kept, it)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// Step runs one 120 Hz simulation step at host wall time nowMs (epoch ms)
// and, every fourth step, sends the frames and per-tick meta to every
// ready user.
func (m *Match) Step(nowMs float64) {
	m.nowMs = nowMs
	m.tick++
	if m.tick%sendEvery == 0 {
		m.thinkBots(dt * sendEvery)
	}
	m.step()
	if m.tick%sendEvery == 0 {
		m.send()
	}
}

func (m *Match) roundSecondsLeft() int {
	left := int64(roundSeconds)*TicksPerSecond - m.tick%(int64(roundSeconds)*TicksPerSecond)
	return int((left + TicksPerSecond - 1) / TicksPerSecond)
}

// snakeRow is one s1 row.
type snakeRow struct {
	spine                  [2 * snakes.SpinePoints]float32
	angle, radius          float32
	crystals, color, boost uint32
}

// rowOf fills the s1 row of a live snake, every float rounded to the
// hundredth as the clients decode it.
func (m *Match) rowOf(o *snakeObj, r *snakeRow) {
	o.s.Path.Resample(&m.wire.spine)
	for i, v := range m.wire.spine {
		r.spine[i] = packer.Round2(v)
	}
	r.angle = packer.Round2(o.s.Angle)
	r.radius = packer.Round2(m.model.Radius(float32(o.crystals)))
	r.crystals = uint32(min(o.crystals, maxCrystalsOnWire))
	r.color = uint32(o.color)
	// The flags byte: bit 1 the spawn grace, else bit 0 the boost.
	r.boost = 0
	if o.s.Grace > 0 {
		r.boost = snakes.FlagGrace
	} else if o.boosting {
		r.boost = snakes.FlagBoost
	}
}

// packSnake writes a snake's s1 row into v (full width) at the places
// the game's layout gives.
func packSnake(l *snakes.SnakeRow, v []packer.Value, r *snakeRow) {
	for i, p := range l.Spine {
		v[p[0].Index()], v[p[1].Index()] = packer.F(r.spine[2*i]), packer.F(r.spine[2*i+1])
	}
	v[l.Angle.Index()], v[l.Radius.Index()] = packer.F(r.angle), packer.F(r.radius)
	v[l.Crystals.Index()], v[l.Color.Index()], v[l.Boost.Index()] = packer.I(r.crystals), packer.I(r.color), packer.I(r.boost)
}

func (m *Match) row(n int) []packer.Value {
	if cap(m.wire.vals) < n {
		m.wire.vals = make([]packer.Value, n)
	}
	return m.wire.vals[:n]
}

// packBody packs the blocks every user shares: the snakes (rows of the
// live ones, null rows of those that crashed or left) and the crystal
// delta. It reports whether the frame carries removals or crystals (sent
// reliably).
func (m *Match) packBody() bool {
	f := &m.wire.frame
	f.Start(0, 0, nil, nil)
	f.Block(m.wire.keyS1)
	events := false
	for _, id := range m.nulls {
		if p := m.Players[id]; p == nil || p.snake == nil || !p.snake.s.Alive {
			f.NullRow(uint32(id))
			events = true
		}
	}
	m.nulls = m.nulls[:0]
	var r snakeRow
	for _, p := range m.Players {
		if p == nil || p.snake == nil || !p.snake.s.Alive {
			continue
		}
		m.rowOf(p.snake, &r)
		p.snake.shown = true
		v := m.row(len(m.wire.keyS1.Fields))
		packSnake(&m.wire.s1, v, &r)
		f.Row(uint32(p.gid), v)
	}
	m.wire.crRows = m.field.drain(m.wire.crRows[:0])
	if len(m.wire.crRows) > 0 {
		f.Block(m.wire.keyCr)
		for i := range m.wire.crRows {
			c := &m.wire.crRows[i].c
			if m.wire.crRows[i].gone {
				f.NullRow(c.id)
				continue
			}
			v, l := m.row(len(m.wire.keyCr.Fields)), &m.wire.cr
			v[l.X.Index()], v[l.Y.Index()] = packer.F(packer.Round2(c.x)), packer.F(packer.Round2(c.y))
			v[l.Tier.Index()], v[l.Color.Index()] = packer.I(uint32(c.tier)), packer.I(uint32(c.color))
			f.Row(c.id, v)
		}
	}
	body, err := f.Bytes()
	if err != nil {
		m.log.Error("snakes: pack frame body", "err", err)
		m.wire.body = m.wire.body[:0]
		return false
	}
	m.wire.body = append(m.wire.body[:0], body[headerLen:]...)
	return events || len(m.wire.crRows) > 0
}

// headerLen is the size of a frame header without camera or player block.
const headerLen = 15

// send packs the shared body once, then sends every ready user its header
// (camera, player block) with it, and the tick's meta.
func (m *Match) send() {
	m.wire.seq++
	reliable := m.packBody()
	meta := m.outbox.Take(m.headRows)
	if m.rules.leaderboard {
		meta.Stat = nil // the table went with the first shot
	}
	secs := m.roundSecondsLeft()
	m.sendAccolades()
	for p, seat := range m.Ready() {
		m.sendFrame(p, reliable)
		h := p.human
		h.panel.t = secs
		meta.Send(m.out, seat, m.panelItems(h.panel.diff(&h.sentPanel)))
	}
}

// sendFrame sends p the shared body behind p's own header: the camera on
// its snake's head (a crashed one's too) or on the snake it watches, and
// the player block [x, y, cos, sin, crystals, length, alive, grace left].
func (m *Match) sendFrame(p *player, reliable bool) {
	h := p.human
	cam := packer.Camera{ForceReset: h.forceReset}
	var pl *packer.Player
	var block packer.Player
	if o := p.snake; o != nil {
		cam.X, cam.Y = packer.Round2(o.s.X), packer.Round2(o.s.Y)
		sn, cs := math.Sincos(float64(o.s.Angle))
		alive := float32(0)
		if o.s.Alive {
			alive = 1
		}
		block = packer.Player{GameID: p.gid, InputSeq: h.InputSeq,
			State: [8]float32{o.s.X, o.s.Y, float32(cs), float32(sn), float32(o.crystals), m.length(o.crystals), alive, o.s.Grace}}
		pl = &block
	} else if w := m.watched(p); w != nil {
		cam.X, cam.Y = packer.Round2(w.snake.s.X), packer.Round2(w.snake.s.Y)
	}
	if h.forceReset {
		reliable = true
	}
	h.forceReset = false
	m.wire.frame.Start(m.wire.seq, m.nowMs, &cam, pl)
	if err := game.SendFrame(m.out, h.UID, &m.wire.frame, m.wire.body, reliable); err != nil {
		m.log.Error("snakes: frame not sent", "err", err)
	}
}

// watched returns the snake a spectator looks at: the chosen one while it
// lives, else the first live one.
func (m *Match) watched(p *player) *player {
	w, _ := game.Watched(m.Players[:], &p.human.Watch, hasLiveSnake)
	return w
}

// hasLiveSnake reports whether q is one a camera may follow.
func hasLiveSnake(q *player) bool { return q.snake != nil && q.snake.s.Alive }
