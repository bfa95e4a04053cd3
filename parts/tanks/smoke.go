package tanks

import (
	"math"
	tankgame "vimpclient/games/tanks"

	"vimpclient/clientcore"
	"vimpclient/parts"
)

// SmokeFactory is the Smoke part class (damage smoke, one emitter per tank).
type SmokeFactory struct{}

type smokeBinding struct {
	f    tankgame.TankRow
	look lookRow
}

// Bind implements parts.Factory.
func (SmokeFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := bindTank(k)
	return &smokeBinding{f: f, look: bindLook(k)}, err
}

// maxSmokeParticles bounds one emitter (2 streams × 60/s × 1.8 s ≈ 216).
const maxSmokeParticles = 400

type smokeParticle struct {
	x, y, vx, vy     float64
	age, life        float64
	start, end, size float64
	alpha, alpha0    float64
	rot, spin        float64
	h                float64 // the tank's height when it was emitted
}

// Smoke emits damage smoke behind a tank (zIndex 4).
type Smoke struct {
	b         *smokeBinding
	c         *parts.Ctx
	Pose      tankPose
	lastCond  int
	acc       float64
	Particles []smokeParticle
	h         parts.Handle
	tex       parts.Tex
	at        parts.Height
	// seen is whether a row has come; sawDeath whether the tank died in
	// view: then its wreck's fire makes the smoke, and the wreck does not
	// smoulder here.
	seen, sawDeath bool
	// Exhaust is the plume a newer row's live tank blows out behind it, as
	// thick as its throttle.
	newer      bool
	exhaustAcc float64
	Exhaust    []smokeParticle
}

// The exhaust: exhaustBase puffs a second idling, up to exhaustBase +
// exhaustRate at full throttle; at most maxExhaust live.
const (
	exhaustBase = 4
	exhaustRate = 26
	maxExhaust  = 48
)

var exhaustTint = parts.RGB(0x8a8a8a)

type smokeMode struct {
	streams    int
	rate       float64
	start, end float64
}

func smokeFor(cond int) smokeMode {
	switch cond {
	case 2:
		return smokeMode{1, 50, 1, 2}
	case 1:
		return smokeMode{2, 60, 2, 3}
	case 0:
		return smokeMode{1, 30, 0.25, 1}
	}
	return smokeMode{}
}

// New implements parts.Binding.
func (b *smokeBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	s := &Smoke{b: b, c: c, lastCond: 3, Particles: make([]smokeParticle, 0, 64), newer: b.look.newer()}
	if s.newer {
		s.Exhaust = make([]smokeParticle, 0, maxExhaust)
	}
	s.tex, _ = c.Tex.Baked("smoke")
	s.Update(row)
	s.h = c.Stage.Add(drawZ(4, s.at), s)
	return s
}

// Update implements parts.Part; a change to a damaged condition bursts.
func (s *Smoke) Update(row []float32) {
	s.Pose = readTank(&s.b.f, row)
	s.at = s.Pose.height(s.c.Levels)
	if s.h != (parts.Handle{}) {
		s.h = s.c.Stage.Move(s.h, drawZ(4, s.at))
	}
	first := !s.seen
	s.seen = true
	switch {
	case !first && s.lastCond > 0 && s.Pose.cond == 0:
		s.sawDeath = true
	case s.Pose.cond > 0:
		s.sawDeath = false
	}
	if s.Pose.cond != s.lastCond {
		s.lastCond = s.Pose.cond
		if m := s.mode(); m.streams > 0 {
			per := int(math.Ceil(3 / float64(m.streams)))
			for st := range m.streams {
				for range per {
					s.spawn(m, st, true)
				}
			}
		}
	}
}

func (s *Smoke) spawn(m smokeMode, stream int, burst bool) {
	if len(s.Particles) >= maxSmokeParticles {
		return
	}
	p := &s.Pose
	w, h := float64(p.size)*4, float64(p.size)*3
	back := p.angle + math.Pi
	right := p.angle + math.Pi/2
	bx, by := math.Cos(back), math.Sin(back)
	rx, ry := math.Cos(right), math.Sin(right)
	side := 0.0
	if m.streams == 2 {
		side = 0.05 * w
		if stream == 0 {
			side = -side
		}
	}
	rnd := s.c.Rand
	away, lat := uniform(rnd, -10, 100), uniform(rnd, -30, 30)
	start, end, a0 := m.start, m.end, 0.08
	if burst {
		start, end, a0 = start*2, end*2.5, 0.8
		away, lat = away*2, lat*2
	}
	s.Particles = append(s.Particles, smokeParticle{
		x:    p.x + bx*0.22*h + rx*side,
		y:    p.y + by*0.22*h + ry*side,
		vx:   bx*away + rx*lat + uniform(rnd, -10, 10) + p.vx,
		vy:   by*away + ry*lat + uniform(rnd, -10, 10) + p.vy,
		life: uniform(rnd, 800, 1800), start: start, end: end, size: start,
		alpha: a0, alpha0: a0, rot: rnd() * 2 * math.Pi, spin: uniform(rnd, -1, 1), h: s.at.H,
	})
}

