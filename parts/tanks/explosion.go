package tanks

import (
	"math"
	"strconv"
	tankgame "vimpclient/games/tanks"

	"vimpclient/clientcore"
	"vimpclient/parts"
)

// ExplosionEffectFactory is the ExplosionEffect part class (w2e rows).
type ExplosionEffectFactory struct{}

type explosionBinding struct{ f tankgame.ExplosionRow }

// Bind implements parts.Factory.
func (ExplosionEffectFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := clientcore.BindLayout(k, tankgame.BindExplosionRow)
	return &explosionBinding{f}, err
}

const (
	flashMs       = 1500
	craterMs      = 20000
	craterFadeMs  = 4000 // the crater's last 4 s
	craterAlpha   = 0.225
	smokeSpawnMs  = 4000
	maxBlastSmoke = 30 + smokeSpawnMs/50 + 1
)

type blastSmoke struct {
	x, y, vx, vy           float64
	g                      float64
	start, target, size    float64
	ax, ay                 float64
	rot, spin              float64
	life, maxLife          float64
	swaySpeed, swayAmp, ph float64
	alpha                  float64
}

// ExplosionEffect is one detonation: a flash above the tanks and a crater
// with rising smoke below them.
type ExplosionEffect struct {
	c         *parts.Ctx
	X, Y, R   float64
	t         float64
	spawnAcc  float64
	Smoke     []blastSmoke
	flashTex  parts.Tex
	funnel    parts.Tex
	craterRot float64
	craterD   float64
	hFlash    parts.Handle
	hCrater   parts.Handle
	// ground is whether the crater went onto its level's ground decal
	// layer (then only the smoke is drawn here).
	ground bool
	flash  flashLayer
	crater craterLayer
	// At is where it went off: the height of the bomb that detonated
	// there (the ground when none is known).
	At parts.Height
}

type flashLayer struct{ e *ExplosionEffect }
type craterLayer struct{ e *ExplosionEffect }

// New implements parts.Binding.
func (b *explosionBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	e := &ExplosionEffect{c: c, X: b.f.X.Float64(row), Y: b.f.Y.Float64(row), R: b.f.Radius.Float64(row), Smoke: make([]blastSmoke, 0, maxBlastSmoke)}
	if !(e.R > 0) || e.R > 1e4 {
		e.R = 50
	}
	e.flashTex, _ = c.Tex.Baked("explosion")
	e.funnel, _ = c.Tex.Baked("funnel." + strconv.Itoa(int(c.Rand()*funnelVariants)%funnelVariants))
	e.craterRot = c.Rand() * 2 * math.Pi
	e.craterD = e.R * 0.168 * uniform(c.Rand, 0.85, 1.15)
	e.flash.e, e.crater.e = e, e
	for range 30 {
		e.spawnSmoke()
	}
	e.At = c.Levels.BlastAt(e.X, e.Y, blastMatch)
	if c.Events != nil { // the tanks near it rock
		c.Events.Add(parts.Event{Kind: parts.EventBlast, X: e.X, Y: e.Y, R: e.R, Level: e.At.Level})
	}
	if level, ok := parts.OnLevel(e.At.H); ok && e.funnel != parts.NoTex {
		h := float64(level)
		d := c.Stage.HeldDecals(drawZ(2, parts.Height{Level: level, H: h}), h, craterMs-craterFadeMs, craterFadeMs)
		d.Paint(e.funnel, parts.Rect{W: funnelSide, H: funnelSide}, e.craterM(), parts.White().WithAlpha(craterAlpha))
		e.ground = true
	}
	e.hCrater = c.Stage.Add(drawZ(2, e.At), &e.crater)
	e.hFlash = c.Stage.Add(drawZ(4, e.At), &e.flash)
	if c.Sound != nil { // a one-shot: it ends by itself
		c.Sound.Register("explosion", parts.SoundData{X: e.X, Y: e.Y})
	}
	return e
}

func (e *ExplosionEffect) spawnSmoke() {
	if len(e.Smoke) >= maxBlastSmoke {
		return
	}
	r := e.c.Rand
	s := e.R / 50
	life := 2000 * uniform(r, 0.7, 1.3)
	e.Smoke = append(e.Smoke, blastSmoke{
		x: e.X + uniform(r, -0.5, 0.5)*15*s, y: e.Y + uniform(r, -0.5, 0.5)*15*s,
		vx: uniform(r, -0.1, 0.1) * s, vy: (-0.3 - uniform(r, 0, 0.4)) * s,
		g: uniform(r, 0.2, 0.6), start: uniform(r, 2.1, 5.2) * s, target: uniform(r, 8.3, 16.6) * s,
		ax: uniform(r, 0.6, 1.4), ay: uniform(r, 0.6, 1.4), rot: r() * 2 * math.Pi,
		spin: uniform(r, -0.025, 0.025), maxLife: life,
		swaySpeed: uniform(r, 0.002, 0.005), swayAmp: uniform(r, 0.025, 0.075) * s, ph: uniform(r, 0, 100),
	})
}

