package match

import (
	"strconv"
	"strings"

	"vimpclient/host/game"
	"vimpclient/protocol"
)

// Chat and the chat commands (/name, /mapname, /timeleft, /bot).

// Chat handles a CHAT_DATA line: commands or a broadcast.
func (m *Match) Chat(uid int, text string) {
	p := m.byUID[uid]
	if p == nil || !p.human.Ready {
		return
	}
	text = game.CleanChat(text)
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
		m.out.JSON(h.UID, protocol.Misc, map[string]string{"key": "localstorageNameReplace", "value": p.name})
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