// mode is the smoke the tank makes now: none for a wreck seen dying (its
// fire smokes instead).
func (s *Smoke) mode() smokeMode {
	if s.sawDeath {
		return smokeMode{}
	}
	return smokeFor(s.Pose.cond)
}

// Step implements parts.Part.
func (s *Smoke) Step(dt float64) bool {
	if s.newer {
		s.stepExhaust(dt)
	}
	m := s.mode()
	if m.streams == 0 {
		s.acc = 0
	} else {
		s.acc += dt
		iv := 1000 / m.rate
		for s.acc >= iv {
			for st := range m.streams {
				s.spawn(m, st, false)
			}
			s.acc -= iv
		}
	}
	s.Particles = ageSmoke(s.Particles, dt, 0.92)
	return true
}

// ageSmoke ages the puffs by dt ms and drops the spent ones, in place: each
// keeps keep of its speed every 16 ms, grows from its start to its end size
// (fast, then slowly) and fades out over its life.
func ageSmoke(ps []smokeParticle, dt, keep float64) []smokeParticle {
	k := 1 - math.Pow(keep, dt/16)
	n := 0
	for i := range ps {
		q := ps[i]
		q.age += dt
		if q.age >= q.life {
			continue
		}
		q.vx -= q.vx * k
		q.vy -= q.vy * k
		q.x += q.vx * dt / 1000
		q.y += q.vy * dt / 1000
		pr := q.age / q.life
		q.size = lerp(q.start, q.end, 1-(1-pr)*(1-pr))
		q.alpha = lerp(q.alpha0, 0, pr)
		q.rot += q.spin * dt / 1000
		ps[n] = q
		n++
	}
	return ps[:n]
}

// stepExhaust blows the exhaust's puffs out of the tank's back while it is
// alive, as many as its throttle, and ages them.
func (s *Smoke) stepExhaust(dt float64) {
	p := &s.Pose
	load := max(0, min(1.5, p.load))
	if !(load == load) {
		load = 0
	}
	if p.cond > 0 && dt > 0 {
		s.exhaustAcc += (exhaustBase + exhaustRate*load/1.5) * min(dt, 100) / 1000
		for s.exhaustAcc >= 1 {
			s.exhaustAcc--
			if len(s.Exhaust) >= maxExhaust {
				continue
			}
			rnd := s.c.Rand
			back := p.angle + math.Pi + uniform(rnd, -0.25, 0.25)
			bx, by := math.Cos(back), math.Sin(back)
			l := float64(p.size) * 4
			sp := uniform(rnd, 12, 22) * (0.6 + 0.4*load)
			a0 := 0.12 + 0.18*load
			s.Exhaust = append(s.Exhaust, smokeParticle{
				x: p.x + math.Cos(p.angle+math.Pi)*0.5*l, y: p.y + math.Sin(p.angle+math.Pi)*0.5*l,
				vx: bx*sp + 0.5*p.vx, vy: by*sp + 0.5*p.vy,
				life: uniform(rnd, 450, 800), start: 0.2, end: 0.7 + 0.35*load, size: 0.2,
				alpha: a0, alpha0: a0, rot: rnd() * 2 * math.Pi, spin: uniform(rnd, -1, 1), h: s.at.H,
			})
		}
	} else {
		s.exhaustAcc = 0
	}
	s.Exhaust = ageSmoke(s.Exhaust, dt, 0.9)
}

// Destroy implements parts.Part.
func (s *Smoke) Destroy(parts.Removal) { s.c.Stage.Remove(s.h) }

var smokeTint = parts.RGB(0x333333)

// Draw implements parts.Drawable; visible diameter = size·m·8 with m = 0.5
// for the standard hull.
func (s *Smoke) Draw(g parts.Gfx) {
	w, h := float64(s.Pose.size)*4, float64(s.Pose.size)*3
	mm := math.Max(0.5, math.Sqrt(w*h*0.001))
	const side = 14  // texture side; content diameter 6
	h0 := math.NaN() // the height the gfx is elevated to; particles of a stretch share one
	for i := range s.Exhaust {
		q := &s.Exhaust[i]
		k := q.size * mm * 8 / smokeContent
		m := parts.Identity().Translate(-side/2, -side/2).Scale(k, k).Rotate(q.rot).Translate(q.x, q.y)
		if q.h != h0 {
			h0 = q.h
			g.Elevate(h0)
		}
		g.Image(s.tex, parts.Rect{W: side, H: side}, m, exhaustTint.WithAlpha(q.alpha))
	}
	for i := range s.Particles {
		q := &s.Particles[i]
		d := q.size * mm * 8
		k := d / smokeContent
		m := parts.Identity().Translate(-side/2, -side/2).Scale(k, k).Rotate(q.rot).Translate(q.x, q.y)
		if q.h != h0 {
			h0 = q.h
			g.Elevate(h0)
		}
		g.Image(s.tex, parts.Rect{W: side, H: side}, m, smokeTint.WithAlpha(q.alpha))
	}
}
