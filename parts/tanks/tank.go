// Package tanks draws the reference game "tanks": the
// Tank, TankRadar, Smoke, Tracks, Bomb, ShotEffect, ExplosionEffect, Map and
// MapRadar parts, with their textures baked natively.
package tanks

import (
	"math"
	"strconv"
	tankgame "vimpclient/games/tanks"

	"vimpclient/clientcore"
	"vimpclient/parts"
)

// bindTank binds the tanks game's m1 row, which every tank part reads
// (the pose, and on a layered host's rows the height above the ground in
// world units and the level by their roles; a flat row's tanks stand on
// the ground). A key with fields the game does not declare is refused.
func bindTank(k *clientcore.KeySchema) (tankgame.TankRow, error) {
	return clientcore.BindLayout(k, tankgame.BindTankRow)
}

// tankPose is a decoded m1 row.
type tankPose struct {
	x, y, angle, gun, vx, vy, load float64
	cond, size, team               int
	z                              float64 // height above the ground, in levels
	level                          int
}

// readTank reads a tank's m1 row.
func readTank(f *tankgame.TankRow, row []float32) tankPose {
	return tankPose{
		x: f.X.Float64(row), y: f.Y.Float64(row), angle: f.Angle.Float64(row), gun: f.Gun.Float64(row),
		vx: f.VX.Float64(row), vy: f.VY.Float64(row), load: f.Load.Float64(row),
		cond: int(f.Cond.Float64(row)), size: int(f.Size.Float64(row)), team: int(f.Team.Float64(row)),
		z: f.Z.Float64(row), level: min(max(int(f.Level.Get(row)), 0), maxLevel),
	}
}

// maxLevel is the highest level of a map.
const maxLevel = 7

// height is where the tank stands: its level and its height in levels.
func (p *tankPose) height(l *parts.Levels) parts.Height {
	return parts.Height{Level: p.level, H: p.z}
}

// drawZ is the draw order of base order z for something at height at.
func drawZ(z int, at parts.Height) int { return parts.LevelZ(z, parts.RenderLevel(at.Level, at.H)) }

// TankFactory is the Tank part class.
type TankFactory struct{}

type tankBinding struct {
	f    tankgame.TankRow
	look lookRow
}

// Bind implements parts.Factory.
func (TankFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := bindTank(k)
	return &tankBinding{f: f, look: bindLook(k)}, err
}

// Tank is one tank on the main canvas (zIndex 3).
type Tank struct {
	b      *tankBinding
	c      *parts.Ctx
	ID     uint32
	Pose   tankPose
	h      parts.Handle
	body   [3]parts.Tex // per team 1, 2
	gun    [3]parts.Tex
	wreck  parts.Tex
	engine parts.SoundID
	hasEng bool
	At     parts.Height
	// seen is whether a row has come: a tank whose first row is a wreck
	// died before the player saw it, and does not explode.
	seen bool
	// the newer looks (rows with pitch and roll)
	newer       bool
	motion      motion
	mesh        [9]parts.MeshVertex
	bevel       [4]parts.Tex
	turretBevel [4]parts.Tex
	shadow      parts.Tex
	// Wreck is the tank's death, made when it is first seen dying.
	Wreck *wreckFire
}

// New implements parts.Binding.
func (b *tankBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	t := &Tank{b: b, c: c, ID: id}
	for team := 1; team <= 2; team++ {
		t.body[team], _ = c.Tex.Baked("tank.body." + strconv.Itoa(team))
		t.gun[team], _ = c.Tex.Baked("tank.gun." + strconv.Itoa(team))
	}
	t.wreck, _ = c.Tex.Baked("tank.destroyed")
	t.newer = b.look.newer()
	if t.newer {
		for i := range t.bevel {
			t.bevel[i], _ = c.Tex.Baked("tank.bevel." + strconv.Itoa(i))
			t.turretBevel[i], _ = c.Tex.Baked("tank.turretBevel." + strconv.Itoa(i))
		}
		t.shadow, _ = c.Tex.Baked("tank.shadow")
		t.motion.landT, t.motion.recoilT = landMs, recoilMs
		if c.Events != nil {
			t.motion.seen = c.Events.Next()
		}
	}
	t.Update(row)
	t.h = c.Stage.Add(drawZ(3, t.At), t)
	return t
}

// Update implements parts.Part: the tank moves to the level it is drawn
// on, and its height is what the effects it causes start from.
func (t *Tank) Update(row []float32) {
	prev, first := t.Pose.cond, !t.seen
	t.seen = true
	t.Pose = readTank(&t.b.f, row)
	t.At = t.Pose.height(t.c.Levels)
	if t.newer {
		// a hard landing thuds, as loud as it was hard (the newer game's
		// tankLanding; a host without it stays silent)
		if k := t.motion.sample(&t.b.look, row); k > 0 && t.c.Sound != nil {
			t.c.Sound.Register("tankLanding", parts.SoundData{X: t.Pose.x, Y: t.Pose.y, VolumeScale: k})
		}
	}
	switch {
	case !first && prev > 0 && t.Pose.cond == 0:
		if t.Wreck == nil {
			t.Wreck = newWreckFire(t)
		}
		t.Wreck.ignite(t.motion.vz)
	case t.Pose.cond > 0 && t.Wreck != nil:
		t.Wreck.reset() // back for a new round: the fire is out, the ground clean
	case t.Wreck != nil:
		t.Wreck.update(t.motion.vz)
	}
	t.c.Levels.SetActor(t.ID, t.At)
	t.c.Levels.Place(t.ID, t.Pose.x, t.Pose.y)
	if t.h != (parts.Handle{}) {
		t.h = t.c.Stage.Move(t.h, drawZ(3, t.At))
	}
	t.syncEngine()
}

