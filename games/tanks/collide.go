package tanks

import (
	"math"

	"vimpclient/internal/angle"
)

// Wall surface, as the host builds its wall colliders: friction 0.2, restitution 0.
const (
	WallFriction    = 0.2
	WallRestitution = 0
)

// Body is a movable oriented box for the contact solver: tanks and crates.
type Body struct {
	X, Y, Angle    float32 // centre and rotation
	VX, VY, AngVel float32
	HalfW, HalfH   float32
	InvMass        float32
	InvInertia     float32
	Friction       float32
	Restitution    float32
	// Reach is what the body meets on a layered map (the zero Reach: the
	// ground's walls, bodies and guards).
	Reach Reach
	// Touched is set by Resolve when the body took part in a contact.
	Touched bool
}

// SetMass fills the inverse mass and inertia of a box of the given density.
func (b *Body) SetMass(density float32) {
	w, h := 2*b.HalfW, 2*b.HalfH
	m := density * w * h
	i := m * (w*w + h*h) / 12
	b.InvMass, b.InvInertia = 1/m, 1/i
}

// Integrate advances a free body by one step of dt seconds: the position
// by its velocity, the angle wrapped by angle.Normalize, then the velocities
// damped by 1/(1 + dt·damping). The host's map bodies and the predictor's
// (crates with their own damping, other tanks with none) step through this
// one function, so both sides compute the same bits.
func (b *Body) Integrate(dt, linearDamping, angularDamping float32) {
	b.X += b.VX * dt
	b.Y += b.VY * dt
	b.Angle = angle.Normalize(b.Angle + b.AngVel*dt)
	ld := 1 / (1 + dt*linearDamping)
	b.VX *= ld
	b.VY *= ld
	b.AngVel *= 1 / (1 + dt*angularDamping)
}

type obb struct {
	cx, cy, ux, uy, vx, vy, hw, hh float32
}

func bodyBox(b *Body) obb {
	s, c := math.Sincos(float64(b.Angle))
	return obb{b.X, b.Y, float32(c), float32(s), float32(-s), float32(c), b.HalfW, b.HalfH}
}

func rectBox(r Rect) obb {
	return obb{(r.X0 + r.X1) / 2, (r.Y0 + r.Y1) / 2, 1, 0, 0, 1, (r.X1 - r.X0) / 2, (r.Y1 - r.Y0) / 2}
}

func (o *obb) radius(ax, ay float32) float32 {
	return o.hw*abs32(ax*o.ux+ay*o.uy) + o.hh*abs32(ax*o.vx+ay*o.vy)
}

func (o *obb) aabb() (float32, float32, float32, float32) {
	ex := o.hw*abs32(o.ux) + o.hh*abs32(o.vx)
	ey := o.hw*abs32(o.uy) + o.hh*abs32(o.vy)
	return o.cx - ex, o.cy - ey, o.cx + ex, o.cy + ey
}

// overlap runs the separating-axis test of two boxes. It returns the
// normal from a towards b, the depth and the contact point.
func overlap(a, b *obb) (nx, ny, depth, px, py float32, ok bool) {
	dx, dy := b.cx-a.cx, b.cy-a.cy
	axes := [4][2]float32{{a.ux, a.uy}, {a.vx, a.vy}, {b.ux, b.uy}, {b.vx, b.vy}}
	depth = float32(math.Inf(1))
	for _, ax := range axes {
		d := dx*ax[0] + dy*ax[1]
		o := a.radius(ax[0], ax[1]) + b.radius(ax[0], ax[1]) - abs32(d)
		if o <= 0 {
			return 0, 0, 0, 0, 0, false
		}
		if o < depth {
			depth = o
			nx, ny = ax[0], ax[1]
			if d < 0 {
				nx, ny = -nx, -ny
			}
		}
	}
	// Contact point: a's corners deepest along n, flush faces averaged.
	var corners [4][2]float32
	var proj [4]float32
	best := float32(math.Inf(-1))
	i := 0
	for _, sx := range [2]float32{-1, 1} {
		for _, sy := range [2]float32{-1, 1} {
			cx := a.cx + sx*a.hw*a.ux + sy*a.hh*a.vx
			cy := a.cy + sx*a.hw*a.uy + sy*a.hh*a.vy
			corners[i] = [2]float32{cx, cy}
			proj[i] = cx*nx + cy*ny
			best = max(best, proj[i])
			i++
		}
	}
	tol := 0.15 * (a.hw + a.hh)
	var sw float32
	for i := range corners {
		w := 1 - (best-proj[i])/tol
		if w > 0 {
			px += corners[i][0] * w
			py += corners[i][1] * w
			sw += w
		}
	}
	px /= sw
	py /= sw
	return nx, ny, depth, px, py, true
}

