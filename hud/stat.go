package hud

import (
	"image/color"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"vimpclient/hud/plaintext"
	"vimpclient/protocol"
)

// maxStatRows bounds the rows of all tables together; a host never lists
// more players than its cap.
const maxStatRows = 512

// maxStatCells bounds one row.
const maxStatCells = 32

// maxStatTables bounds the tables a game's schema may declare.
const maxStatTables = 64

// maxStatCellText bounds a cell's text in runes: a name or a number, never
// a paragraph. With the bounds above the scoreboard holds at most about
// 4 MiB of text, whatever a host sends.
const maxStatCellText = 64

// StatRow is one scoreboard row.
type StatRow struct {
	ID    string
	Cells []string
}

// StatTable is one team's table.
type StatTable struct {
	Team  int
	Name  string
	Title string   // the header's first cell: "name (head[0])", or the name
	Head  []string // header row 0 (head data)
	Rows  []StatRow
	sort  []SortKey
}

// Stat is the scoreboard: tables in team-number order, shown while Tab is
// held, and the game's global leaderboard (ACCOLADES_DATA) — under the
// tables, or alone in the leaderboard mode.
type Stat struct {
	Columns []string
	Labels  []string // the columns capitalised, for the label line
	Tables  []StatTable
	Visible bool
	heads   map[int]string
	Dropped int // rows for unknown teams or beyond the bound
	// Own is the id of the player's own row ("": not known, a spectator
	// say): drawn bold, its latency column is the round trip the host
	// measured for this client.
	Own string

	// Mode is "leaderboard" when Tab shows only the global leaderboard.
	Mode   string
	Period string        // the leaderboard's period ("day")
	Limit  int           // its rows at most
	Leader []LeaderEntry // the leaderboard rows, the local player's marked

	// nameColours are the colours the chat gave players' names (a game
	// that colours its nicknames), by name: the scoreboard draws the names
	// in them.
	nameColours map[string]color.RGBA

	// roomNames are the names of the rows no table shows, by row id: a game
	// whose Tab shows the leaderboard alone declares no tables, yet its host
	// still sends the room's table with the first shot, the nickname in the
	// engine's first column. They name the players in the world and the
	// leaderboard banner.
	roomNames map[string]string
}

// maxNameColours bounds the names whose colour is kept; past it the oldest
// knowledge is dropped all at once (the next lines teach it again).
const maxNameColours = 512

// NoteNameColour keeps the colour the chat gave name.
func (s *Stat) NoteNameColour(name string, c color.RGBA) {
	if name == "" {
		return
	}
	if s.nameColours == nil || len(s.nameColours) >= maxNameColours {
		s.nameColours = map[string]color.RGBA{}
	}
	s.nameColours[name] = c
}

// NameColour is the colour the chat last gave name; ok is false when it
// gave none.
func (s *Stat) NameColour(name string) (c color.RGBA, ok bool) {
	c, ok = s.nameColours[name]
	return c, ok
}

// LeaderboardMode reports whether Tab shows only the global leaderboard.
func (s *Stat) LeaderboardMode() bool { return s.Mode == "leaderboard" }

// NewStat makes the scoreboard for schema.
func NewStat(s StatSchema) *Stat {
	st := &Stat{Columns: s.Columns, heads: s.Heads, Mode: s.Mode, Period: s.Period, Limit: s.Limit}
	if st.Period == "" {
		st.Period = defaultLeaderPeriod
	}
	if st.Limit <= 0 {
		st.Limit = defaultLeaderLimit
	}
	for _, c := range s.Columns {
		r, n := utf8.DecodeRuneInString(c)
		st.Labels = append(st.Labels, string(unicode.ToUpper(r))+c[n:])
	}
	for _, b := range s.Bodies[:min(len(s.Bodies), maxStatTables)] {
		st.Tables = append(st.Tables, StatTable{Team: b.Team, Name: b.Name, Title: cleanText(b.Name), Head: make([]string, len(s.Columns)), sort: s.Sort[b.Name]})
	}
	return st
}

func (s *Stat) tableByTeam(team int) *StatTable {
	for i := range s.Tables {
		if s.Tables[i].Team == team {
			return &s.Tables[i]
		}
	}
	return nil
}

func (s *Stat) tableByName(name string) *StatTable {
	for i := range s.Tables {
		if s.Tables[i].Name == name {
			return &s.Tables[i]
		}
	}
	return nil
}

