package hud

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"vimpclient/protocol"
)

// UIConfig is the part of CONFIG_DATA the overlays use, typed, with the
// engine defaults applied.
type UIConfig struct {
	Chat    ChatParams
	Panel   PanelSchema
	Stat    StatSchema
	Vote    VoteSchema
	Game    []string // gameInform.list
	Tech    []string // techInformList
	InitIDs []string // initIdList: the elements revealed once the form is accepted
	// Fixed are the sizes of the game's fixed-size canvases (the radar),
	// which the renderer draws in the top-right corner.
	Fixed    []CanvasSize
	Problems []string // parts that failed to parse and fell back to defaults
}

// CanvasSize is a canvas's size in logical px.
type CanvasSize struct{ W, H float64 }

// maxFixedCanvases bounds the fixed canvases the layout reserves room for.
const maxFixedCanvases = 8

// ChatParams is modules.chat.params.
type ChatParams struct {
	ListLimit int
	LineTime  float64 // ms
	CacheMin  int
	CacheMax  int
	Messages  map[string][]*string // the game's texts (see protocol.Config.ChatMessages)
}

// PanelSchema is modules.panel: wire keys and the ordered cells.
type PanelSchema struct {
	Keys   map[string]string
	Fields []PanelField
}

// PanelField is one panel cell's definition.
type PanelField = protocol.PanelField

// StatSchema is modules.stat.params.
type StatSchema struct {
	Columns []string
	Heads   map[int]string
	Bodies  []StatBodyDef // ordered by team number
	Sort    map[string][]SortKey
	// Mode "leaderboard" makes Tab show the game's global leaderboard
	// (from ACCOLADES_DATA) instead of the room's tables; Period picks its
	// board ("day" by default) and Limit its rows (10 by default).
	Mode   string
	Period string
	Limit  int
}

// Leaderboard defaults of modules.stat.params.
const (
	defaultLeaderPeriod = "day"
	defaultLeaderLimit  = 10
	maxLeaderLimit      = 100
)

// StatBodyDef is one scoreboard table: a team number and its table name.
type StatBodyDef struct {
	Team int
	Name string
}

// SortKey is one sortList pair: a cell index and its direction.
type SortKey struct {
	Cell int
	Desc bool
}

// VoteSchema is modules.vote.params.
type VoteSchema struct {
	Templates map[string]protocol.VoteTemplate
	Menu      []MenuEntry
	Time      float64 // ms
}

// MenuEntry is one entry of the M-key menu.
type MenuEntry struct {
	Vote     string
	Template protocol.VoteTemplate
}

// Engine defaults.
const (
	defaultListLimit = 5
	defaultLineTime  = 15000
	defaultCacheMin  = 200
	defaultCacheMax  = 300
	defaultVoteTime  = 10000
)

// DefaultUIConfig is what the overlays use before CONFIG_DATA arrives.
func DefaultUIConfig() UIConfig {
	return UIConfig{
		Chat: ChatParams{ListLimit: defaultListLimit, LineTime: defaultLineTime, CacheMin: defaultCacheMin, CacheMax: defaultCacheMax},
		Vote: VoteSchema{Time: defaultVoteTime},
		Stat: StatSchema{Period: defaultLeaderPeriod, Limit: defaultLeaderLimit},
		Tech: protocol.DefaultTechInform(),
	}
}

