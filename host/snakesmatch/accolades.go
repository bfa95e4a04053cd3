package snakesmatch

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"vimpclient/protocol"
)

// The embedded host has no platform to keep the game's global leaderboard,
// so it keeps its own from the lives played on it since it started: one
// life is one game, and a nick's result is the life's score in 0.15, the
// crystals its snake carried when the life ended in 0.6. The day's award ranks each nick's best life, the
// month's the sum of all its lives, as the game's own boards do. Bots play
// too and are ranked with everyone (they are most of a local match). The
// room's places go out on ACCOLADES_DATA whenever they changed, and to every
// user who becomes ready; a top ten place wears the award's badge.

// Bounds of the host's boards.
const (
	boardRows    = 10   // places held and rows sent per award
	boardRecords = 1024 // nicks remembered; the lowest totals go first
)

type lifeRecord struct {
	nick        string
	best, total int
	order       int // when the best was reached, for ties
}

type boards struct {
	byNick map[string]*lifeRecord // by lower-case nick
	serial int
	dirty  bool
	last   []byte // the last picture sent
}

// recordLife keeps the result of p's life that just ended with haul
// crystals.
func (m *Match) recordLife(p *player, haul int) {
	b := &m.boards
	if p == nil || haul <= 0 {
		return
	}
	key := strings.ToLower(p.name)
	r := b.byNick[key]
	if r == nil {
		if b.byNick == nil {
			b.byNick = map[string]*lifeRecord{}
		}
		if len(b.byNick) >= boardRecords {
			b.dropLowest()
		}
		r = &lifeRecord{nick: p.name}
		b.byNick[key] = r
	}
	b.serial++
	if haul > r.best {
		r.best, r.order = haul, b.serial
	}
	r.total += haul
	b.dirty = true
}

func (b *boards) dropLowest() {
	var lowKey string
	var low *lifeRecord
	for k, r := range b.byNick {
		if low == nil || r.total < low.total {
			lowKey, low = k, r
		}
	}
	delete(b.byNick, lowKey)
}

// ranked is the records in place order by score (best or total): higher
// first, the earlier on a tie, then by nick.
func (b *boards) ranked(score func(*lifeRecord) int) []*lifeRecord {
	rs := make([]*lifeRecord, 0, len(b.byNick))
	for _, r := range b.byNick {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		if a, c := score(rs[i]), score(rs[j]); a != c {
			return a > c
		}
		if rs[i].order != rs[j].order {
			return rs[i].order < rs[j].order
		}
		return rs[i].nick < rs[j].nick
	})
	return rs
}

type leaderRow struct {
	Place int    `json:"place"`
	Nick  string `json:"nick"`
	Score int    `json:"score"`
}

type accoladesPicture struct {
	Places map[string]map[string]*int `json:"places"`
	Boards map[string][]leaderRow     `json:"boards"`
}

// picture is the current ACCOLADES_DATA payload; ok is false while no life
// has ended with a haul.
func (m *Match) picture() (accoladesPicture, bool) {
	a := accoladesPicture{Places: map[string]map[string]*int{}, Boards: map[string][]leaderRow{}}
	places := map[string]map[string]int{} // lower-case nick -> award -> place
	for _, aw := range []struct {
		award, period string
		score         func(*lifeRecord) int
	}{{"daily", "day", func(r *lifeRecord) int { return r.best }}, {"monthly", "month", func(r *lifeRecord) int { return r.total }}} {
		rows := []leaderRow{}
		for i, r := range m.boards.ranked(aw.score) {
			if i == boardRows {
				break
			}
			rows = append(rows, leaderRow{Place: i + 1, Nick: r.nick, Score: aw.score(r)})
			key := strings.ToLower(r.nick)
			if places[key] == nil {
				places[key] = map[string]int{}
			}
			places[key][aw.award] = i + 1
		}
		a.Boards[aw.period] = rows
	}
	for _, p := range m.Players {
		if p == nil {
			continue
		}
		pl := map[string]*int{"daily": nil, "monthly": nil}
		for award, n := range places[strings.ToLower(p.name)] {
			pl[award] = &n
		}
		a.Places[strconv.Itoa(int(p.gid))] = pl
	}
	return a, len(a.Boards["day"]) > 0
}

// sendAccolades sends the picture to every ready human when it changed
// since the last one sent.
func (m *Match) sendAccolades() {
	if !m.boards.dirty {
		return
	}
	m.boards.dirty = false
	pic, ok := m.picture()
	if !ok {
		return
	}
	b, err := json.Marshal(pic)
	if err != nil || string(b) == string(m.boards.last) {
		return
	}
	m.boards.last = b
	m.SendReady(m.out, protocol.AccoladesData, json.RawMessage(b))
}

// sendAccoladesTo gives a user who just became ready the current picture.
func (m *Match) sendAccoladesTo(p *player) {
	if pic, ok := m.picture(); ok {
		m.out.JSON(p.human.UID, protocol.AccoladesData, pic)
	}
}
