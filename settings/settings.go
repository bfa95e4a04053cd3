// Package settings holds the player's client settings — volumes, window,
// overlays, team palette, gamepad bindings — and keeps them in a JSON file
// under the user config dir. A damaged or hand-edited file never stops the
// client: each value is checked on its own and a bad one falls back to its
// default with a problem reported.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"vimpclient/internal/localfile"
)

// Palettes are the team colour sets.
const (
	PaletteStandard   = "standard"
	PaletteColorBlind = "colorblind" // distinguishable with any common colour blindness
)

// Limits on what a settings file may hold.
const (
	maxFileBytes    = 256 << 10
	maxGames        = 64
	maxPadControls  = 32
	maxPadCommands  = 4
	maxCommandBytes = 64
)

// Settings are the player's client settings.
type Settings struct {
	MasterVolume  float64 `json:"masterVolume"`  // 0..1
	EffectsVolume float64 `json:"effectsVolume"` // 0..1, world sounds under the master
	Fullscreen    bool    `json:"fullscreen"`
	Vsync         bool    `json:"vsync"`
	NetGraph      bool    `json:"netGraph"`
	ReducedMotion bool    `json:"reducedMotion"`
	// Names draws the players' names in the world and marks the own
	// snake or tank; on unless the player turned it off.
	Names bool `json:"names"`
	// Lighting darkens a night map and lights it with its lamps, the
	// tanks' lights and the flashes; off, every map is drawn as by day
	// (cheaper on a slow machine). On unless turned off.
	Lighting bool `json:"lighting"`
	// MouseAim turns a game's gun towards the pointer, for a game with a
	// gun and no pointer input of its own (tanks); on unless turned off.
	MouseAim bool    `json:"mouseAim"`
	HUDScale float64 `json:"hudScale"` // 0.75..2, times the display's own scale; 0 (HUDScaleAuto) follows the window
	Palette  string  `json:"palette"`
	// Pads are gamepad bindings per game id: control name → commands,
	// replacing the layout derived from the game's keys for those controls.
	Pads map[string]map[string][]string `json:"pads,omitempty"`
	// Window is the window's last size and position (nil: never saved),
	// so the next start opens where the player left it.
	Window *Geometry `json:"window,omitempty"`
}

// Geometry is a window's size and position in logical pixels.
type Geometry struct {
	W int `json:"w"`
	H int `json:"h"`
	X int `json:"x"`
	Y int `json:"y"`
}

// Bounds of a remembered window: smaller or larger than any display, or
// placed far off every screen, it is not used.
const (
	MinWindowSide = 320
	MaxWindowSide = 16384
	MaxWindowPos  = 32768
)

// Valid reports whether g can be used to open a window.
func (g Geometry) Valid() bool {
	in := func(v, lo, hi int) bool { return v >= lo && v <= hi }
	return in(g.W, MinWindowSide, MaxWindowSide) && in(g.H, MinWindowSide/2, MaxWindowSide) &&
		in(g.X, -MaxWindowPos, MaxWindowPos) && in(g.Y, -MaxWindowPos, MaxWindowPos)
}

// HUDScaleAuto is the HUDScale that sizes the HUD with the window.
const HUDScaleAuto = 0

// Default is what a new player gets.
func Default() Settings {
	return Settings{MasterVolume: 1, EffectsVolume: 1, Vsync: true, Names: true, Lighting: true, MouseAim: true, HUDScale: HUDScaleAuto, Palette: PaletteStandard}
}

// Path is where the settings live.
func Path() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("settings: %w", err)
	}
	return filepath.Join(dir, "vimpclient", "settings.json"), nil
}

// Load reads the settings at path; a missing file gives the defaults.
// problems lists the values that were replaced by their defaults.
func Load(path string) (s Settings, problems []string, err error) {
	b, err := localfile.ReadStore(path, maxFileBytes, "settings file")
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil, nil
	}
	if err != nil {
		return Default(), nil, fmt.Errorf("settings: %w", err)
	}
	s, problems = Parse(b)
	return s, problems, nil
}

