package match

import (
	"fmt"
	"strings"

	"vimpclient/games/tanks"
	"vimpclient/host/packer"
)

// The rows the match writes, placed by field name: each key's layout is
// bound once, at New, from the match's own snapshot schema, so that the
// schema a client receives and the values the host packs cannot drift
// apart by position. Binding fails when the schema lacks a field the match
// writes or has one it does not write.

// m1Layout is the tank row. z and level (the tank's height above the
// ground in world units, and its level) are -1 in a schema without them:
// the rows are then the flat ones.
type m1Layout struct{ x, y, angle, gun, vx, vy, load, cond, size, team, angvel, z, level int }

type w1Layout struct{ startX, startY, endX, endY, bodyX, bodyY, hit, shooter int }

type w2Layout struct{ x, y, angle, size, time, owner int }

type w2eLayout struct{ x, y, radius int }

// c1Layout is the map dynamics row: the pose in the mandatory head, the
// velocities in the optional tail (sent only while the body moves). A
// layered row also carries the body's height and level in its head, in the
// fields with the engine roles z and level (-1 in a flat row).
type c1Layout struct{ x, y, angle, z, level, vx, vy, angvel int }

type rowLayouts struct {
	m1  m1Layout
	w1  w1Layout
	w2  w2Layout
	w2e w2eLayout
	c1  c1Layout
}

// layoutBinder finds field positions in one key and keeps account of the
// fields the match writes.
type layoutBinder struct {
	k       *packer.Key
	written []bool
	missing []string
}

func newLayoutBinder(s *packer.Schema, name string) (*layoutBinder, error) {
	k := s.Key(name)
	if k == nil {
		return nil, fmt.Errorf("snapshot key %q: missing", name)
	}
	return &layoutBinder{k: k, written: make([]bool, len(k.Names))}, nil
}

func (b *layoutBinder) at(name string) int {
	i := b.k.Index(name)
	if i < 0 {
		b.missing = append(b.missing, name)
		return 0
	}
	b.written[i] = true
	return i
}

// optional is at for a field the match writes only when the schema has it
// (-1 when it does not).
func (b *layoutBinder) optional(name string) int {
	i := b.k.Index(name)
	if i >= 0 {
		b.written[i] = true
	}
	return i
}

// role finds the field with an engine role (-1 when there is none).
func (b *layoutBinder) role(r string) int {
	i := b.k.RoleIndex(r)
	if i >= 0 {
		b.written[i] = true
	}
	return i
}

