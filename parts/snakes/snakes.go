// Package snakes draws the reference game "snakes": the
// Arena built from MAP_DATA, the Snake bodies and the Crystals.
package snakes

import (
	"image"
	"math"
	snakegame "vimpclient/games/snakes"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/bake"
)

// Palettes (append-only upstream).
var (
	snakeColours   = snakegame.Palette
	crystalColours = [6]uint32{0x7ef9ff, 0x9ad0ff, 0xc8b6ff, 0xbcffdb, 0xffe98a, 0xffb3c6}
	tierRadii      = [3]float64{8, 13, 20}
)

const (
	spinePoints = snakegame.SpinePoints // the s1 row's
	subdiv      = 4
	smoothLen   = 1 + (spinePoints-1)*subdiv // 61
	gemSide     = 64
)

// Game returns the snakes part set.
func Game() *parts.Game {
	return &parts.Game{
		ID:     "snakes",
		Parts:  map[string]parts.Factory{"Arena": ArenaFactory{}, "Snake": SnakeFactory{}, "Crystal": CrystalFactory{}},
		Styles: map[string]parts.CanvasStyle{"vimp": {}},
		Bake: func(func() float64) map[string]*image.RGBA {
			return map[string]*image.RGBA{"crystalGem": bakeGem(), "crown": bakeCrown()}
		},
		// Arena, Snake and Crystal make snakes; a newer host's added
		// classes do not unmake it.
		Recognise:    func(eoc map[string]string) bool { return parts.HasClasses(eoc, "Arena", "Snake", "Crystal") },
		MaxLookAhead: MaxLookAhead,
		// The arena is a disc inside its square map, and at the widest
		// zoom the view is wider than the map: held inside it, the view
		// stood still across the arena while the head ran on.
		PastMapEdge: true,
	}
}

// MaxLookAhead is how far the camera may run ahead of the own snake's head:
// the engine's look-ahead at cruise speed at 60 camera updates a second
// (factor 30 × 260 units/s ÷ 60 = 130 world units, about a snake's length
// at the start). Boosting (1.9 times as fast), a lower frame rate or a
// late tick no longer push the view further: at the snakes' scale (1:1)
// the head stays within a seventh of the view's half-width of its middle
// at zoom 1 (a twelfth at the widest), where the player steers by it.
const MaxLookAhead = 130

func bakeGem() *image.RGBA {
	c := bake.New(gemSide, gemSide)
	hex := func(r, phase float64) []bake.P {
		var xy []float64
		for i := range 6 {
			a := 2*math.Pi*(float64(i)+phase)/6 - math.Pi/2
			xy = append(xy, 32+r*math.Cos(a), 32+r*math.Sin(a))
		}
		return bake.Pts(xy...)
	}
	c.Polygon(hex(0.94*32, 0), 0xffffff, 0.85)
	c.Polygon(hex(16, 0.5), 0xffffff, 1)
	return c.Img
}

// crownSide is the crown texture's side in pixels.
const crownSide = 64

// bakeCrown is the month's badge: a gold crown of three points on a band,
// its points towards the top of the texture, a jewel on the middle point.
func bakeCrown() *image.RGBA {
	c := bake.New(crownSide, crownSide)
	c.Polygon(bake.Pts(6, 52, 6, 18, 20, 34, 32, 10, 44, 34, 58, 18, 58, 52), 0xffd23f, 1)
	c.Rect(6, 46, 52, 8, 0xe0a81e, 1)
	c.Disc(32, 14, 5, 0xff4d4d, 1)
	c.Disc(6, 18, 4, 0xfff1b0, 1)
	c.Disc(58, 18, 4, 0xfff1b0, 1)
	return c.Img
}

// SnakeFactory is the Snake part class.
type SnakeFactory struct{}

type snakeBinding struct{ f snakegame.SnakeRow }

// Bind implements parts.Factory.
func (SnakeFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := clientcore.BindLayout(k, snakegame.BindSnakeRow)
	return &snakeBinding{f}, err
}

// Snake is one snake (zIndex 3), drawn in world coordinates.
type Snake struct {
	b        *snakeBinding
	c        *parts.Ctx
	ID       uint32
	P        [spinePoints]parts.Vec
	Smooth   [smoothLen]parts.Vec
	Radius   float64
	Angle    float64
	Crystals float64
	Colour   parts.Color
	inner    parts.Color
	pale     parts.Color // the day badge's diamonds: the colour halfway to white
	Boosting bool
	// Grace is the spawn grace: the snake blinks while it cannot crash or
	// be crashed into.
	Grace bool
	clock float64 // ms the part has lived, for the blink's phase
	Name  string  // the player's name on the scoreboard ("" when unknown)
	// Badges are the awards the player wears: the day's diamonds on the
	// body, the month's crown on the head.
	Badges parts.Badges
	crown  parts.Tex
	h      parts.Handle
	known  bool // a previous crystals value exists
}

