package protocol

// The meta data a host sends on change: the scoreboard (STAT_DATA), chat
// (CHAT_DATA) and votes (VOTE_DATA).

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Stat is STAT_DATA (port 14): [bodyRows, headRows, full?].
type Stat struct {
	Bodies []StatBody
	Heads  []StatHead
	Full   bool
}

// StatBody is one body row; Remove replaces the cells when the host sent null.
type StatBody struct {
	ID     string
	Team   int
	Cells  []StatCell
	Remove bool
	Body   int
}

// StatHead is one team aggregate row.
type StatHead struct {
	Team  int
	Cells []StatCell
	Row   int
}

// StatCell is one scalar cell: Keep leaves the shown value (null or a
// non-scalar); otherwise Text replaces it ("" clears).
type StatCell struct {
	Text string
	Keep bool
}

// ParseStat decodes STAT_DATA. Rows of the wrong shape are skipped, not fatal.
func ParseStat(raw json.RawMessage) (*Stat, error) {
	parts, ok := elements(raw, 3)
	if !ok || len(parts) < 1 {
		return nil, payloadErr(StatData, "not [bodies, heads, full?]")
	}
	st := &Stat{}
	rows, ok := elements(parts[0], -1)
	if !ok {
		return nil, payloadErr(StatData, "bodies are not an array")
	}
	for _, r := range rows {
		if len(st.Bodies) == MaxStatRows {
			break
		}
		el, ok := elements(r, 4)
		if !ok || len(el) < 3 {
			continue
		}
		team, err := strconv.Atoi(scalarText(el[1]))
		if err != nil {
			continue
		}
		b := StatBody{ID: clip(scalarText(el[0]), MaxName), Team: team}
		if IsNull(el[2]) {
			b.Remove = true
		} else if b.Cells, err = parseCells(el[2]); err != nil {
			continue
		}
		if len(el) > 3 {
			b.Body, _ = strconv.Atoi(scalarText(el[3]))
		}
		st.Bodies = append(st.Bodies, b)
	}
	if len(parts) > 1 {
		heads, _ := elements(parts[1], -1)
		for _, h := range heads {
			if len(st.Heads) == MaxStatHeads {
				break
			}
			el, ok := elements(h, 3)
			if !ok || len(el) < 2 {
				continue
			}
			team, err := strconv.Atoi(scalarText(el[0]))
			if err != nil {
				continue
			}
			cells, err := parseCells(el[1])
			if err != nil {
				continue
			}
			hd := StatHead{Team: team, Cells: cells}
			if len(el) > 2 {
				hd.Row, _ = strconv.Atoi(scalarText(el[2]))
			}
			st.Heads = append(st.Heads, hd)
		}
	}
	if len(parts) > 2 {
		st.Full = truthy(parts[2])
	}
	return st, nil
}

func parseCells(raw json.RawMessage) ([]StatCell, error) {
	cells, ok := elements(raw, MaxStatCells)
	if !ok {
		return nil, errNotArray
	}
	cells = cells[:min(len(cells), MaxStatCells)]
	out := make([]StatCell, len(cells))
	for i, c := range cells {
		c = bytes.TrimSpace(c)
		if IsNull(c) || c[0] == '{' || c[0] == '[' {
			out[i] = StatCell{Keep: true}
			continue
		}
		out[i] = StatCell{Text: text(c)}
	}
	return out, nil
}

// ChatKind tells the three CHAT_DATA forms apart.
type ChatKind uint8

const (
	ChatPlayer   ChatKind = iota // [text, author, teamId, nameColour?]
	ChatSystem                   // [text]
	ChatTemplate                 // "group:index[:p0,p1]"
)

// Chat is one CHAT_DATA (port 15) line.
type Chat struct {
	Kind   ChatKind
	Text   string
	Author string
	Team   int
	Group  string
	Index  int
	Params []string
	// NameColor is a player line's optional fourth element: the colour the
	// game gives the author's name, as CSS writes it ("#e05a2a"); "" when
	// the host sent none (the team's colour is used).
	NameColor string
}

