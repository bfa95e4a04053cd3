package comets

import (
	"encoding/json"
	"errors"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/registry"
)

// ClientGame is the registry entry of the game: how the client recognises
// it, draws it and (not here) predicts it. A client that should play it
// lists it among its games (gameloop.Options.Games).
func ClientGame() registry.Game {
	return registry.Game{
		ID:    GameID,
		Parts: func(func() float64) *parts.Game { return PartsGame() },
		Client: func(*clientcore.Schema, json.RawMessage) (clientcore.Game, error) {
			// No prediction: the own comet is drawn where the host's frames
			// put it, 100 ms behind. A game with prediction returns its
			// half of the client core here, built on the same rules the
			// match steps.
			return nil, errors.New("comets have no prediction")
		},
	}
}

// PartsGame is the game's part classes: CONFIG_DATA's parts section names
// the class Comet for the snapshot key k1, on the canvas vimp.
func PartsGame() *parts.Game {
	return &parts.Game{
		ID:    GameID,
		Parts: map[string]parts.Factory{"Comet": cometFactory{}},
		Recognise: func(eoc map[string]string) bool {
			_, ok := eoc["Comet"]
			return ok
		},
	}
}

// cometFactory binds the Comet class to a key by the fields it reads; a
// key without them is drawn by the generic renderer instead.
type cometFactory struct{}

func (cometFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	b := clientcore.NewBinder(k)
	f := cometFields{x: b.Require("x"), y: b.Require("y"), angle: b.Require("angle")}
	return f, b.Err()
}

type cometFields struct{ x, y, angle clientcore.BoundField }

// tailLen is how many past positions a comet's tail keeps.
const tailLen = 12

// New makes the part of one comet when the first row with its id arrives.
func (f cometFields) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	p := &comet{f: f, stage: c.Stage}
	p.Update(row)
	p.h = c.Stage.Add(10, p)
	return p
}

// comet draws one comet: a head and a tail of where it was.
type comet struct {
	f      cometFields
	stage  *parts.Stage
	h      parts.Handle
	x, y   float64
	tail   [tailLen]parts.Vec
	n      int     // tail points kept
	sinceT float64 // ms since the last tail point
}

func (p *comet) Update(row []float32) { p.x, p.y = p.f.x.Float64(row), p.f.y.Float64(row) }

// Step adds a tail point every 50 ms; a jump (a wrap at the edge) starts
// the tail anew.
func (p *comet) Step(dtMs float64) bool {
	p.sinceT += dtMs
	if p.sinceT < 50 {
		return true
	}
	p.sinceT = 0
	if p.n > 0 {
		last := p.tail[p.n-1]
		if dx, dy := p.x-last.X, p.y-last.Y; dx*dx+dy*dy > 100*100 {
			p.n = 0
		}
	}
	if p.n == tailLen {
		copy(p.tail[:], p.tail[1:])
		p.n--
	}
	p.tail[p.n] = parts.Vec{X: p.x, Y: p.y}
	p.n++
	return true
}

func (p *comet) Destroy(parts.Removal) { p.stage.Remove(p.h) }

func (p *comet) Draw(g parts.Gfx) {
	if p.n > 1 {
		g.Polyline(p.tail[:p.n], 4, parts.RGB(0x6688ff).WithAlpha(0.6))
	}
	g.Disc(p.x, p.y, 9, parts.RGB(0xffdd55))
}
