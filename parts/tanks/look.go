package tanks

import (
	"math"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/snapschema"
)

// lookRow is what the newer m1 row (tanks 0.21 on) adds that the looks
// read, bound by name beside the game's declared layout: the vertical
// speed (levels per second, sent discrete, so a landing is an exact 0) and
// the hull's pitch and roll (radians; pitch > 0 lifts the nose, roll > 0
// the hull's right side). A row without pitch and roll (a tanks 0.13
// host's) gets none of the newer looks: its tanks draw as they always did.
type lookRow struct{ VZ, Pitch, Roll snapschema.Pos }

func bindLook(k *clientcore.KeySchema) lookRow {
	b := snapschema.NewBinder(&k.Key)
	return lookRow{VZ: b.Optional("vz"), Pitch: b.Optional("pitch"), Roll: b.Optional("roll")}
}

// newer reports whether the rows carry the hull's attitude.
func (l *lookRow) newer() bool { return l.Pitch.Bound() && l.Roll.Bound() }

// maxTilt bounds a drawn pitch or roll: a value past it (or not a number)
// from a row is clamped, so a bad row never turns the hull inside out.
const maxTilt = 0.8

func tiltAngle(v float64) float64 {
	if !(v == v) {
		return 0
	}
	return max(-maxTilt, min(maxTilt, v))
}

// How the hull's attitude reads from above: a point of the hull z world
// units above its centre plane is drawn 1 + tiltLift·z/(L/2) times as far
// from the centre (L the hull's length), so the raised end is drawn wider,
// nearer the viewer; and a side turned away from the light darkens the
// hull by up to tiltShading.
const (
	tiltLift    = 0.35
	tiltShading = 0.28
)

// lightFrom is the direction the light comes from, on screen: the
// north-west, as the map's walls are lit.
var lightFrom = [2]float64{-math.Sqrt2 / 2, -math.Sqrt2 / 2}

// The landing squash: a touch-down faster than landMinImpact levels per
// second squashes the hull, fully at landFullImpact, by landSquash of its
// size, for landMs.
const (
	landMinImpact  = 1.5
	landFullImpact = 6
	landSquash     = 0.14
	landMs         = 260
)

// landingImpact is how hard a landing was, 0 to 1: the vertical speed
// dropped to exactly 0 from a descent faster than landMinImpact (a NaN
// speed is no landing).
func landingImpact(prevVz, vz float64) float64 {
	if !(prevVz < -landMinImpact) || vz != 0 {
		return 0
	}
	return min(1, -prevVz/landFullImpact)
}

// The recoil after a shot: it rises over recoilAttack of recoilMs and
// settles back quadratically; the turret kicks back by recoilGun and the
// hull by recoilBody of the hull's length, and the gun's side rises by
// recoilRock radians.
const (
	recoilMs     = 240
	recoilAttack = 0.15
	recoilGun    = 0.12
	recoilBody   = 0.04
	recoilRock   = 0.05
)

// recoilAmount is the recoil's strength, 0 to 1, elapsed ms after a shot.
func recoilAmount(elapsed float64) float64 {
	if !(elapsed >= 0) || elapsed >= recoilMs {
		return 0
	}
	t := elapsed / recoilMs
	if t < recoilAttack {
		return t / recoilAttack
	}
	back := (t - recoilAttack) / (1 - recoilAttack)
	return (1 - back) * (1 - back)
}

// The blast jolt: a blast on the tank's level within its radius rocks the
// hull towards it (the near side flies up, then the hull wobbles on its
// suspension, joltWobbleHz, dying out over joltDecayMs), shakes it for
// joltShakeMs, and one under the hull (nearer than joltUnder of its
// length) throws it up by joltHop levels for joltHopMs. Strengths fall
// off with the distance as the blast's damage does: 1 − d/radius.
const (
	joltRock     = 0.14
	joltDecayMs  = 280
	joltWobbleHz = 3
	joltHop      = 0.25
	joltHopMs    = 320
	joltShake    = 0.06 // of the hull's length
	joltShakeMs  = 240
	joltMs       = 1400
	joltUnder    = 0.5
)

