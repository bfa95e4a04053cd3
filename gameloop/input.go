package gameloop

import (
	"time"

	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/protocol"
)

// Input is where a tick's player input comes from: the window's keyboard
// and pointer, or a key script. Both feed the same input.Controller, so the
// wire messages, their seqs and the prediction follow one path.
type Input interface {
	// Configure checks the source against a new game's key configuration
	// (on CONFIG_DATA, before the first step): an error ends a session that
	// cannot play what it was asked to.
	Configure(cfg input.Config) error
	// Feed hands this tick's input to the controller and the HUD.
	Feed(t *InputTick)
}

// InputTick is what an Input sees each tick.
type InputTick struct {
	NowMs float64
	// Controller is nil until CONFIG_DATA built one.
	Controller *input.Controller
	// HUD takes the keys of its own screens (the auth form, the
	// reconnecting screen); Modes are the modes it has open, for the
	// controller.
	HUD   *hud.HUD
	Modes input.Modes
	// Width and Height are the world's size in logical px (a gamepad's
	// aim is relative to it).
	Width, Height float64
	// Playing is how long ago this connection reached play; false before.
	Playing    bool
	PlayingFor time.Duration
}

// NoInput is an Input that gives nothing: a spectating or idle session.
type NoInput struct{}

func (NoInput) Configure(input.Config) error { return nil }
func (NoInput) Feed(*InputTick)              {}

// Script plays a key script at the command level: each step at its offset
// after the session first reached play, bypassing key bindings (a script
// names commands, and never reads the player's binding file).
type Script struct {
	steps []input.ScriptStep
	next  int
	held  map[string]bool
	ctrl  *input.Controller
	// Refused counts steps whose down could not go out (input disabled, or
	// not offered by the active key set at that moment).
	Refused int
}

// NewScript plays steps (sorted by offset, as input.ParseScript returns).
func NewScript(steps []input.ScriptStep) *Script {
	return &Script{steps: steps, held: map[string]bool{}}
}

// Configure implements Input: every command must be one the game's player
// key set offers.
func (s *Script) Configure(cfg input.Config) error {
	return input.CheckScript(s.steps, cfg)
}

// Feed implements Input.
func (s *Script) Feed(t *InputTick) {
	c := t.Controller
	if c == nil {
		return
	}
	c.SetModes(t.Modes)
	if c != s.ctrl {
		// A new connection's controller: commands still held go down again
		// once its key set offers them.
		s.ctrl = c
		for _, st := range s.steps[:s.next] {
			if s.held[st.Command] {
				c.Command(protocol.KeyDown, st.Command, t.NowMs)
			}
		}
	}
	if !t.Playing {
		return
	}
	for s.next < len(s.steps) && t.PlayingFor >= s.steps[s.next].Offset {
		st := s.steps[s.next]
		s.next++
		s.held[st.Command] = st.Action == protocol.KeyDown
		if !c.Command(st.Action, st.Command, t.NowMs) && st.Action == protocol.KeyDown {
			s.Refused++
		}
	}
}

// Done reports whether every step was played.
func (s *Script) Done() bool { return s.next >= len(s.steps) }
