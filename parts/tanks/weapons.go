package tanks

import (
	"math"
	"strconv"
	tankgame "vimpclient/games/tanks"

	"vimpclient/clientcore"
	"vimpclient/parts"
)

// BombFactory is the Bomb part class (w2 rows).
type BombFactory struct{}

type bombBinding struct{ f tankgame.BombRow }

// Bind implements parts.Factory.
func (BombFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := clientcore.BindLayout(k, tankgame.BindBombRow)
	return &bombBinding{f}, err
}

// Bomb is a planted bomb with its fuse countdown (zIndex 2).
type Bomb struct {
	b                 *bombBinding
	c                 *parts.Ctx
	X, Y, Angle, Size float64
	fuse, elapsed     float64
	label             string
	h                 parts.Handle
	tex               parts.Tex
	snd               parts.SoundID
	hasSnd            bool
	// At is where the bomb lies: its planter's height when it was planted.
	At parts.Height
}

// New implements parts.Binding.
func (b *bombBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	m := &Bomb{b: b, c: c, fuse: b.f.Time.Float64(row)}
	m.tex, _ = c.Tex.Baked("bomb")
	m.At = c.Levels.Actor(uint32(b.f.Author.Get(row)))
	m.Update(row)
	m.label = bombLabel(m.fuse)
	m.h = c.Stage.Add(drawZ(2, m.At), m)
	if c.Sound != nil {
		m.snd, m.hasSnd = c.Sound.Register("bombHasBeenPlanted", parts.SoundData{X: m.X, Y: m.Y})
	}
	return m
}

func bombSeconds(remainingMs float64) int {
	s := math.Round(math.Max(0, remainingMs) / 1000)
	if !(s < 1e6) {
		return 1e6
	}
	return int(s)
}

func bombLabel(remainingMs float64) string {
	s := bombSeconds(remainingMs)
	if s < 10 {
		return digits[s]
	}
	return strconv.Itoa(s)
}

var digits = [10]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// Update implements parts.Part: the authoritative position.
func (m *Bomb) Update(row []float32) {
	m.X, m.Y, m.Angle, m.Size = m.b.f.X.Float64(row), m.b.f.Y.Float64(row), m.b.f.Angle.Float64(row), m.b.f.Size.Float64(row)
	if m.hasSnd {
		m.hasSnd = m.c.Sound.Update(m.snd, parts.SoundData{X: m.X, Y: m.Y})
	}
}

// Step implements parts.Part.
func (m *Bomb) Step(dt float64) bool {
	m.elapsed += dt
	if bombSeconds(m.fuse-m.elapsed) != bombSeconds(m.fuse-m.elapsed+dt) {
		m.label = bombLabel(m.fuse - m.elapsed) // only when the shown second changes
	}
	return true
}

// Destroy implements parts.Part: the planted sample is released, so an
// already playing one finishes.
func (m *Bomb) Destroy(parts.Removal) {
	m.c.Stage.Remove(m.h)
	m.c.Levels.Blasted(m.X, m.Y, m.At)
	if m.hasSnd {
		m.c.Sound.Release(m.snd)
		m.hasSnd = false
	}
}

// Draw implements parts.Drawable.
func (m *Bomb) Draw(g parts.Gfx) {
	g.Elevate(m.At.H)
	k := m.Size / bombSide
	a := parts.Identity().Translate(-bombSide/2, -bombSide/2).Scale(k, k).Rotate(m.Angle).Translate(m.X, m.Y)
	g.Image(m.tex, parts.Rect{W: bombSide, H: bombSide}, a, parts.White())
	g.Label(m.label, m.X, m.Y, m.Size/1.2, parts.White())
}

// ShotEffectFactory is the ShotEffect part class (w1 rows, effects).
type ShotEffectFactory struct{}

type shotBinding struct{ f tankgame.TracerRow }

// Bind implements parts.Factory.
func (ShotEffectFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := clientcore.BindLayout(k, tankgame.BindTracerRow)
	return &shotBinding{f}, err
}

type debris struct {
	x, y, vx, vy   float64
	d              float64
	tint           parts.Color
	life, age      float64
	stopped, still float64 // still: ms since it stopped (<0 moving)
	alpha          float64
	dead           bool
}

// ShotEffect is one tracer and its impact debris (zIndex 2).
type ShotEffect struct {
	c                  *parts.Ctx
	sx, sy, ex, ey     float64
	hit                bool
	dist, dur, elapsed float64
	tracerDone         bool
	Debris             [4]debris
	nDebris            int
	h                  parts.Handle
	tex                parts.Tex
	pts                [12]parts.Vec
	trail              int
	alpha              float64
	// At is the shooter's height: the tracer and its debris are drawn there.
	At parts.Height
}

var tracerColour = parts.RGB(0xffff99)

var debrisTints = [3]parts.Color{parts.RGB(0x333333), parts.RGB(0x222222), parts.RGB(0x444444)}

