package input

import (
	"math"
	"sort"

	"vimpclient/protocol"
)

// Modes is the set of modes the overlays have open. The overlays own it:
// the controller is handed it with each frame's input (Frame, SetModes)
// and gets it back from every call that may change it, so it never asks.
type Modes uint8

// ModesOf is the set of the modes that are open.
func ModesOf(chat, vote, stat bool) Modes {
	var s Modes
	return s.With(ModeChat, chat).With(ModeVote, vote).With(ModeStat, stat)
}

// Has reports whether m is open.
func (s Modes) Has(m Mode) bool { return m != ModeNone && s&(1<<m) != 0 }

// With is s with m open or closed.
func (s Modes) With(m Mode, open bool) Modes {
	if m == ModeNone {
		return s
	}
	if open {
		return s | 1<<m
	}
	return s &^ (1 << m)
}

// UI is what the controller drives besides the wire: the overlays, which
// own the open/closed state of each mode. Each call returns the modes open
// after it, so the controller and the overlays never disagree within a
// frame.
type UI interface {
	OpenMode(m Mode, nowMs float64) Modes // chat: command line; vote: the M menu; stat: scoreboard
	CloseStat() Modes
	ChatCommand(c Cmd, nowMs float64) Modes // Enter sends the command line, Escape discards it
	VoteKey(code int, nowMs float64) Modes  // a key pressed while the vote window is open
}

// Predictor receives every emitted input with the seq that goes on the wire,
// before the message is sent; *clientcore.Core
// satisfies it. It may be nil.
type Predictor interface {
	ApplyInput(seq uint32, down bool, name string, nowMs float64)
	ApplyAim(seq uint32, x, y float32, flags uint32, nowMs float64)
}

// Sender puts key and aim messages on the wire and numbers them: the
// controller uses its seq (one counter per connection, shared by keys,
// pointer and prediction). *session.Session satisfies it; a controller
// given none numbers and keeps its messages itself (see Drain).
type Sender interface {
	Key(action protocol.KeyAction, command string) (uint32, error)
	Aim(x, y float64, flags uint8) (uint32, error)
}

// ToWorld converts a window point (logical px) to world units through the
// pointer canvas' last transform; ok=false when there is no such point.
type ToWorld func(x, y float64) (wx, wy float64, ok bool)

// Sent is one emitted KEYS_DATA message.
type Sent struct {
	Seq uint32
	Msg []byte // the wire text [5,"seq:..."]
}

// Controller is the keyboard and pointer state machine: key sets, modes,
// engine command keys, the pointer channel and their gates.
// It is owned by the game loop and not safe for concurrent use.
type Controller struct {
	cfg       Config
	ui        UI
	pred      Predictor
	toWorld   ToWorld
	sender    Sender       // never nil: the connection, or queued
	queued    queuedSender // the sender while none is set
	SendErrs  int          // messages the sender refused (not in game yet, closed)
	keySet    int
	enabled   bool
	modes     Modes          // the overlays' open modes, as last handed or returned
	seq       uint32         // the sender's last seq
	pressed   map[int]string // marked pressed: key code -> command it sent down
	held      map[int]bool   // physically held, whatever was sent
	heldOrder []int          // scratch for deterministic re-sends
	// Commands held by a command-level source (a key script), and which of
	// them have their down on the wire.
	cmdHeld  map[string]bool
	cmdSent  map[string]bool
	cmdOrder []string

	ptrPressed  bool
	ptrDoubled  bool
	lastTapTime float64
	lastTapX    float64
	lastTapY    float64
	lastAimTime float64
	hasTapped   bool

	aim mouseAim // the gun following the pointer, for a game without a pointer channel
}

// NewController makes a controller for cfg. Input starts disabled (it is
// enabled by the TECH_INFORM that hides the loading screen) on key set 0.
func NewController(cfg Config, ui UI, pred Predictor, toWorld ToWorld) *Controller {
	c := &Controller{
		cfg:     cfg,
		ui:      ui,
		pred:    pred,
		toWorld: toWorld,
		pressed: map[int]string{},
		held:    map[int]bool{},
		cmdHeld: map[string]bool{},
		cmdSent: map[string]bool{},
		aim:     mouseAim{on: true},
	}
	c.sender = &c.queued
	return c
}

// queuedSender is the sender of a controller with no connection (its
// tests, a tool): it numbers the messages as a connection would and keeps
// them for Drain.
type queuedSender struct {
	seq uint32
	out []Sent
}

