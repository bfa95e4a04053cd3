package snakesmatch

import (
	"math"

	"vimpclient/internal/angle"
)

// Bot figures.
const (
	botLookahead   = 220 // how far ahead a bot checks for the edge or a body
	botDeadBand    = 0.05
	botBoostFrom   = 8   // crystals a bot keeps before it boosts
	botBoostRange  = 350 // a crystal at least this far, straight ahead, is worth a boost
	botBoostCone   = 0.25
	botRespawnWait = 1.5 // seconds a crashed bot lies before it respawns
)

// botBrain is a bot's steering state: a wander bias re-rolled every 0.6–2 s
// so bots do not converge on one crystal in a line, and the wait after a
// crash.
type botBrain struct {
	timer  float32
	wander float32
	down   float32
}

var botNames = [...]string{"Viper", "Mamba", "Cobra", "Krait", "Taipan", "Boa", "Python", "Adder",
	"Asp", "Racer", "Sidewinder", "Garter", "Kingsnake", "Anaconda", "Rattler", "Coral"}

// addBot adds a playing bot snake.
func (m *Match) addBot() bool {
	gid := m.FreeID()
	if gid == 0 {
		return false
	}
	n := 0
	for _, p := range m.Players {
		if p != nil && p.bot != nil {
			n++
		}
	}
	p := &player{gid: gid, name: m.UniqueName(botNames[n%len(botNames)]), team: Players,
		bot: &botBrain{timer: 0.2 + 0.8*m.rng.Float32(), wander: 1.8*m.rng.Float32() - 0.9}}
	m.Players[gid] = p
	m.spawn(p)
	return true
}

// thinkBots steers every bot for the next period of dt seconds.
func (m *Match) thinkBots(dt float32) {
	for _, p := range m.Players {
		if p != nil && p.bot != nil && p.snake != nil {
			m.think(p, dt)
		}
	}
}

// think heads for the nearest crystal (bent by the wander bias), boosts
// for one far ahead when it can spare the crystals, and turns for the
// centre when the edge or another body is ahead; a crashed bot respawns
// after a moment.
func (m *Match) think(p *player, dt float32) {
	b, o := p.bot, p.snake
	b.timer -= dt
	if b.timer <= 0 {
		b.timer = 0.6 + 1.4*m.rng.Float32()
		b.wander = 1.8*m.rng.Float32() - 0.9
	}
	if !o.s.Alive {
		if b.down += dt; b.down >= botRespawnWait {
			b.down = 0
			o.respawn = true
		}
		return
	}
	want := o.s.Angle + b.wander
	best := float32(math.MaxFloat32)
	for _, c := range m.field.crystals {
		dx, dy := c.x-o.s.X, c.y-o.s.Y
		if d := dx*dx + dy*dy; d < best {
			best = d
			want = float32(math.Atan2(float64(dy), float64(dx))) + b.wander*0.25
		}
	}
	r := m.model.Radius(float32(o.crystals))
	sn, cs := math.Sincos(float64(o.s.Angle))
	px, py := o.s.X+float32(cs)*botLookahead, o.s.Y+float32(sn)*botLookahead
	blocked := !m.arena.contains(px, py, r)
	for _, q := range m.Players {
		if blocked {
			break
		}
		blocked = q != nil && q != p && q.snake != nil && q.snake.s.Alive && touches(&q.snake.s.Path, px, py, 2*r)
	}
	if blocked {
		want = float32(math.Atan2(float64(m.arena.cy-o.s.Y), float64(m.arena.cx-o.s.X)))
	}
	diff := angle.Normalize(want - o.s.Angle)
	var keys uint32
	switch {
	case diff > botDeadBand:
		keys = keyRight
	case diff < -botDeadBand:
		keys = keyLeft
	}
	if !blocked && o.crystals > botBoostFrom && best > botBoostRange*botBoostRange && abs(diff) < botBoostCone {
		keys |= keyBoost
	}
	o.held = keys
}

func abs(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