// jolt is a blast's hold on a tank.
type jolt struct {
	on             bool
	t              float64 // ms since the blast
	strength       float64
	dirU, dirV     float64 // towards the blast, in the hull's axes
	hop            bool
	phaseX, phaseY float64
}

// kick starts a jolt from a blast r world units wide at (bx, by), seen by
// a hull of length l at (x, y) heading angle; false when it is out of reach.
func (j *jolt) kick(x, y, angle, l, bx, by, r float64, rnd func() float64) bool {
	d := math.Hypot(bx-x, by-y)
	if !(r > 0) || !(d < r) {
		return false
	}
	s := 1 - d/r
	a := math.Atan2(by-y, bx-x) - angle
	hop := d < joltUnder*l
	if hop {
		a = rnd() * 2 * math.Pi
	}
	*j = jolt{on: true, strength: s, dirU: math.Cos(a), dirV: math.Sin(a), hop: hop,
		phaseX: rnd() * 2 * math.Pi, phaseY: rnd() * 2 * math.Pi}
	return true
}

// state is the jolt's pitch, roll, lift (levels) and shake (in units of
// the hull's length) now.
func (j *jolt) state() (pitch, roll, lift, sx, sy float64) {
	if !j.on {
		return 0, 0, 0, 0, 0
	}
	env := math.Exp(-j.t / joltDecayMs)
	rock := joltRock * j.strength * env * math.Cos(2*math.Pi*joltWobbleHz*j.t/1000)
	if j.hop && j.t < joltHopMs {
		lift = joltHop * j.strength * math.Sin(math.Pi*j.t/joltHopMs)
	}
	if j.t < joltShakeMs {
		sh := joltShake * j.strength * (1 - j.t/joltShakeMs)
		sx, sy = sh*math.Sin(j.t*0.09+j.phaseX), sh*math.Sin(j.t*0.113+j.phaseY)
	}
	return rock * j.dirU, rock * j.dirV, lift, sx, sy
}

func (j *jolt) step(dt float64) {
	if !j.on {
		return
	}
	j.t += dt
	if j.t >= joltMs && !(j.hop && j.t < joltHopMs) {
		j.on = false
	}
}

// motion is a live tank's drawn attitude beyond its row: the row's pitch
// and roll, and what the looks add to them (recoil, jolt, landing).
type motion struct {
	pitch, roll float64 // from the row
	vz          float64
	landT       float64 // ms since the last hard landing (landMs: none)
	landImpact  float64
	recoilT     float64 // ms since the last shot (recoilMs: none)
	jolt        jolt
	seen        uint64 // the scene events read up to
}

// sample reads the row's attitude; a hard landing starts the squash, and
// its impact (0 to 1) is returned.
func (m *motion) sample(f *lookRow, row []float32) float64 {
	m.pitch, m.roll = tiltAngle(f.Pitch.Float64(row)), tiltAngle(f.Roll.Float64(row))
	vz := f.VZ.Float64(row)
	if !(vz == vz) {
		vz = 0
	}
	k := landingImpact(m.vz, vz)
	if k > 0 {
		m.landT, m.landImpact = 0, k
	}
	m.vz = vz
	return k
}

func (m *motion) step(dt float64) {
	m.landT = min(m.landT+dt, landMs)
	m.recoilT = min(m.recoilT+dt, recoilMs)
	m.jolt.step(dt)
}

// squash is the landing's squash now, 0 to landSquash: down fast, back
// slower.
func (m *motion) squash() float64 {
	if m.landT >= landMs {
		return 0
	}
	return landSquash * m.landImpact * math.Sin(math.Pi*m.landT/landMs)
}

// airborne reports whether the tank is in flight (its vertical speed is
// not 0), when the shadow shows how far above the ground it is.
func (m *motion) airborne() bool { return m.vz != 0 }

// The shadow of a tank in flight: sized shadowSize of the hull, growing by
// shadowGain and paling by shadowFalloff per level of height above the
// ground, from shadowAlpha.
const (
	shadowSize    = 1.05
	shadowGain    = 0.1
	shadowAlpha   = 0.4
	shadowFalloff = 0.12
)