func (q *queuedSender) Key(action protocol.KeyAction, name string) (uint32, error) {
	q.seq++ // wraps modulo 2^32
	q.out = append(q.out, Sent{Seq: q.seq, Msg: protocol.KeyMsg(q.seq, action, name)})
	return q.seq, nil
}

func (q *queuedSender) Aim(x, y float64, flags uint8) (uint32, error) {
	q.seq++
	q.out = append(q.out, Sent{Seq: q.seq, Msg: protocol.AimMsg(q.seq, x, y, flags)})
	return q.seq, nil
}

// Config is the controls configuration the controller runs on.
func (c *Controller) Config() Config { return c.cfg }

// Rebind replaces the controls configuration (the player changed a key
// binding): every key held is released first, with its up sent for the
// command it pressed, so nothing stays down under its old key. Commands
// held by a command-level source are kept.
func (c *Controller) Rebind(cfg Config, now float64) {
	c.FocusLost(now)
	c.cfg = cfg
}

// SetSender makes the controller send through s (nil: messages are queued
// for Drain and numbered by the controller).
func (c *Controller) SetSender(s Sender) {
	if s == nil {
		s = &c.queued
	}
	c.sender = s
}

// SetModes hands the controller the modes the overlays have open now (a
// vote the host opened, a chat closed by a disconnect): the loop gives
// them before the controller acts on its own (a key set change, a key
// script's command); Frame takes them with the frame's keys.
func (c *Controller) SetModes(m Modes) { c.modes = m }

// Seq is the last seq put on the wire (0 before the first message).
func (c *Controller) Seq() uint32 { return c.seq }

// KeySet is the active key set index.
func (c *Controller) KeySet() int { return c.keySet }

// Enabled reports whether game input is enabled.
func (c *Controller) Enabled() bool { return c.enabled }

// Drain returns the messages a controller with no sender emitted since the
// last call; the slice is reused by the next call into the controller.
func (c *Controller) Drain() []Sent {
	out := c.queued.out
	c.queued.out = c.queued.out[:0]
	return out
}

// ResetConnection starts a new connection: seq restarts at 0 (first message
// 1), key set 0, input disabled, nothing pressed.
func (c *Controller) ResetConnection() {
	c.seq, c.queued.seq = 0, 0
	c.keySet = 0
	c.enabled = false
	clear(c.pressed)
	clear(c.cmdSent)
	c.ptrPressed, c.ptrDoubled, c.hasTapped = false, false, false
	c.lastAimTime = 0
	c.aimForget()
}

func (c *Controller) binding(code int) (string, bool) {
	if c.keySet < 0 || c.keySet >= len(c.cfg.KeySets) {
		return "", false
	}
	if _, ok := c.cfg.Modes[code]; ok {
		return "", false // modes and cmds take priority: never looked up in the game set
	}
	if _, ok := c.cfg.Cmds[code]; ok {
		return "", false
	}
	name, ok := c.cfg.KeySets[c.keySet][code]
	if !ok && (code == MouseLeft || code == MouseRight) {
		return c.mouseDefault(code)
	}
	return name, ok
}

// emitKey sends a key through the one sender, which numbers it, and hands
// the predictor the same seq.
func (c *Controller) emitKey(action protocol.KeyAction, name string, now float64) {
	seq, err := c.sender.Key(action, name)
	c.seq = seq
	if err != nil {
		c.SendErrs++
		return
	}
	if c.pred != nil {
		c.pred.ApplyInput(seq, action == protocol.KeyDown, name, now)
	}
}

// KeyDown handles a physical press of DOM key code code (no auto-repeat).
func (c *Controller) KeyDown(code int, now float64) {
	c.held[code] = true
	mode := c.cfg.Modes[code]
	cmd := c.cfg.Cmds[code]
	chatOpen := c.modes.Has(ModeChat)
	if !c.enabled && mode != ModeStat && mode != ModeChat && !chatOpen {
		return
	}
	if chatOpen {
		switch {
		case cmd != CmdNone:
			c.modes = c.ui.ChatCommand(cmd, now)
		case mode == ModeStat:
			c.modes = c.ui.OpenMode(ModeStat, now)
		}
		return // everything else is text for the command line
	}
	if _, marked := c.pressed[code]; !marked && c.enabled {
		if name, ok := c.binding(code); ok && name == DropBomb && !c.offers(DropBomb) {
			c.startBomb(now) // the client's own command: the game's steps, one a frame
		} else if ok {
			c.pressed[code] = name
			c.emitKey(protocol.KeyDown, name, now)
		}
	}
	if c.enabled && c.modes.Has(ModeVote) {
		c.modes = c.ui.VoteKey(code, now)
	}
	if mode != ModeNone {
		c.modes = c.ui.OpenMode(mode, now)
		c.checkPointer(now)
	}
}

