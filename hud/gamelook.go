package hud

import (
	"math"
	"strconv"
	"strings"

	"vimpclient/input"
	"vimpclient/internal/words"
	"vimpclient/protocol"
)

// GameLook is what a game's own client adds to the engine's overlays, which
// CONFIG_DATA does not carry: the panel cells the game's style sheet hides
// (cells that carry data for the game's own scripts, not for the player) and
// the result card it shows when the local player is out. The zero value is
// the engine's overlays as they are.
type GameLook struct {
	// HiddenCells are panel field names never shown, whatever the host
	// sends for them.
	HiddenCells []string
	// Crash is the game's result card; nil when it has none.
	Crash *CrashSpec
}

// CrashSpec says where a result card reads its figures and what it says.
// The host drives it through the panel: DeadField is 0 while the player is
// alive and carried + 1 once out (panel values floor at 0, so "out with
// nothing" must differ from "alive"); ScoreField is the running total, sent
// in the same message when both change.
type CrashSpec struct {
	DeadField, ScoreField string
	Title                 string // "You crashed"
	Carried               string // what the carried figure counts: "crystals"
	CarriedOne            string // the same for a haul of one: "crystal" ("": Carried)
	Total                 string // the score line's label: "Total score"
	// Respawn is the command that asks for a new life; the card names the
	// key bound to it.
	Respawn string
}

// CrashCard is the result card's state: shown from the panel message that
// says the player is out until the one that says it is back.
type CrashCard struct {
	Spec    *CrashSpec // nil: the game has no card
	Shown   bool
	Carried float64 // what the life that ended carried
	Score   float64 // the running total when it ended
	// Key names the key bound to Spec.Respawn ("R"), "" when none is.
	Key string

	score float64 // the last ScoreField value
}

// apply reads one PANEL_DATA message, keys mapping wire keys to field names.
func (c *CrashCard) apply(entries []protocol.PanelCell, keys map[string]string) {
	if c.Spec == nil {
		return
	}
	// The score first: the host writes it and the crash in one message, and
	// the card must not show the previous total.
	for _, e := range entries {
		if v, ok := cellNumber(e, keys, c.Spec.ScoreField); ok {
			c.score = v
		}
	}
	for _, e := range entries {
		v, ok := cellNumber(e, keys, c.Spec.DeadField)
		switch {
		case !ok:
		case v > 0 && !c.Shown:
			c.Shown, c.Carried, c.Score = true, v-1, c.score
		case v <= 0:
			c.Shown = false
		}
	}
}

// cellNumber is entry e's value when it is a set, finite value of field.
func cellNumber(e protocol.PanelCell, keys map[string]string, field string) (float64, bool) {
	if !e.Set || field == "" || keys[e.Key] != field {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(e.Value), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// reset hides the card and forgets the score (a new configuration).
// Unit is the haul's noun, in agreement with it: "1 crystal", "12 crystals".
func (c *CrashCard) Unit() string {
	if c.Spec == nil {
		return ""
	}
	one := c.Spec.CarriedOne
	if one == "" {
		one = c.Spec.Carried
	}
	return words.Noun(c.Carried, one, c.Spec.Carried)
}

func (c *CrashCard) reset() { c.Shown, c.score, c.Carried, c.Score = false, 0, 0, 0 }

// SetGameLook applies the look of the game CONFIG_DATA belongs to (the
// zero GameLook for a game this client does not know); keys are the game's
// controls, with the player's bindings, for the key the result card names.
// Call it after each CONFIG_DATA has been handled: a new configuration
// rebuilds the panel and clears the look.
func (h *HUD) SetGameLook(l GameLook, keys input.Config) {
	h.Panel.Hide(l.HiddenCells)
	h.Crash = CrashCard{Spec: l.Crash}
	if l.Crash != nil {
		h.Crash.Key = boundKey(keys, l.Crash.Respawn)
	}
}

// boundKey names the key of the player's key set bound to command, the
// lowest code when several are ("" when none is).
func boundKey(keys input.Config, command string) string {
	if len(keys.KeySets) < 2 || command == "" {
		return ""
	}
	best := 0
	for code, cmd := range keys.KeySets[1] {
		if cmd == command && (best == 0 || code < best) {
			best = code
		}
	}
	if best == 0 {
		return ""
	}
	return input.KeyName(best)
}