// tiltGrid is the hull drawn as a 3×3 grid of vertices (4 cells, 8
// triangles), so its trapezoid is textured without a visible seam.
var tiltGrid = [24]uint16{0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7}

// pose is where a newer live tank is drawn this frame.
type pose struct {
	x, y, h      float64 // centre, height (levels)
	angle, gun   float64
	pitch, roll  float64
	l, w         float64 // hull length and width, world units
	sqL, sqW     float64 // squash factors along and across the hull
	gunX, gunY   float64 // the turret's recoil offset, world
	facing       [4]float64
	turretFacing [4]float64
	shade        float64 // how much the hull is darkened, 0 to tiltShading
}

// drawnPose composes a newer live tank's drawn pose from its row and its
// motion.
func (t *Tank) drawnPose() pose {
	p, m := &t.Pose, &t.motion
	k := float64(p.size) / 10
	ps := pose{x: p.x, y: p.y, h: t.At.H, angle: p.angle, gun: p.gun + p.angle, l: hullW * k, w: hullH * k, sqL: 1, sqW: 1}
	jp, jr, lift, sx, sy := m.jolt.state()
	r := recoilAmount(m.recoilT)
	gc, gs := math.Cos(p.gun), math.Sin(p.gun)
	ps.pitch = tiltAngle(m.pitch + jp + recoilRock*r*gc)
	ps.roll = tiltAngle(m.roll + jr + recoilRock*r*gs)
	ps.h += lift
	if sq := m.squash(); sq > 0 {
		ps.sqL, ps.sqW = 1-sq/2, 1+sq/3
	}
	ca, sa := math.Cos(p.angle), math.Sin(p.angle)
	// recoil pushes back against the gun, shake anywhere; in the hull's
	// axes, turned to the world
	bu, bv := -gc*recoilBody*r*ps.l+sx*ps.l, -gs*recoilBody*r*ps.l+sy*ps.l
	ps.x += ca*bu - sa*bv
	ps.y += sa*bu + ca*bv
	gu, gv := -gc*recoilGun*r*ps.l, -gs*recoilGun*r*ps.l
	ps.gunX, ps.gunY = ca*gu-sa*gv, sa*gu+ca*gv
	for i, d := range bevelDirs {
		ps.facing[i] = facing(d, ps.angle)
		ps.turretFacing[i] = facing(d, ps.gun)
	}
	// the top's normal leans away from the raised side
	nu, nv := -math.Sin(ps.pitch), -math.Sin(ps.roll)
	nx, ny := ca*nu-sa*nv, sa*nu+ca*nv
	ps.shade = tiltShading * max(0, min(1, -2*(nx*lightFrom[0]+ny*lightFrom[1])))
	return ps
}

// facing is how much a side facing d in a shape turned by angle faces the
// light, −1 to 1.
func facing(d [2]float64, angle float64) float64 {
	c, s := math.Cos(angle), math.Sin(angle)
	return (c*d[0]-s*d[1])*lightFrom[0] + (s*d[0]+c*d[1])*lightFrom[1]
}

// hullMesh fills vs with the tilted hull's grid: texture pixels of the
// hull image at the corners, world points lifted by the attitude.
func (ps *pose) hullMesh(vs *[9]parts.MeshVertex) {
	sp, cp := math.Sin(ps.pitch), math.Cos(ps.pitch)
	sr, cr := math.Sin(ps.roll), math.Cos(ps.roll)
	ca, sa := math.Cos(ps.angle), math.Sin(ps.angle)
	hl, hw := ps.l/2, ps.w/2
	for j := range 3 {
		for i := range 3 {
			fu, fv := float64(i-1), float64(j-1)
			u, v := fu*hl, fv*hw
			z := u*sp + v*sr
			s := 1 + tiltLift*z/hl
			lu, lv := u*cp*s*ps.sqL, v*cr*s*ps.sqW
			vs[j*3+i] = parts.MeshVertex{
				X: ps.x + ca*lu - sa*lv, Y: ps.y + sa*lu + ca*lv, H: ps.h,
				U: (fu + 1) / 2 * hullW, V: (fv + 1) / 2 * hullH,
			}
		}
	}
}

