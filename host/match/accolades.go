package match

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"vimpclient/protocol"
)

// The embedded host has no platform to ask for the game's global
// leaderboard, so it keeps its own from its match results: the best score
// each nick finished a round, a map or its stay with, on this host since it
// started (bots included: they are most of a local match). It sends the
// room's places in it on ACCOLADES_DATA (port 18) whenever they changed,
// and the current picture to every user who becomes ready, in the engine's
// shape: places by game id and award ("daily" is this board's award,
// "monthly" is never held here), the board itself under the "day" period,
// and each human's own place and score.

// Bounds of the host's board.
const (
	boardRows    = 10   // rows sent
	boardRecords = 1024 // nicks remembered; the lowest scores go first
)

type record struct {
	nick  string
	score int
	order int // when the score was reached, for ties
}

type board struct {
	best   map[string]*record // by lower-case nick
	serial int
	dirty  bool   // records or roster changed since the last picture
	last   []byte // the last picture sent
}

// recordScore keeps p's score if it is the best its nick made.
func (m *Match) recordScore(p *player) {
	b := &m.board
	if p == nil || p.score <= 0 {
		return
	}
	key := strings.ToLower(p.name)
	r := b.best[key]
	if r != nil && r.score >= p.score {
		return
	}
	if b.best == nil {
		b.best = map[string]*record{}
	}
	if r == nil {
		if len(b.best) >= boardRecords {
			b.dropLowest()
		}
		r = &record{}
		b.best[key] = r
	}
	b.serial++
	r.nick, r.score, r.order = p.name, p.score, b.serial
	b.dirty = true
}

func (b *board) dropLowest() {
	var lowKey string
	var low *record
	for k, r := range b.best {
		if low == nil || r.score < low.score || r.score == low.score && r.order > low.order {
			lowKey, low = k, r
		}
	}
	delete(b.best, lowKey)
}

// recordScores keeps every participant's score (a round or the map ends).
func (m *Match) recordScores() {
	for _, p := range m.Players {
		m.recordScore(p)
	}
}

// ranked is the board in place order: higher score first, the earlier to
// reach it first on a tie.
func (b *board) ranked() []*record {
	rs := make([]*record, 0, len(b.best))
	for _, r := range b.best {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].score != rs[j].score {
			return rs[i].score > rs[j].score
		}
		return rs[i].order < rs[j].order
	})
	return rs
}

type boardRow struct {
	Place int    `json:"place"`
	Nick  string `json:"nick"`
	Score int    `json:"score"`
}

type selfPlace struct {
	Place *int `json:"place"`
	Score int  `json:"score"`
}

type accolades struct {
	Places map[string]map[string]*int      `json:"places"`
	Boards map[string][]boardRow           `json:"boards"`
	Self   map[string]map[string]selfPlace `json:"self"`
}

// picture is the current ACCOLADES_DATA payload.
func (m *Match) picture() accolades {
	rs := m.board.ranked()
	place := map[string]int{}
	for i, r := range rs {
		place[strings.ToLower(r.nick)] = i + 1
	}
	a := accolades{Places: map[string]map[string]*int{}, Boards: map[string][]boardRow{"day": {}}, Self: map[string]map[string]selfPlace{}}
	for i, r := range rs {
		if i == boardRows {
			break
		}
		a.Boards["day"] = append(a.Boards["day"], boardRow{Place: i + 1, Nick: r.nick, Score: r.score})
	}
	for _, p := range m.Players {
		if p == nil {
			continue
		}
		id := strconv.Itoa(int(p.gid))
		var daily *int
		if n, ok := place[strings.ToLower(p.name)]; ok && n <= boardRows {
			daily = &n
		}
		a.Places[id] = map[string]*int{"daily": daily, "monthly": nil}
		if p.human != nil {
			sp := selfPlace{}
			if n, ok := place[strings.ToLower(p.name)]; ok {
				sp.Place = &n
				sp.Score = m.board.best[strings.ToLower(p.name)].score
			}
			a.Self[id] = map[string]selfPlace{"day": sp}
		}
	}
	return a
}

// sendAccolades sends the picture to every ready human when it changed
// since the last one sent.
func (m *Match) sendAccolades() {
	if !m.board.dirty {
		return
	}
	m.board.dirty = false
	pic := m.picture()
	b, err := json.Marshal(pic)
	if err != nil || string(b) == string(m.board.last) {
		return
	}
	m.board.last = b
	if len(pic.Boards["day"]) == 0 {
		return // nothing to show yet
	}
	m.SendReady(m.out, protocol.AccoladesData, json.RawMessage(b))
}

// sendAccoladesTo gives a user who just became ready the current picture.
func (m *Match) sendAccoladesTo(p *player) {
	pic := m.picture()
	if len(pic.Boards["day"]) == 0 {
		return
	}
	m.out.JSON(p.human.UID, protocol.AccoladesData, pic)
}