// New implements parts.Binding.
func (b *snakeBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	s := &Snake{b: b, c: c, ID: id}
	s.crown, _ = c.Tex.Baked("crown")
	s.Update(row)
	s.h = c.Stage.Add(3, s)
	return s
}

// Update implements parts.Part.
func (s *Snake) Update(row []float32) {
	b := s.b
	for i := range spinePoints {
		s.P[i] = parts.Vec{X: b.f.Spine[i][0].Float64(row), Y: b.f.Spine[i][1].Float64(row)}
	}
	s.Radius = b.f.Radius.Float64(row)
	if !(s.Radius > 0) || s.Radius > 1e5 {
		s.Radius = 1
	}
	prev := s.Crystals
	s.Angle, s.Crystals = b.f.Angle.Float64(row), b.f.Crystals.Float64(row)
	if s.known && s.Crystals > prev && s.c.Sound != nil && s.c.Local.Is(s.ID) {
		s.c.Sound.Register("pickup", parts.SoundData{X: b.f.Spine[0][0].Float64(row), Y: b.f.Spine[0][1].Float64(row)})
	}
	s.known = true
	ci := 0
	if c := b.f.Color.Float64(row); c >= 0 && c < 1e9 {
		ci = int(c) % len(snakeColours)
	}
	hex := snakeColours[ci]
	s.Colour = parts.RGB(hex)
	s.inner = parts.RGB(uint32(math.Round(float64(hex>>16&0xff)*0.55))<<16 |
		uint32(math.Round(float64(hex>>8&0xff)*0.55))<<8 | uint32(math.Round(float64(hex&0xff)*0.55)))
	s.Boosting, s.Grace = snakegame.Flags(b.f.Boost.Float64(row))
	s.Name = s.c.People.Name(s.ID)
	s.Badges = s.c.People.Badges(s.ID)
	s.pale = parts.RGB(uint32(math.Round(float64(hex>>16&0xff)*0.5+127.5))<<16 |
		uint32(math.Round(float64(hex>>8&0xff)*0.5+127.5))<<8 | uint32(math.Round(float64(hex&0xff)*0.5+127.5)))
	catmullRom(&s.P, &s.Smooth)
}

// catmullRom resamples the spine: P0, then 4 points per segment with the
// end control points clamped.
func catmullRom(p *[spinePoints]parts.Vec, out *[smoothLen]parts.Vec) {
	out[0] = p[0]
	n := 1
	for i := range spinePoints - 1 {
		p0, p1, p2, p3 := p[max(i-1, 0)], p[i], p[i+1], p[min(i+2, spinePoints-1)]
		for k := 1; k <= subdiv; k++ {
			t := float64(k) / subdiv
			t2, t3 := t*t, t*t*t
			out[n] = parts.Vec{
				X: 0.5 * (2*p1.X + (p2.X-p0.X)*t + (2*p0.X-5*p1.X+4*p2.X-p3.X)*t2 + (-p0.X+3*p1.X-3*p2.X+p3.X)*t3),
				Y: 0.5 * (2*p1.Y + (p2.Y-p0.Y)*t + (2*p0.Y-5*p1.Y+4*p2.Y-p3.Y)*t2 + (-p0.Y+3*p1.Y-3*p2.Y+p3.Y)*t3),
			}
			n++
		}
	}
}

// Step implements parts.Part: the clock the grace blink follows.
func (s *Snake) Step(dtMs float64) bool {
	if dtMs > 0 && dtMs < 1e6 {
		s.clock = math.Mod(s.clock+dtMs, graceBlinkMs)
	}
	return true
}

// The spawn grace's blink: the whole snake's opacity swings between two
// levels, four times a second, never fully opaque, so "in grace" reads at
// every moment of the swing.
const (
	graceBlinkMs = 250
	graceAlphaLo = 0.25
	graceAlphaHi = 0.85
)

// alpha is the snake's opacity now: 1, or the blink's while in grace.
func (s *Snake) alpha() float64 {
	if !s.Grace {
		return 1
	}
	phase := (math.Sin(2*math.Pi*s.clock/graceBlinkMs) + 1) / 2
	return graceAlphaLo + (graceAlphaHi-graceAlphaLo)*phase
}

// Destroy implements parts.Part: a null row of the local snake plays its
// death cue at its last head (never a CLEAR or a map change).
func (s *Snake) Destroy(why parts.Removal) {
	if why == parts.Killed && s.c.Sound != nil && s.c.Local.Is(s.ID) {
		s.c.Sound.Register("death", parts.SoundData{X: s.P[0].X, Y: s.P[0].Y})
	}
	s.c.Stage.Remove(s.h)
}

