package match

import (
	"fmt"
	"slices"

	"vimpclient/games/tanks"
	"vimpclient/host/packer"
	"vimpclient/snapschema"
)

// The rows the match writes, placed by the tanks game's declarations of
// them (package games/tanks): each key's layout is bound once, at New,
// from the match's own snapshot schema, so that the schema a client
// receives and the values the host packs cannot drift apart by position.
// Binding fails when the schema lacks a field the match writes or has one
// it does not write.

type rowLayouts struct {
	m1  tanks.TankRow
	w1  tanks.TracerRow
	w2  tanks.BombRow
	w2e tanks.ExplosionRow
	c1  tanks.CrateRow
}

// bindKey binds the game's declaration of one key of the match's schema:
// every field of the key must be one the declaration names.
func bindKey[R any](s *snapschema.Schema, name string, bind func(*snapschema.Binder) R) (R, error) {
	k := s.Key(name)
	if k == nil {
		var none R
		return none, fmt.Errorf("snapshot key %q: missing", name)
	}
	b := snapschema.NewBinder(k)
	r := bind(b)
	return r, b.Complete()
}

func bindRowLayouts(s *snapschema.Schema) (rowLayouts, error) {
	var l rowLayouts
	var err error
	if l.m1, err = bindKey(s, "m1", tanks.BindTankRow); err != nil {
		return rowLayouts{}, err
	}
	if l.w1, err = bindKey(s, "w1", tanks.BindTracerRow); err != nil {
		return rowLayouts{}, err
	}
	if l.w2, err = bindKey(s, "w2", tanks.BindBombRow); err != nil {
		return rowLayouts{}, err
	}
	if l.w2e, err = bindKey(s, "w2e", tanks.BindExplosionRow); err != nil {
		return rowLayouts{}, err
	}
	if l.c1, err = bindKey(s, "c1", tanks.BindCrateRow); err != nil {
		return rowLayouts{}, err
	}
	if err := checkCrateRow(s.Key("c1"), &l.c1); err != nil {
		return rowLayouts{}, err
	}
	return l, nil
}

// checkCrateRow holds the c1 layout to what the match writes: the pose in
// the mandatory head, the velocities (which the declaration lets older
// layouts lack) in the optional tail, and a prop's state byte, when the
// layout has one, in the head.
func checkCrateRow(k *snapschema.Key, c *tanks.CrateRow) error {
	if !c.VX.Bound() || !c.VY.Bound() || !c.AngVel.Bound() {
		return fmt.Errorf("snapshot key %q: the match writes the velocities vx, vy and angvel", k.Name)
	}
	of := k.OptionalFrom
	head := []snapschema.Pos{c.X, c.Y, c.Angle, c.Z, c.Level, c.State}
	tail := []snapschema.Pos{c.VX, c.VY, c.AngVel}
	if of > 0 && (slices.ContainsFunc(head, func(p snapschema.Pos) bool { return p.Index() >= of }) ||
		slices.ContainsFunc(tail, func(p snapschema.Pos) bool { return p.Index() < of })) {
		return fmt.Errorf("snapshot key %q: the pose must precede optionalFrom %d and the velocities follow it", k.Name, of)
	}
	return nil
}

// tankValues are one tank's m1 values by name.
type tankValues struct {
	x, y, angle, gun, vx, vy, load, angvel float32
	z, vz, pitch, roll                     float32 // height and vertical speed in levels, tilt in radians
	cond, size, team, level                uint32
}

func (t *tankObj) values(p *player, size float32, g *tanks.Geometry) tankValues {
	s := &t.st
	return tankValues{x: s.X, y: s.Y, angle: s.Angle, gun: s.Gun, vx: s.VX, vy: s.VY, load: s.EngineLoad, angvel: s.AngVel,
		z: t.lv.Z, level: uint32(t.lv.Level), vz: t.lv.VZ, pitch: t.pitch, roll: t.roll,
		cond: uint32(t.condition()), size: uint32(size), team: uint32(p.team)}
}

// pack writes a tank's m1 row into v (full width), f32 values rounded
// to two decimals.
func packTank(l *tanks.TankRow, v []packer.Value, r *tankValues) {
	v[l.X.Index()], v[l.Y.Index()] = packer.F(packer.Round2(r.x)), packer.F(packer.Round2(r.y))
	v[l.Angle.Index()], v[l.Gun.Index()] = packer.F(packer.Round2(r.angle)), packer.F(packer.Round2(r.gun))
	v[l.VX.Index()], v[l.VY.Index()] = packer.F(packer.Round2(r.vx)), packer.F(packer.Round2(r.vy))
	v[l.Load.Index()], v[l.AngVel.Index()] = packer.F(packer.Round2(r.load)), packer.F(packer.Round2(r.angvel))
	v[l.Cond.Index()], v[l.Size.Index()], v[l.Team.Index()] = packer.I(r.cond), packer.I(r.size), packer.I(r.team)
	if l.Layered() {
		v[l.Z.Index()], v[l.Level.Index()] = packer.F(packer.Round2(r.z)), packer.I(r.level)
	}
	if l.VZ.Bound() {
		v[l.VZ.Index()] = packer.F(packer.Round2(r.vz))
	}
	if l.Pitch.Bound() {
		v[l.Pitch.Index()] = packer.F(packer.Round2(r.pitch))
	}
	if l.Roll.Bound() {
		v[l.Roll.Index()] = packer.F(packer.Round2(r.roll))
	}
}

// tracer is one w1 row's values, already rounded as they are sent.
type tracer struct {
	startX, startY, endX, endY, bodyX, bodyY float32
	hit, shooter                             uint32
	startLevel, endLevel                     uint32 // the levels the shot left and ended on
}

func packTracer(l *tanks.TracerRow, v []packer.Value, s *tracer) {
	v[l.StartX.Index()], v[l.StartY.Index()] = packer.F(s.startX), packer.F(s.startY)
	v[l.EndX.Index()], v[l.EndY.Index()] = packer.F(s.endX), packer.F(s.endY)
	v[l.BodyX.Index()], v[l.BodyY.Index()] = packer.F(s.bodyX), packer.F(s.bodyY)
	v[l.Hit.Index()], v[l.Author.Index()] = packer.I(s.hit), packer.I(s.shooter)
	if l.StartLevel.Bound() {
		v[l.StartLevel.Index()] = packer.I(s.startLevel)
	}
	if l.EndLevel.Bound() {
		v[l.EndLevel.Index()] = packer.I(s.endLevel)
	}
}

// explosion is one w2e row's values, already rounded.
type explosion struct {
	x, y, radius float32
	level        uint32
}

func packExplosion(l *tanks.ExplosionRow, v []packer.Value, e *explosion) {
	v[l.X.Index()], v[l.Y.Index()], v[l.Radius.Index()] = packer.F(e.x), packer.F(e.y), packer.F(e.radius)
	if l.Level.Bound() {
		v[l.Level.Index()] = packer.I(e.level)
	}
}
