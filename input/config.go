// Package input turns physical key and pointer transitions into the host's
// KEYS_DATA messages ("seq:down:name", "seq:up:name", "seq:aim:x:y:flags")
// and into UI commands (open the chat, the vote menu, the scoreboard).
//
// The logic is plain Go driven by explicit events and times, so every gating
// rule is testable without a display; the Ebiten key reading lives in
// package input/ebiteninput and only translates Ebiten keys into DOM key
// codes.
package input

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"vimpclient/protocol"
)

// Mode is one of the engine's UI modes; while chat is open no game key is sent.
type Mode uint8

const (
	ModeNone Mode = iota
	ModeChat
	ModeVote
	ModeStat
)

func (m Mode) String() string {
	switch m {
	case ModeChat:
		return "chat"
	case ModeVote:
		return "vote"
	case ModeStat:
		return "stat"
	}
	return "none"
}

func modeByName(s string) Mode {
	switch s {
	case "chat":
		return ModeChat
	case "vote":
		return ModeVote
	case "stat":
		return ModeStat
	}
	return ModeNone
}

// Cmd is one of the engine's command-line keys.
type Cmd uint8

const (
	CmdNone Cmd = iota
	CmdEnter
	CmdEscape
)

// Engine defaults for the mode and command tables, used
// when CONFIG_DATA omits them.
var (
	defaultModes = map[int]Mode{9: ModeStat, 67: ModeChat, 77: ModeVote}
	defaultCmds  = map[int]Cmd{13: CmdEnter, 27: CmdEscape}
)

// PointerConfig is modules.controls.pointer with the engine defaults applied.
type PointerConfig struct {
	KeySets        []int // nil: every key set
	DoubleTapMs    float64
	DoubleTapPx    float64
	SendIntervalMs float64
}

// Config is the controls part of CONFIG_DATA in typed form.
type Config struct {
	KeySets []map[int]string // index 0 spectator, 1 player: DOM key code -> command
	Modes   map[int]Mode
	Cmds    map[int]Cmd
	Pointer *PointerConfig // nil: the game has no pointer channel
}

// ConfigFrom builds the controls config from CONFIG_DATA. Entries whose key
// code is not a number are skipped and reported in problems; the config is
// still usable.
func ConfigFrom(c *protocol.Config) (cfg Config, problems []string) {
	cfg.Modes = make(map[int]Mode, len(defaultModes))
	cfg.Cmds = make(map[int]Cmd, len(defaultCmds))
	if len(c.Modes) == 0 {
		for k, v := range defaultModes {
			cfg.Modes[k] = v
		}
	}
	for k, v := range c.Modes {
		code, err := strconv.Atoi(k)
		if err == nil && v == "" {
			// An empty mode is how a game switches an engine mode off
			// (snakes 0.15 has no vote: "77": ""): the key has none.
			continue
		}
		m := modeByName(v)
		if err != nil || m == ModeNone {
			problems = append(problems, fmt.Sprintf("mode %q=%q ignored", k, v))
			continue
		}
		cfg.Modes[code] = m
	}
	if len(c.Cmds) == 0 {
		for k, v := range defaultCmds {
			cfg.Cmds[k] = v
		}
	}
	for k, v := range c.Cmds {
		code, err := strconv.Atoi(k)
		var cmd Cmd
		switch v {
		case "enter":
			cmd = CmdEnter
		case "escape":
			cmd = CmdEscape
		}
		if err != nil || cmd == CmdNone {
			problems = append(problems, fmt.Sprintf("cmd %q=%q ignored", k, v))
			continue
		}
		cfg.Cmds[code] = cmd
	}
	for i, set := range c.KeySets {
		m := make(map[int]string, len(set))
		for k, name := range set {
			code, err := strconv.Atoi(k)
			if err != nil || name == "" {
				problems = append(problems, fmt.Sprintf("key set %d: %q=%q ignored", i, k, name))
				continue
			}
			m[code] = name
		}
		cfg.KeySets = append(cfg.KeySets, m)
	}
	if len(c.Pointer) > 0 {
		p, err := parsePointer(c.Pointer)
		if err != nil {
			problems = append(problems, err.Error())
		} else {
			cfg.Pointer = p
		}
	}
	return cfg, problems
}

func parsePointer(raw json.RawMessage) (*PointerConfig, error) {
	var p struct {
		KeySets        []int    `json:"keySets"`
		DoubleTapMs    *float64 `json:"doubleTapMs"`
		DoubleTapPx    *float64 `json:"doubleTapPx"`
		SendIntervalMs *float64 `json:"sendIntervalMs"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("controls.pointer: %w", err)
	}
	pc := &PointerConfig{KeySets: p.KeySets, DoubleTapMs: 300, DoubleTapPx: 40, SendIntervalMs: 50}
	if p.DoubleTapMs != nil {
		pc.DoubleTapMs = *p.DoubleTapMs
	}
	if p.DoubleTapPx != nil {
		pc.DoubleTapPx = *p.DoubleTapPx
	}
	if p.SendIntervalMs != nil {
		pc.SendIntervalMs = *p.SendIntervalMs
	}
	return pc, nil
}

// WithBindings returns a copy of cfg whose key sets carry the user's
// bindings: every command named in b is moved to the user's keys, the host's
// command names stay what goes on the wire. A user key that is an engine
// mode or command key is skipped (those keys never reach the game) and
// reported.
func (cfg Config) WithBindings(b Binding) (Config, []string) {
	if len(b) == 0 {
		return cfg, nil
	}
	var problems []string
	out := cfg
	out.KeySets = make([]map[int]string, len(cfg.KeySets))
	cmds := make([]string, 0, len(b))
	for c := range b {
		cmds = append(cmds, c)
	}
	sort.Strings(cmds)
	for i, set := range cfg.KeySets {
		eff := make(map[int]string, len(set))
		for code, name := range set {
			if _, moved := b[name]; !moved {
				eff[code] = name
			}
		}
		for _, name := range cmds {
			if !hasCommand(set, name) {
				continue
			}
			for _, code := range b[name] {
				if _, isMode := cfg.Modes[code]; isMode {
					problems = append(problems, fmt.Sprintf("%s: key %d is an engine key", name, code))
					continue
				}
				if _, isCmd := cfg.Cmds[code]; isCmd {
					problems = append(problems, fmt.Sprintf("%s: key %d is an engine key", name, code))
					continue
				}
				eff[code] = name
			}
		}
		out.KeySets[i] = eff
	}
	return out, problems
}

// Offers reports whether any key set of cfg has command name.
func (cfg Config) Offers(name string) bool {
	for _, set := range cfg.KeySets {
		if hasCommand(set, name) {
			return true
		}
	}
	return false
}

// Commands lists the commands of key set index (the spectator's 0, the
// player's 1), in name order.
func (cfg Config) Commands(index int) []string {
	if index < 0 || index >= len(cfg.KeySets) {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, name := range cfg.KeySets[index] {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Keys lists the key codes of key set index bound to command name, in code
// order.
func (cfg Config) Keys(index int, name string) []int {
	if index < 0 || index >= len(cfg.KeySets) {
		return nil
	}
	var out []int
	for code, n := range cfg.KeySets[index] {
		if n == name {
			out = append(out, code)
		}
	}
	sort.Ints(out)
	return out
}

func hasCommand(set map[int]string, name string) bool {
	for _, n := range set {
		if n == name {
			return true
		}
	}
	return false
}
