package gameloop

import (
	"vimpclient/hud"
	"vimpclient/input"
)

// The player's display and control settings, which the loop keeps across
// connections: every new HUD, world configuration and controller gets them.

// SetReducedMotion turns the HUD's animations off or on, now and on every
// later connection.
func (l *Loop) SetReducedMotion(on bool) {
	l.reduced = on
	l.hud.SetReducedMotion(on)
}

// SetPalette sets the team colours (hud.PaletteStandard or
// hud.PaletteColorBlind) of the HUD and of the world's team textures.
func (l *Loop) SetPalette(name string) {
	l.palette = name
	l.hud.SetPalette(name)
	l.world.SetPalette(name)
}

// SetSettingsEntry puts the client's Settings entry at the end of the M
// menu; choosing it makes SettingsAsked report true once.
func (l *Loop) SetSettingsEntry(on bool) {
	l.settingsEntry = on
	l.hud.SettingsEntry(on)
}

// SettingsAsked reports whether the player chose Settings in the menu since
// the last call.
func (l *Loop) SettingsAsked() bool {
	asked := l.settingsAsked
	l.settingsAsked = false
	return asked
}

// applyDisplay gives a new HUD the player's settings.
func (l *Loop) applyDisplay(h *hud.HUD) {
	h.SetReducedMotion(l.reduced)
	h.SetPalette(l.palette)
	h.SettingsEntry(l.settingsEntry)
}

// GameKeys is the current game's controls as its CONFIG_DATA gives them,
// before the player's bindings; ok is false before CONFIG_DATA.
func (l *Loop) GameKeys() (input.Config, bool) { return l.keys, l.haveKeys }

// SetBindings replaces the player's key bindings for the game: the current
// controller is rebound at once (keys held are released first), and every
// later configuration uses them.
func (l *Loop) SetBindings(b input.Binding) {
	l.opts.Bindings = b
	if l.ctrl == nil || !l.haveKeys {
		return
	}
	cfg, problems := l.keys.WithBindings(b)
	for _, p := range problems {
		l.log.Warn("key bindings", "problem", p)
	}
	l.ctrl.Rebind(cfg, l.nowMs)
}