// UIConfigFrom extracts the overlay configuration from CONFIG_DATA. Parts
// that do not parse keep their defaults and are listed in Problems.
func UIConfigFrom(c *protocol.Config) UIConfig {
	u := DefaultUIConfig()
	if len(c.TechInformList) > 0 {
		u.Tech = c.TechInformList
	}
	u.Game = c.GameInformList
	u.Chat.Messages = c.ChatMessages
	u.Vote.Templates = c.VoteTemplates
	u.InitIDs = c.InitIDs
	for _, t := range c.FixSizes {
		if sz, ok := fixSize(t); ok && len(u.Fixed) < maxFixedCanvases {
			u.Fixed = append(u.Fixed, sz)
		}
	}

	cp := c.Chat
	if cp.ListLimit >= 1 && cp.ListLimit <= 100 {
		u.Chat.ListLimit = int(cp.ListLimit)
	}
	if cp.LineTime > 0 {
		u.Chat.LineTime = cp.LineTime
	}
	if cp.CacheMin >= 1 && cp.CacheMax > cp.CacheMin && cp.CacheMax <= 10000 {
		u.Chat.CacheMin, u.Chat.CacheMax = int(cp.CacheMin), int(cp.CacheMax)
	}

	u.Panel.Keys = c.Panel.Keys
	for _, f := range c.Panel.Fields {
		if f.Max <= 0 {
			f.Max = 100
		}
		if f.Blocks <= 0 {
			f.Blocks = 30
		}
		if f.Blocks > 200 {
			f.Blocks = 200
		}
		u.Panel.Fields = append(u.Panel.Fields, f)
	}

	sp := c.Stat
	u.Stat.Columns = sp.Columns
	u.Stat.Mode = protocol.ParseScalarText(sp.Mode)
	if p := protocol.ParseScalarText(sp.Period); p != "" {
		u.Stat.Period = p
	}
	if n, err := strconv.Atoi(protocol.ParseScalarText(sp.Limit)); err == nil && n >= 1 {
		u.Stat.Limit = min(n, maxLeaderLimit)
	}
	u.Stat.Heads = map[int]string{}
	for k, v := range sp.Heads {
		if n, err := strconv.Atoi(k); err == nil {
			u.Stat.Heads[n] = v
		}
	}
	for k, v := range sp.Bodies {
		if n, err := strconv.Atoi(k); err == nil {
			u.Stat.Bodies = append(u.Stat.Bodies, StatBodyDef{Team: n, Name: v})
		}
	}
	sort.Slice(u.Stat.Bodies, func(i, j int) bool { return u.Stat.Bodies[i].Team < u.Stat.Bodies[j].Team })
	u.Stat.Sort = map[string][]SortKey{}
	for table, pairs := range sp.SortList {
		for _, p := range pairs {
			idx, err := strconv.Atoi(protocol.ParseScalarText(p[0]))
			if err != nil || idx < 0 {
				continue
			}
			u.Stat.Sort[table] = append(u.Stat.Sort[table], SortKey{Cell: idx, Desc: string(p[1]) == "true"})
		}
	}

	vp := c.Vote
	if vp.Time > 0 {
		u.Vote.Time = vp.Time
	}
	for _, entry := range vp.Menu {
		var pair []json.RawMessage
		if json.Unmarshal(entry, &pair) != nil || len(pair) < 2 {
			continue
		}
		var tpl []json.RawMessage
		if json.Unmarshal(pair[1], &tpl) != nil || len(tpl) == 0 {
			continue
		}
		m := MenuEntry{Vote: protocol.ParseScalarText(pair[0])}
		m.Template.Title = protocol.ParseScalarText(tpl[0])
		if len(tpl) > 1 && !protocol.IsNull(tpl[1]) {
			m.Template.Values = tpl[1]
		}
		u.Vote.Menu = append(u.Vote.Menu, m)
	}
	return u
}

// fixSize reads a canvas's fixSize: "W" (square) or "W:H", positive and
// at most 4096 px.
func fixSize(s string) (CanvasSize, bool) {
	if s == "" {
		return CanvasSize{}, false
	}
	ws, hs, pair := strings.Cut(s, ":")
	w, err := strconv.ParseFloat(strings.TrimSpace(ws), 64)
	if err != nil {
		return CanvasSize{}, false
	}
	h := w
	if pair {
		if h, err = strconv.ParseFloat(strings.TrimSpace(hs), 64); err != nil {
			return CanvasSize{}, false
		}
	}
	if !(w > 0 && w <= 4096 && h > 0 && h <= 4096) {
		return CanvasSize{}, false
	}
	return CanvasSize{W: w, H: h}, true
}

// maxFilledText bounds a filled template in bytes: chat lines, vote
// titles and informs are shorter by far.
const maxFilledText = 4096

// fill replaces {N} with the N-th parameter (protocol.FillTemplate).
func fill(t string, params []string) string { return protocol.FillTemplate(t, params, maxFilledText) }
