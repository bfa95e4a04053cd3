package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"
)

// Accolades is ACCOLADES_DATA (port 18): where the room's participants
// stand in the game's global leaderboard. The host sends the whole picture
// each time something in it changed (never a delta):
//
//	{"places": {"<gameId>": {"daily": 1, "monthly": null}},
//	 "boards": {"day": [{"place": 1, "nick": "Alice", "score": 90}]},
//	 "self":   {"<gameId>": {"day": {"place": 1, "score": 90}}}}
//
// places says, per participant and award, the place in that award's top
// (absent or null: not in it; bots and guests never are); boards holds
// the tops themselves by period ("day", "month"), as the scoreboard's
// leaderboard mode shows them; self gives a participant their own place
// and score per period, so a player outside the top still sees their row.
// Every part may be missing; entries of the wrong shape are dropped and
// counted, and the sizes are bounded.
type Accolades struct {
	Places  map[string]map[string]int       // game id -> award -> place (>= 1)
	Boards  map[string][]LeaderRow          // period -> rows in the host's order
	Self    map[string]map[string]SelfPlace // game id -> period -> place
	Dropped int                             // entries dropped for their shape or the bounds
}

// LeaderRow is one row of a leaderboard. Place 0 means unranked.
type LeaderRow struct {
	Place int
	Nick  string
	Score float64
}

// SelfPlace is a participant's own standing in one period; Place 0 means
// unranked for that period.
type SelfPlace struct {
	Place int
	Score float64
}

// Bounds on a hostile ACCOLADES_DATA.
const (
	MaxAccoladeIDs    = 256 // participants in places and self
	MaxAccoladeKeys   = 8   // awards per participant, periods per board or self entry
	MaxLeaderRows     = 100 // rows per board
	MaxLeaderNickLen  = 64  // runes; longer nicks are cut
	maxAccoladePlace  = 1 << 30
	maxAccoladeKeyLen = 32
)

// ParseAccolades decodes ACCOLADES_DATA. null is an empty picture (it
// clears what was shown); anything but an object is an error.
func ParseAccolades(raw json.RawMessage) (*Accolades, error) {
	a := &Accolades{}
	if IsNull(raw) {
		return a, nil
	}
	var top map[string]json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &top) != nil {
		return nil, payloadErr(AccoladesData, "not an object")
	}
	a.parsePlaces(top["places"])
	a.parseBoards(top["boards"])
	a.parseSelf(top["self"])
	return a, nil
}

// object decodes raw as a JSON object; a missing or null part is empty, any
// other shape counts as dropped.
func (a *Accolades) object(raw json.RawMessage) map[string]json.RawMessage {
	if len(raw) == 0 || IsNull(raw) {
		return nil
	}
	var m map[string]json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &m) != nil {
		a.Dropped++
		return nil
	}
	return m
}

func (a *Accolades) parsePlaces(raw json.RawMessage) {
	for id, v := range a.object(raw) {
		if len(a.Places) >= MaxAccoladeIDs || len(id) > maxAccoladeKeyLen {
			a.Dropped++
			continue
		}
		awards := map[string]int{}
		for award, p := range a.object(v) {
			if len(awards) >= MaxAccoladeKeys || len(award) > maxAccoladeKeyLen {
				a.Dropped++
				continue
			}
			if IsNull(p) {
				continue
			}
			if n, ok := place(p); ok && n > 0 {
				awards[award] = n
			} else {
				a.Dropped++
			}
		}
		if a.Places == nil {
			a.Places = map[string]map[string]int{}
		}
		a.Places[id] = awards
	}
}

func (a *Accolades) parseBoards(raw json.RawMessage) {
	for period, v := range a.object(raw) {
		if len(a.Boards) >= MaxAccoladeKeys || len(period) > maxAccoladeKeyLen {
			a.Dropped++
			continue
		}
		var rows []json.RawMessage
		if t := bytes.TrimSpace(v); IsNull(t) {
			continue
		} else if len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &rows) != nil {
			a.Dropped++
			continue
		}
		board := make([]LeaderRow, 0, min(len(rows), MaxLeaderRows))
		for _, r := range rows {
			if len(board) >= MaxLeaderRows {
				a.Dropped++
				continue
			}
			o := a.object(r) // a row that is not an object is counted there
			nick := cutRunes(scalarText(o["nick"]), MaxLeaderNickLen)
			if nick == "" {
				if o != nil || IsNull(r) {
					a.Dropped++
				}
				continue
			}
			row := LeaderRow{Nick: nick, Score: score(o["score"])}
			if n, ok := place(o["place"]); ok && n > 0 {
				row.Place = n
			}
			board = append(board, row)
		}
		if a.Boards == nil {
			a.Boards = map[string][]LeaderRow{}
		}
		a.Boards[period] = board
	}
}

func (a *Accolades) parseSelf(raw json.RawMessage) {
	for id, v := range a.object(raw) {
		if len(a.Self) >= MaxAccoladeIDs || len(id) > maxAccoladeKeyLen {
			a.Dropped++
			continue
		}
		periods := map[string]SelfPlace{}
		for period, p := range a.object(v) {
			if len(periods) >= MaxAccoladeKeys || len(period) > maxAccoladeKeyLen {
				a.Dropped++
				continue
			}
			o := a.object(p)
			if o == nil {
				continue
			}
			sp := SelfPlace{Score: score(o["score"])}
			if n, ok := place(o["place"]); ok && n > 0 {
				sp.Place = n
			}
			periods[period] = sp
		}
		if a.Self == nil {
			a.Self = map[string]map[string]SelfPlace{}
		}
		a.Self[id] = periods
	}
}

// place reads a place: a positive whole number (a numeric string too, as a
// host that stringifies its numbers sends it).
func place(raw json.RawMessage) (int, bool) {
	f, ok := number(raw)
	if !ok || f != math.Trunc(f) || f < 0 || f > maxAccoladePlace {
		return 0, false
	}
	return int(f), true
}

// score reads a score; anything but a finite number is 0.
func score(raw json.RawMessage) float64 {
	f, _ := number(raw)
	return f
}

func number(raw json.RawMessage) (float64, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return 0, false
	}
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) != nil {
			return 0, false
		}
		t = []byte(s)
	}
	var f float64
	if json.Unmarshal(t, &f) != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return strings.Clone(s[:k]) // a copy: the cut keeps none of s
		}
		i++
	}
	return s
}
