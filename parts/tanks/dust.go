package tanks

import (
	"math"

	"vimpclient/clientcore"
	tankgame "vimpclient/games/tanks"
	"vimpclient/parts"
)

// DustFactory is the Dust part class of tanks 0.21 and later: the ground a
// tank's tracks throw up, one emitter per tank. Tracks that spin under
// strain (full throttle against a wall or a crate, the tank hardly moving)
// throw dust back from under them; a landing from a jump bursts dust out
// of both tracks, as big as the landing was hard (the tank's part plays
// the landing's sound, once).
type DustFactory struct{}

type dustBinding struct {
	f    tankgame.TankRow
	look lookRow
}

// Bind implements parts.Factory.
func (DustFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := bindTank(k)
	return &dustBinding{f: f, look: bindLook(k)}, err
}

// How dust behaves (the game's figures): it settles in 0.3–0.7 s, grows
// from 0.7 to 2 times its size, starts at alpha 0.35; spinning tracks throw
// dustRate grains a second per track at full strain, back at 20–70 units a
// second and ±25 aside, only below dustSpinSpeed; a landing throws
// dustBurst grains a track at full impact, 40–110 units a second outwards,
// dustBurstSize times bigger.
const (
	dustLifeMin, dustLifeMax = 300, 700
	dustStart, dustEnd       = 0.7, 2.0
	dustAlpha                = 0.35
	dustRate                 = 30
	dustSpinSpeed            = 8
	dustBurst                = 14
	dustBurstSize            = 1.6
	// dustDrag is the part of a grain's speed kept each 16 ms.
	dustDrag = 0.86
	// maxDust bounds one emitter's grains (a burst is 28, spinning 60 a
	// second that live under a second).
	maxDust = 160
)

var dustTint = parts.RGB(0x9c8f77)

type dustGrain struct {
	x, y, vx, vy float64
	age, life    float64
	start, end   float64
	rot, spin    float64
	h            float64 // the tank's height when it was thrown
}

// Dust is one tank's dust (drawn under the tank, over its track marks).
type Dust struct {
	b      *dustBinding
	c      *parts.Ctx
	pose   tankPose
	vz     float64
	seen   bool
	acc    float64
	Grains []dustGrain
	h      parts.Handle
	tex    parts.Tex
	at     parts.Height
}

// New implements parts.Binding.
func (b *dustBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	d := &Dust{b: b, c: c, Grains: make([]dustGrain, 0, 32)}
	d.tex, _ = c.Tex.Baked("smoke") // a soft white disc, tinted the ground's colour
	d.Update(row)
	d.h = c.Stage.Add(drawZ(2, d.at), d)
	return d
}

// Update implements parts.Part: a landing since the last row bursts.
func (d *Dust) Update(row []float32) {
	d.pose = readTank(&d.b.f, row)
	d.at = d.pose.height(d.c.Levels)
	if d.h != (parts.Handle{}) {
		d.h = d.c.Stage.Move(d.h, drawZ(2, d.at))
	}
	if !d.b.look.VZ.Bound() {
		return
	}
	vz := float64(d.b.look.VZ.Get(row))
	if d.seen {
		if k := landingImpact(d.vz, vz); k > 0 {
			d.burst(k)
		}
	}
	d.vz, d.seen = vz, true
}

// track is where track side (-1 left, 1 right) touches the ground: the
// same points the track marks are stamped at.
func (d *Dust) track(side float64) (x, y float64) {
	p := &d.pose
	h := float64(p.size) * 3
	across, back := h/2*0.7, h*0.4
	sa := p.angle + math.Pi/2
	return p.x + math.Cos(sa)*across*side - math.Cos(p.angle)*back,
		p.y + math.Sin(sa)*across*side - math.Sin(p.angle)*back
}

func (d *Dust) add(x, y, vx, vy, size float64) {
	if len(d.Grains) >= maxDust {
		return
	}
	rnd := d.c.Rand
	d.Grains = append(d.Grains, dustGrain{x: x, y: y, vx: vx, vy: vy,
		life: uniform(rnd, dustLifeMin, dustLifeMax), start: dustStart * size, end: dustEnd * size,
		rot: rnd() * 2 * math.Pi, spin: uniform(rnd, -1, 1), h: d.at.H})
}

// burst throws a landing's dust out of both tracks.
func (d *Dust) burst(impact float64) {
	n := int(math.Round(dustBurst * impact))
	for side := -1.0; side <= 1; side += 2 {
		x, y := d.track(side)
		for range n {
			a := d.c.Rand() * 2 * math.Pi
			sp := uniform(d.c.Rand, 40, 110) * impact
			d.add(x, y, math.Cos(a)*sp, math.Sin(a)*sp, dustBurstSize*impact)
		}
	}
}

// spin throws one grain back from under each track.
func (d *Dust) spin() {
	p := &d.pose
	ba, sa := p.angle+math.Pi, p.angle+math.Pi/2
	for side := -1.0; side <= 1; side += 2 {
		x, y := d.track(side)
		back, lat := uniform(d.c.Rand, 20, 70), uniform(d.c.Rand, -25, 25)
		d.add(x, y, math.Cos(ba)*back+math.Cos(sa)*lat, math.Sin(ba)*back+math.Sin(sa)*lat, 1)
	}
}

// Step implements parts.Part.
func (d *Dust) Step(dt float64) bool {
	if !(dt > 0) {
		return true
	}
	p := &d.pose
	strain := max(0, p.load-1)
	if strain == strain && p.cond > 0 && strain > 0 && math.Hypot(p.vx, p.vy) < dustSpinSpeed {
		d.acc += min(dt, 100)
		iv := 1000 / (dustRate * min(strain, 1))
		for d.acc >= iv {
			d.spin()
			d.acc -= iv
		}
	} else {
		d.acc = 0
	}
	keep := math.Pow(dustDrag, dt/16)
	n := 0
	for i := range d.Grains {
		q := d.Grains[i]
		q.age += dt
		if q.age >= q.life {
			continue
		}
		q.vx *= keep
		q.vy *= keep
		q.x += q.vx * dt / 1000
		q.y += q.vy * dt / 1000
		q.rot += q.spin * dt / 1000
		d.Grains[n] = q
		n++
	}
	d.Grains = d.Grains[:n]
	return true
}

// Destroy implements parts.Part.
func (d *Dust) Destroy(parts.Removal) { d.c.Stage.Remove(d.h) }

// Draw implements parts.Drawable: a grain is 6 world units across at size
// 1 on a standard hull, growing as it settles and fading.
func (d *Dust) Draw(g parts.Gfx) {
	w, h := float64(d.pose.size)*4, float64(d.pose.size)*3
	mm := math.Max(0.5, math.Sqrt(w*h*0.001))
	const side = 14 // the smoke disc's texture side
	h0 := math.NaN()
	for i := range d.Grains {
		q := &d.Grains[i]
		pr := q.age / q.life
		size := lerp(q.start, q.end, 1-(1-pr)*(1-pr))
		k := size * mm * 6 / smokeContent
		m := parts.Identity().Translate(-side/2, -side/2).Scale(k, k).Rotate(q.rot).Translate(q.x, q.y)
		if q.h != h0 {
			h0 = q.h
			g.Elevate(h0)
		}
		g.Image(d.tex, parts.Rect{W: side, H: side}, m, dustTint.WithAlpha(dustAlpha*(1-pr)))
	}
}
