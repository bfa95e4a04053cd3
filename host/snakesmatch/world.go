package snakesmatch

import (
	"math"
	"strconv"

	"vimpclient/games/snakes"
	"vimpclient/host/game"
	"vimpclient/internal/angle"
	"vimpclient/protocol"
)

// Crash and respawn figures.
const (
	dropSpots         = 24  // the points along a crashed body its crystals scatter over
	respawnAttempts   = 24  // random tries at a spot clear of other snakes
	respawnClearance  = 140 // world units a respawn keeps from every body
	spawnSpread       = 0.8 // radians a new snake's heading strays from the centre's direction
	modeCruise        = "CRUISE"
	modeBoost         = "BOOST"
	maxCrystalsOnWire = math.MaxUint16
	// spawnGrace is the seconds a new or respawned snake stands still:
	// it does not move, eat or crash, and nothing crashes into it. Its row
	// says so (the clients blink it) and its player block counts it down.
	spawnGrace = 2
	// maxSpawnGrace bounds a declared spawn grace.
	maxSpawnGrace = 10
)

// snakeObj is one participant's snake; it outlives its crashes (the colour
// stays) until the participant leaves or goes to watch.
type snakeObj struct {
	s        snakes.Snake
	crystals int
	color    uint8
	boosting bool
	debt     float32 // fractional crystals the boost owes
	held     uint32  // left, right, boost
	aim      bool
	aimX     float32
	aimY     float32
	ptrBoost bool
	respawn  bool // a respawn request waits for the next step
	shown    bool // the clients have a row of it
	minX     float32
	minY     float32
	maxX     float32
	maxY     float32
}

func (o *snakeObj) controls() snakes.Controls {
	return snakes.Controls{Left: o.held&keyLeft != 0, Right: o.held&keyRight != 0,
		Boost: o.held&keyBoost != 0 || o.ptrBoost, Aim: o.aim, AimX: o.aimX, AimY: o.aimY}
}

func (m *Match) length(crystals int) float32 {
	return m.model.BaseLength + m.model.LengthPerCrystal*float32(crystals)
}

// place puts a snake at (x, y) facing deg degrees, small. The input is
// kept: the player's keys and pointer are still held on the client, whose
// prediction keeps them through the respawn, so the host does too.
func (m *Match) place(o *snakeObj, x, y, deg float32) {
	x, y = m.arena.clampInside(x, y, m.world.EdgeMargin)
	o.crystals = m.world.StartCrystals
	o.s.X, o.s.Y = x, y
	o.s.Angle = angle.Normalize(deg * math.Pi / 180)
	o.s.Crystals, o.s.Length, o.s.Alive = float32(o.crystals), m.length(o.crystals), true
	// The snake spawns whole, its body laid out straight behind the head,
	// and stands in its grace.
	o.s.Path.LayOut(x, y, o.s.Angle, o.s.Length, m.model.PointSpacing)
	o.boosting, o.debt, o.respawn = false, 0, false
	o.s.Grace = spawnGrace
	if g := m.world.SpawnGrace; g != nil {
		o.s.Grace = *g
	}
	o.bounds()
}

// bounds is the box around the snake's body, for the crash tests' broad
// phase.
func (o *snakeObj) bounds() {
	o.minX, o.minY, o.maxX, o.maxY = math.MaxFloat32, math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32
	for i := range o.s.Path.Len() {
		x, y := o.s.Path.At(i)
		o.minX, o.minY, o.maxX, o.maxY = min(o.minX, x), min(o.minY, y), max(o.maxX, x), max(o.maxY, y)
	}
}

// spawnSpot is a random point clear of every live body, facing the
// centre; else the first respawn point of the map.
func (m *Match) spawnSpot() (float32, float32, float32) {
	for range respawnAttempts {
		x, y := m.arena.randomPoint(m.rng, m.world.EdgeMargin)
		clear := true
		for _, q := range m.Players {
			if q != nil && q.snake != nil && q.snake.s.Alive && touches(&q.snake.s.Path, x, y, respawnClearance) {
				clear = false
				break
			}
		}
		if clear {
			// Roughly towards the centre, never at the edge; the spread
			// keeps snakes spawned together from meeting head on there.
			a := math.Atan2(float64(m.arena.cy-y), float64(m.arena.cx-x)) + spawnSpread*(2*m.rng.Float64()-1)
			return x, y, float32(a * 180 / math.Pi)
		}
	}
	s := m.arena.spawns[0]
	return float32(s[0]), float32(s[1]), float32(s[2])
}

