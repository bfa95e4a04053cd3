package tankclient

import (
	"math"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/games/tanks"
	"vimpclient/internal/angle"
	"vimpclient/predict"
)

// Predicted bodies constants: the crates the own tank pushes.
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
	lv          tanks.LevelState
	rest        tanks.LevelState // at its map position
	linDamp     float32
	angDamp     float32
	auth        pose // last authoritative state
	authLv      tanks.LevelState
	hasAuth     bool
	follow      pose // interpolated (drawn) pose
	followLv    tanks.LevelState
	hasFollow   bool
	predicted   bool
	err         predict.VisualError
	old         pose // before a reconciliation
	lastContact float64
	vals        []float32 // the overlay record: the drawn row, pose replaced
	// debris: the host's row says the prop is destroyed (tanks.Debris):
	// it is never predicted, pushed or hit, as on the host.
	debris bool
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

// crateSet is the map dynamics the own tank can push.
type crateSet struct {
	key    *clientcore.KeySchema // nil: the map set key is unknown or unreadable
	f      tanks.CrateRow
	crates []crate
	n      int // predicted now
	bodies []*tanks.Body
	// levels is the map's levels while the game predicts them (nil: every
	// crate on the ground, as a flat reader sees it); rules their rules.
	levels *gamemap.MapLevels
	rules  *tanks.LevelRules
	// surfaces push the predicted crates as the host's (nil: none).
	surfaces *tanks.SurfaceMap
}

// setLevels switches the crates between the layered world (levels non-nil)
// and the flat one, where every crate is on the ground.
func (cs *crateSet) setLevels(levels *gamemap.MapLevels, rules *tanks.LevelRules) {
	cs.levels, cs.rules = levels, rules
	for i := range cs.crates {
		c := &cs.crates[i]
		c.lv, c.authLv, c.followLv = tanks.LevelState{}, tanks.LevelState{}, tanks.LevelState{}
		if levels != nil {
			c.lv, c.authLv, c.followLv = c.rest, c.rest, c.rest
		}
	}
}

// levelOf is the level state a row says a crate at centre (x, y) is in: on
// a layered row its level and height, else where the map put it.
func (cs *crateSet) levelOf(c *crate, v []float32, x, y float32) tanks.LevelState {
	if cs.levels == nil {
		return tanks.LevelState{}
	}
	if !cs.f.Layered() {
		return c.rest
	}
	return cs.rules.Restore(cs.levels, x, y, int(cs.f.Level.Get(v)), cs.f.Z.Get(v)*cs.levels.LevelHeight(), tanks.Step, false)
}

// onLevel reports whether a shot at level meets the crate (as the shot
// ray sees it: predicted, or at its last authoritative pose).
func (c *crate) onLevel(level int) bool {
	lv := c.lv
	if !c.predicted && c.hasAuth {
		lv = c.authLv
	}
	return lv.Reach().OnLevel(level)
}

// stepLevels moves the predicted crates' levels on after a step's contacts,
// as the host does for every map body.
func (cs *crateSet) stepLevels(dt float32) {
	if cs.n == 0 || cs.levels == nil {
		return
	}
	for i := range cs.crates {
		c := &cs.crates[i]
		if c.predicted {
			b := &c.sim
			cs.rules.Step(&c.lv, cs.levels, b.X, b.Y, b.Angle, b.HalfW, b.HalfH, dt, false)
		}
	}
}

