package match

// Team balance: the humans choose their team, the bots fill in. Whenever a
// human joins a team, leaves it or the match, bots move from the larger
// playing team to the smaller until the two differ by at most one.

// balanceTeams moves bots from the larger playing team to the smaller
// until the teams differ by at most one, the larger has no bot left to
// move or the smaller no free spawn point. It reports whether a bot moved.
func (m *Match) balanceTeams() bool {
	moved := false
	for {
		var count [4]int
		for _, p := range m.Players {
			if p != nil {
				count[p.team]++
			}
		}
		big, small := Team1, Team2
		if count[Team2] > count[Team1] {
			big, small = Team2, Team1
		}
		if count[big]-count[small] <= 1 || count[small] >= len(m.current.Data.Spawns(teamKey(small))) {
			return moved
		}
		bot := m.botToMove(big)
		if bot == nil {
			return moved
		}
		m.moveBot(bot, small)
		moved = true
	}
}

// botToMove picks the bot of team that a move costs least: one without a
// live tank, else the one with the most health left.
func (m *Match) botToMove(team int) *player {
	var best *player
	bestHealth := -1
	for _, p := range m.Players {
		if p == nil || p.bot == nil || p.team != team {
			continue
		}
		h := maxHealth + 1 // no live tank: the cheapest to move
		if p.tank != nil && p.tank.alive() {
			h = p.tank.health
		}
		if h > bestHealth {
			best, bestHealth = p, h
		}
	}
	return best
}

// moveBot puts bot p in team: its tank goes, and it plays at once within
// the round's grace period, else from the next round.
func (m *Match) moveBot(p *player, team int) {
	m.outbox.StatGone(p.gid, p.team)
	if p.tank != nil {
		m.events.removed = append(m.events.removed, p.gid)
		p.tank = nil
	}
	p.team = team
	p.dead = true
	p.bot.reset()
	if m.round.restartAt == 0 && m.tick-m.round.start <= graceTicks {
		m.spawnAtFreeSpot(p)
	}
	m.statRow(p)
}