// spawn gives p a new snake (a new colour) and tells its human.
func (m *Match) spawn(p *player) {
	o := &snakeObj{color: m.nextColor}
	m.nextColor++
	x, y, deg := m.spawnSpot()
	m.place(o, x, y, deg)
	p.snake = o
	m.field.resync = true // a newcomer has seen none of the crystal deltas
	m.statRow(p)
	if h := p.human; h != nil {
		h.forceReset = true
		h.panel = panel{active: true, e: p.eaten, k: p.kills, s: p.score, c: o.crystals, wa: modeCruise, t: h.panel.t}
		m.out.JSON(h.UID, protocol.KeysetData, 1)
	}
}

// dropSnake removes p's snake from the world (its row goes).
func (m *Match) dropSnake(p *player) {
	if p.snake == nil {
		return
	}
	if p.snake.shown {
		m.nulls = append(m.nulls, p.gid)
	}
	p.snake = nil
	if h := p.human; h != nil {
		h.panel = panel{}
	}
}

// touches reports whether (x, y) is within reach of a node of the path.
func touches(p *snakes.Path, x, y, reach float32) bool {
	r2 := reach * reach
	for i := range p.Len() {
		nx, ny := p.At(i)
		if dx, dy := nx-x, ny-y; dx*dx+dy*dy <= r2 {
			return true
		}
	}
	return false
}

// step is one fixed step of the world.
func (m *Match) step() {
	m.population()
	m.field.tick(dt, &m.arena, m.rng, &m.world)
	var revive []*player
	for _, p := range m.Players {
		if p == nil || p.snake == nil {
			continue
		}
		o := p.snake
		if !o.s.Alive {
			if o.respawn {
				revive = append(revive, p)
			}
			continue
		}
		m.stepSnake(p)
	}
	// Who dies is decided for everyone before anyone dies, so two snakes
	// meeting head on both crash.
	type kill struct{ victim, killer *player }
	var kills []kill
	for _, p := range m.Players {
		if p == nil || p.snake == nil || !p.snake.s.Alive {
			continue
		}
		o := p.snake
		if o.s.Grace > 0 {
			continue // in its grace a snake cannot crash
		}
		r := m.model.Radius(float32(o.crystals))
		if !m.arena.contains(o.s.X, o.s.Y, r) {
			kills = append(kills, kill{p, nil})
			continue
		}
		for _, q := range m.Players {
			if q == nil || q == p || q.snake == nil || !q.snake.s.Alive || q.snake.s.Grace > 0 {
				continue // the own body never kills, nor one in its grace
			}
			b := q.snake
			reach := r + m.model.Radius(float32(b.crystals))
			if o.s.X < b.minX-reach || o.s.X > b.maxX+reach || o.s.Y < b.minY-reach || o.s.Y > b.maxY+reach {
				continue
			}
			if touches(&b.s.Path, o.s.X, o.s.Y, reach) {
				kills = append(kills, kill{p, q})
				break
			}
		}
	}
	for _, p := range m.Players {
		if p == nil || p.snake == nil || !p.snake.s.Alive {
			continue
		}
		dead := false
		for _, k := range kills {
			dead = dead || k.victim == p
		}
		if dead || p.snake.s.Grace > 0 {
			continue
		}
		o := p.snake
		if v, ok := m.field.takeAt(o.s.X, o.s.Y, m.model.Radius(float32(o.crystals)), &m.world); ok {
			o.crystals += v
			p.eaten += v
			p.score += v
			m.statRow(p)
			if h := p.human; h != nil {
				h.panel.c, h.panel.e, h.panel.s = o.crystals, p.eaten, p.score
			}
		}
	}
	for _, k := range kills {
		m.crash(k.victim, k.killer)
	}
	for _, p := range revive {
		x, y, deg := m.spawnSpot()
		m.place(p.snake, x, y, deg)
		m.field.resync = true
		if m.rules.scorePerLife {
			// A new life is a new game. The score is cleared here, not at
			// the crash, so the crash card still shows the life's result.
			p.eaten, p.kills, p.score = 0, 0, 0
		}
		m.statRow(p)
		if h := p.human; h != nil {
			h.forceReset = true
			h.panel.c, h.panel.d, h.panel.wa = p.snake.crystals, 0, modeCruise
			h.panel.e, h.panel.k, h.panel.s = p.eaten, p.kills, p.score
		}
	}
}