// KeyUp handles a physical release. The up of a key marked pressed is sent
// whatever the modes and the enabled flag.
func (c *Controller) KeyUp(code int, now float64) {
	delete(c.held, code)
	if name, ok := c.pressed[code]; ok {
		delete(c.pressed, code)
		c.emitKey(protocol.KeyUp, name, now)
	}
	if c.cfg.Modes[code] == ModeStat && c.modes.Has(ModeStat) {
		c.modes = c.ui.CloseStat()
	}
}

// FocusLost releases every held key (the window will not see their release)
// and a held pointer.
func (c *Controller) FocusLost(now float64) {
	for _, code := range c.sortedHeld() {
		c.KeyUp(code, now)
	}
	clear(c.held)
	c.releasePointer(c.lastTapX, c.lastTapY, now)
	c.aimRelease(now)
}

func (c *Controller) sortedHeld() []int {
	c.heldOrder = c.heldOrder[:0]
	for code := range c.held {
		c.heldOrder = append(c.heldOrder, code)
	}
	sort.Ints(c.heldOrder)
	return c.heldOrder
}

// SetKeySet applies KEYSET_DATA: pressed marks are forgotten without any up
// (the host dropped its key state with the old set), a held pointer is
// released, then every key still physically held that the new set binds
// sends a fresh down, and so does every held command the new set offers.
func (c *Controller) SetKeySet(index int, now float64) {
	c.keySet = index
	clear(c.pressed)
	clear(c.cmdSent)
	c.aimForget()
	c.releasePointer(c.lastTapX, c.lastTapY, now)
	if !c.enabled || c.modes.Has(ModeChat) {
		return
	}
	for _, code := range c.sortedHeld() {
		if name, ok := c.binding(code); ok {
			c.pressed[code] = name
			c.emitKey(protocol.KeyDown, name, now)
		}
	}
	c.cmdOrder = c.cmdOrder[:0]
	for name := range c.cmdHeld {
		c.cmdOrder = append(c.cmdOrder, name)
	}
	sort.Strings(c.cmdOrder)
	for _, name := range c.cmdOrder {
		if c.offers(name) {
			c.cmdSent[name] = true
			c.emitKey(protocol.KeyDown, name, now)
		}
	}
}

// offers reports whether the active key set binds command name.
func (c *Controller) offers(name string) bool {
	return c.keySet >= 0 && c.keySet < len(c.cfg.KeySets) && hasCommand(c.cfg.KeySets[c.keySet], name)
}

// Command sends a command's down or up the way a key bound to it would, for
// a source that names commands instead of keys (a key script): bindings are
// bypassed, everything else is the keyboard's rule. A down is sent while
// input is enabled, no mode is open and the active key set offers the
// command; a command held through a key-set change is sent again when the
// new set offers it; an up follows every down that went out. It returns
// false when nothing was sent.
func (c *Controller) Command(action protocol.KeyAction, name string, now float64) bool {
	if action == protocol.KeyUp {
		delete(c.cmdHeld, name)
		if c.cmdSent[name] {
			delete(c.cmdSent, name)
			c.emitKey(protocol.KeyUp, name, now)
			return true
		}
		return false
	}
	c.cmdHeld[name] = true
	if c.cmdSent[name] || !c.enabled || c.modes.Has(ModeChat) || !c.offers(name) {
		return false
	}
	c.cmdSent[name] = true
	c.emitKey(protocol.KeyDown, name, now)
	return true
}

