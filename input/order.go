package input

import (
	"slices"
	"strings"
	"unicode"
)

// The order the settings overlay lists a game's commands in, as a player
// reads them: moving first (forward, back, left, right), then what aims
// (a direction with a subject: gun left, gun right, gun centre), then
// firing and weapons, then the rest by name. Opposites stay side by side
// (left beside right, next beside previous). The rule reads the command
// names' words, so a game this client does not know is ordered too.

// directionRank orders the words that give a command its direction; a
// pair's members rank next to each other. ok is false for other words.
func directionRank(word string) (rank int, ok bool) {
	switch word {
	case "forward", "forwards", "up", "ahead":
		return 0, true
	case "back", "backward", "backwards", "reverse", "down":
		return 1, true
	case "left":
		return 2, true
	case "right":
		return 3, true
	case "center", "centre":
		return 4, true
	case "next":
		return 5, true
	case "prev", "previous":
		return 6, true
	}
	return 0, false
}

// movementSubject reports whether a direction with subject stem moves
// the player ("" is a bare direction: forward, left).
func movementSubject(stem string) bool {
	switch stem {
	case "", "move", "turn", "strafe", "walk", "drive", "steer", "go":
		return true
	}
	return false
}

// actionWord reports whether word marks a command as firing or a weapon's.
func actionWord(word string) bool {
	switch word {
	case "fire", "shoot", "attack", "weapon", "bomb", "shot":
		return true
	}
	return false
}

// Command classes in list order.
const (
	classMove = iota
	classAim
	classAction
	classOther
)

// commandKey is what a command is ordered by.
type commandKey struct {
	class int
	stem  string // the words without the direction
	dir   int    // directionRank, or -1 for none
	name  string
}

func keyOf(name string) commandKey {
	words := commandWordsOf(name)
	k := commandKey{dir: -1, name: name}
	var rest []string
	for _, w := range words {
		if r, ok := directionRank(w); ok && k.dir < 0 {
			k.dir = r
			continue
		}
		rest = append(rest, w)
	}
	k.stem = strings.Join(rest, " ")
	action := false
	for _, w := range rest {
		action = action || actionWord(w)
	}
	switch {
	case k.dir >= 0 && k.dir <= 3 && movementSubject(k.stem):
		k.class = classMove
	case action:
		k.class = classAction
	case k.dir >= 0 && k.dir <= 4:
		k.class = classAim
	default:
		k.class = classOther
	}
	return k
}

// commandWordsOf splits a command identifier into lower-case words at its
// case changes, underscores, dashes and spaces.
func commandWordsOf(name string) []string {
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == ' ':
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}

// OrderCommands sorts names in place in the order a player reads a game's
// commands (see the rule above) and returns them.
func OrderCommands(names []string) []string {
	slices.SortStableFunc(names, func(a, b string) int {
		ka, kb := keyOf(a), keyOf(b)
		switch {
		case ka.class != kb.class:
			return ka.class - kb.class
		case ka.class == classMove && ka.dir != kb.dir:
			// Forward, back, left, right, whatever the subject.
			return ka.dir - kb.dir
		case ka.stem != kb.stem:
			return strings.Compare(ka.stem, kb.stem)
		case ka.dir != kb.dir:
			return ka.dir - kb.dir
		}
		return strings.Compare(ka.name, kb.name)
	})
	return names
}
