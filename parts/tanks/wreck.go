package tanks

import (
	"math"
	"strconv"

	"vimpclient/clientcore"
	"vimpclient/parts"
)

// A tank seen dying (its condition going from alive to 0 on a row after
// its first) explodes: a flash, a fireball, sparks and a cloud of black
// smoke, with its sound and a jolt to what stands near. Then it burns: at
// full strength for wreckFireMs, dying out over wreckFadeMs, with an
// orange glow that flickers, and black smoke that pales once the fire is
// out and thins out over wreckTailMs. A scorch mark stays on the ground
// under it until the tank is back (a new round) or gone. A tank that is
// already a wreck when it is first seen (a player joining mid-round) does
// none of this. Numbers are for a tank of size wreckRefSize; other sizes
// scale lengths, speeds and radii in proportion.
const (
	wreckRefSize  = 3
	wreckFireMs   = 9000
	wreckFadeMs   = 5000
	wreckTailMs   = 15000
	wreckMaxFire  = 64 // live flame, fireball and spark particles of one wreck
	wreckMaxSmoke = 80
	wreckJoltR    = 18 // the death's blast radius for the jolt
	wreckMaxStep  = 100
)

var (
	wreckWind = [2]float64{5, -3} // world units per second: every column leans one way

	flashTint = parts.RGB(0xfff1c8)
	glowTint  = parts.RGB(0xff8a30)
	sparkHot  = parts.RGB(0xffe6a8)
	sparkCold = parts.RGB(0xff6a1a)
	// fireRamp is a flame's colour over its life: a near-white core, through
	// orange, to dark red.
	fireRamp = [5]struct {
		at float64
		c  parts.Color
	}{{0, parts.RGB(0xfff4c8)}, {0.2, parts.RGB(0xffc24a)}, {0.5, parts.RGB(0xf2661a)}, {0.8, parts.RGB(0x8c240a)}, {1, parts.RGB(0x240804)}}
	smokeBurning = [2]parts.Color{parts.RGB(0x141210), parts.RGB(0x2a2622)}
	smokeCooling = [2]parts.Color{parts.RGB(0x4a4744), parts.RGB(0x625e5a)}
)

// fireIntensity is the fire's strength elapsed ms after the death: 1, then
// down to 0 over the fade.
func fireIntensity(elapsed float64) float64 {
	switch {
	case elapsed <= wreckFireMs:
		return 1
	case elapsed >= wreckFireMs+wreckFadeMs:
		return 0
	}
	return 1 - (elapsed-wreckFireMs)/wreckFadeMs
}

// smokeRate is the smoke's rate, puffs a second: 7 to 12 with the fire,
// then from 7 down to 0 over the tail.
func smokeRate(elapsed float64) float64 {
	const rate, tail = 12, 7
	end := float64(wreckFireMs + wreckFadeMs)
	if elapsed < end {
		return lerp(tail, rate, fireIntensity(elapsed))
	}
	return tail * max(0, 1-(elapsed-end)/wreckTailMs)
}

// wreckEmissionEnd is when the last puff is born.
const wreckEmissionEnd = wreckFireMs + wreckFadeMs + wreckTailMs

// particle kinds of a wreck
const (
	kindFlame uint8 = iota
	kindFireball
	kindSpark
	kindSmoke
)

type wreckParticle struct {
	kind                uint8
	x, y, vx, vy        float64
	drag                float64 // 1/s
	wind                float64 // how much the wind carries it, 0 to 1
	h, rise             float64 // height and rise over its life, levels
	age, life           float64
	size0, width, grow  float64
	ax, ay, rot, spin   float64
	alpha0, alpha, size float64
	tint                parts.Color
	length              float64 // a spark's streak length now
	dirX, dirY          float64 // a spark's direction
}

// wreckFire is a tank's death: its explosion, fire, smoke and scorch.
type wreckFire struct {
	t                *Tank
	x, y, angle      float64
	l, w, k          float64 // hull length and width, size scale
	elapsed          float64
	flameAcc, smAcc  float64
	flashAge         float64
	seed             float64
	burning          bool
	fire             [wreckMaxFire]wreckParticle
	nFire            int
	smoke            [wreckMaxSmoke]wreckParticle
	nSmoke           int
	h                parts.Handle
	drawn            bool
	tex, puff        parts.Tex
	scorch           scorchMark
	scorchPending    bool
	at               parts.Height
	drawable         wreckLayer
	scorchDrawable   scorchLayer
	scorchTexByIndex [scorchKinds]parts.Tex
}

