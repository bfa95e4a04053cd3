package play

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"vimpclient/settings"
)

// Values collects repeated -set field=value flags: auth form values.
type Values map[string]string

func (s Values) String() string { return fmt.Sprint(map[string]string(s)) }

// Set takes one field=value.
func (s Values) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("-set wants field=value, got %q", v)
	}
	s[k] = val
	return nil
}

// Interp is -interp: how the world is drawn between frames. The default,
// adaptive, runs the client core's adaptive render clock; fixed draws at
// the host's server time minus its interpolation delay as the engine
// does, with no extrapolation.
type Interp struct{ Fixed bool }

func (i *Interp) String() string {
	if i != nil && i.Fixed {
		return "fixed"
	}
	return "adaptive"
}

// Set takes adaptive or fixed.
func (i *Interp) Set(v string) error {
	switch v {
	case "adaptive":
		i.Fixed = false
	case "fixed":
		i.Fixed = true
	default:
		return fmt.Errorf("-interp wants adaptive or fixed, got %q", v)
	}
	return nil
}

// QuickPlay is -quickplay [GAME]: with no game (as the flag has always
// been written) it plays at once, against the embedded host when no
// address is given; with a game, the embedded host plays that game, and a
// lobby master's fullest room of that game with space is joined.
type QuickPlay struct {
	On   bool
	Game string
}

func (q *QuickPlay) String() string {
	if q == nil || !q.On {
		return "false"
	}
	if q.Game == "" {
		return "true"
	}
	return q.Game
}

// Set takes -quickplay (true), -quickplay=false, or -quickplay=GAME.
func (q *QuickPlay) Set(v string) error {
	if b, err := strconv.ParseBool(v); err == nil {
		q.On, q.Game = b, ""
		return nil
	}
	if !gameName.MatchString(v) {
		return fmt.Errorf("-quickplay wants a game id (tanks, snakes, …), got %q", v)
	}
	q.On, q.Game = true, v
	return nil
}

// IsBoolFlag lets -quickplay stand alone.
func (q *QuickPlay) IsBoolFlag() bool { return true }

// gameName is the shape of a game id: no address has it (an address has
// a ':', '.' or '/').
var gameName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// JoinQuickplayArg rewrites "-quickplay GAME" as "-quickplay=GAME" so the
// flags after it still parse: a bare -quickplay takes no value, and the
// flag package would stop at GAME. Only a game id's shape is taken, so
// "-quickplay http://master" keeps its address.
func JoinQuickplayArg(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-quickplay" || a == "--quickplay") && i+1 < len(args) && gameName.MatchString(args[i+1]) {
			out = append(out, "-quickplay="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// Size is the -window flag: the window's size as WxH in logical pixels;
// zero leaves it to the size remembered from the last run.
type Size struct{ W, H int }

func (s *Size) String() string {
	if s == nil || s.W == 0 {
		return ""
	}
	return fmt.Sprintf("%dx%d", s.W, s.H)
}

// Set takes WIDTHxHEIGHT.
func (s *Size) Set(v string) error {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(v)), "x")
	w, werr := strconv.Atoi(ws)
	h, herr := strconv.Atoi(hs)
	if !ok || werr != nil || herr != nil || !(settings.Geometry{W: w, H: h}).Valid() {
		return fmt.Errorf("want WIDTHxHEIGHT, %d to %d px a side (for example 1366x768), got %q",
			settings.MinWindowSide, settings.MaxWindowSide, v)
	}
	s.W, s.H = w, h
	return nil
}
