package tankclient

import (
	"math"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
	"vimpclient/predict"
)

// Predicted bodies constants (game-tanks.md §7.7).
const (
	captureMargin      = 2     // world units around the own tank
	holdMs             = 300.0 // predicted for this long after the last contact
	bodySnap           = 24    // error snap distance of a predicted body
	maxPredictedCrates = 12
	returnDistance     = 1.0  // converged to the drawn pose within this
	returnAngle        = 0.02 // and this
)

// crate is one map dynamic body, either following the interpolated world
// (Follow) or simulated in the own tank's steps (Predicted).
type crate struct {
	sim         tanks.Body // simulated state (centre), the drawn one while following
	linDamp     float32
	angDamp     float32
	auth        pose // last authoritative state
	hasAuth     bool
	follow      pose // interpolated (drawn) pose
	hasFollow   bool
	predicted   bool
	err         predict.VisualError
	old         pose // before a reconciliation
	lastContact float64
	vals        [6]float32
}

// pose is a body's centre, angle and velocities.
type pose struct{ x, y, angle, vx, vy, w float32 }

func (c *crate) set(p pose) {
	b := &c.sim
	b.X, b.Y, b.Angle, b.VX, b.VY, b.AngVel = p.x, p.y, p.angle, p.vx, p.vy, p.w
}

func (c *crate) pose() pose {
	b := &c.sim
	return pose{b.X, b.Y, b.Angle, b.VX, b.VY, b.AngVel}
}

// centre converts a MAP_DATA/snapshot corner origin to the body centre.
func centre(b *tanks.Body, x, y, angle float32) (float32, float32) {
	s64, c64 := math.Sincos(float64(angle))
	s, c := float32(s64), float32(c64)
	return x + c*b.HalfW - s*b.HalfH, y + s*b.HalfW + c*b.HalfH
}

// crateSet is the map dynamics the own tank can push (§7.7 "map dynamics").
type crateSet struct {
	key    *clientcore.KeySchema
	crates []crate
	n      int // predicted now
	bodies []*tanks.Body
}

func (cs *crateSet) load(geom *tanks.Geometry, key *clientcore.KeySchema) {
	cs.key = key
	cs.crates = cs.crates[:0]
	for _, c := range geom.Crates {
		cs.crates = append(cs.crates, crate{sim: c.Body, linDamp: c.LinearDamping, angDamp: c.AngularDamping})
	}
	cs.n = 0
	cs.bodies = make([]*tanks.Body, 0, 1+maxPredictedCrates)
}

// reset returns every body to following (map change, CLEAR, predictor reset).
func (cs *crateSet) reset() {
	for i := range cs.crates {
		c := &cs.crates[i]
		c.predicted, c.err = false, predict.VisualError{}
	}
	cs.n = 0
}

// observe takes the drawn poses from the hot data: following bodies copy
// them into their simulated state.
func (cs *crateSet) observe(h *clientcore.Hot) {
	if cs.key == nil || h == nil {
		return
	}
	for i := range h.Dynamics {
		r := &h.Dynamics[i]
		if r.Schema != cs.key || int(r.ID) >= len(cs.crates) || len(r.Fields) < 3 {
			continue
		}
		c := &cs.crates[r.ID]
		x, y := centre(&c.sim, r.Fields[0], r.Fields[1], r.Fields[2])
		if !sanePose(pose{x: x, y: y, angle: r.Fields[2]}) {
			continue
		}
		c.follow, c.hasFollow = pose{x: x, y: y, angle: r.Fields[2]}, true
		if !c.predicted {
			c.set(c.follow)
		}
	}
}

