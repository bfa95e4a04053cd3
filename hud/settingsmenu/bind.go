package settingsmenu

import (
	"slices"
	"strings"

	"vimpclient/input"
)

// The overlay's binding sections: one row per command of the game, in the
// player's key set first, then the spectator's, with the keys (or gamepad
// controls) it is on now and what clashes.

// commands lists the game's commands: the player's set (1) first, then
// those only the spectator's (0) has, each in the order a player reads
// them (input.OrderCommands: moving, aiming, firing, the rest).
func (m *Menu) commands() []string {
	var out []string
	for _, set := range []int{1, 0} {
		for _, c := range input.OrderCommands(m.cfg.Commands(set)) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	for set := 2; set < len(m.cfg.KeySets); set++ {
		for _, c := range input.OrderCommands(m.cfg.Commands(set)) {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// sets lists the key sets that have command name.
func (m *Menu) sets(name string) []int {
	var out []int
	for i := range m.cfg.KeySets {
		if len(m.cfg.Keys(i, name)) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// keysOf are the keys command name is on in key set set: the player's
// binding, else the game's.
func (m *Menu) keysOf(set int, name string) []int {
	if codes, ok := m.keys[name]; ok {
		return codes
	}
	return m.cfg.Keys(set, name)
}

// label names a command for its rows: the spectator's commands say so.
func (m *Menu) label(name string) string {
	if s := m.sets(name); len(s) == 1 && s[0] == 0 {
		return input.CommandLabel(name) + " (spectating)"
	}
	return input.CommandLabel(name)
}

// bindingRows appends the keyboard and gamepad sections to rows.
func (m *Menu) bindingRows(rows []Row) []Row {
	cmds := m.commands()
	if len(cmds) == 0 {
		return append(rows, Row{Kind: RowHeading, Label: "Keys and gamepad: join a game to bind its commands"})
	}
	rows = append(rows, Row{Kind: RowHeading, Label: "Keyboard — Enter, then a key · Del: the game's keys"})
	for _, c := range cmds {
		r := Row{Kind: RowKey, Label: m.label(c), command: c}
		var names []string
		for _, set := range m.sets(c) {
			for _, code := range m.keysOf(set, c) {
				if n := input.KeyName(code); !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
		r.Value = strings.Join(names, ", ")
		if r.Value == "" {
			r.Value = "—"
		}
		r.Conflict = m.keyConflict(c)
		rows = append(rows, r)
	}
	rows = append(rows, Row{Kind: RowHeading, Label: "Gamepad — Enter, then a button · Del: the default layout"})
	pm := m.PadMap()
	for _, c := range cmds {
		r := Row{Kind: RowPad, Label: m.label(c), command: c}
		var names []string
		for _, ctl := range pm.Controls(c) {
			names = append(names, ctl.Label())
		}
		r.Value = strings.Join(names, ", ")
		if r.Value == "" {
			r.Value = "—"
		}
		r.Conflict = m.padConflict(pm, c)
		rows = append(rows, r)
	}
	return rows
}

// keyConflict says what clashes with command name's keys: another command
// of the same key set on one of them, or a key the engine or the window
// keeps.
func (m *Menu) keyConflict(name string) string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, set := range m.sets(name) {
		for _, code := range m.keysOf(set, name) {
			if why := m.engineKey(code); why != "" {
				add(input.KeyName(code) + " " + why)
				continue
			}
			for _, other := range m.cfg.Commands(set) {
				if other != name && slices.Contains(m.keysOf(set, other), code) {
					add(input.KeyName(code) + " also " + input.CommandLabel(other))
				}
			}
		}
	}
	return strings.Join(out, "; ")
}

// engineKey says why a key cannot carry a command ("" when it can): it
// opens one of the engine's modes, is a command-line key, or the window's.
func (m *Menu) engineKey(code int) string {
	if mode, ok := m.cfg.Modes[code]; ok {
		switch mode {
		case input.ModeChat:
			return "opens the chat"
		case input.ModeVote:
			return "opens the menu"
		case input.ModeStat:
			return "shows the scoreboard"
		}
		return "is an engine key"
	}
	if _, ok := m.cfg.Cmds[code]; ok {
		return "is a command-line key"
	}
	if what, ok := m.reserved[code]; ok {
		return "is the window's (" + what + ")"
	}
	return ""
}

// bindKey puts command name on key code alone, unless the key is the
// engine's or the window's.
func (m *Menu) bindKey(name string, code int) {
	if why := m.engineKey(code); why != "" {
		m.Status = input.KeyName(code) + " " + why + ": not bound"
		return
	}
	m.keys[name] = []int{code}
	// The game's own single key needs no binding.
	for _, set := range m.sets(name) {
		if d := m.cfg.Keys(set, name); len(d) == 1 && d[0] == code {
			delete(m.keys, name)
		}
	}
	m.changed |= ChangeKeys
	m.Status = input.CommandLabel(name) + ": " + input.KeyName(code)
	m.rebuild()
	if c := m.keyConflict(name); c != "" {
		m.Status += " — " + c
	}
}

// padConflict says which other command of the same key set shares a
// control with command name.
func (m *Menu) padConflict(pm input.PadMap, name string) string {
	var out []string
	for _, ctl := range pm.Controls(name) {
		for _, other := range pm[ctl] {
			if other != name && m.sameSet(name, other) {
				out = append(out, ctl.Label()+" also "+input.CommandLabel(other))
			}
		}
	}
	return strings.Join(out, "; ")
}

// sameSet reports whether two commands share a key set.
func (m *Menu) sameSet(a, b string) bool {
	for _, s := range m.sets(a) {
		if slices.Contains(m.sets(b), s) {
			return true
		}
	}
	return false
}

// bindPad puts command name on gamepad control ctl: the control keeps the
// commands of the other key sets (a control carries one command of each
// set) and loses the one it had in name's set.
func (m *Menu) bindPad(name string, ctl input.PadControl) {
	if ctl == input.PadStart || ctl == input.PadBack || ctl == input.PadNone {
		m.Status = ctl.Label() + " opens the menu or the scoreboard: not bound"
		return
	}
	pm := m.PadMap()
	cmds := []string{name}
	var lost []string
	for _, c := range pm[ctl] {
		switch {
		case c == name:
		case m.sameSet(name, c):
			lost = append(lost, c)
		default:
			cmds = append(cmds, c)
		}
	}
	m.setPads(ctl.String(), cmds, false)
	m.Status = ctl.Label() + ": " + input.CommandLabel(name)
	if len(lost) > 0 {
		for i, c := range lost {
			lost[i] = input.CommandLabel(c)
		}
		m.Status += " (was " + strings.Join(lost, ", ") + ")"
	}
	m.rebuild()
}

// setPads sets (or with remove, drops) the player's binding of one control
// for the game.
func (m *Menu) setPads(control string, cmds []string, remove bool) {
	if m.game == "" {
		return
	}
	pads := map[string]map[string][]string{}
	for g, over := range m.S.Pads {
		pads[g] = over
	}
	over := map[string][]string{}
	for c, l := range pads[m.game] {
		over[c] = l
	}
	if remove {
		delete(over, control)
	} else {
		over[control] = cmds
	}
	if len(over) == 0 {
		delete(pads, m.game)
	} else {
		pads[m.game] = over
	}
	if len(pads) == 0 {
		pads = nil
	}
	m.S.Pads = pads
	m.changed |= ChangePads
}