// load takes the map's crates; key is the map set key their rows use (nil
// when there is none, or its rows lack the crate fields).
func (cs *crateSet) load(geom *tanks.Geometry, key *clientcore.KeySchema) {
	cs.key, cs.f = nil, tanks.CrateRow{}
	w := 0
	if key != nil {
		b := clientcore.NewBinder(key)
		if f := tanks.BindCrateRow(b.Positions()); b.Err() == nil {
			cs.key, cs.f, w = key, f, len(key.Fields)
		}
	}
	cs.crates = cs.crates[:0]
	vals := make([]float32, w*len(geom.Crates))
	for i, c := range geom.Crates {
		rest := c.Rest()
		if !geom.Levels.Layered() {
			rest = tanks.LevelState{}
		}
		cs.crates = append(cs.crates, crate{sim: c.Body, rest: rest, lv: rest, linDamp: c.LinearDamping, angDamp: c.AngularDamping,
			vals: vals[i*w : (i+1)*w : (i+1)*w]})
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
		if r.Schema != cs.key || int(r.ID) >= len(cs.crates) {
			continue
		}
		c, f := &cs.crates[r.ID], &cs.f
		a := f.Angle.Get(r.Fields)
		x, y := centre(&c.sim, f.X.Get(r.Fields), f.Y.Get(r.Fields), a)
		if !sanePose(pose{x: x, y: y, angle: a}) {
			continue
		}
		copy(c.vals, r.Fields)
		cs.markDebris(c, r.Fields)
		c.follow, c.hasFollow = pose{x: x, y: y, angle: a}, true
		c.followLv = cs.levelOf(c, r.Fields, x, y)
		if !c.predicted {
			c.set(c.follow)
			c.lv = c.followLv
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
		c, f, v := &cs.crates[r.ID], &cs.f, r.Fields
		a := f.Angle.Get(v)
		x, y := centre(&c.sim, f.X.Get(v), f.Y.Get(v), a)
		auth := pose{x, y, a, f.VX.Get(v), f.VY.Get(v), f.AngVel.Get(v)}
		if !sanePose(auth) {
			continue
		}
		c.auth, c.hasAuth = auth, true
		c.authLv = cs.levelOf(c, v, x, y)
		cs.markDebris(c, v)
		if c.predicted {
			c.old = c.pose()
			c.set(c.auth)
			c.lv = c.authLv
		} else if !c.hasFollow {
			c.set(c.auth)
			c.lv = c.authLv
		}
	}
}

// markDebris takes a row's state byte: a destroyed prop stays debris
// until the map reloads, and a predicted one stops being predicted.
func (cs *crateSet) markDebris(c *crate, v []float32) {
	if c.debris || !cs.f.State.Bound() || !tanks.Debris(cs.f.State.Get(v)) {
		return
	}
	c.debris = true
	if c.predicted {
		c.predicted, c.err = false, predict.VisualError{}
		cs.n--
	}
}

// finish folds the predicted bodies' correction into their visual error.
func (cs *crateSet) finish() {
	for i := range cs.crates {
		c := &cs.crates[i]
		if !c.predicted {
			continue
		}
		foldCorrection(&c.err, &c.old, c.pose())
	}
}

// foldCorrection adds a reconciliation's jump, from the pose before it (old)
// to the one after (now), to a predicted body's visual error, so that the
// drawn body moves smoothly; a jump too far to hide snaps. old becomes now.
func foldCorrection(err *predict.VisualError, old *pose, now pose) {
	err.X += old.x - now.x
	err.Y += old.y - now.y
	err.Angle += angle.Normalize(old.angle - now.angle)
	*old = now
	if math.Hypot(float64(err.X), float64(err.Y)) > bodySnap {
		*err = predict.VisualError{}
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
		c.lv = c.authLv
	} else {
		c.set(pose{x: drawn.x, y: drawn.y, angle: drawn.angle})
		if c.hasFollow {
			c.lv = c.followLv
		}
	}
	c.err = predict.VisualError{X: drawn.x - c.sim.X, Y: drawn.y - c.sim.Y, Angle: angle.Normalize(drawn.angle - c.sim.Angle)}
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
		if !c.predicted && !c.debris && tank.Reach.Meets(c.lv.Reach()) && overlaps(tank, &c.sim, captureMargin) {
			cs.promote(c, now)
		}
	}
	for grown := true; grown && cs.n > 0 && cs.n < maxPredictedCrates; {
		grown = false
		for i := range cs.crates {
			c := &cs.crates[i]
			if c.predicted || c.debris {
				continue
			}
			for j := range cs.crates {
				p := &cs.crates[j]
				if p.predicted && p.lv.Reach().Meets(c.lv.Reach()) && overlaps(&p.sim, &c.sim, captureMargin) {
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
		cs.surfaces.PushBody(&c.sim, &c.lv, c.linDamp, dt)
		c.sim.Integrate(dt, c.linDamp, c.angDamp)
	}
}

// appendPredicted appends the predicted crates to bodies (after the tank).
func (cs *crateSet) appendPredicted(bodies []*tanks.Body) []*tanks.Body {
	for i := range cs.crates {
		if c := &cs.crates[i]; c.predicted {
			c.sim.Reach = c.lv.Reach()
			bodies = append(bodies, &c.sim)
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
			abs(angle.Normalize(c.sim.Angle-c.follow.angle)) < returnAngle
		if !stepping || (now-c.lastContact > holdMs && converged) {
			c.predicted, c.err = false, predict.VisualError{}
			if c.hasFollow {
				c.set(c.follow)
				c.lv = c.followLv
			}
			c.sim.VX, c.sim.VY, c.sim.AngVel = 0, 0, 0
			cs.n--
		}
	}
}

// rows appends a record per predicted crate: the last drawn row with the
// corner origin of the predicted pose and the velocities zero.
func (cs *crateSet) rows(tail []clientcore.Record) []clientcore.Record {
	if cs.key == nil {
		return tail
	}
	for i := range cs.crates {
		c := &cs.crates[i]
		if !c.predicted {
			continue
		}
		drawn := c.sim
		drawn.X, drawn.Y, drawn.Angle = drawn.X+c.err.X, drawn.Y+c.err.Y, drawn.Angle+c.err.Angle
		ox, oy := drawn.Corner()
		f, v := &cs.f, c.vals
		f.X.Set(v, ox)
		f.Y.Set(v, oy)
		f.Angle.Set(v, drawn.Angle)
		f.VX.Set(v, 0)
		f.VY.Set(v, 0)
		f.AngVel.Set(v, 0)
		if cs.levels != nil {
			f.Z.Set(v, c.lv.Z)
			f.Level.Set(v, float32(c.lv.Level))
		}
		tail = append(tail, clientcore.Record{Schema: cs.key, ID: uint32(i), Fields: v})
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
