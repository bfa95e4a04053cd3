package input

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"vimpclient/protocol"
)

// PadControl is one control of a gamepad in the standard layout: a button,
// or one direction of a stick.
type PadControl uint8

const (
	PadNone  PadControl = iota
	PadA                // bottom face button
	PadB                // right face button
	PadX                // left face button
	PadY                // top face button
	PadLB               // left shoulder
	PadRB               // right shoulder
	PadLT               // left trigger
	PadRT               // right trigger
	PadBack             // the left centre button
	PadStart            // the right centre button
	PadUp               // d-pad
	PadDown
	PadLeft
	PadRight
	PadStickUp // left stick
	PadStickDown
	PadStickLeft
	PadStickRight
	padControls
)

// String is the control's name in binding files and the settings overlay.
func (c PadControl) String() string {
	if c < padControls {
		return [padControls]string{"", "a", "b", "x", "y", "lb", "rb", "lt", "rt", "back", "start",
			"up", "down", "left", "right", "stickUp", "stickDown", "stickLeft", "stickRight"}[c]
	}
	return fmt.Sprintf("pad%d", uint8(c))
}

// PadControlByName parses a control name.
func PadControlByName(name string) (PadControl, error) {
	var names []string
	for c := PadControl(1); c < padControls; c++ {
		if strings.EqualFold(c.String(), name) {
			return c, nil
		}
		names = append(names, c.String())
	}
	return PadNone, fmt.Errorf("gamepad control %q: not one of %s", name, strings.Join(names, ", "))
}

// PadState is one frame of a gamepad: which controls are down (a stick
// direction counts as down past the dead zone) and the right stick, for
// aiming.
type PadState struct {
	Down       [padControls]bool
	AimX, AimY float64 // right stick, -1..1
}

// StickDeadZone is how far a stick must move before its direction counts.
const StickDeadZone = 0.35

// SetStick sets the left stick's four directions from its axes.
func (s *PadState) SetStick(x, y float64) {
	s.Down[PadStickLeft] = x < -StickDeadZone
	s.Down[PadStickRight] = x > StickDeadZone
	s.Down[PadStickUp] = y < -StickDeadZone
	s.Down[PadStickDown] = y > StickDeadZone
}

// PadMap binds controls to the game's commands. A control may carry one
// command of each key set (RB: the spectator's next player and the
// player's next weapon): only the commands the active set offers go out.
// The centre buttons open the engine's modes: Start the vote menu, Back the
// scoreboard.
type PadMap map[PadControl][]string

// DefaultPadMap derives a gamepad layout from the game's key sets, set by
// set: the commands on W/A/S/D or the arrow keys go on the left stick and
// the d-pad, a command named like fire on the right trigger and A,
// next/previous on the shoulders, the rest on the free face buttons in name
// order.
func DefaultPadMap(cfg Config) PadMap {
	m := PadMap{}
	dirs := map[int][2]PadControl{87: {PadStickUp, PadUp}, 38: {PadStickUp, PadUp}, 83: {PadStickDown, PadDown}, 40: {PadStickDown, PadDown},
		65: {PadStickLeft, PadLeft}, 37: {PadStickLeft, PadLeft}, 68: {PadStickRight, PadRight}, 39: {PadStickRight, PadRight}}
	for _, set := range cfg.KeySets {
		used := map[PadControl]bool{}
		bind := func(c PadControl, name string) bool {
			if used[c] {
				return false
			}
			used[c] = true
			m[c] = append(m[c], name)
			return true
		}
		codes := make([]int, 0, len(set))
		for code := range set {
			codes = append(codes, code)
		}
		sort.Ints(codes)
		placed := map[string]bool{}
		var rest []string
		for _, code := range codes {
			name := set[code]
			if d, ok := dirs[code]; ok {
				for _, c := range d {
					bind(c, name)
				}
				placed[name] = true
			}
		}
		for _, code := range codes {
			if name := set[code]; !placed[name] {
				placed[name] = true
				rest = append(rest, name)
			}
		}
		sort.Strings(rest)
		var later []string
		for _, name := range rest {
			l := strings.ToLower(name)
			switch {
			case strings.Contains(l, "fire") || strings.Contains(l, "shoot"):
				bind(PadRT, name)
				bind(PadA, name)
			case strings.HasPrefix(l, "next") && bind(PadRB, name):
			case strings.HasPrefix(l, "prev") && bind(PadLB, name):
			default:
				later = append(later, name)
			}
		}
		free := []PadControl{PadA, PadB, PadX, PadY, PadLT, PadRB, PadLB}
		for _, name := range later {
			for len(free) > 0 && !bind(free[0], name) {
				free = free[1:]
			}
		}
	}
	return m
}