// begin stores a frame's authoritative states and rewinds the predicted
// bodies to them.
func (cs *crateSet) begin(b *clientcore.Block) {
	for j := range b.Rows {
		r := &b.Rows[j]
		if int(r.ID) >= len(cs.crates) {
			continue
		}
		c := &cs.crates[r.ID]
		a := float32(fieldOr(r, 2))
		x, y := centre(&c.sim, float32(fieldOr(r, 0)), float32(fieldOr(r, 1)), a)
		auth := pose{x, y, a, float32(fieldOr(r, 3)), float32(fieldOr(r, 4)), float32(fieldOr(r, 5))}
		if !sanePose(auth) {
			continue
		}
		c.auth, c.hasAuth = auth, true
		if c.predicted {
			c.old = c.pose()
			c.set(c.auth)
		} else if !c.hasFollow {
			c.set(c.auth)
		}
	}
}

func fieldOr(r *clientcore.Row, i int) float64 {
	if i < len(r.Fields) {
		return r.Fields[i]
	}
	return 0
}

// finish folds the predicted bodies' correction into their visual error.
func (cs *crateSet) finish() {
	for i := range cs.crates {
		c := &cs.crates[i]
		if !c.predicted {
			continue
		}
		p := c.pose()
		c.err.X += c.old.x - p.x
		c.err.Y += c.old.y - p.y
		c.err.Angle += predict.NormalizeAngle(c.old.angle - p.angle)
		c.old = p
		if math.Hypot(float64(c.err.X), float64(c.err.Y)) > bodySnap {
			c.err = predict.VisualError{}
		}
	}
}

// overlaps tests two oriented boxes, a inflated by margin, with separating
// axes.
func overlaps(a, b *tanks.Body, margin float32) bool {
	// Bounding circles first: most pairs are far apart.
	dx, dy := b.X-a.X, b.Y-a.Y
	ra := hypot32(a.HalfW+margin, a.HalfH+margin) + hypot32(b.HalfW, b.HalfH)
	if dx*dx+dy*dy >= ra*ra {
		return false
	}
	as, ac := math.Sincos(float64(a.Angle))
	bs, bc := math.Sincos(float64(b.Angle))
	axes := [4][2]float32{{float32(ac), float32(as)}, {-float32(as), float32(ac)}, {float32(bc), float32(bs)}, {-float32(bs), float32(bc)}}
	for _, ax := range axes {
		ra := (a.HalfW+margin)*abs(ax[0]*float32(ac)+ax[1]*float32(as)) + (a.HalfH+margin)*abs(-ax[0]*float32(as)+ax[1]*float32(ac))
		rb := b.HalfW*abs(ax[0]*float32(bc)+ax[1]*float32(bs)) + b.HalfH*abs(-ax[0]*float32(bs)+ax[1]*float32(bc))
		if abs(dx*ax[0]+dy*ax[1]) >= ra+rb {
			return false
		}
	}
	return true
}

