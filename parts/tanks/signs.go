package tanks

import (
	"encoding/json"
	"math"
	"strings"

	"vimpclient/gamemap"
	"vimpclient/parts"
)

// Neon signs: a map's game data hangs lettered signs over its cells. Their
// gas pulses slowly and now and then drops out for a moment (the tube goes
// nearly dark, its glass keeps a glow); at night they are drawn above the
// darkness and light the street around them.

// Limits on a map's signs, which come from the network.
const (
	maxSigns      = 64
	maxSignRunes  = 24
	maxSignSize   = 200 // world units
	maxSignRadius = 1000
	maxSignAngle  = 360 // degrees either way; a sign turned further is hung level
)

// The flicker's timing: the pulse's rate, and the windows of the dropout
// schedule, each of which may hold one dropout of dropoutS.
const (
	pulseHz       = 0.8
	dropoutWindow = 0.6  // s
	dropoutS      = 0.09 // s
	dropoutCore   = 0.12 // the tube's brightness during a dropout
	dropoutGlow   = 0.55 // the glow's
)

// sign is one neon sign.
type sign struct {
	x, y      float64
	level     int
	layer     int
	text      string
	colour    parts.Color
	size      float64
	angle     float64 // radians, clockwise on screen: a sign hung aslant
	pulse     float64 // 0..1: how deep the pulse dims it
	dropouts  float64 // 0..1: the share of windows with a dropout
	radius    float64 // its light's, at night (0: none)
	intensity float64
	seed      uint64
}

type signGame struct {
	Cell    []float64 `json:"cell"`
	Level   float64   `json:"level"`
	Layer   float64   `json:"layer"`
	Text    string    `json:"text"`
	Color   *float64  `json:"color"`
	Size    float64   `json:"size"`
	Angle   float64   `json:"angle"` // degrees, as the map's bodies' angles
	Flicker *struct {
		Pulse    float64 `json:"pulse"`
		Dropouts float64 `json:"dropouts"`
	} `json:"flicker"`
	Light *struct {
		Radius    float64 `json:"radius"`
		Intensity float64 `json:"intensity"`
	} `json:"light"`
}

// parseSigns reads the signs of map m's game data; a sign that does not
// parse, has no text or lies off the map is left out.
func parseSigns(m *gamemap.Map) []sign {
	var game struct {
		Signs []json.RawMessage `json:"signs"`
	}
	if m == nil || len(m.Game) == 0 || len(m.Levels) == 0 || json.Unmarshal(m.Game, &game) != nil {
		return nil
	}
	cell := m.CellWorld()
	ground := &m.Levels[0]
	var out []sign
	for _, raw := range game.Signs {
		if len(out) >= maxSigns {
			break
		}
		var g signGame
		if json.Unmarshal(raw, &g) != nil || len(g.Cell) != 2 {
			continue
		}
		col, row, lv := g.Cell[0], g.Cell[1], g.Level
		text := strings.TrimSpace(g.Text)
		if !(col >= 0 && col < float64(ground.Cols) && row >= 0 && row < float64(ground.Rows)) ||
			!(lv >= 0 && lv < float64(len(m.Levels))) || lv != math.Trunc(lv) || text == "" ||
			!(g.Layer >= 0 && g.Layer < parts.LightZ) {
			continue
		}
		if r := []rune(text); len(r) > maxSignRunes {
			text = string(r[:maxSignRunes])
		}
		s := sign{
			x: (math.Floor(col) + 0.5) * cell, y: (math.Floor(row) + 0.5) * cell, level: int(lv), layer: int(g.Layer),
			text: text, colour: parts.RGB(0xff40d0), size: 18,
			seed: mix64(uint64(math.Floor(col))*73856093 ^ uint64(math.Floor(row))*19349663 ^ uint64(lv)*83492791),
		}
		if g.Color != nil {
			s.colour = colourOf(*g.Color, s.colour)
		}
		if g.Size > 0 {
			s.size = min(g.Size, maxSignSize)
		}
		if math.Abs(g.Angle) <= maxSignAngle {
			s.angle = g.Angle * math.Pi / 180
		}
		if f := g.Flicker; f != nil {
			s.pulse = min(1, max(0, finiteOr0(f.Pulse)))
			s.dropouts = min(1, max(0, finiteOr0(f.Dropouts)))
		}
		if l := g.Light; l != nil {
			s.radius = min(maxSignRadius, max(0, finiteOr0(l.Radius)))
			s.intensity = parts.ClampIntensity(l.Intensity)
		}
		out = append(out, s)
	}
	return out
}