// syncEngine keeps the spatial engine loop of a live tank: registered when
// it is alive and has none, refreshed every update (rate and volume follow
// the engine load), stopped when it becomes a wreck.
func (t *Tank) syncEngine() {
	snd := t.c.Sound
	if snd == nil {
		return
	}
	p := &t.Pose
	if p.cond == 0 {
		if t.hasEng {
			snd.Unregister(t.engine)
			t.hasEng = false
		}
		return
	}
	base := math.Max(0, math.Min(1, p.load))
	strain := math.Max(0, p.load-1)
	d := parts.SoundData{X: p.x, Y: p.y, Rate: lerp(1, 1.1, base) + 0.08*strain, VolumeScale: lerp(0.9, 1, base)}
	if t.hasEng && snd.Update(t.engine, d) {
		return
	}
	t.engine, t.hasEng = snd.Register("tankEngine", d)
}

// Step implements parts.Part: the newer looks react to the scene's
// events and play out; a wreck burns.
func (t *Tank) Step(dt float64) bool {
	if !(dt > 0) {
		return true
	}
	if t.newer {
		t.react()
		t.motion.step(dt)
	}
	if t.Wreck != nil {
		t.Wreck.step(dt)
	}
	return true
}

// Destroy implements parts.Part: a wreck's fire and scorch go with it.
func (t *Tank) Destroy(parts.Removal) {
	if t.Wreck != nil {
		t.Wreck.reset()
	}
	t.c.Stage.Remove(t.h)
	t.c.Levels.ForgetActor(t.ID)
	if t.hasEng {
		t.c.Sound.Unregister(t.engine)
		t.hasEng = false
	}
}

func teamIndex(team int) int {
	if team == 2 {
		return 2
	}
	return 1
}

// Draw implements parts.Drawable.
func (t *Tank) Draw(g parts.Gfx) {
	p := &t.Pose
	g.Elevate(t.At.H)
	t.addLights(g)
	k := float64(p.size) / 10
	if p.cond == 0 {
		m := parts.Identity().Translate(-wreckW/2, -wreckH/2).Scale(k, k).Rotate(p.angle).Translate(p.x, p.y)
		g.Image(t.wreck, parts.Rect{W: wreckW, H: wreckH}, m, parts.White())
		return
	}
	if t.newer {
		t.drawNewer(g)
		return
	}
	ti := teamIndex(p.team)
	m := parts.Identity().Translate(-hullW/2, -hullH/2).Scale(k, k).Rotate(p.angle).Translate(p.x, p.y)
	g.Image(t.body[ti], parts.Rect{W: hullW, H: hullH}, m, parts.White())
	gm := parts.Identity().Translate(-gunOX, -gunOY).Scale(k, k).Rotate(p.gun+p.angle).Translate(p.x, p.y)
	g.Image(t.gun[ti], parts.Rect{W: gunW, H: gunH}, gm, parts.White())
}

// TankRadarFactory is the TankRadar part class.
type TankRadarFactory struct{}

type tankRadarBinding struct{ f tankgame.TankRow }

// Bind implements parts.Factory.
func (TankRadarFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := bindTank(k)
	return &tankRadarBinding{f}, err
}

// TankRadar is a tank's dot on the radar (zIndex 2).
type TankRadar struct {
	b    *tankRadarBinding
	c    *parts.Ctx
	Pose tankPose
	h    parts.Handle
	dot  [3]parts.Tex
	dead parts.Tex
}

// New implements parts.Binding.
func (b *tankRadarBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	r := &TankRadar{b: b, c: c}
	r.dot[1], _ = c.Tex.Baked("radar.1")
	r.dot[2], _ = c.Tex.Baked("radar.2")
	r.dead, _ = c.Tex.Baked("radar.destroyed")
	r.Update(row)
	r.h = c.Stage.Add(2, r)
	return r
}

// Update implements parts.Part.
func (r *TankRadar) Update(row []float32) { r.Pose = readTank(&r.b.f, row) }

// Step implements parts.Part.
func (r *TankRadar) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (r *TankRadar) Destroy(parts.Removal) { r.c.Stage.Remove(r.h) }

// Draw implements parts.Drawable: a 16 px texture at container scale 5.
func (r *TankRadar) Draw(g parts.Gfx) {
	tex := r.dot[teamIndex(r.Pose.team)]
	if r.Pose.cond == 0 {
		tex = r.dead
	}
	m := parts.Identity().Translate(-radarDotSide/2, -radarDotSide/2).Scale(5, 5).Translate(r.Pose.x, r.Pose.y)
	g.Image(tex, parts.Rect{W: radarDotSide, H: radarDotSide}, m, parts.White())
}

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

func uniform(rnd func() float64, a, b float64) float64 { return a + (b-a)*rnd() }

// Team implements parts.Teamer (0 for a wreck: it shows no team colour).
func (t *Tank) Team() int {
	if t.Pose.cond == 0 {
		return 0
	}
	return t.Pose.team
}
