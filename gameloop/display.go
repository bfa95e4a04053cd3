package gameloop

import (
	"strconv"

	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/parts"
)

// display is the player's display and control settings, which the loop
// keeps across connections (every new HUD and controller gets them), the
// menu entries the window asked for and whether the player chose them, and
// the game's keys before the player's bindings, for the window's settings
// overlay.
type display struct {
	reduced       bool
	palette       string
	settingsEntry bool
	settingsAsked bool
	browserEntry  string
	browserAsked  bool
	bindings      input.Binding // the player's own bindings (nil: the game's keys)
	bindingsGame  string        // the game bindings were read or set for ("": not read yet)
	keys          input.Config  // the game's keys as its CONFIG_DATA gives them
	haveKeys      bool
}

// apply gives a new HUD the player's settings.
func (d *display) apply(h *hud.HUD) {
	h.SetReducedMotion(d.reduced)
	h.SetPalette(d.palette)
	h.SettingsEntry(d.settingsEntry)
	h.BrowserEntry(d.browserEntry)
}

// configured keeps a new game's keys and returns them with the player's
// bindings, and what the bindings could not do.
func (d *display) configured(keys input.Config) (bound input.Config, problems []string) {
	d.keys, d.haveKeys = keys, true
	if d.bindings == nil {
		return keys, nil
	}
	return keys.WithBindings(d.bindings)
}

// rebind replaces the bindings and returns the game's keys with them; ok is
// false before a game gave its keys.
func (d *display) rebind(b input.Binding) (bound input.Config, problems []string, ok bool) {
	d.bindings = b
	if !d.haveKeys {
		return input.Config{}, nil, false
	}
	bound, problems = d.keys.WithBindings(b)
	return bound, problems, true
}

// sent notes the menu entries the player chose.
func (d *display) sent(o hud.Out) {
	switch o.Kind {
	case hud.OutSettings:
		d.settingsAsked = true
	case hud.OutBrowser:
		d.browserAsked = true
	}
}

// take reports whether *asked was set, and clears it.
func take(asked *bool) bool {
	was := *asked
	*asked = false
	return was
}

// SetReducedMotion turns the HUD's animations off or on, now and on every
// later connection.
func (l *Loop) SetReducedMotion(on bool) {
	l.disp.reduced = on
	l.hud.SetReducedMotion(on)
}

// SetPalette sets the team colours (hud.PaletteStandard or
// hud.PaletteColorBlind) of the HUD and of the world's team textures.
func (l *Loop) SetPalette(name string) {
	l.disp.palette = name
	l.hud.SetPalette(name)
	l.world.SetPalette(name)
}

// SetSettingsEntry puts the client's Settings entry at the end of the M
// menu; choosing it makes SettingsAsked report true once.
func (l *Loop) SetSettingsEntry(on bool) {
	l.disp.settingsEntry = on
	l.hud.SettingsEntry(on)
}

// SettingsAsked reports whether the player chose Settings in the menu since
// the last call.
func (l *Loop) SettingsAsked() bool { return take(&l.disp.settingsAsked) }

// SetBrowserEntry puts the client's entry leaving the match for the
// server list at the end of the M menu ("": none); choosing it makes
// BrowserAsked report true once.
func (l *Loop) SetBrowserEntry(label string) {
	l.disp.browserEntry = label
	l.hud.BrowserEntry(label)
}

// BrowserAsked reports whether the player chose the server list in the
// menu since the last call.
func (l *Loop) BrowserAsked() bool { return take(&l.disp.browserAsked) }

// GameID is the game the loop plays: its target's game id, else the
// known game its CONFIG_DATA was recognised as; "" before either (or for a
// game drawn generically).
func (l *Loop) GameID() string {
	if id := l.currentTarget().GameID; id != "" {
		return id
	}
	if id := l.world.GameID(); id != "generic" {
		return id
	}
	return ""
}

// loadBindings reads the player's saved bindings of the game being
// configured when they were not read or set for it yet.
func (l *Loop) loadBindings() {
	f := l.opts.BindingsFor
	id := l.GameID()
	if f == nil || id == "" || id == l.disp.bindingsGame {
		return
	}
	l.disp.bindings, l.disp.bindingsGame = f(id), id
}

// GameKeys is the current game's controls as its CONFIG_DATA gives them,
// before the player's bindings; ok is false before CONFIG_DATA.
func (l *Loop) GameKeys() (input.Config, bool) { return l.disp.keys, l.disp.haveKeys }

// Bindings are the player's key bindings for the game in use (nil: none).
func (l *Loop) Bindings() input.Binding { return l.disp.bindings }

// SetBindings replaces the player's key bindings for the game: the current
// controller is rebound at once (keys held are released first), and every
// later configuration uses them.
func (l *Loop) SetBindings(b input.Binding) {
	l.disp.bindingsGame = l.GameID()
	cfg, problems, ok := l.disp.rebind(b)
	if l.ctrl == nil || !ok {
		return
	}
	for _, p := range problems {
		l.log.Warn("key bindings", "problem", p)
	}
	l.ctrl.Rebind(cfg, l.clock.now)
}

// SetNames shows the players' names in the world (and marks the own
// entity), or hides them, now and on every later connection: the world
// lives as long as the loop.
func (l *Loop) SetNames(on bool) { l.world.SetNames(on) }

// SetMouseAim turns pointer aim of the gun on or off, for this game's
// controller and every later one.
func (l *Loop) SetMouseAim(on bool) {
	l.noMouseAim = !on
	if l.ctrl != nil {
		l.ctrl.SetMouseAim(on, l.clock.now)
	}
}

// giveNames hands the world the scoreboard's names by entity id once a
// STAT_DATA message changed them: a stat row's id is the player's game id,
// the id of its entity in the snapshots.
func (l *Loop) giveNames() {
	if !l.statSeen || l.hud == nil || l.hud.Stat == nil {
		return
	}
	l.statSeen = false
	if l.names == nil {
		l.names = map[uint32]string{}
	}
	clear(l.names)
	l.hud.Stat.EachName(func(rowID, n string) {
		if id, err := strconv.ParseUint(rowID, 10, 32); err == nil {
			l.names[uint32(id)] = n
		}
	})
	l.world.SetPeople(l.names)
}

// badgeTop is the last place of an award's top that wears its badge.
const badgeTop = 10

// giveBadges hands the world the players' badges once an ACCOLADES_DATA
// message changed them: the day's top ten wear one, the month's another.
func (l *Loop) giveBadges() {
	if !l.accoladesSeen || l.hud == nil || l.hud.Accolades == nil {
		return
	}
	l.accoladesSeen = false
	if l.badges == nil {
		l.badges = map[uint32]parts.Badges{}
	}
	clear(l.badges)
	for gid, awards := range l.hud.Accolades.Places {
		id, err := strconv.ParseUint(gid, 10, 32)
		if err != nil {
			continue
		}
		var b parts.Badges
		if p := awards["daily"]; p >= 1 && p <= badgeTop {
			b |= parts.BadgeDay
		}
		if p := awards["monthly"]; p >= 1 && p <= badgeTop {
			b |= parts.BadgeMonth
		}
		if b != 0 {
			l.badges[uint32(id)] = b
		}
	}
	l.world.SetBadges(l.badges)
}