// mix64 scrambles x (the SplitMix64 finaliser): a sign's seed from its
// cell, so that neighbouring signs flicker apart.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// unit is a number in [0, 1) from a seed, a dropout window and a salt.
func unit(seed uint64, window int64, salt uint64) float64 {
	return float64(mix64(seed^uint64(window)*0x27d4eb2d+salt)>>11) / (1 << 53)
}

// brightness is a sign's tube (core) and glow brightness at t seconds:
// the pulse, and in a dropout the tube nearly dark and the glow dimmed.
func (s *sign) brightness(t float64) (core, glow float64) {
	phase := float64(s.seed%1000) / 1000
	base := 1 - s.pulse*(0.5+0.5*math.Sin(2*math.Pi*(pulseHz*t+phase)))
	if s.dropouts > 0 {
		w := int64(math.Floor(t / dropoutWindow))
		if unit(s.seed, w, 0) < s.dropouts {
			start := float64(w)*dropoutWindow + unit(s.seed, w, 1)*(dropoutWindow-dropoutS)
			if t >= start && t < start+dropoutS {
				return base * dropoutCore, base * dropoutGlow
			}
		}
	}
	return base, base
}

// turnedLabeler is a Gfx that draws labels turned about their centre; a
// Gfx that is not one draws every sign level.
type turnedLabeler interface {
	LabelTurned(s string, x, y, h, angle float64, c parts.Color)
}

// signs draws a map's signs of one level and layer.
type signs struct {
	c     *parts.Ctx
	list  []sign
	night bool
	clock *float64
	h     parts.Handle
}

// signBoard is the map part that owns the signs' drawables and clock.
type signBoard struct {
	c     *parts.Ctx
	draws []*signs
	clock float64
}

// buildSigns returns the part of map m's signs, or nil when it has none.
// At night they glow above the darkness of their level.
func buildSigns(c *parts.Ctx, m *gamemap.Map, night bool) parts.Part {
	all := parseSigns(m)
	if len(all) == 0 {
		return nil
	}
	b := &signBoard{c: c}
	byZ := map[int]*signs{}
	for _, s := range all {
		z := parts.LevelZ(s.layer, s.level)
		if night {
			z = parts.LevelZ(parts.EmissiveZ, s.level)
		}
		d := byZ[z]
		if d == nil {
			d = &signs{c: c, night: night, clock: &b.clock}
			byZ[z] = d
			b.draws = append(b.draws, d)
		}
		d.list = append(d.list, s)
	}
	for z, d := range byZ {
		d.h = c.Stage.Add(z, d)
	}
	return b
}

// Update implements parts.Part.
func (b *signBoard) Update([]float32) {}

// Step implements parts.Part.
func (b *signBoard) Step(dt float64) bool {
	if dt > 0 && dt < 1e6 {
		b.clock = math.Mod(b.clock+dt, 3.6e6)
	}
	return true
}

// Destroy implements parts.Part.
func (b *signBoard) Destroy(parts.Removal) {
	for _, d := range b.draws {
		b.c.Stage.Remove(d.h)
	}
}

// Draw implements parts.Drawable: each sign in view, its glow behind its
// letters (at night its light is in its level's light map: see night).
func (d *signs) Draw(g parts.Gfx) {
	t := *d.clock / 1000
	lt, lit := g.(parts.Lighter)
	lit = lit && d.night && lt.Lit()
	for i := range d.list {
		s := &d.list[i]
		g.Elevate(float64(s.level))
		v := g.View()
		reach := s.size * float64(len(s.text))
		up := s.size
		if s.angle != 0 {
			up = reach // turned, it reaches up and down as far as to the sides
		}
		if s.x+reach < v.X || s.x-reach > v.X+v.W || s.y+up < v.Y || s.y-up > v.Y+v.H {
			continue
		}
		core, glow := s.brightness(t)
		halo := 0.25
		if lit {
			halo = 0.45
		}
		tube := parts.Color{R: lift(s.colour.R, core), G: lift(s.colour.G, core), B: lift(s.colour.B, core), A: 1}
		if tl, ok := g.(turnedLabeler); ok && s.angle != 0 {
			tl.LabelTurned(s.text, s.x, s.y, s.size*1.12, s.angle, s.colour.WithAlpha(halo*glow))
			tl.LabelTurned(s.text, s.x, s.y, s.size, s.angle, tube.WithAlpha(0.35+0.65*core))
			continue
		}
		g.Label(s.text, s.x, s.y, s.size*1.12, s.colour.WithAlpha(halo*glow))
		g.Label(s.text, s.x, s.y, s.size, tube.WithAlpha(0.35+0.65*core))
	}
}

// lift whitens a neon colour channel towards the tube's hot core as it
// burns brighter.
func lift(c float32, k float64) float32 {
	return float32(math.Min(1, float64(c)*(0.6+0.4*k)+0.25*k))
}
