package match

import (
	"math"

	"vimpclient/games/tanks"
	"vimpclient/internal/angle"
)

// botBrain is a bot's memory between decisions.
type botBrain struct {
	nextThink  int64
	nextShot   int64
	stuckTicks int
	reverse    int64 // reverse until this tick
	turnSign   float32
	wander     float32
}

// Bot tuning: decisions at 30 Hz, a shot every 0.35–1 s.
const (
	botThinkTicks = 4
	botSight      = 450
	botFeel       = 28
)

func (m *Match) thinkBots() {
	for _, p := range m.players {
		if p == nil || p.bot == nil || p.tank == nil || !p.tank.alive() {
			continue
		}
		if m.tick >= p.bot.nextThink {
			p.bot.nextThink = m.tick + botThinkTicks
			m.think(p)
		}
	}
}

func (m *Match) nearestEnemy(p *player) (*player, float32) {
	var best *player
	bestD := float32(math.MaxFloat32)
	for _, q := range m.players {
		if q == nil || q.team == p.team || q.team == Spectators || q.tank == nil || !q.tank.alive() {
			continue
		}
		dx, dy := q.tank.st.X-p.tank.st.X, q.tank.st.Y-p.tank.st.Y
		if d := float32(math.Hypot(float64(dx), float64(dy))); d < bestD {
			best, bestD = q, d
		}
	}
	return best, bestD
}

// think sets the bot's held keys: drive towards the nearest enemy (or
// wander), steer away from walls felt by three short rays, turn the gun
// onto the enemy and fire when the line of sight is clear.
func (m *Match) think(p *player) {
	b, t := p.bot, p.tank
	s := &t.st
	terrain, level := m.current.geom.Terrain, t.lv.Level
	var keys uint32
	target, dist := m.nearestEnemy(p)
	desired := s.Angle + b.wander
	if target != nil {
		desired = float32(math.Atan2(float64(target.tank.st.Y-s.Y), float64(target.tank.st.X-s.X)))
	} else if m.rng.IntN(60) == 0 {
		b.wander = float32(m.rng.Float64()*2-1) * 1.5
	}
	feel := func(off float32) float32 {
		dy, dx := sincos(s.Angle + off)
		return terrain.Ray(level, s.X, s.Y, dx, dy, 80)
	}
	front, left, right := feel(0), feel(-0.6), feel(0.6)
	speed := float32(math.Hypot(float64(s.VX), float64(s.VY)))
	if speed < 5 && s.Throttle > 0.9 {
		b.stuckTicks += botThinkTicks
	} else {
		b.stuckTicks = 0
	}
	if b.stuckTicks > TicksPerSecond {
		b.reverse = m.tick + TicksPerSecond/2 + int64(m.rng.IntN(TicksPerSecond/2))
		b.stuckTicks = 0
		b.turnSign = 1
		if m.rng.IntN(2) == 0 {
			b.turnSign = -1
		}
	}
	turn := angle.Normalize(desired - s.Angle)
	switch {
	case m.tick < b.reverse:
		keys |= tanks.KeyBack
		if b.turnSign > 0 {
			keys |= tanks.KeyRight
		} else {
			keys |= tanks.KeyLeft
		}
	case front < botFeel:
		if left > right {
			keys |= tanks.KeyLeft
		} else {
			keys |= tanks.KeyRight
		}
		if front < botFeel/2 {
			keys |= tanks.KeyBack
		} else {
			keys |= tanks.KeyForward
		}
	default:
		if target == nil || dist > 90 || abs(turn) > 0.6 {
			keys |= tanks.KeyForward
		}
		if left < botFeel {
			keys |= tanks.KeyRight
		} else if right < botFeel {
			keys |= tanks.KeyLeft
		} else if turn > 0.15 {
			keys |= tanks.KeyRight
		} else if turn < -0.15 {
			keys |= tanks.KeyLeft
		}
	}
	if target != nil && dist < botSight {
		aim := angle.Normalize(desired - s.Angle - s.Gun)
		if aim > 0.04 {
			keys |= tanks.KeyGunRight
		} else if aim < -0.04 {
			keys |= tanks.KeyGunLeft
		}
		if abs(aim) < 0.1 && m.tick >= b.nextShot {
			dy, dx := sincos(s.Angle + s.Gun)
			if terrain.Ray(level, s.X, s.Y, dx, dy, dist) >= dist && onLevel(&target.tank.lv, level) {
				if t.weapon != weaponW1 {
					t.oneShot |= tanks.KeyNextWeapon
				} else {
					t.oneShot |= tanks.KeyFire
				}
				b.nextShot = m.tick + int64(TicksPerSecond*35/100+m.rng.IntN(TicksPerSecond*65/100))
			}
		}
		if dist < 30 && t.weapon == weaponW1 && m.rng.IntN(20) == 0 && t.ammo[1] > 0 && !t.bomb {
			t.oneShot |= tanks.KeyNextWeapon
		} else if t.weapon == weaponW2 && dist < 30 && !t.bomb {
			t.oneShot |= tanks.KeyFire
			b.nextShot = m.tick + TicksPerSecond
		}
	} else if t.weapon != weaponW1 {
		t.oneShot |= tanks.KeyNextWeapon
	}
	t.keys = keys
}
