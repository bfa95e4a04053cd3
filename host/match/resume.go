package match

import (
	"strconv"

	"vimpclient/host/game"
	"vimpclient/protocol"
)

var _ game.Resumer = (*Match)(nil)

// SeatID implements game.Resumer: the participant's game id, the id of its
// scoreboard row.
func (m *Match) SeatID(uid int) (string, bool) {
	p := m.Users[uid]
	if p == nil {
		return "", false
	}
	return strconv.Itoa(int(p.gid)), true
}

// Detach implements game.Resumer: the tank stays where it is with its keys
// released (a player who dropped while driving must not drive on), and the
// user gets no frames or meta until it resumes.
func (m *Match) Detach(uid int) {
	p := m.Users[uid]
	if p == nil {
		return
	}
	if p.tank != nil {
		p.tank.keys, p.tank.oneShot = 0, 0
	}
	h := p.human
	h.Ready = false
	h.DropQueues()
}

// Resume implements game.Resumer. On the same map the client keeps its map
// and world: the dynamic sets are cleared (what moved while it was away
// comes with the next frame), then the key set, the scoreboard, the panel
// and a camera reset, and frames flow again. On another map the user loads
// it as on a map change.
func (m *Match) Resume(uid int) {
	p := m.Users[uid]
	if p == nil || !p.human.InGame {
		return
	}
	h := p.human
	if h.currentMap != m.current.Name {
		m.sendMap(p)
		return
	}
	m.out.JSON(uid, protocol.Clear, []string{"w2", "m1", "w1", "w2e"})
	m.out.JSON(uid, protocol.StatData, []any{m.fullStatRows(), m.headRows(), true})
	if p.tank != nil && p.tank.alive() && p.team != Spectators {
		m.sendFullPanel(p)
		m.out.JSON(uid, protocol.KeysetData, 1)
	} else {
		m.sendEmptyPanel(p)
		m.out.JSON(uid, protocol.KeysetData, 0)
	}
	h.forceReset = true
	h.Ready = true
	m.out.JSON(uid, protocol.TechInformData, nil)
	m.sendAccoladesTo(p)
}

// Score is the participant's score, deaths and team (tests and the host's
// own checks); false when the user has no participant.
func (m *Match) Score(uid int) (score, deaths, team int, ok bool) {
	p := m.Users[uid]
	if p == nil {
		return 0, 0, 0, false
	}
	return p.score, p.deaths, p.team, true
}