// ParseChat decodes CHAT_DATA.
func ParseChat(raw json.RawMessage) (Chat, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		parts := strings.SplitN(s, ":", 3)
		if len(parts) < 2 {
			return Chat{}, payloadErr(ChatData, "template %.30q has no index", s)
		}
		idx, err := strconv.Atoi(parts[1])
		if err != nil || idx < 0 {
			return Chat{}, payloadErr(ChatData, "template %.30q has no index", s)
		}
		c := Chat{Kind: ChatTemplate, Group: clipOwn(parts[0], MaxName), Index: idx}
		if len(parts) == 3 {
			c.Params = strings.SplitN(parts[2], ",", MaxParams+1)
			c.Params = c.Params[:min(len(c.Params), MaxParams)]
			for i := range c.Params {
				c.Params[i] = clipOwn(c.Params[i], MaxText)
			}
		}
		return c, nil
	}
	el, ok := elements(raw, 4) // text, author, team, the name's colour
	if !ok || len(el) == 0 {
		return Chat{}, payloadErr(ChatData, "neither a template string nor an array")
	}
	if len(el) == 1 {
		return Chat{Kind: ChatSystem, Text: text(el[0])}, nil
	}
	c := Chat{Kind: ChatPlayer, Text: text(el[0]), Author: text(el[1])}
	if len(el) > 2 {
		c.Team, _ = strconv.Atoi(scalarText(el[2]))
	}
	if len(el) > 3 {
		var col string
		if json.Unmarshal(el[3], &col) == nil {
			c.NameColor = clip(col, maxColorText)
		}
	}
	return c, nil
}

// TeamVote is the engine's team-change vote: the vote a host opens for a
// joining player (the games' initial vote), answered with a team name.
const TeamVote = "teamChange"

// Vote is VOTE_DATA (port 16): either a vote to open or a list answering a
// "teams"/"maps" request. Neither set means a shape the host never sends.
type Vote struct {
	Open   *VoteOpen
	List   []string
	IsList bool
}

// VoteOpen is a vote to show: template name, title params, explicit values.
type VoteOpen struct {
	Name   string
	Params []string
	Values json.RawMessage // nil: use the template's values
}

// ParseVote decodes VOTE_DATA.
func ParseVote(raw json.RawMessage) (Vote, error) {
	tok := bytes.TrimSpace(raw)
	if len(tok) > 0 && tok[0] == '[' {
		items, ok := elements(tok, MaxVoteItems)
		if !ok {
			return Vote{}, payloadErr(VoteData, "bad list")
		}
		items = items[:min(len(items), MaxVoteItems)]
		v := Vote{IsList: true, List: make([]string, 0, len(items))}
		for _, it := range items {
			v.List = append(v.List, text(it))
		}
		return v, nil
	}
	var o struct {
		Name   json.RawMessage   `json:"name"`
		Params []json.RawMessage `json:"params"`
		Values json.RawMessage   `json:"values"`
	}
	if len(tok) == 0 || tok[0] != '{' || json.Unmarshal(tok, &o) != nil {
		return Vote{}, payloadErr(VoteData, "neither a vote object nor a list")
	}
	name := scalarText(o.Name)
	if name == "" {
		return Vote{}, payloadErr(VoteData, "vote without a name")
	}
	if len(name) > MaxName {
		return Vote{}, payloadErr(VoteData, "vote name longer than %d bytes", MaxName)
	}
	open := &VoteOpen{Name: name}
	for _, p := range o.Params[:min(len(o.Params), MaxParams)] {
		open.Params = append(open.Params, text(p))
	}
	if !IsNull(o.Values) {
		open.Values = o.Values
	}
	return Vote{Open: open}, nil
}
