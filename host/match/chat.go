package match

import (
	"strconv"

	"vimpclient/host/game"
)

// Chat and the chat commands (/name, /mapname, /timeleft, /bot).

// Chat handles a CHAT_DATA line: commands or a broadcast.
func (m *Match) Chat(uid int, text string) {
	p := m.Users[uid]
	if p == nil || !p.human.Ready {
		return
	}
	text, f, ok := game.ReadChat(text)
	switch {
	case !ok:
	case f != nil:
		m.command(p, f)
	default:
		m.outbox.Chat([]any{text, p.name, p.team})
	}
}

// command runs the chat command whose fields are f.
func (m *Match) command(p *player, f []string) {
	h := p.human
	switch f[0] {
	case "/timeleft":
		left := int64(m.cfg.MapSeconds)*TicksPerSecond - (m.tick - m.round.mapStart)
		s := max(0, left/TicksPerSecond)
		h.QueueChat([]any{strconv.Itoa(int(s/60)) + ":" + pad2(int(s%60))})
	case "/mapname":
		h.QueueChat("m:0:" + m.current.Name)
	case "/name":
		if name, ok := m.outbox.Rename(m.out, &h.Seat, p.name, f, m.UniqueName); ok {
			p.name = name
			m.statRow(p)
		}
	case "/bot":
		m.botCommand(p, f[1:])
	default:
		h.QueueChat("c:0")
	}
}

// botCommand handles /bot <count> [team]: a count adds bots, 0 removes
// them (from one team or all).
func (m *Match) botCommand(p *player, args []string) {
	h := p.human
	if p.team == Spectators {
		h.QueueChat("b:0")
		return
	}
	if len(args) == 0 || len(args) > 2 {
		h.QueueChat("b:1")
		return
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || n > 20 {
		h.QueueChat("b:1")
		return
	}
	team := 0
	if len(args) == 2 {
		if args[1] == teamKey(Team1) {
			team = Team1
		} else if args[1] == teamKey(Team2) {
			team = Team2
		} else {
			h.QueueChat("b:2")
			return
		}
	}
	if n == 0 {
		for _, q := range m.Players {
			if q != nil && q.bot != nil && (team == 0 || q.team == team) {
				m.removePlayer(q)
			}
		}
		if team == 0 {
			m.outbox.Chat("b:6")
		} else {
			m.outbox.Chat("b:4:" + teamKey(team))
		}
		return
	}
	added := 0
	for added < n && m.addBotTo(team) {
		added++
	}
	if team == 0 {
		m.outbox.Chat("b:5:" + strconv.Itoa(added))
	} else {
		m.outbox.Chat("b:3:" + strconv.Itoa(added) + "," + teamKey(team))
	}
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
