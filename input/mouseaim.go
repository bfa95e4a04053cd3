package input

import (
	"math"

	"vimpclient/protocol"
)

// Mouse buttons as key codes: codes no keyboard sends (DOM key codes 1, 2
// and 4 name no key), so that the buttons bind to commands in the bindings
// file and go through the same key path as keys do.
const (
	MouseLeft   = 1
	MouseRight  = 2
	MouseMiddle = 4
)

// DropBomb is the client command the right button gives by default when
// the game has a gun to aim: it plays the game's own bomb steps (switch to
// the bomb, fire, switch back), one a frame.
const DropBomb = "dropBomb"

// Turret is the own gun pointer aim steers (clientcore.Turret, as the
// input layer reads it): pivot and hull heading in world units and
// radians, the gun angle from the hull, its bound and turn speed, and the
// game's commands.
type Turret struct {
	X, Y, Hull         float64
	Gun, MaxGun, Speed float64
	Left, Right, Fire  string
	Bomb               []string
}

// TurretSource reports the own gun now; ok is false when there is nothing
// to aim.
type TurretSource func() (Turret, bool)

// mouseAim is the state of pointer aim: the gun follows the pointer by the
// game's own turn keys, held while the predicted gun is more than half a
// frame's turn from the pointer's direction. Half a frame's turn is the
// dead band: the gun stops within it, and a press never starts inside it,
// so the gun does not swing back and forth around the target.
type mouseAim struct {
	on      bool
	source  TurretSource
	engaged bool    // the pointer moved since a gun key was last pressed
	seen    bool    // x and y hold a point
	x, y    float64 // the last pointer point (logical px)
	last    float64 // the last frame's time (ms), for the frame's turn
	turning string  // the turn command held by the aim, "" none
	bomb    [8]string
	bombN   int // bomb steps left to play, from bomb[bombAt]
	bombAt  int
}

// frame bounds of the turn a frame is taken to make (ms): a first frame or
// a stall does not widen the dead band past a 20 Hz frame.
const (
	minAimFrameMs = 1000.0 / 240
	maxAimFrameMs = 1000.0 / 20
)

// SetTurret gives the controller the own gun pointer aim steers; nil turns
// pointer aim off for this game.
func (c *Controller) SetTurret(src TurretSource) { c.aim.source = src }

// SetMouseAim turns pointer aim on or off (the player's setting). Turning
// it off lets go of the turn key it held.
func (c *Controller) SetMouseAim(on bool, now float64) {
	c.aim.on = on
	if !on {
		c.aimRelease(now)
	}
}

// MouseAims reports whether the pointer aims the gun now: the setting is
// on, the game declared no pointer channel of its own, and it has a gun.
func (c *Controller) MouseAims() bool {
	if !c.aim.on || c.cfg.Pointer != nil || c.aim.source == nil {
		return false
	}
	_, ok := c.aim.source()
	return ok
}

// Mouse takes the pointer at window point (x, y) (logical px) once a
// frame, for a game without a pointer channel: the gun turns towards it
// while pointer aim is on, and the frame's next bomb step is played.
func (c *Controller) Mouse(x, y, now float64) {
	a := &c.aim
	moved := !a.seen || x != a.x || y != a.y
	a.x, a.y, a.seen = x, y, true
	dt := now - a.last
	a.last = now
	c.playBomb(now)
	if !a.on || c.cfg.Pointer != nil || a.source == nil || !c.enabled ||
		c.modes.Has(ModeChat) || c.modes.Has(ModeStat) || c.modes.Has(ModeVote) {
		c.aimRelease(now)
		return
	}
	t, ok := a.source()
	if !ok || !c.offers(t.Left) || !c.offers(t.Right) {
		c.aimRelease(now)
		return
	}
	if c.gunKeyHeld(t) {
		// The player turns the gun by keys: the pointer waits until it
		// moves again.
		a.engaged = false
	} else if moved && a.seen {
		a.engaged = true
	}
	if !a.engaged || c.toWorld == nil {
		c.aimRelease(now)
		return
	}
	wx, wy, ok := c.toWorld(x, y)
	if !ok || math.IsNaN(wx+wy) || math.IsInf(wx+wy, 0) {
		c.aimRelease(now)
		return
	}
	want := wrapPi(math.Atan2(wy-t.Y, wx-t.X) - t.Hull)
	if t.MaxGun > 0 {
		want = max(-t.MaxGun, min(want, t.MaxGun))
	}
	miss := wrapPi(want - t.Gun)
	band := t.Speed * min(max(dt, minAimFrameMs), maxAimFrameMs) / 1000 / 2
	dir := ""
	switch {
	case math.IsNaN(miss) || math.Abs(miss) <= band:
	case miss < 0:
		dir = t.Left
	default:
		dir = t.Right
	}
	if dir == a.turning {
		return
	}
	c.aimRelease(now)
	if dir != "" {
		a.turning = dir
		c.emitKey(protocol.KeyDown, dir, now)
	}
}

// gunKeyHeld reports whether a key of the player's own is down on a gun
// turn command.
func (c *Controller) gunKeyHeld(t Turret) bool {
	for _, name := range c.pressed {
		if name == t.Left || name == t.Right {
			return true
		}
	}
	return false
}

// aimRelease lets go of the turn key pointer aim holds.
func (c *Controller) aimRelease(now float64) {
	if c.aim.turning == "" {
		return
	}
	name := c.aim.turning
	c.aim.turning = ""
	c.emitKey(protocol.KeyUp, name, now)
}

// aimForget drops the aim's held key without an up: the host dropped its
// key state (a key set change, a new connection).
func (c *Controller) aimForget() {
	c.aim.turning = ""
	c.aim.bombN = 0
}

// startBomb queues the game's bomb steps; a drop already under way is not
// restarted.
func (c *Controller) startBomb(now float64) {
	a := &c.aim
	if a.bombN > 0 || a.source == nil {
		return
	}
	t, ok := a.source()
	if !ok || len(t.Bomb) == 0 || len(t.Bomb) > len(a.bomb) {
		return
	}
	for _, step := range t.Bomb {
		if !c.offers(step) {
			return
		}
	}
	a.bombN, a.bombAt = copy(a.bomb[:], t.Bomb), 0
	c.playBomb(now)
}

// playBomb sends the next bomb step, a down and its up: one step a frame,
// so the host meets the switch, the shot and the switch back in order.
func (c *Controller) playBomb(now float64) {
	a := &c.aim
	if a.bombN == 0 {
		return
	}
	if !c.enabled || c.modes.Has(ModeChat) {
		a.bombN = 0
		return
	}
	step := a.bomb[a.bombAt]
	a.bombAt++
	a.bombN--
	c.emitKey(protocol.KeyDown, step, now)
	c.emitKey(protocol.KeyUp, step, now)
}

// mouseDefault is the command a mouse button gives when the bindings name
// none for it: with a gun to aim, the left button fires and the right one
// drops a bomb.
func (c *Controller) mouseDefault(code int) (string, bool) {
	if c.aim.source == nil || c.cfg.Pointer != nil {
		return "", false
	}
	t, ok := c.aim.source()
	if !ok {
		return "", false
	}
	switch code {
	case MouseLeft:
		return t.Fire, t.Fire != "" && c.offers(t.Fire)
	case MouseRight:
		return DropBomb, true
	}
	return "", false
}

// wrapPi wraps a to (-π, π].
func wrapPi(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	switch {
	case a > math.Pi:
		a -= 2 * math.Pi
	case a <= -math.Pi:
		a += 2 * math.Pi
	}
	return a
}