// The names and the own snake's mark: a light outline around the whole
// body, and each name a little above its head, the own one brighter.
const (
	ownOutline = 6  // world units on each side of the body
	nameH      = 30 // the label's height in world units: about 12 px at the widest zoom
	nameGap    = 6  // between the head's top and the label's middle, past half its height
)

var (
	ownOutlineColour = parts.RGB(0xf7fbff).WithAlpha(0.85)
	ownNameColour    = parts.RGB(0xffffff)
	nameColour       = parts.RGB(0xdfe7f5).WithAlpha(0.8)
)

var (
	boostHalo = parts.RGB(0xffe98a).WithAlpha(0.22)
	eyeWhite  = parts.RGB(0xf7fbff)
	pupil     = parts.RGB(0x101828)
)

// Draw implements parts.Drawable.
func (s *Snake) Draw(g parts.Gfx) {
	r := s.Radius
	names := s.c.People.Shown()
	mine := names && s.c.Local.Is(s.ID)
	a := s.alpha()
	fade := func(c parts.Color) parts.Color { return c.WithAlpha(float64(c.A) * a) }
	if mine {
		g.Polyline(s.Smooth[:], 2*(r+ownOutline), fade(ownOutlineColour))
	}
	if s.Boosting && !s.Grace { // a snake in grace stands still: no halo
		g.Polyline(s.Smooth[:], 2.6*r, boostHalo)
	}
	g.Polyline(s.Smooth[:], 2*r, fade(s.Colour))
	g.Polyline(s.Smooth[:], 2*r*0.62, fade(s.inner.WithAlpha(0.45)))
	if s.Badges&parts.BadgeDay != 0 {
		s.drawDiamonds(g, fade(s.pale))
	}
	h := s.P[0]
	g.Disc(h.X, h.Y, r, fade(s.Colour))
	nx, ny := math.Cos(s.Angle), math.Sin(s.Angle)
	for _, side := range [2]float64{-1, 1} {
		ex := h.X + nx*0.42*r + side*0.5*r*(-ny)
		ey := h.Y + ny*0.42*r + side*0.5*r*nx
		g.Disc(ex, ey, 0.32*r, fade(eyeWhite))
		g.Disc(ex+nx*0.32*r*0.35, ey+ny*0.32*r*0.35, 0.16*r, fade(pupil))
	}
	if s.Badges&parts.BadgeMonth != 0 {
		// The crown sits on the head, its points forward.
		side := 1.7 * r
		m := parts.Identity().Translate(-crownSide/2, -crownSide/2).Scale(side/crownSide, side/crownSide).
			Rotate(s.Angle+math.Pi/2).Translate(h.X, h.Y)
		g.Image(s.crown, parts.Rect{W: crownSide, H: crownSide}, m, parts.White().WithAlpha(a))
	}
	if names && s.Name != "" {
		c := nameColour
		if mine {
			c = ownNameColour
		}
		g.Label(s.Name, h.X, h.Y-r-nameGap-nameH/2, nameH, c)
	}
}

// The day badge's pattern: diamonds along the body's middle, one every
// diamondEvery radii of its length, each diamondLong radii along the body
// and diamondWide across.
const (
	diamondEvery = 1.6
	diamondLong  = 0.9
	diamondWide  = 0.55
	maxDiamonds  = 256
)

// drawDiamonds draws the day badge's diamonds along the smoothed body,
// from a little behind the head to the tail.
func (s *Snake) drawDiamonds(g parts.Gfx, c parts.Color) {
	r := s.Radius
	step := diamondEvery * r
	next := 1.5 * r // clear of the head
	var walked float64
	n := 0
	for i := 1; i < len(s.Smooth) && n < maxDiamonds; i++ {
		a, b := s.Smooth[i-1], s.Smooth[i]
		seg := math.Hypot(b.X-a.X, b.Y-a.Y)
		if !(seg > 0) {
			continue
		}
		for walked+seg >= next && n < maxDiamonds {
			f := (next - walked) / seg
			x, y := a.X+(b.X-a.X)*f, a.Y+(b.Y-a.Y)*f
			// A unit square turned an eighth of a turn, stretched along
			// the body: a diamond.
			m := parts.Identity().Translate(-0.5, -0.5).Rotate(math.Pi/4).
				Scale(diamondLong*r/math.Sqrt2, diamondWide*r/math.Sqrt2).
				Rotate(math.Atan2(b.Y-a.Y, b.X-a.X)).Translate(x, y)
			g.Quad(m, c)
			next += step
			n++
		}
		walked += seg
	}
}