// stepSnake turns, moves and trims a live snake by the shared motion rules,
// then charges the boost: whole crystals, shed at the tail.
func (m *Match) stepSnake(p *player) {
	o := p.snake
	if o.s.Grace > 0 {
		o.s.Grace = max(o.s.Grace-dt, 0)
		return
	}
	c := o.controls()
	boosting := c.Boost && float32(o.crystals) > m.model.BoostMinCrystals
	if boosting != o.boosting && p.human != nil {
		p.human.panel.wa = modeCruise
		if boosting {
			p.human.panel.wa = modeBoost
		}
	}
	o.boosting = boosting
	o.s.Crystals, o.s.Length = float32(o.crystals), m.length(o.crystals)
	m.model.Step(&o.s, c, dt)
	if boosting {
		o.debt += m.world.BoostDrain * dt
		for o.debt >= 1 && float32(o.crystals) > m.model.BoostMinCrystals {
			o.debt--
			o.crystals--
			if m.rules.scorePerLife {
				// What the boost burns comes off the life's score.
				p.score = max(p.score-1, 0)
			}
			tx, ty := o.s.Path.At(o.s.Path.Len() - 1)
			m.field.dropAt(tx, ty, m.world.rollTier(m.rng), m.rng, &m.world)
		}
		if float32(o.crystals) <= m.model.BoostMinCrystals {
			o.debt = 0
		}
		if p.human != nil {
			p.human.panel.c, p.human.panel.s = o.crystals, p.score
		}
	} else {
		o.debt = 0
	}
	o.s.Crystals, o.s.Length = float32(o.crystals), m.length(o.crystals)
	o.s.Path.Trim(o.s.Length)
	o.bounds()
}

// crash kills p's snake: most of its crystals scatter along its body in
// the largest tiers they pay for, the killer (nil: the edge) gains a kill
// and the victim's whole score (0.15: the kill bonus), and the victim's
// panel shows the crash.
func (m *Match) crash(p, killer *player) {
	o := p.snake
	if o == nil || !o.s.Alive {
		return
	}
	carried := o.crystals
	if m.rules.scorePerLife {
		m.recordLife(p, p.score) // the life's score is its result
	} else {
		m.recordLife(p, carried)
	}
	o.s.Alive, o.boosting, o.crystals, o.respawn = false, false, 0, false
	budget := int(math.Round(float64(float32(carried) * m.world.DropRatio)))
	n := o.s.Path.Len()
	for k := 0; k < dropSpots && budget > 0 && n > 0; k++ {
		i := 0
		if n > 1 {
			i = min(int(math.Round(float64(float32(k)*float32(n-1)/float32(dropSpots-1)))), n-1)
		}
		t := 0
		for j := len(m.world.Tiers) - 1; j >= 0; j-- {
			if m.world.Tiers[j].Value <= budget {
				t = j
				break
			}
		}
		x, y := o.s.Path.At(i)
		if !m.field.dropAt(x, y, uint8(t), m.rng, &m.world) {
			break
		}
		budget -= max(m.world.Tiers[t].Value, 1)
	}
	if o.shown {
		m.nulls = append(m.nulls, p.gid)
		o.shown = false
	}
	if killer != nil && killer != p {
		killer.kills++
		if m.rules.scorePerLife {
			killer.score += killBonus
		} else {
			killer.score += p.score
		}
		m.statRow(killer)
		if h := killer.human; h != nil {
			h.panel.k, h.panel.s = killer.kills, killer.score
		}
		m.outbox.Chat("s:4:" + p.name + "," + killer.name)
	}
	m.statRow(p)
	if h := p.human; h != nil {
		h.panel.d, h.panel.c = carried+1, 0
	}
}

// population resizes the arena when the number of snakes asks for it and
// sends the new MAP_DATA (no CLEAR: snakes and crystals stay).
func (m *Match) population() {
	n := 0
	for _, p := range m.Players {
		if p != nil && p.snake != nil {
			n++
		}
	}
	size, ok := m.arena.resized(n)
	if !ok {
		return
	}
	m.arena = newArena(n, m.shape)
	m.log.Debug("snakes: arena resized", "snakes", n, "cells", size)
	for _, p := range m.Players {
		if p != nil && p.human != nil && p.human.InGame && p.human.sentSize != m.arena.size {
			m.sendMap(p)
		}
	}
}

// statRow queues p's stat row.
func (m *Match) statRow(p *player) {
	m.outbox.StatRow(m.statCells(p))
}

func (m *Match) statCells(p *player) []any {
	status := ""
	if p.snake != nil && !p.snake.s.Alive {
		status = "dead"
	}
	lat := game.LatencyCell(p.Seat())
	if m.rules.leaderboard {
		// 0.15's table: name, status, score, latency.
		return []any{strconv.Itoa(int(p.gid)), p.team, []any{p.name, status, p.score, lat}}
	}
	return []any{strconv.Itoa(int(p.gid)), p.team, []any{p.name, status, p.eaten, p.kills, p.score, lat}}
}

func (m *Match) fullStatRows() []any { return m.StatRows(m.statCells) }

// headRows is the players' head: their count and the sums of the counters.
func (m *Match) headRows() []any {
	n, eaten, kills, score := 0, 0, 0, 0
	for _, p := range m.Players {
		if p != nil && p.team == Players {
			n++
			eaten, kills, score = eaten+p.eaten, kills+p.kills, score+p.score
		}
	}
	if m.rules.leaderboard {
		return []any{[]any{Players, []any{n, "", score}}}
	}
	return []any{[]any{Players, []any{n, "", eaten, kills, score}}}
}
