package tanks

import (
	"math"

	"vimpclient/parts"
)

// A prop breaking in view throws splinters: 6 to 10 slivers fly out from
// its middle in every direction, spin, slow down (drag debrisDrag a
// second) and fade over the last 40 % of their 1.2–2.2 s. They lie in the
// world, not on the prop.
const (
	maxSplinters = 10
	debrisDrag   = 5
	debrisFade   = 0.6
)

var debrisWood = [4]parts.Color{parts.RGB(0x6b5a44), parts.RGB(0x5a4a38), parts.RGB(0x7a6a55), parts.RGB(0x3f3a33)}

type splinter struct {
	x, y, vx, vy, rot, spin float64
	length, age, life       float64
	tint                    parts.Color
	tex                     parts.Tex
}

// propBurst is one prop's splinters: a fixed pool, drawn while any flies.
type propBurst struct {
	s     [maxSplinters]splinter
	n     int
	on    bool
	h     parts.Handle
	at    parts.Height
	layer burstLayer
}

type burstLayer struct{ b *propBurst }

// start throws the splinters from (x, y), spread over a prop size wide.
func (b *propBurst) start(c *parts.Ctx, x, y, size float64, at parts.Height, tex *[debrisKinds]parts.Tex) {
	b.stop(c)
	r := c.Rand
	b.n = min(maxSplinters, int(math.Round(uniform(r, 6, 10))))
	for i := range b.n {
		a := r() * 2 * math.Pi
		sp := uniform(r, 30, 140)
		d := uniform(r, 0, size/2)
		b.s[i] = splinter{x: x + math.Cos(a)*d, y: y + math.Sin(a)*d, vx: math.Cos(a) * sp, vy: math.Sin(a) * sp,
			rot: r() * 2 * math.Pi, spin: uniform(r, -12, 12), length: uniform(r, 1.5, 4), life: uniform(r, 1200, 2200),
			tint: debrisWood[int(r()*4)%4], tex: tex[int(r()*debrisKinds)%debrisKinds]}
	}
	b.at, b.on = at, true
	b.layer.b = b
	b.h = c.Stage.Add(parts.LevelZ(2, parts.RenderLevel(at.Level, at.H)), &b.layer)
}

// stop takes the splinters away.
func (b *propBurst) stop(c *parts.Ctx) {
	if b.on {
		c.Stage.Remove(b.h)
		b.on, b.n = false, 0
	}
}

// Flying reports how many splinters still fly.
func (b *propBurst) Flying() int { return b.n }

func (b *propBurst) step(c *parts.Ctx, dt float64) {
	if !b.on || !(dt > 0) {
		return
	}
	s := min(dt, 100) / 1000
	damp := max(0, 1-debrisDrag*s)
	n := 0
	for i := range b.s[:b.n] {
		p := b.s[i]
		p.age += dt
		if p.age >= p.life {
			continue
		}
		p.vx, p.vy, p.spin = p.vx*damp, p.vy*damp, p.spin*damp
		p.x += p.vx * s
		p.y += p.vy * s
		p.rot += p.spin * s
		b.s[n] = p
		n++
	}
	b.n = n
	if n == 0 {
		b.stop(c)
	}
}

// Draw implements parts.Drawable.
func (l *burstLayer) Draw(g parts.Gfx) {
	b := l.b
	g.Elevate(b.at.H)
	for i := range b.s[:b.n] {
		p := &b.s[i]
		q := p.age / p.life
		a := 1.0
		if q > debrisFade {
			a = max(0, 1-(q-debrisFade)/(1-debrisFade))
		}
		k := p.length / debrisW
		m := parts.Identity().Translate(-debrisW/2, -debrisH/2).Scale(k, k).Rotate(p.rot).Translate(p.x, p.y)
		g.Image(p.tex, parts.Rect{W: debrisW, H: debrisH}, m, p.tint.WithAlpha(a))
	}
}