// CrystalFactory is the Crystal part class.
type CrystalFactory struct{}

type crystalBinding struct{ f snakegame.CrystalRow }

// Bind implements parts.Factory.
func (CrystalFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	b := clientcore.NewBinder(k)
	cb := &crystalBinding{snakegame.BindCrystalRow(b.Positions())}
	return cb, b.Err() // fields a newer host adds are read past
}

// Crystal is one crystal (zIndex 2).
type Crystal struct {
	b          *crystalBinding
	c          *parts.Ctx
	X, Y       float64
	Rot, Scale float64
	Tint       parts.Color
	tex        parts.Tex
	h          parts.Handle
}

// New implements parts.Binding.
func (b *crystalBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	cr := &Crystal{b: b, c: c}
	cr.tex, _ = c.Tex.Baked("crystalGem")
	cr.Update(row)
	cr.h = c.Stage.Add(2, cr)
	return cr
}

// Update implements parts.Part.
func (cr *Crystal) Update(row []float32) {
	b := cr.b
	cr.X, cr.Y = b.f.X.Float64(row), b.f.Y.Float64(row)
	tier := 0
	if t := b.f.Tier.Float64(row); t >= 0 && t < float64(len(tierRadii)) {
		tier = int(t)
	}
	cr.Scale = tierRadii[tier] / 32
	ci := 0
	if c := b.f.Color.Float64(row); c >= 0 && c < 1e9 {
		ci = int(c) % len(crystalColours)
	}
	cr.Tint = parts.RGB(crystalColours[ci])
	deg := math.Mod(cr.X+cr.Y, 360) // JavaScript %: sign of the dividend
	if math.IsNaN(deg) {
		deg = 0
	}
	cr.Rot = deg * math.Pi / 180
}

// Step implements parts.Part.
func (cr *Crystal) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (cr *Crystal) Destroy(parts.Removal) { cr.c.Stage.Remove(cr.h) }

// Draw implements parts.Drawable.
func (cr *Crystal) Draw(g parts.Gfx) {
	m := parts.Identity().Translate(-gemSide/2, -gemSide/2).Scale(cr.Scale, cr.Scale).Rotate(cr.Rot).Translate(cr.X, cr.Y)
	g.Image(cr.tex, parts.Rect{W: gemSide, H: gemSide}, m, cr.Tint)
}

// ArenaFactory is the Arena part class (one per layers entry of MAP_DATA).
type ArenaFactory struct{}

type arenaBinding struct{}

// Bind implements parts.Factory; the arena reads no row fields.
func (ArenaFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	b := clientcore.NewBinder(k)
	b.Ignore("x", "y", "angle") // the arena has no dynamic bodies
	return arenaBinding{}, b.Err()
}

// New implements parts.Binding.
func (arenaBinding) New(*parts.Ctx, uint32, []float32) parts.Part { return nil }

// BuildMap implements parts.MapBuilder.
func (arenaBinding) BuildMap(c *parts.Ctx, m *gamemap.Map) ([]parts.Part, map[uint32]parts.Part) {
	var out []parts.Part
	lv := &m.Levels[0]
	for range lv.Layers {
		w, h := float64(lv.Cols)*m.Step, float64(lv.Rows)*m.Step
		a := &Arena{c: c, W: w, H: h, R: math.Min(w, h) / 2}
		a.h = c.Stage.Add(0, a)
		out = append(out, a)
	}
	return out, nil
}

// Arena paints the void, the floor disc, its rings and the kill boundary.
type Arena struct {
	c       *parts.Ctx
	W, H, R float64
	h       parts.Handle
}

// Update implements parts.Part.
func (a *Arena) Update([]float32) {}

// Step implements parts.Part.
func (a *Arena) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (a *Arena) Destroy(parts.Removal) { a.c.Stage.Remove(a.h) }

var (
	voidColour  = parts.RGB(0x0d1220)
	floorColour = parts.RGB(0x141c30)
	ringColour  = parts.RGB(0x1d2947).WithAlpha(0.5)
	edgeColour  = parts.RGB(0x39507f)
)

// Draw implements parts.Drawable.
func (a *Arena) Draw(g parts.Gfx) {
	g.Quad(parts.Identity().Scale(3*a.W, 3*a.H).Translate(-a.W, -a.H), voidColour)
	cx, cy := a.W/2, a.H/2
	g.Disc(cx, cy, a.R, floorColour)
	for i := 1; i <= 3; i++ {
		g.Ring(cx, cy, a.R*float64(i)/4, 2, ringColour)
	}
	g.Ring(cx, cy, a.R-5, 10, edgeColour) // the band from R−10 to R
}