// Parse reads a settings file's bytes: every value is checked on its own;
// what is missing or unusable keeps its default and is reported.
func Parse(b []byte) (Settings, []string) {
	s := Default()
	if len(b) > maxFileBytes {
		return s, []string{fmt.Sprintf("settings file larger than %d bytes: ignored", maxFileBytes)}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return s, []string{"settings file is not a JSON object: ignored"}
	}
	var problems []string
	bad := func(key string, why string) { problems = append(problems, key+": "+why+", using the default") }
	unit := func(key string, dst *float64, lo, hi float64) {
		v, ok := raw[key]
		if !ok {
			return
		}
		var f float64
		if json.Unmarshal(v, &f) != nil || math.IsNaN(f) || f < lo || f > hi {
			bad(key, fmt.Sprintf("not a number from %g to %g", lo, hi))
			return
		}
		*dst = f
	}
	flag := func(key string, dst *bool) {
		v, ok := raw[key]
		if !ok {
			return
		}
		if json.Unmarshal(v, dst) != nil {
			bad(key, "not true or false")
		}
	}
	unit("masterVolume", &s.MasterVolume, 0, 1)
	unit("effectsVolume", &s.EffectsVolume, 0, 1)
	var hs float64
	if v, ok := raw["hudScale"]; ok && json.Unmarshal(v, &hs) == nil && hs == HUDScaleAuto {
		s.HUDScale = HUDScaleAuto
	} else {
		unit("hudScale", &s.HUDScale, 0.75, 2)
	}
	flag("fullscreen", &s.Fullscreen)
	flag("vsync", &s.Vsync)
	flag("netGraph", &s.NetGraph)
	flag("reducedMotion", &s.ReducedMotion)
	flag("names", &s.Names)
	flag("lighting", &s.Lighting)
	flag("mouseAim", &s.MouseAim)
	if v, ok := raw["palette"]; ok {
		var p string
		if json.Unmarshal(v, &p) != nil || (p != PaletteStandard && p != PaletteColorBlind) {
			bad("palette", "not "+PaletteStandard+" or "+PaletteColorBlind)
		} else {
			s.Palette = p
		}
	}
	if v, ok := raw["window"]; ok {
		var g Geometry
		if json.Unmarshal(v, &g) != nil || !g.Valid() {
			problems = append(problems, fmt.Sprintf("window: not a size of %d to %d px and a position on screen, not used", MinWindowSide, MaxWindowSide))
		} else {
			s.Window = &g
		}
	}
	if v, ok := raw["pads"]; ok {
		pads, more := parsePads(v)
		s.Pads = pads
		problems = append(problems, more...)
	}
	return s, problems
}

func parsePads(v json.RawMessage) (map[string]map[string][]string, []string) {
	var raw map[string]map[string][]string
	if err := json.Unmarshal(v, &raw); err != nil {
		return nil, []string{"pads: not game → control → commands, ignored"}
	}
	var problems []string
	out := map[string]map[string][]string{}
	games := make([]string, 0, len(raw))
	for g := range raw {
		games = append(games, g)
	}
	sort.Strings(games)
	for _, g := range games {
		if len(out) >= maxGames {
			problems = append(problems, fmt.Sprintf("pads: more than %d games, the rest ignored", maxGames))
			break
		}
		m := map[string][]string{}
		for ctl, cmds := range raw[g] {
			if len(m) >= maxPadControls || len(cmds) > maxPadCommands || len(ctl) > maxCommandBytes {
				problems = append(problems, "pads."+g+": too many bindings, some ignored")
				continue
			}
			ok := true
			for _, c := range cmds {
				if c == "" || len(c) > maxCommandBytes {
					ok = false
				}
			}
			if !ok {
				problems = append(problems, "pads."+g+"."+ctl+": a command name is empty or too long, ignored")
				continue
			}
			m[ctl] = cmds
		}
		out[g] = m
	}
	return out, problems
}

// Save writes the settings to path, atomically: a crash never leaves half a
// file.
func Save(path string, s Settings) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if _, err := localfile.Replace(path, append(bytes.TrimSpace(b), '\n'), 0o600, damaged(path), time.Now()); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	return nil
}

// damaged reports whether the file at path holds anything Load could not
// read (a value replaced by its default, a file that is not JSON or cannot
// be read): it is set aside before it is written over. It is read again
// here, not remembered from Load, so a file that Save made whole is never
// set aside.
func damaged(path string) bool {
	b, err := localfile.ReadStore(path, maxFileBytes, "settings file")
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	_, problems := Parse(b)
	return len(problems) > 0
}