// SetEnabled follows TECH_INFORM: a shown screen (or a disconnect) disables
// game input, hiding it enables. Disabling releases a held pointer.
// Enabling presses every key still physically held that the key set binds
// and that is not pressed already: a key held through a screen, or through
// a lost connection whose seat was resumed (the host released its keys and
// sent the key set while input was off), counts from the moment input is
// back, as it would had it been pressed then.
func (c *Controller) SetEnabled(on bool, now float64) {
	was := c.enabled
	c.enabled = on
	if !on {
		c.releasePointer(c.lastTapX, c.lastTapY, now)
		c.aimRelease(now)
		return
	}
	if was || c.modes.Has(ModeChat) {
		return
	}
	for _, code := range c.sortedHeld() {
		if _, marked := c.pressed[code]; marked {
			continue
		}
		if name, ok := c.binding(code); ok {
			c.pressed[code] = name
			c.emitKey(protocol.KeyDown, name, now)
		}
	}
}

// Tick releases a held pointer that stopped being live through a change the
// controller did not see (a vote opened by the host). Call it once a frame.
func (c *Controller) Tick(now float64) { c.checkPointer(now) }

func (c *Controller) checkPointer(now float64) {
	if c.ptrPressed && !c.pointerLive() {
		c.releasePointer(c.lastTapX, c.lastTapY, now)
	}
}

func (c *Controller) pointerLive() bool {
	p := c.cfg.Pointer
	if p == nil || !c.enabled {
		return false
	}
	if c.modes.Has(ModeChat) || c.modes.Has(ModeStat) || c.modes.Has(ModeVote) {
		return false
	}
	if p.KeySets == nil {
		return true
	}
	for _, k := range p.KeySets {
		if k == c.keySet {
			return true
		}
	}
	return false
}

// PointerKind is a pointer event type.
type PointerKind uint8

const (
	PointerPress PointerKind = iota
	PointerMove
	PointerRelease // release and cancel
)

// Pointer handles a pointer event at window point (x, y) in logical px.
func (c *Controller) Pointer(kind PointerKind, x, y, now float64) {
	p := c.cfg.Pointer
	if p == nil {
		return
	}
	if !c.pointerLive() {
		c.releasePointer(x, y, now)
		return
	}
	switch kind {
	case PointerPress:
		c.ptrDoubled = c.hasTapped && now-c.lastTapTime <= p.DoubleTapMs &&
			math.Hypot(x-c.lastTapX, y-c.lastTapY) <= p.DoubleTapPx
		c.ptrPressed = true
		c.hasTapped = true
		c.lastTapTime, c.lastTapX, c.lastTapY = now, x, y
		c.emitAim(x, y, c.flags(), now)
	case PointerRelease:
		c.releasePointer(x, y, now)
	case PointerMove:
		if !c.ptrPressed {
			return
		}
		if c.lastAimTime != 0 && now-c.lastAimTime < p.SendIntervalMs {
			return // dropped, not deferred
		}
		c.emitAim(x, y, c.flags(), now)
	}
}

func (c *Controller) flags() uint8 {
	if c.ptrDoubled {
		return 3
	}
	return 1
}

func (c *Controller) releasePointer(x, y, now float64) {
	if !c.ptrPressed {
		return
	}
	c.ptrPressed, c.ptrDoubled = false, false
	c.lastAimTime = 0
	c.emitAim(x, y, 0, now)
}

func (c *Controller) emitAim(x, y float64, flags uint8, now float64) {
	if c.toWorld == nil {
		return
	}
	wx, wy, ok := c.toWorld(x, y)
	if !ok || math.IsNaN(wx) || math.IsNaN(wy) || math.IsInf(wx, 0) || math.IsInf(wy, 0) {
		return // no world point: dropped, no seq consumed
	}
	wx, wy = RoundJS2(wx), RoundJS2(wy)
	c.lastAimTime = now
	seq, err := c.sender.Aim(wx, wy, flags)
	c.seq = seq
	if err != nil {
		c.SendErrs++
		return
	}
	if c.pred != nil {
		c.pred.ApplyAim(seq, float32(wx), float32(wy), uint32(flags), now)
	}
}

// RoundJS2 rounds to 2 decimals with halves towards +Inf (JavaScript
// Math.round semantics), and never returns a negative zero.
func RoundJS2(v float64) float64 {
	r := math.Floor(v*100+0.5) / 100
	if r == 0 {
		return 0
	}
	return r
}

// ModeOpen reports whether mode m is open as the controller last knew it:
// the modes it was handed, and what its own calls into the overlays
// returned.
func (c *Controller) ModeOpen(m Mode) bool { return c.modes.Has(m) }

// HasPointer reports whether the game declared the pointer channel.
func (c *Controller) HasPointer() bool { return c.cfg.Pointer != nil }