// Update implements parts.Part.
func (e *ExplosionEffect) Update([]float32) {}

// Step implements parts.Part; the effect ends with the crater (20 s), or
// once its flash and smoke are gone when the crater lies on the ground's
// decal layer.
func (e *ExplosionEffect) Step(dt float64) bool {
	dt = math.Min(dt, 100)
	e.t += dt
	if e.t < smokeSpawnMs {
		e.spawnAcc += dt
		for e.spawnAcc >= 50 {
			e.spawnSmoke()
			e.spawnAcc -= 50
		}
	}
	n := 0
	for i := range e.Smoke {
		p := e.Smoke[i]
		p.life += dt
		if p.life >= p.maxLife {
			continue
		}
		p.vy *= 0.98
		p.vx *= 0.95
		sway := math.Sin(p.life*p.swaySpeed+p.ph) * p.swayAmp
		p.x += (p.vx + sway) * dt / 16
		p.y += p.vy * dt / 16
		p.rot += p.spin * dt / 16
		q := p.life / p.maxLife
		p.size = p.start + (p.target-p.start)*(1-math.Pow(1-q, 3))
		switch {
		case q < 0.1:
			p.alpha = q
		case q < 0.4:
			p.alpha = 0.1
		default:
			p.alpha = 0.1 * (1 - (q-0.4)/0.6)
		}
		e.Smoke[n] = p
		n++
	}
	e.Smoke = e.Smoke[:n]
	if e.ground {
		return e.t < max(flashMs, smokeSpawnMs) || n > 0
	}
	return e.t < craterMs
}

// craterM maps the funnel texture onto the ground: craterD across, turned
// by craterRot, centred on the blast.
func (e *ExplosionEffect) craterM() parts.Affine {
	k := e.craterD / funnelContent
	return parts.Identity().Translate(-funnelSide/2, -funnelSide/2).Scale(k, k).Rotate(e.craterRot).Translate(e.X, e.Y)
}

// Destroy implements parts.Part.
func (e *ExplosionEffect) Destroy(parts.Removal) {
	e.c.Stage.Remove(e.hFlash)
	e.c.Stage.Remove(e.hCrater)
}

var (
	flashBody = parts.RGB(0xadd8e6)
	flashCore = parts.RGB(0xd3d3d3)
)

const explosionSide = 116 // texture side; content diameter 100

// blastMatch is how near a bomb's point an explosion must be to be that
// bomb's (the rows round points to 0.1 and 0.01 units).
const blastMatch = 1

// Draw implements parts.Drawable for the flash (zIndex 4).
func (f *flashLayer) Draw(g parts.Gfx) {
	e := f.e
	if e.t >= flashMs {
		return
	}
	p := e.t / flashMs
	g.Elevate(e.At.H)
	k := 2 * e.R / explosionContent
	m := parts.Identity().Translate(-explosionSide/2, -explosionSide/2).Scale(k, k).Translate(e.X, e.Y)
	g.Image(e.flashTex, parts.Rect{W: explosionSide, H: explosionSide}, m, flashBody.WithAlpha(0.6*(1-p*p)))
	c := math.Min(1, 1.5*p)
	if a := 0.7 - c; a > 0 {
		kc := k * (1 - c)
		mc := parts.Identity().Translate(-explosionSide/2, -explosionSide/2).Scale(kc, kc).Translate(e.X, e.Y)
		g.Image(e.flashTex, parts.Rect{W: explosionSide, H: explosionSide}, mc, flashCore.WithAlpha(a))
	}
}

// Draw implements parts.Drawable for the crater and its smoke (zIndex 2).
// A crater left on a level is painted once onto that level's held ground
// decal layer, which shows it whole for 16 s and fades it out, its soft
// edge kept, over the last 4; one between levels (a ramp) is drawn here
// as a sprite on the same schedule, fading in over its first 50 ms.
func (c *craterLayer) Draw(g parts.Gfx) {
	e := c.e
	g.Elevate(e.At.H)
	if !e.ground {
		a := craterAlpha * math.Max(0, math.Min(1, math.Min(e.t/50, (craterMs-e.t)/craterFadeMs)))
		g.Image(e.funnel, parts.Rect{W: funnelSide, H: funnelSide}, e.craterM(), parts.White().WithAlpha(a))
	}
	for i := range e.Smoke {
		p := &e.Smoke[i]
		ks := p.size / explosionContent
		ms := parts.Identity().Translate(-explosionSide/2, -explosionSide/2).Scale(ks*p.ax, ks*p.ay).Rotate(p.rot).Translate(p.x, p.y)
		g.Image(e.flashTex, parts.Rect{W: explosionSide, H: explosionSide}, ms,
			parts.Color{R: float32(p.g), G: float32(p.g), B: float32(p.g), A: float32(p.alpha)})
	}
}