type wreckLayer struct{ f *wreckFire }
type scorchLayer struct{ f *wreckFire }

// scorchMark is burnt ground: where, how big, how turned, how old.
type scorchMark struct {
	on         bool
	x, y, rot  float64
	size, age  float64
	at         parts.Height
	tex        parts.Tex
	h          parts.Handle
	drawnAlpha float64
}

// Scorch marks fade in over scorchFadeMs to scorchAlpha; a wreck's is
// scorchWreck world units across (for the reference size).
const (
	scorchFadeMs = 400
	scorchAlpha  = 0.55
	scorchWreck  = 26
)

func newWreckFire(t *Tank) *wreckFire {
	f := &wreckFire{t: t}
	f.tex, _ = t.c.Tex.Baked("explosion")
	f.puff, _ = t.c.Tex.Baked("smoke")
	for i := range scorchKinds {
		f.scorchTexByIndex[i], _ = t.c.Tex.Baked("scorch." + strconv.Itoa(i))
	}
	f.drawable.f, f.scorchDrawable.f = f, f
	return f
}

// follow takes the wreck's place from its tank's row; a place that is not
// a number (a bad row) leaves it where it was.
func (f *wreckFire) follow() {
	p := &f.t.Pose
	if finite(p.x) && finite(p.y) {
		f.x, f.y = p.x, p.y
	}
	if finite(p.angle) {
		f.angle = p.angle
	}
	f.at = f.t.At
	size := float64(p.size)
	if !(size > 0) {
		size = wreckRefSize
	}
	f.l, f.w, f.k = size*4, size*3, size/wreckRefSize
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// ignite starts the death where the tank is.
func (f *wreckFire) ignite(vz float64) {
	f.reset()
	f.follow()
	c := f.t.c
	f.burning, f.elapsed, f.flameAcc, f.smAcc, f.flashAge = true, 0, 0, 0, 0
	f.seed = c.Rand() * 1000
	for range 14 {
		f.spawnFireball()
	}
	for range 12 {
		f.spawnSpark()
	}
	for range 12 {
		f.spawnSmoke(1, uniform(c.Rand, 12, 30), 0.8, 1.3, 0.55)
	}
	if c.Sound != nil {
		if _, ok := c.Sound.Register("tankExplosion", parts.SoundData{X: f.x, Y: f.y}); !ok {
			c.Sound.Register("explosion", parts.SoundData{X: f.x, Y: f.y, VolumeScale: 0.6})
		}
	}
	if c.Events != nil {
		c.Events.Add(parts.Event{Kind: parts.EventBlast, X: f.x, Y: f.y, R: wreckJoltR * f.k, Level: f.t.Pose.level})
	}
	f.h = c.Stage.Add(drawZ(4, f.at), &f.drawable)
	f.drawn = true
	if vz != 0 {
		f.scorchPending = true // no ground under it yet: the mark goes where it lands
	} else {
		f.lay()
	}
}

// lay puts the scorch on the ground under the wreck.
func (f *wreckFire) lay() {
	f.scorchPending = false
	c := f.t.c
	s := &f.scorch
	*s = scorchMark{on: true, x: f.x, y: f.y, rot: c.Rand() * 2 * math.Pi, size: scorchWreck * f.k, at: f.t.At,
		tex: f.scorchTexByIndex[int(c.Rand()*scorchKinds)%scorchKinds]}
	s.h = c.Stage.Add(drawZ(2, s.at), &f.scorchDrawable)
}

// reset ends the fire and lifts the scorch: the tank is back, or gone.
func (f *wreckFire) reset() {
	if f.drawn {
		f.t.c.Stage.Remove(f.h)
		f.drawn = false
	}
	if f.scorch.on {
		f.t.c.Stage.Remove(f.scorch.h)
		f.scorch.on = false
	}
	f.burning, f.scorchPending = false, false
	f.nFire, f.nSmoke = 0, 0
}

// active reports whether anything of the death is still moving.
func (f *wreckFire) active() bool { return f.burning }

// update follows the wreck (it can be pushed) and lays a pending scorch
// once it is on the ground.
func (f *wreckFire) update(vz float64) {
	if !f.burning && !f.scorchPending {
		return
	}
	f.follow()
	if f.drawn {
		f.h = f.t.c.Stage.Move(f.h, drawZ(4, f.at))
	}
	if f.scorchPending && vz == 0 {
		f.lay()
	}
}

// hullPoint is a random point of the hull near one of the fire's points
// (fractions of its length and width: the engine at the back, the turret
// ring).
func (f *wreckFire) hullPoint(spread float64, centre bool) (float64, float64) {
	r := f.t.c.Rand
	u0 := 0.05
	if !centre && r() < 0.5 {
		u0 = -0.3
	}
	if centre {
		u0 = 0
	}
	u := (u0 + uniform(r, -spread, spread)/2) * f.l
	v := uniform(r, -spread, spread) / 2 * f.w
	c, s := math.Cos(f.angle), math.Sin(f.angle)
	return f.x + c*u - s*v, f.y + s*u + c*v
}

func (f *wreckFire) addFire(p wreckParticle) {
	if f.nFire < wreckMaxFire {
		f.fire[f.nFire] = p
		f.nFire++
	}
}

func (f *wreckFire) spawnFireball() {
	r := f.t.c.Rand
	x, y := f.hullPoint(0.8, true)
	a := r() * 2 * math.Pi
	sp := uniform(r, 15, 50) * f.k
	f.addFire(wreckParticle{kind: kindFireball, x: x, y: y, vx: math.Cos(a) * sp, vy: math.Sin(a) * sp, drag: 4, wind: 1,
		rise: 0.5, life: uniform(r, 450, 850), size0: uniform(r, 4, 7) * f.k, grow: 2.2,
		ax: uniform(r, 0.8, 1.2), ay: uniform(r, 0.8, 1.2), rot: r() * 2 * math.Pi, spin: uniform(r, -1, 1), alpha0: 0.95})
}

func (f *wreckFire) spawnSpark() {
	r := f.t.c.Rand
	a := r() * 2 * math.Pi
	sp := uniform(r, 70, 160) * f.k
	f.addFire(wreckParticle{kind: kindSpark, x: f.x, y: f.y, vx: math.Cos(a) * sp, vy: math.Sin(a) * sp, drag: 3,
		life: uniform(r, 300, 700), size0: 2.4 * f.k, width: 0.5 * f.k, alpha0: 1, dirX: math.Cos(a), dirY: math.Sin(a)})
}

func (f *wreckFire) spawnFlame(intensity float64) {
	r := f.t.c.Rand
	x, y := f.hullPoint(0.4, false)
	f.addFire(wreckParticle{kind: kindFlame, x: x, y: y,
		vx: wreckWind[0]*0.5 + uniform(r, -4, 4)*f.k, vy: wreckWind[1]*0.5 + uniform(r, -4, 4)*f.k, wind: 0.5,
		rise: 0.35, life: uniform(r, 300, 650), size0: uniform(r, 2.5, 4.5) * f.k * lerp(0.6, 1, intensity), grow: 1.6,
		ax: uniform(r, 0.8, 1.2), ay: uniform(r, 0.8, 1.2), rot: r() * 2 * math.Pi, spin: uniform(r, -1, 1), alpha0: 0.85})
}

// spawnSmoke adds a puff: heat 1 is the fire's black smoke, 0 the pale
// smoke after it.
func (f *wreckFire) spawnSmoke(heat, speed, lifeK, sizeK, alpha float64) {
	if f.nSmoke >= wreckMaxSmoke {
		return
	}
	r := f.t.c.Rand
	x, y := f.hullPoint(0.4, false)
	a := r() * 2 * math.Pi
	sp := speed * f.k
	q := r()
	tint := mix(mix(smokeCooling[0], smokeCooling[1], q), mix(smokeBurning[0], smokeBurning[1], q), heat)
	f.smoke[f.nSmoke] = wreckParticle{kind: kindSmoke, x: x, y: y, vx: math.Cos(a)*sp + wreckWind[0], vy: math.Sin(a)*sp + wreckWind[1],
		drag: 1.5, wind: 1, rise: 1.4, life: uniform(r, 2600, 4200) * lifeK, size0: uniform(r, 3, 5) * f.k * sizeK, grow: 3.8,
		ax: uniform(r, 0.7, 1.3), ay: uniform(r, 0.7, 1.3), rot: r() * 2 * math.Pi, spin: uniform(r, -0.3, 0.3), alpha0: alpha,
		tint: tint}
	f.nSmoke++
}

// step advances the death by dt ms.
func (f *wreckFire) step(dt float64) {
	if f.scorch.on && f.scorch.age < scorchFadeMs {
		f.scorch.age += dt
	}
	if !f.burning {
		return
	}
	dt = max(0, min(dt, wreckMaxStep))
	f.elapsed += dt
	f.flashAge += dt
	in := fireIntensity(f.elapsed)
	f.flameAcc += 36 * in * dt / 1000
	for f.flameAcc >= 1 {
		f.spawnFlame(in)
		f.flameAcc--
	}
	if f.elapsed < wreckEmissionEnd {
		f.smAcc += smokeRate(f.elapsed) * dt / 1000
		for f.smAcc >= 1 {
			heat := in
			f.spawnSmoke(heat, uniform(f.t.c.Rand, 0, 6), 1, 1, lerp(0.2, 0.42, heat))
			f.smAcc--
		}
	}
	f.nFire = stepParticles(f.fire[:f.nFire], dt)
	f.nSmoke = stepParticles(f.smoke[:f.nSmoke], dt)
	if f.elapsed >= wreckEmissionEnd && f.nFire == 0 && f.nSmoke == 0 {
		f.burning = false
		if f.drawn {
			f.t.c.Stage.Remove(f.h)
			f.drawn = false
		}
	}
}

// stepParticles moves the particles by dt ms and keeps the living ones at
// the front; it returns how many live.
func stepParticles(ps []wreckParticle, dt float64) int {
	s := dt / 1000
	n := 0
	for i := range ps {
		p := ps[i]
		p.age += dt
		if p.age >= p.life {
			continue
		}
		if p.wind > 0 { // drifts towards the wind
			k := min(1, p.drag*s)
			p.vx += (wreckWind[0]*p.wind - p.vx) * k
			p.vy += (wreckWind[1]*p.wind - p.vy) * k
		} else {
			d := max(0, 1-p.drag*s)
			p.vx *= d
			p.vy *= d
		}
		p.x += p.vx * s
		p.y += p.vy * s
		p.rot += p.spin * s
		q := p.age / p.life
		p.h = p.rise * q
		switch p.kind {
		case kindSmoke:
			p.size = p.size0 * lerp(1, p.grow, 1-(1-q)*(1-q))
			p.alpha = p.alpha0 * smokeAlpha(q)
		case kindSpark:
			p.length = p.size0 * (1 - 0.5*q)
			p.alpha = p.alpha0 * (1 - q)
			p.tint = mix(sparkHot, sparkCold, q)
		default:
			p.size = p.size0 * lerp(1, p.grow, q)
			p.alpha = p.alpha0 * (1 - q*q)
			p.tint = rampColour(q)
		}
		ps[n] = p
		n++
	}
	return n
}

// smokeAlpha is a puff's opacity over its life q: in over the first 12 %,
// held, out from 45 % to the end.
func smokeAlpha(q float64) float64 {
	switch {
	case q < 0.12:
		return q / 0.12
	case q < 0.45:
		return 1
	}
	return max(0, 1-(q-0.45)/0.55)
}

func rampColour(q float64) parts.Color {
	for i := 1; i < len(fireRamp); i++ {
		if q <= fireRamp[i].at {
			a, b := fireRamp[i-1], fireRamp[i]
			return mix(a.c, b.c, (q-a.at)/(b.at-a.at))
		}
	}
	return fireRamp[len(fireRamp)-1].c
}

func mix(a, b parts.Color, t float64) parts.Color {
	t = max(0, min(1, t))
	return parts.Color{R: a.R + (b.R-a.R)*float32(t), G: a.G + (b.G-a.G)*float32(t), B: a.B + (b.B-a.B)*float32(t), A: a.A + (b.A-a.A)*float32(t)}
}

// flicker is a glow's breathing: a product of incommensurate sines, in
// [1 − strength, 1].
func flicker(seed, ms, strength float64) float64 {
	n := 0.5 + 0.25*math.Sin(ms*0.011+seed) + 0.25*math.Sin(ms*0.0273+seed*1.7)
	return 1 - strength*n
}

// Draw implements parts.Drawable: the glow under the smoke, the smoke,
// the flames over it, the flash on top.
func (l *wreckLayer) Draw(g parts.Gfx) {
	f := l.f
	base := f.at.H
	const side, content = explosionSide, explosionContent
	src := parts.Rect{W: side, H: side}
	in := fireIntensity(f.elapsed)
	if in > 0 {
		a := 0.3 * in * flicker(f.seed, f.elapsed, 0.35)
		k := 28 * f.k / content
		g.Elevate(base)
		g.Image(f.tex, src, parts.Identity().Translate(-side/2, -side/2).Scale(k, k).Translate(f.x, f.y), glowTint.WithAlpha(a))
	}
	h0 := math.NaN()
	for i := range f.smoke[:f.nSmoke] {
		p := &f.smoke[i]
		if h := base + p.h; h != h0 {
			h0 = h
			g.Elevate(h)
		}
		k := p.size / smokeContent
		m := parts.Identity().Translate(-7, -7).Scale(k*p.ax, k*p.ay).Rotate(p.rot).Translate(p.x, p.y)
		g.Image(f.puff, parts.Rect{W: 14, H: 14}, m, p.tint.WithAlpha(p.alpha))
	}
	for i := range f.fire[:f.nFire] {
		p := &f.fire[i]
		if h := base + p.h; h != h0 {
			h0 = h
			g.Elevate(h)
		}
		if p.kind == kindSpark {
			kl, kw := p.length/content, p.width/content
			a := math.Atan2(p.dirY, p.dirX)
			m := parts.Identity().Translate(-side/2, -side/2).Scale(kl, kw).Rotate(a).Translate(p.x, p.y)
			g.Image(f.tex, src, m, p.tint.WithAlpha(p.alpha))
			continue
		}
		k := p.size / content
		m := parts.Identity().Translate(-side/2, -side/2).Scale(k*p.ax, k*p.ay).Rotate(p.rot).Translate(p.x, p.y)
		g.Image(f.tex, src, m, p.tint.WithAlpha(p.alpha))
	}
	if f.flashAge < 180 {
		q := f.flashAge / 180
		d := lerp(12, 40, q) * f.k
		k := d / content
		g.Elevate(base)
		g.Image(f.tex, src, parts.Identity().Translate(-side/2, -side/2).Scale(k, k).Translate(f.x, f.y), flashTint.WithAlpha(1-q))
	}
}

// Draw implements parts.Drawable: the scorch, fading in.
func (l *scorchLayer) Draw(g parts.Gfx) {
	s := &l.f.scorch
	if !s.on || s.tex == parts.NoTex {
		return
	}
	drawScorch(g, s, scorchAlpha)
}

// drawScorch draws a scorch mark at its level's ground, fading in over
// scorchFadeMs to alpha.
func drawScorch(g parts.Gfx, s *scorchMark, alpha float64) {
	a := alpha * min(1, s.age/scorchFadeMs)
	g.Elevate(float64(s.at.Level))
	k := s.size / scorchContent
	m := parts.Identity().Translate(-scorchSide/2, -scorchSide/2).Scale(k, k).Rotate(s.rot).Translate(s.x, s.y)
	g.Image(s.tex, parts.Rect{W: scorchSide, H: scorchSide}, m, parts.White().WithAlpha(a))
}

// WreckFireFactory is the WreckFire part class a newer host lists for m1:
// the Tank part draws a tank's death itself, on any host, so this class
// adds nothing of its own; knowing it says the game draws it.
type WreckFireFactory struct{}

type wreckFireBinding struct{}

// Bind implements parts.Factory.
func (WreckFireFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	_, err := bindTank(k)
	return wreckFireBinding{}, err
}

// New implements parts.Binding: a part that draws nothing (the tank's part
// burns), so that the scene keeps it and does not ask for it again.
func (wreckFireBinding) New(*parts.Ctx, uint32, []float32) parts.Part { return wreckFirePlace{} }

// wreckFirePlace holds a WreckFire entity's place in the scene.
type wreckFirePlace struct{}

func (wreckFirePlace) Update([]float32)      {}
func (wreckFirePlace) Step(float64) bool     { return true }
func (wreckFirePlace) Destroy(parts.Removal) {}