// WithOverrides returns a copy of m with the player's gamepad bindings (a
// settings file's control name → commands) in place of the derived ones for
// those controls; an empty list unbinds a control. Unknown control names,
// the centre buttons (they open the engine's modes) and commands no key set
// of cfg offers are skipped and reported.
func (m PadMap) WithOverrides(cfg Config, over map[string][]string) (PadMap, []string) {
	out := make(PadMap, len(m)+len(over))
	for c, cmds := range m {
		out[c] = slices.Clone(cmds)
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(over)) {
		ctl, err := PadControlByName(name)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if ctl == PadStart || ctl == PadBack {
			problems = append(problems, "gamepad control "+name+" opens the menu or the scoreboard: not rebound")
			continue
		}
		var cmds []string
		for _, cmd := range over[name] {
			if !cfg.Offers(cmd) {
				problems = append(problems, "gamepad control "+name+": the game has no command "+cmd)
				continue
			}
			cmds = append(cmds, cmd)
		}
		if len(cmds) == 0 {
			delete(out, ctl)
			continue
		}
		out[ctl] = cmds
	}
	return out, problems
}

// Controls lists the controls bound to command name, in control order.
func (m PadMap) Controls(name string) []PadControl {
	var out []PadControl
	for c := PadControl(1); c < padControls; c++ {
		if slices.Contains(m[c], name) {
			out = append(out, c)
		}
	}
	return out
}

// Pad turns gamepad frames into the controller's commands: a control going
// down sends its command's down, going up its up, through the same rules
// as a key (Controller.Command). Start and Back open the vote menu and the
// scoreboard. With a game pointer, the right stick aims: a point at the
// stick's direction from the screen centre, the right trigger pressing it.
type Pad struct {
	Map  PadMap
	prev PadState
	held bool // the pointer is pressed through the trigger
}

// Update applies one frame; w and h are the window's logical size, for the
// aim point.
func (p *Pad) Update(c *Controller, s *PadState, w, h, now float64) {
	for ctl := PadControl(1); ctl < padControls; ctl++ {
		down, was := s.Down[ctl], p.prev.Down[ctl]
		if down == was {
			continue
		}
		switch ctl {
		case PadStart:
			p.mode(c, ModeVote, down, now)
			continue
		case PadBack:
			p.mode(c, ModeStat, down, now)
			continue
		}
		if p.aims(c) && ctl == PadRT {
			continue // the trigger presses the aim point
		}
		for _, name := range p.Map[ctl] {
			if p.otherHolds(s, ctl, name) {
				continue
			}
			if down {
				c.Command(protocol.KeyDown, name, now)
			} else {
				c.Command(protocol.KeyUp, name, now)
			}
		}
	}
	if p.aims(c) {
		p.aimAt(c, s, w, h, now)
	}
	p.prev = *s
}

// otherHolds reports whether another control bound to the same command is
// still down, so the command stays down (a stick and the d-pad).
func (p *Pad) otherHolds(s *PadState, ctl PadControl, name string) bool {
	for o := PadControl(1); o < padControls; o++ {
		if o != ctl && s.Down[o] && p.prev.Down[o] && slices.Contains(p.Map[o], name) {
			return true
		}
	}
	return false
}

func (p *Pad) mode(c *Controller, m Mode, down bool, now float64) {
	for code, mm := range c.cfg.Modes {
		if mm == m {
			if down {
				c.KeyDown(code, now)
			} else {
				c.KeyUp(code, now)
			}
			return
		}
	}
}

func (p *Pad) aims(c *Controller) bool { return c.HasPointer() }

func (p *Pad) aimAt(c *Controller, s *PadState, w, h, now float64) {
	mag := math.Hypot(s.AimX, s.AimY)
	r := math.Min(w, h) * 0.4
	x, y := w/2+s.AimX*r, h/2+s.AimY*r
	switch {
	case s.Down[PadRT] && !p.held:
		p.held = true
		c.Pointer(PointerPress, x, y, now)
	case !s.Down[PadRT] && p.held:
		p.held = false
		c.Pointer(PointerRelease, x, y, now)
	case mag > StickDeadZone:
		c.Pointer(PointerMove, x, y, now)
	}
}

// Release lets go of everything held (a gamepad unplugged).
func (p *Pad) Release(c *Controller, w, h, now float64) {
	var none PadState
	p.Update(c, &none, w, h, now)
}