// New implements parts.Binding.
func (b *shotBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	s := &ShotEffect{c: c, sx: b.f.StartX.Float64(row), sy: b.f.StartY.Float64(row), ex: b.f.EndX.Float64(row), ey: b.f.EndY.Float64(row), hit: b.f.Hit.Float64(row) != 0}
	s.tex, _ = c.Tex.Baked("impact")
	s.dist = math.Hypot(s.ex-s.sx, s.ey-s.sy)
	if !(s.dist < 1e6) {
		s.dist = 0 // NaN or absurd: draw nothing but still end
	}
	s.dur = math.Max(45, math.Min(80, s.dist/19000*1000))
	author := uint32(b.f.Author.Get(row))
	s.At = c.Levels.Actor(author)
	if c.Events != nil { // its tank kicks back
		c.Events.Add(parts.Event{Kind: parts.EventShot, Author: author})
	}
	s.h = c.Stage.Add(drawZ(shotZ(c), s.At), s)
	if c.Sound != nil { // a one-shot: it ends by itself
		c.Sound.Register("shot", parts.SoundData{X: b.f.BodyX.Float64(row), Y: b.f.BodyY.Float64(row)})
	}
	return s
}

// Update implements parts.Part (effects get no updates).
func (s *ShotEffect) Update([]float32) {}

// Step implements parts.Part; false once the tracer and debris are done.
func (s *ShotEffect) Step(dt float64) bool {
	if !s.tracerDone {
		s.elapsed += dt
		p := math.Min(1, s.elapsed/s.dur)
		s.trail = 0
		nx, ny := 0.0, 0.0
		if s.dist > 0 {
			nx, ny = (s.ex-s.sx)/s.dist, (s.ey-s.sy)/s.dist
		}
		hx, hy := lerp(s.sx, s.ex, p), lerp(s.sy, s.ey, p)
		s.alpha = math.Max(0, math.Min(1, lerp(1, 0.6, p)+0.15*math.Sin(s.elapsed*0.1)))
		covered := s.dist * p
		if covered >= 30 {
			trail := math.Min(covered-30, 55*(1-p))
			if trail >= 0.5 {
				tx, ty := hx-nx*trail, hy-ny*trail
				for i := range s.pts {
					f := float64(i) / 11
					s.pts[i] = parts.Vec{X: lerp(tx, hx, f), Y: lerp(ty, hy, f)}
				}
				s.trail = len(s.pts)
			}
		}
		if s.elapsed >= s.dur {
			s.tracerDone, s.trail = true, 0
			if s.hit {
				s.startDebris()
			}
		}
		return true
	}
	alive := false
	for i := range s.nDebris {
		d := &s.Debris[i]
		if d.dead {
			continue
		}
		d.age += dt
		sec := dt / 1000
		if d.still < 0 {
			f := math.Max(0, 1-13*sec)
			d.vx, d.vy = d.vx*f, d.vy*f
			d.x += d.vx * sec
			d.y += d.vy * sec
			if math.Hypot(d.vx, d.vy) < 1 {
				d.still = 0
			}
		} else {
			d.still += dt
		}
		a := 1.0
		if d.still > 6000 {
			a = math.Max(0, 1-(d.still-6000)/math.Min(500, 0.2*d.life))
		}
		if d.age > 0.8*d.life {
			a = math.Min(a, math.Max(0, 1-(d.age-0.8*d.life)/(0.2*d.life)))
		}
		d.alpha = a
		if d.age >= d.life || a < 0.01 {
			d.dead = true
			continue
		}
		alive = true
	}
	return alive
}

func (s *ShotEffect) startDebris() {
	rnd := s.c.Rand
	dx, dy := s.sx-s.ex, s.sy-s.ey
	l := math.Hypot(dx, dy)
	base, spread := math.Atan2(dy, dx), math.Pi/6
	if !(l >= 0.001) {
		base, spread = 0, math.Pi
	}
	s.nDebris = int(math.Ceil(uniform(rnd, 2, 4)))
	s.nDebris = max(1, min(s.nDebris, len(s.Debris)))
	for i := range s.nDebris {
		a := base + uniform(rnd, -spread, spread)
		sp := uniform(rnd, 10, 300)
		s.Debris[i] = debris{
			x: s.ex, y: s.ey, vx: math.Cos(a) * sp, vy: math.Sin(a) * sp,
			d: uniform(rnd, 0.8, 2.4), tint: debrisTints[int(rnd()*3)%3],
			life: uniform(rnd, 8000, 15000), still: -1, alpha: 1,
		}
	}
}

// Destroy implements parts.Part.
func (s *ShotEffect) Destroy(parts.Removal) { s.c.Stage.Remove(s.h) }

// Draw implements parts.Drawable.
func (s *ShotEffect) Draw(g parts.Gfx) {
	g.Elevate(s.At.H)
	s.light(g)
	for i := range s.trail {
		f := float64(i) / 11
		p := s.pts[i]
		g.Disc(p.X, p.Y, 1, tracerColour.WithAlpha(s.alpha*lerp(1, 0.8, f)))
	}
	const side = 16 // impact texture; content diameter 8
	for i := range s.nDebris {
		d := &s.Debris[i]
		if d.dead {
			continue
		}
		k := d.d / impactContent
		m := parts.Identity().Translate(-side/2, -side/2).Scale(k, k).Translate(d.x, d.y)
		g.Image(s.tex, parts.Rect{W: side, H: side}, m, d.tint.WithAlpha(d.alpha))
	}
}