func abs(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// promote starts predicting crate c from its last authoritative state (or
// its drawn pose), with the drawn pose kept through the visual error.
func (cs *crateSet) promote(c *crate, now float64) {
	drawn := c.pose()
	if c.hasFollow {
		drawn = c.follow
	}
	if c.hasAuth {
		c.set(c.auth)
	} else {
		c.set(pose{x: drawn.x, y: drawn.y, angle: drawn.angle})
	}
	c.err = predict.VisualError{X: drawn.x - c.sim.X, Y: drawn.y - c.sim.Y, Angle: predict.NormalizeAngle(drawn.angle - c.sim.Angle)}
	if math.Hypot(float64(c.err.X), float64(c.err.Y)) > bodySnap {
		c.err = predict.VisualError{}
	}
	c.predicted, c.lastContact = true, now
	cs.n++
}

// capture promotes the crates the own tank (inflated by the margin) or an
// already predicted crate touches, up to the cap.
func (cs *crateSet) capture(tank *tanks.Body, now float64) {
	for i := range cs.crates {
		if cs.n >= maxPredictedCrates {
			return
		}
		c := &cs.crates[i]
		if !c.predicted && overlaps(tank, &c.sim, captureMargin) {
			cs.promote(c, now)
		}
	}
	for grown := true; grown && cs.n > 0 && cs.n < maxPredictedCrates; {
		grown = false
		for i := range cs.crates {
			c := &cs.crates[i]
			if c.predicted {
				continue
			}
			for j := range cs.crates {
				p := &cs.crates[j]
				if p.predicted && overlaps(&p.sim, &c.sim, captureMargin) {
					cs.promote(c, now)
					grown = true
					break
				}
			}
			if cs.n >= maxPredictedCrates {
				return
			}
		}
	}
}

// integrate moves the predicted crates one step with their own damping, as
// the host does before the contacts.
func (cs *crateSet) integrate(dt float32) {
	for i := range cs.crates {
		c := &cs.crates[i]
		if !c.predicted {
			continue
		}
		b := &c.sim
		b.X += b.VX * dt
		b.Y += b.VY * dt
		b.Angle = tanks.Normalize(b.Angle + b.AngVel*dt)
		ld := 1 / (1 + dt*c.linDamp)
		b.VX *= ld
		b.VY *= ld
		b.AngVel *= 1 / (1 + dt*c.angDamp)
	}
}

// appendPredicted appends the predicted crates to bodies (after the tank).
func (cs *crateSet) appendPredicted(bodies []*tanks.Body) []*tanks.Body {
	for i := range cs.crates {
		if cs.crates[i].predicted {
			bodies = append(bodies, &cs.crates[i].sim)
		}
	}
	return bodies
}

// touched refreshes the contact time of predicted crates in a contact.
func (cs *crateSet) touched(now float64) {
	for i := range cs.crates {
		c := &cs.crates[i]
		if c.predicted && c.sim.Touched {
			c.lastContact = now
		}
	}
}

// settle decays the errors and demotes crates that have been idle for the
// hold time and are back at their drawn pose; stepping false demotes all.
func (cs *crateSet) settle(now float64, factor float32, stepping bool) {
	for i := range cs.crates {
		c := &cs.crates[i]
		if !c.predicted {
			continue
		}
		c.err.X *= factor
		c.err.Y *= factor
		c.err.Angle *= factor
		converged := c.hasFollow && math.Hypot(float64(c.sim.X-c.follow.x), float64(c.sim.Y-c.follow.y)) < returnDistance &&
			abs(predict.NormalizeAngle(c.sim.Angle-c.follow.angle)) < returnAngle
		if !stepping || (now-c.lastContact > holdMs && converged) {
			c.predicted, c.err = false, predict.VisualError{}
			if c.hasFollow {
				c.set(c.follow)
			}
			c.sim.VX, c.sim.VY, c.sim.AngVel = 0, 0, 0
			cs.n--
		}
	}
}

// rows appends a record per predicted crate (corner origin of the drawn
// pose, velocities zero).
func (cs *crateSet) rows(tail []clientcore.Record) []clientcore.Record {
	if cs.key == nil {
		return tail
	}
	for i := range cs.crates {
		c := &cs.crates[i]
		if !c.predicted {
			continue
		}
		b := &c.sim
		x, y, a := b.X+c.err.X, b.Y+c.err.Y, b.Angle+c.err.Angle
		s64, c64 := math.Sincos(float64(a))
		s, co := float32(s64), float32(c64)
		c.vals = [6]float32{x - (co*b.HalfW - s*b.HalfH), y - (s*b.HalfW + co*b.HalfH), a}
		n := min(len(cs.key.Fields), len(c.vals))
		tail = append(tail, clientcore.Record{Schema: cs.key, ID: uint32(i), Fields: c.vals[:n]})
	}
	return tail
}

// rayBox is the crate's box for the shot ray: the simulation when
// predicted, else the last authoritative pose.
func (c *crate) rayBox() tanks.Body {
	b := c.sim
	if !c.predicted && c.hasAuth {
		b.X, b.Y, b.Angle = c.auth.x, c.auth.y, c.auth.angle
	}
	return b
}

func hypot32(x, y float32) float32 { return float32(math.Sqrt(float64(x*x + y*y))) }