// Apply applies one STAT_DATA message.
func (s *Stat) Apply(m *protocol.Stat) {
	if m.Full {
		for i := range s.Tables {
			s.Tables[i].Rows = s.Tables[i].Rows[:0]
		}
	}
	if m.Full {
		clear(s.roomNames)
	}
	for _, b := range m.Bodies {
		t := s.tableByTeam(b.Team)
		if t == nil && len(s.Tables) == 0 && b.Body == 0 {
			s.keepRoomName(b)
			continue
		}
		if t == nil || b.Body != 0 {
			s.Dropped++
			continue
		}
		idx := t.find(b.ID)
		switch {
		case idx < 0 && b.Remove:
		case idx < 0:
			if s.rows() >= maxStatRows {
				s.Dropped++
				continue
			}
			row := StatRow{ID: b.ID}
			row.Cells = setCells(nil, b.Cells)
			t.Rows = append(t.Rows, row)
			t.resort(len(t.Rows) - 1)
		case b.Remove:
			t.Rows = append(t.Rows[:idx], t.Rows[idx+1:]...)
		default:
			t.Rows[idx].Cells = setCells(t.Rows[idx].Cells, b.Cells)
			t.resort(idx)
		}
	}
	for _, h := range m.Heads {
		name, ok := s.heads[h.Team]
		t := s.tableByName(name)
		if !ok || t == nil || h.Row != 0 {
			s.Dropped++
			continue
		}
		t.Head = setCells(t.Head, h.Cells)
		t.Title = cleanText(t.Name)
		if len(t.Head) > 0 && t.Head[0] != "" {
			t.Title += " (" + t.Head[0] + ")"
		}
	}
}

// EachName calls fn with the id and name of every player the scoreboard
// names: the tables' rows, and the rows no table shows.
func (s *Stat) EachName(fn func(id, name string)) {
	for ti := range s.Tables {
		for _, r := range s.Tables[ti].Rows {
			if n, ok := s.Name(r.ID); ok {
				fn(r.ID, n)
			}
		}
	}
	for id, n := range s.roomNames {
		fn(id, n)
	}
}

// keepRoomName keeps the name of a row no table shows (cell 0, the
// engine's nickname column), bounded as the tables' rows are.
func (s *Stat) keepRoomName(b protocol.StatBody) {
	switch {
	case b.Remove:
		delete(s.roomNames, b.ID)
	case len(b.Cells) == 0 || b.Cells[0].Keep:
	case len(s.roomNames) >= maxStatRows && s.roomNames[b.ID] == "":
		s.Dropped++
	default:
		if s.roomNames == nil {
			s.roomNames = map[string]string{}
		}
		s.roomNames[b.ID] = b.Cells[0].Text
	}
}

// rows counts the rows of all tables.
func (s *Stat) rows() int {
	n := 0
	for i := range s.Tables {
		n += len(s.Tables[i].Rows)
	}
	return n
}

// setCells writes cells over dst: Keep leaves a cell, text replaces it.
func setCells(dst []string, cells []protocol.StatCell) []string {
	for i, c := range cells {
		if i >= maxStatCells {
			break
		}
		for len(dst) <= i {
			dst = append(dst, "")
		}
		if !c.Keep {
			dst[i] = plaintext.CleanMax(c.Text, maxStatCellText)
		}
	}
	return dst
}

func (t *StatTable) find(id string) int {
	for i := range t.Rows {
		if t.Rows[i].ID == id {
			return i
		}
	}
	return -1
}

// sortValue is a cell as an integer: the number truncated toward zero,
// non-numeric as 0.
func sortValue(r *StatRow, cell int) int64 {
	if cell >= len(r.Cells) {
		return 0
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(r.Cells[cell]), 64)
	if err != nil || f != f {
		return 0
	}
	if f > 1e18 {
		return 1e18
	}
	if f < -1e18 {
		return -1e18
	}
	return int64(f)
}

// cmp tells where r belongs relative to o: -1 above, 1 below, 0 equal.
func (t *StatTable) cmp(r, o *StatRow) int {
	for _, k := range t.sort {
		a, b := sortValue(r, k.Cell), sortValue(o, k.Cell)
		if a == b {
			continue
		}
		if (a > b) == k.Desc {
			return -1
		}
		return 1
	}
	return 0
}

// resort moves the changed row i up, or else down, into place.
func (t *StatTable) resort(i int) {
	if len(t.sort) == 0 {
		return
	}
	moved := false
	for i > 0 && t.cmp(&t.Rows[i], &t.Rows[i-1]) < 0 {
		t.Rows[i], t.Rows[i-1] = t.Rows[i-1], t.Rows[i]
		i--
		moved = true
	}
	if moved {
		return
	}
	for i < len(t.Rows)-1 && t.cmp(&t.Rows[i], &t.Rows[i+1]) > 0 {
		t.Rows[i], t.Rows[i+1] = t.Rows[i+1], t.Rows[i]
		i++
	}
}

// Name is the name the scoreboard gives the player with row id id (the game
// ID as the host's stat rows carry it): the "names" or "name" column, else
// the first. ok is false when no table lists id.
func (s *Stat) Name(id string) (name string, ok bool) {
	col := 0
	for i, c := range s.Columns {
		if c == "names" || c == "name" {
			col = i
			break
		}
	}
	for ti := range s.Tables {
		t := &s.Tables[ti]
		if i := t.find(id); i >= 0 {
			if r := &t.Rows[i]; col < len(r.Cells) && r.Cells[col] != "" {
				return r.Cells[col], true
			}
			return "", false
		}
	}
	if n := s.roomNames[id]; n != "" {
		return n, true
	}
	return "", false
}