type contact struct {
	a, b   int // b < 0: a static wall
	nx, ny float32
	depth  float32
	px, py float32
	e, mu  float32
}

// Solver resolves contacts between movable bodies and the wall blocks. It
// keeps its buffers between calls; the zero value is ready.
type Solver struct {
	contacts []contact
	ids      []int32
	boxes    []obb
	aabbs    [][4]float32
	static   Body
}

// Passes is the number of velocity solver passes, as the host's solver runs them.
const Passes = 4

// Resolve collects the contacts of bodies against the terrain t (may be
// nil): the glued wall blocks of the levels each body's Reach names and the
// ramp guards that hold its level; and against each other, for bodies whose
// Reach shares a level. Then it separates them and runs the impulse
// solver. Contacts are collected body by body, level by level, blocks in
// their glued order, then guards, then the pairs: the order is part of the
// result, and the host and the predictor share it.
func (s *Solver) Resolve(bodies []*Body, t *Terrain) {
	s.contacts = s.contacts[:0]
	s.boxes = s.boxes[:0]
	s.aabbs = s.aabbs[:0]
	for _, b := range bodies {
		b.Touched = false
		box := bodyBox(b)
		x0, y0, x1, y1 := box.aabb()
		s.boxes = append(s.boxes, box)
		s.aabbs = append(s.aabbs, [4]float32{x0, y0, x1, y1})
	}
	if t != nil {
		for i, b := range bodies {
			reach := b.Reach.effective()
			box := &s.boxes[i]
			a := &s.aabbs[i]
			e, mu := (b.Restitution+WallRestitution)/2, (b.Friction+WallFriction)/2
			for lv, w := range t.walls {
				if reach.Walls&(1<<lv) == 0 {
					continue
				}
				s.ids = w.blocksIn(s.ids[:0], a[0], a[1], a[2], a[3])
				for _, id := range s.ids {
					rb := rectBox(w.Blocks[id])
					s.wallContact(i, box, &rb, e, mu)
				}
			}
			if reach.Guards == 0 {
				continue
			}
			for gi := range t.guards {
				g := &t.guards[gi]
				if reach.Guards&(1<<g.low) == 0 || g.rect.X1 < a[0] || a[2] < g.rect.X0 || g.rect.Y1 < a[1] || a[3] < g.rect.Y0 {
					continue
				}
				rb := rectBox(g.rect)
				s.wallContact(i, box, &rb, e, mu)
			}
		}
	}
	for i := range bodies {
		ab := &s.aabbs[i]
		for j := i + 1; j < len(bodies); j++ {
			bb := &s.aabbs[j]
			if !bodies[i].Reach.Meets(bodies[j].Reach) {
				continue
			}
			if ab[2] < bb[0] || bb[2] < ab[0] || ab[3] < bb[1] || bb[3] < ab[1] {
				continue
			}
			nx, ny, d, px, py, ok := overlap(&s.boxes[i], &s.boxes[j])
			if !ok {
				continue
			}
			a, b := bodies[i], bodies[j]
			s.contacts = append(s.contacts, contact{a: i, b: j, nx: nx, ny: ny, depth: d, px: px, py: py,
				e: (a.Restitution + b.Restitution) / 2, mu: (a.Friction + b.Friction) / 2})
		}
	}
	if len(s.contacts) == 0 {
		return
	}
	// Positional separation, once per contact.
	for k := range s.contacts {
		c := &s.contacts[k]
		a, b := s.pair(bodies, c)
		a.Touched = true
		b.Touched = true
		sum := a.InvMass + b.InvMass
		if sum == 0 {
			continue
		}
		a.X -= c.nx * c.depth * a.InvMass / sum
		a.Y -= c.ny * c.depth * a.InvMass / sum
		b.X += c.nx * c.depth * b.InvMass / sum
		b.Y += c.ny * c.depth * b.InvMass / sum
	}
	for pass := 0; pass < Passes; pass++ {
		for k := range s.contacts {
			c := &s.contacts[k]
			a, b := s.pair(bodies, c)
			impulse(a, b, c)
		}
	}
}

// wallContact adds the contact of body i's box with a static box, if any.
func (s *Solver) wallContact(i int, box, rb *obb, e, mu float32) {
	nx, ny, d, px, py, ok := overlap(box, rb)
	if !ok {
		return
	}
	s.contacts = append(s.contacts, contact{a: i, b: -1, nx: nx, ny: ny, depth: d, px: px, py: py, e: e, mu: mu})
}

func (s *Solver) pair(bodies []*Body, c *contact) (*Body, *Body) {
	if c.b < 0 {
		s.static = Body{X: s.boxes[c.a].cx, Y: s.boxes[c.a].cy}
		// The wall's lever arm is never used (zero inverse mass/inertia).
		return bodies[c.a], &s.static
	}
	return bodies[c.a], bodies[c.b]
}

