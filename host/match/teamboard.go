package match

// The team board is what a team's bots share, renewed every decision
// period: the enemy the team focuses, and the bots' roles: a wounded bot
// supports from behind, the boldest of three or more flanks, the others
// assault.

// botRole is a bot's part in its team's attack.
type botRole uint8

const (
	roleAssault botRole = iota
	roleFlanker
	roleSupport
)

// Team board rules (tanks 0.22's).
const (
	focusHold        = 3.0 // a focus is kept at least this long
	focusSwitchRatio = 1.3 // a new focus must score this much better
	rolesInterval    = 2.0 // roles are dealt this often
	supportHealth    = 50  // under this health a bot supports
	supportGap       = 200 // a support keeps this far behind its assault
)

// teamBoard is one team's shared picture.
type teamBoard struct {
	focus      uint8 // 0: none
	focusSince float64
	rolesAt    float64 // -1: never dealt
}

// hullStrength is what a tank's visible condition says of its strength.
func hullStrength(t *tankObj) float32 {
	switch t.condition() {
	case 3:
		return 1
	case 2:
		return 0.6
	case 1:
		return 0.3
	}
	return 0
}

// updateBoards renews both teams' boards.
func (m *Match) updateBoards(now float64) {
	for team := Team1; team <= Team2; team++ {
		m.updateFocus(team, now)
		if b := &m.teams.boards[team]; b.rolesAt < 0 || now-b.rolesAt >= rolesInterval {
			b.rolesAt = now
			m.dealRoles(team)
		}
	}
}

// focusScore is how good a focus the enemy e is for team: near its
// members, seen by its bots, and damaged.
func (m *Match) focusScore(team int, e *player) float32 {
	var near float32
	seen := 0
	for _, q := range m.Players {
		if q == nil || q.team != team || q.tank == nil || !q.tank.alive() {
			continue
		}
		near += 1 / (1 + dist(q.tank.st.X, q.tank.st.Y, e.tank.st.X, e.tank.st.Y)/300)
		if q.bot != nil {
			if i := q.bot.contact(e.gid); i >= 0 && q.bot.contacts[i].visible {
				seen++
			}
		}
	}
	return near + 0.5*float32(seen) + 0.3*float32(3-e.tank.condition())
}

// updateFocus picks the team's focus: the best scoring enemy, kept for
// focusHold seconds and until another scores focusSwitchRatio times more.
func (m *Match) updateFocus(team int, now float64) {
	b := &m.teams.boards[team]
	best, bestScore := uint8(0), float32(-1)
	var curScore float32 = -1
	for _, e := range m.Players {
		if e == nil || e.team == team || e.team == Spectators || e.tank == nil || !e.tank.alive() {
			continue
		}
		s := m.focusScore(team, e)
		if s > bestScore {
			best, bestScore = e.gid, s
		}
		if e.gid == b.focus {
			curScore = s
		}
	}
	if curScore >= 0 && (best == b.focus || now-b.focusSince < focusHold || bestScore < focusSwitchRatio*curScore) {
		return
	}
	if best != b.focus {
		b.focus, b.focusSince = best, now
	}
}

// dealRoles gives the team's live bots their roles.
func (m *Match) dealRoles(team int) {
	bots := 0
	var flanker *player
	for _, q := range m.Players {
		if q == nil || q.bot == nil || q.team != team || q.tank == nil || !q.tank.alive() {
			continue
		}
		bots++
		q.bot.role = roleAssault
		if q.tank.health < supportHealth {
			q.bot.role = roleSupport
		} else if flanker == nil || q.bot.profile.aggression > flanker.bot.profile.aggression {
			flanker = q
		}
	}
	if bots >= 3 && flanker != nil {
		flanker.bot.role = roleFlanker
	}
}

// supportPoint is where a support bot hunting target (tx, ty) goes:
// supportGap behind the nearest assaulting teammate on its line to the
// target (ok false: no assault to back).
func (m *Match) supportPoint(p *player, tx, ty float32) (x, y float32, ok bool) {
	s := &p.tank.st
	var ally *player
	best := float32(-1)
	for _, q := range m.Players {
		if q == nil || q == p || q.bot == nil || q.team != p.team || q.bot.role != roleAssault || q.tank == nil || !q.tank.alive() {
			continue
		}
		if d := dist(s.X, s.Y, q.tank.st.X, q.tank.st.Y); best < 0 || d < best {
			ally, best = q, d
		}
	}
	if ally == nil {
		return 0, 0, false
	}
	o := &ally.tank.st
	d := dist(o.X, o.Y, tx, ty)
	if d < 1 {
		return o.X, o.Y, true
	}
	return o.X - (tx-o.X)/d*supportGap, o.Y - (ty-o.Y)/d*supportGap, true
}