// tiltAffine maps the turret, centred on the origin and turned to the
// world, onto the tilted hull: foreshortened along the hull's axes as the
// hull is, then moved to the hull's centre and its recoil.
func (ps *pose) tiltAffine() parts.Affine {
	return parts.Identity().Rotate(-ps.angle).Scale(math.Cos(ps.pitch)*ps.sqL, math.Cos(ps.roll)*ps.sqW).
		Rotate(ps.angle).Translate(ps.x+ps.gunX, ps.y+ps.gunY)
}

// bevelTint is how a bevel mask facing the light by f is drawn: white
// over a lit side, black over a side in shadow.
func bevelTint(f float64) (parts.Color, bool) {
	switch {
	case f > 0.05:
		return parts.White().WithAlpha(0.38 * f), true
	case f < -0.05:
		return parts.Color{A: float32(0.42 * -f)}, true
	}
	return parts.Color{}, false
}

// drawNewer draws a newer live tank: its shadow in flight, the tilted
// hull and its bevels, the turret and its bevels.
func (t *Tank) drawNewer(g parts.Gfx) {
	ps := t.drawnPose()
	ti := teamIndex(t.Pose.team)
	if t.motion.airborne() && t.shadow != parts.NoTex {
		ground := math.Max(0, math.Floor(t.At.H-0.01))
		gap := math.Max(0, ps.h-ground)
		if a := shadowAlpha - shadowFalloff*gap; a > 0 {
			g.Elevate(ground)
			k := ps.l * shadowSize * (1 + shadowGain*gap) / hullW
			m := parts.Identity().Translate(-(hullW/2+shadowPad), -(hullH/2+shadowPad)).Scale(k, k).Rotate(ps.angle).Translate(ps.x, ps.y)
			g.Image(t.shadow, parts.Rect{W: hullW + 2*shadowPad, H: hullH + 2*shadowPad}, m, parts.Color{A: float32(a)})
		}
	}
	g.Elevate(ps.h)
	ps.hullMesh(&t.mesh)
	d := float32(1 - ps.shade)
	g.Mesh(t.body[ti], t.mesh[:], tiltGrid[:], parts.Color{R: d, G: d, B: d, A: 1})
	for i, f := range ps.facing {
		if c, ok := bevelTint(f); ok && t.bevel[i] != parts.NoTex {
			g.Mesh(t.bevel[i], t.mesh[:], tiltGrid[:], c)
		}
	}
	k := float64(t.Pose.size) / 10
	gm := parts.Identity().Translate(-gunOX, -gunOY).Scale(k, k).Rotate(ps.gun).Then(ps.tiltAffine())
	src := parts.Rect{W: gunW, H: gunH}
	g.Image(t.gun[ti], src, gm, parts.White())
	for i, f := range ps.turretFacing {
		if c, ok := bevelTint(f); ok && t.turretBevel[i] != parts.NoTex {
			g.Image(t.turretBevel[i], src, gm, c)
		}
	}
}

// react reads the scene's events since the last step: the tank's own shot
// starts its recoil, a blast on its level within reach its jolt.
func (t *Tank) react() {
	ev := t.c.Events
	if ev == nil {
		return
	}
	m := &t.motion
	seq := max(m.seen, ev.Oldest())
	for ; seq < ev.Next(); seq++ {
		e, _ := ev.At(seq)
		switch e.Kind {
		case parts.EventShot:
			if e.Author == t.ID && t.Pose.cond > 0 {
				m.recoilT = 0
			}
		case parts.EventBlast:
			if e.Level == t.Pose.level {
				l := float64(t.Pose.size) / 10 * hullW
				m.jolt.kick(t.Pose.x, t.Pose.y, t.Pose.angle, l, e.X, e.Y, e.R, t.c.Rand)
			}
		}
	}
	m.seen = seq
}