func cross(rx, ry, nx, ny float32) float32 { return rx*ny - ry*nx }

func impulse(a, b *Body, c *contact) {
	rax, ray := c.px-a.X, c.py-a.Y
	rbx, rby := c.px-b.X, c.py-b.Y
	vax, vay := a.VX-a.AngVel*ray, a.VY+a.AngVel*rax
	vbx, vby := b.VX-b.AngVel*rby, b.VY+b.AngVel*rbx
	rvx, rvy := vbx-vax, vby-vay
	vn := rvx*c.nx + rvy*c.ny
	if vn >= 0 {
		return
	}
	ran := cross(rax, ray, c.nx, c.ny)
	rbn := cross(rbx, rby, c.nx, c.ny)
	kn := a.InvMass + b.InvMass + ran*ran*a.InvInertia + rbn*rbn*b.InvInertia
	if kn == 0 {
		return
	}
	jn := -(1 + c.e) * vn / kn
	apply(a, b, c.nx, c.ny, ran, rbn, jn)
	tx, ty := -c.ny, c.nx
	vt := rvx*tx + rvy*ty
	rat := cross(rax, ray, tx, ty)
	rbt := cross(rbx, rby, tx, ty)
	kt := a.InvMass + b.InvMass + rat*rat*a.InvInertia + rbt*rbt*b.InvInertia
	if kt == 0 {
		return
	}
	jt := clamp(-vt/kt, -c.mu*jn, c.mu*jn)
	apply(a, b, tx, ty, rat, rbt, jt)
}

func apply(a, b *Body, nx, ny, ra, rb, j float32) {
	a.VX -= nx * j * a.InvMass
	a.VY -= ny * j * a.InvMass
	a.AngVel -= ra * j * a.InvInertia
	b.VX += nx * j * b.InvMass
	b.VY += ny * j * b.InvMass
	b.AngVel += rb * j * b.InvInertia
}

// RayBox intersects the ray (x,y)+(dx,dy)·t, t in [0,maxDist], with the
// body's box (slab test in the box frame). It returns the entry distance.
func RayBox(b *Body, x, y, dx, dy, maxDist float32) (float32, bool) {
	s64, c64 := math.Sincos(float64(b.Angle))
	c, s := float32(c64), float32(s64)
	ox, oy := x-b.X, y-b.Y
	lx, ly := ox*c+oy*s, -ox*s+oy*c
	ldx, ldy := dx*c+dy*s, -dx*s+dy*c
	t0, t1 := float32(0), maxDist
	for _, ax := range [2][3]float32{{lx, ldx, b.HalfW}, {ly, ldy, b.HalfH}} {
		p, d, h := ax[0], ax[1], ax[2]
		if abs32(d) < 1e-9 {
			if p < -h || p > h {
				return 0, false
			}
			continue
		}
		ta, tb := (-h-p)/d, (h-p)/d
		if ta > tb {
			ta, tb = tb, ta
		}
		t0 = max(t0, ta)
		t1 = min(t1, tb)
		if t0 > t1 {
			return 0, false
		}
	}
	return t0, true
}

// NewTankBody returns the contact body of a tank of model m (hull box,
// mass from the fixture density, model surface).
func NewTankBody(m *Model) Body {
	hw, hh := m.HalfSize()
	b := Body{HalfW: hw, HalfH: hh, Friction: m.Friction, Restitution: m.Restitution}
	b.SetMass(m.Density)
	return b
}

// ToBody copies the tank's pose and velocities into its contact body.
func (t *Tank) ToBody(b *Body) {
	b.X, b.Y, b.Angle, b.VX, b.VY, b.AngVel = t.X, t.Y, t.Angle, t.VX, t.VY, t.AngVel
}

// FromBody takes the pose and velocities back after Resolve.
func (t *Tank) FromBody(b *Body) {
	t.X, t.Y, t.Angle, t.VX, t.VY, t.AngVel = b.X, b.Y, angle.Normalize(b.Angle), b.VX, b.VY, b.AngVel
}

// StepAlone runs one full fixed step of a lone tank on a flat map the way
// the host steps every tank: the motion model, then the contacts against
// the glued wall blocks. body and bodies are the caller's scratch.
func (m *Model) StepAlone(t *Tank, keys uint32, dt float32, tr *Terrain, s *Solver, body *Body, bodies []*Body) []*Body {
	m.Move(t, keys, dt)
	t.ToBody(body)
	bodies = append(bodies[:0], body)
	s.Resolve(bodies, tr)
	t.FromBody(body)
	return bodies
}