func (b *layoutBinder) err() error {
	var problems []string
	for _, n := range b.missing {
		problems = append(problems, "missing field "+n)
	}
	for i, ok := range b.written {
		if !ok {
			problems = append(problems, "field "+b.k.Names[i]+" is never written")
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("snapshot key %q: %s", b.k.Name, strings.Join(problems, ", "))
}

func bindRowLayouts(s *packer.Schema) (rowLayouts, error) {
	var l rowLayouts
	for _, bind := range []func() error{
		func() error {
			b, err := newLayoutBinder(s, "m1")
			if err != nil {
				return err
			}
			l.m1 = m1Layout{x: b.at("x"), y: b.at("y"), angle: b.at("angle"), gun: b.at("gunRotation"),
				vx: b.at("vx"), vy: b.at("vy"), load: b.at("engineLoad"),
				cond: b.at("condition"), size: b.at("size"), team: b.at("team"), angvel: b.at("angvel"),
				z: b.optional("z"), level: b.optional("level")}
			if (l.m1.z < 0) != (l.m1.level < 0) {
				return fmt.Errorf("snapshot key %q: fields z and level come together", b.k.Name)
			}
			return b.err()
		},
		func() error {
			b, err := newLayoutBinder(s, "w1")
			if err != nil {
				return err
			}
			l.w1 = w1Layout{startX: b.at("startX"), startY: b.at("startY"), endX: b.at("endX"), endY: b.at("endY"),
				bodyX: b.at("bodyX"), bodyY: b.at("bodyY"), hit: b.at("wasHit"), shooter: b.at("shooterId")}
			return b.err()
		},
		func() error {
			b, err := newLayoutBinder(s, "w2")
			if err != nil {
				return err
			}
			l.w2 = w2Layout{x: b.at("x"), y: b.at("y"), angle: b.at("angle"), size: b.at("size"), time: b.at("time"), owner: b.at("ownerId")}
			return b.err()
		},
		func() error {
			b, err := newLayoutBinder(s, "w2e")
			if err != nil {
				return err
			}
			l.w2e = w2eLayout{x: b.at("x"), y: b.at("y"), radius: b.at("radius")}
			return b.err()
		},
		func() error {
			b, err := newLayoutBinder(s, "c1")
			if err != nil {
				return err
			}
			c := c1Layout{z: b.role("z"), level: b.role("level")}
			c.x, c.y, c.angle, c.vx, c.vy, c.angvel = b.at("x"), b.at("y"), b.at("angle"), b.at("vx"), b.at("vy"), b.at("angvel")
			if err := b.err(); err != nil {
				return err
			}
			if (c.z < 0) != (c.level < 0) {
				return fmt.Errorf("snapshot key %q: roles z and level come together", b.k.Name)
			}
			if of := b.k.OptionalFrom; of > 0 && (c.x >= of || c.y >= of || c.angle >= of || c.z >= of || c.level >= of ||
				c.vx < of || c.vy < of || c.angvel < of) {
				return fmt.Errorf("snapshot key %q: the pose must precede optionalFrom %d and the velocities follow it", b.k.Name, of)
			}
			l.c1 = c
			return nil
		},
	} {
		if err := bind(); err != nil {
			return rowLayouts{}, err
		}
	}
	return l, nil
}

// tankValues are one tank's m1 values by name.
type tankValues struct {
	x, y, angle, gun, vx, vy, load, angvel, z float32
	cond, size, team, level                   uint32
}

func (t *tankObj) values(p *player, size float32, g *tanks.Geometry) tankValues {
	s := &t.st
	return tankValues{x: s.X, y: s.Y, angle: s.Angle, gun: s.Gun, vx: s.VX, vy: s.VY, load: s.EngineLoad, angvel: s.AngVel,
		z: t.lv.WorldZ(g.Levels), level: uint32(t.lv.Level),
		cond: uint32(t.condition()), size: uint32(size), team: uint32(p.team)}
}

// pack writes a tank's m1 row into v (full width), f32 values rounded
// to two decimals.
func (l *m1Layout) pack(v []packer.Value, r *tankValues) {
	v[l.x], v[l.y] = packer.F(packer.Round2(r.x)), packer.F(packer.Round2(r.y))
	v[l.angle], v[l.gun] = packer.F(packer.Round2(r.angle)), packer.F(packer.Round2(r.gun))
	v[l.vx], v[l.vy] = packer.F(packer.Round2(r.vx)), packer.F(packer.Round2(r.vy))
	v[l.load], v[l.angvel] = packer.F(packer.Round2(r.load)), packer.F(packer.Round2(r.angvel))
	v[l.cond], v[l.size], v[l.team] = packer.I(r.cond), packer.I(r.size), packer.I(r.team)
	if l.z >= 0 {
		v[l.z], v[l.level] = packer.F(packer.Round2(r.z)), packer.I(r.level)
	}
}

// firstShot writes a tank's m1 row in the JSON form of FIRST_SHOT_DATA.
func (l *m1Layout) firstShot(v []float64, r *tankValues) {
	v[l.x], v[l.y] = float64(packer.Round2(r.x)), float64(packer.Round2(r.y))
	v[l.angle], v[l.gun] = float64(packer.Round2(r.angle)), float64(packer.Round2(r.gun))
	v[l.vx], v[l.vy] = float64(packer.Round2(r.vx)), float64(packer.Round2(r.vy))
	v[l.load], v[l.angvel] = float64(packer.Round2(r.load)), float64(packer.Round2(r.angvel))
	v[l.cond], v[l.size], v[l.team] = float64(r.cond), float64(r.size), float64(r.team)
	if l.z >= 0 {
		v[l.z], v[l.level] = float64(packer.Round2(r.z)), float64(r.level)
	}
}

// tracer is one w1 row's values, already rounded as they are sent.
type tracer struct {
	startX, startY, endX, endY, bodyX, bodyY float32
	hit, shooter                             uint32
}

func (l *w1Layout) pack(v []packer.Value, s *tracer) {
	v[l.startX], v[l.startY] = packer.F(s.startX), packer.F(s.startY)
	v[l.endX], v[l.endY] = packer.F(s.endX), packer.F(s.endY)
	v[l.bodyX], v[l.bodyY] = packer.F(s.bodyX), packer.F(s.bodyY)
	v[l.hit], v[l.shooter] = packer.I(s.hit), packer.I(s.shooter)
}

// explosion is one w2e row's values, already rounded.
type explosion struct{ x, y, radius float32 }

func (l *w2eLayout) pack(v []packer.Value, e *explosion) {
	v[l.x], v[l.y], v[l.radius] = packer.F(e.x), packer.F(e.y), packer.F(e.radius)
}
