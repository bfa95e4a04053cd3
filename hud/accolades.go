package hud

import (
	"sort"
	"strconv"
	"strings"

	"vimpclient/protocol"
)

// BannerMs is how long the accolades banner stays after new placements.
const BannerMs = 6000

// maxBannerNames bounds the participants the banner names.
const maxBannerNames = 4

// Accolades is the last ACCOLADES_DATA: the room's places in the game's
// global leaderboard, the leaderboards themselves, and the banner shown
// when the placements change.
type Accolades struct {
	Places   map[string]map[string]int // game id -> award -> place
	Boards   map[string][]protocol.LeaderRow
	Self     map[string]map[string]protocol.SelfPlace
	Received bool // at least one message arrived
	Dropped  int  // entries the payloads dropped for their shape

	Banner      string  // "Leaderboard: You #1 today · Bob #4 this month"
	BannerAt    float64 // when it was raised
	BannerShown bool
	signature   string // the placements the banner last showed
}

// LeaderEntry is one leaderboard row as the scoreboard shows it.
type LeaderEntry struct {
	Place string // "1", or "—" for unranked
	Nick  string
	Score string
	Self  bool // the local player's row
}

// awardTitle names an award key of places.
func awardTitle(award string) string {
	switch award {
	case "daily":
		return "today"
	case "monthly":
		return "this month"
	}
	return award
}

// PeriodTitle names a leaderboard period ("day" is "today").
func PeriodTitle(period string) string {
	switch period {
	case "day":
		return "today"
	case "month":
		return "this month"
	case "all":
		return "all time"
	}
	return period
}

// Self tells the HUD who the local player is: the nick the host knows
// them by and their game id (the stat row id; "" when not known yet). It
// marks their leaderboard row and names them "You" in the banner. When
// the player filled the auth form themselves, the nick comes from it.
func (h *HUD) Self(nick, gameID string) {
	h.self.nick, h.self.id = cleanText(nick), gameID
	h.refreshLeaderboard()
}

// localPlayer is who the local player is, for their leaderboard row and
// the banner's "You".
type localPlayer struct {
	nick, id string // as the wiring told (Self)
	formNick string // the name the player submitted in the auth form
}

// name is the nick the host knows the player by, else the one they typed.
func (p localPlayer) name() string {
	if p.nick != "" {
		return p.nick
	}
	return p.formNick
}

// is reports whether id is the local player's game id (never while it is
// not known).
func (p localPlayer) is(id string) bool { return id != "" && id == p.id }

// applyAccolades takes a whole ACCOLADES_DATA picture at now.
func (h *HUD) applyAccolades(m *protocol.Accolades, now float64) {
	a := h.Accolades
	a.Places, a.Boards, a.Self = m.Places, m.Boards, m.Self
	a.Received = true
	a.Dropped += m.Dropped
	h.refreshLeaderboard()
	sig, text := h.bannerOf()
	if sig != "" && sig != a.signature {
		a.Banner, a.BannerAt, a.BannerShown = text, now, true
	}
	a.signature = sig
}

// bannerOf names the participants with a place, best place first, the
// local player first of all; sig identifies the placements.
func (h *HUD) bannerOf() (sig, text string) {
	type who struct {
		id, name string
		best     int
		parts    []string
	}
	var list []who
	var sigs []string
	for id, awards := range h.Accolades.Places {
		if len(awards) == 0 {
			continue
		}
		w := who{id: id, name: h.nameOf(id)}
		keys := make([]string, 0, len(awards))
		for k := range awards {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := awards[k]
			if w.best == 0 || p < w.best {
				w.best = p
			}
			w.parts = append(w.parts, "#"+strconv.Itoa(p)+" "+awardTitle(k))
			sigs = append(sigs, id+":"+k+":"+strconv.Itoa(p))
		}
		list = append(list, w)
	}
	if len(list) == 0 {
		return "", ""
	}
	sort.Strings(sigs)
	sort.Slice(list, func(i, j int) bool {
		si, sj := h.self.is(list[i].id), h.self.is(list[j].id)
		if si != sj {
			return si
		}
		if list[i].best != list[j].best {
			return list[i].best < list[j].best
		}
		return list[i].name < list[j].name
	})
	var b strings.Builder
	b.WriteString("Leaderboard: ")
	for i, w := range list {
		if i == maxBannerNames {
			b.WriteString(" · …")
			break
		}
		if i > 0 {
			b.WriteString(" · ")
		}
		name := w.name
		if h.self.is(w.id) {
			name = "You"
		}
		b.WriteString(name + " " + strings.Join(w.parts, ", "))
	}
	return strings.Join(sigs, ";"), b.String()
}

// nameOf is a participant's nick from the scoreboard rows (the row id is
// the game id), or "player <id>" when no row has it.
func (h *HUD) nameOf(id string) string {
	if h.self.is(id) && h.self.name() != "" {
		return h.self.name()
	}
	for i := range h.Stat.Tables {
		t := &h.Stat.Tables[i]
		if k := t.find(id); k >= 0 && len(t.Rows[k].Cells) > 0 && t.Rows[k].Cells[0] != "" {
			return t.Rows[k].Cells[0]
		}
	}
	if n, ok := h.Stat.Name(id); ok {
		return n
	}
	return "player " + id
}

// refreshLeaderboard rebuilds the scoreboard's leaderboard rows from the
// last picture: the period's top, at most the schema's limit, the local
// player's row marked; a player outside the top sees their own row in
// place of the last one (or after the rows, when the top is short).
func (h *HUD) refreshLeaderboard() {
	s := h.Stat
	s.Leader = s.Leader[:0]
	rows := h.Accolades.Boards[s.Period]
	nick := strings.ToLower(h.self.name())
	found := false
	for i, r := range rows {
		if i >= s.Limit {
			break
		}
		e := LeaderEntry{Place: placeText(r.Place), Nick: cleanText(r.Nick), Score: scoreText(r.Score)}
		if nick != "" && strings.ToLower(r.Nick) == nick {
			e.Self, found = true, true
		}
		s.Leader = append(s.Leader, e)
	}
	if found || nick == "" || h.self.id == "" {
		return
	}
	mine, ok := h.Accolades.Self[h.self.id][s.Period]
	if !ok {
		return
	}
	e := LeaderEntry{Place: placeText(mine.Place), Nick: h.self.name(), Score: scoreText(mine.Score), Self: true}
	if len(s.Leader) < s.Limit {
		s.Leader = append(s.Leader, e)
	} else if s.Limit > 0 {
		s.Leader[s.Limit-1] = e
	}
}

func placeText(p int) string {
	if p <= 0 {
		return "—"
	}
	return strconv.Itoa(p)
}

func scoreText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func (a *Accolades) update(now float64) {
	if a.BannerShown && now-a.BannerAt >= BannerMs {
		a.BannerShown = false
	}
}
