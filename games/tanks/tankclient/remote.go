package tankclient

import (
	"math"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/games/tanks"
	"vimpclient/internal/angle"
	"vimpclient/predict"
)

// Remote tanks in contact with the own tank: simulated without damping (the other player's input is unknown,
// constant velocity over 100 ms is the better guess) while the own tank
// touches them.
const (
	maxPredictedTanks = 6
	leadSeconds       = 0.2 // capture tests the box advanced by 0.2 s of velocity
)

type remoteTank struct {
	sim         tanks.Body
	auth        pose
	authReach   tanks.Reach
	hasAuth     bool
	follow      pose
	followReach tanks.Reach
	row         []float32 // latest interpolated row, full width
	seen        bool      // in the last sampled model block
	predicted   bool
	err         predict.VisualError
	old         pose
	lastContact float64
	vals        []float32 // the overlay record
}

func (r *remoteTank) set(p pose) {
	b := &r.sim
	b.X, b.Y, b.Angle, b.VX, b.VY, b.AngVel = p.x, p.y, p.angle, p.vx, p.vy, p.w
}

func (r *remoteTank) pose() pose {
	b := &r.sim
	return pose{b.X, b.Y, b.Angle, b.VX, b.VY, b.AngVel}
}

// remoteSet is the other tanks the own tank can push and be pushed by.
type remoteSet struct {
	key     *clientcore.KeySchema
	f       tanks.TankRow
	model   tanks.Model
	tanks   [256]remoteTank
	n       int
	storage []float32
	// levels is the map's levels while the game predicts them (nil: every
	// tank on the ground); rules their rules.
	levels *gamemap.MapLevels
	rules  *tanks.LevelRules
}

// reachOf is what a tank whose row v puts its centre at (x, y) meets: the
// level state its row's level and height say (the ground without levels).
func (rs *remoteSet) reachOf(v []float32, x, y float32) tanks.Reach {
	if rs.levels == nil {
		return tanks.Reach{}
	}
	lv := rs.rules.Restore(rs.levels, x, y, int(rs.f.Level.Get(v)), rs.f.Z.Get(v)*rs.levels.LevelHeight(), tanks.Step, true)
	return lv.Reach()
}

func (rs *remoteSet) init(key *clientcore.KeySchema, f tanks.TankRow, m tanks.Model) {
	rs.key, rs.f, rs.model, rs.n = key, f, m, 0
	w := len(key.Fields)
	rs.storage = make([]float32, 2*256*w)
	for i := range rs.tanks {
		row, vals := rs.storage[2*i*w:][:w:w], rs.storage[(2*i+1)*w:][:w:w]
		rs.tanks[i] = remoteTank{row: row, vals: vals}
	}
}

func (rs *remoteSet) body(r *remoteTank, size float32) {
	m := rs.model
	m.Size = size
	hw, hh := m.HalfSize()
	if hw != r.sim.HalfW || hh != r.sim.HalfH {
		r.sim.HalfW, r.sim.HalfH = hw, hh
		r.sim.Friction, r.sim.Restitution = m.Friction, m.Restitution
		if hw > 0 && hh > 0 {
			r.sim.SetMass(m.Density)
		}
	}
}

// observe takes the drawn rows of the other tanks from the hot data; a tank
// missing from a sampled model block is dropped.
func (rs *remoteSet) observe(h *clientcore.Hot, myID uint8, hasID bool) {
	if rs.key == nil || h == nil || h.Flags&clientcore.HotGame == 0 {
		return
	}
	var seen [256]bool
	for i := range h.Actors {
		rec := &h.Actors[i]
		if rec.Schema != rs.key || rec.ID > 255 || (hasID && rec.ID == uint32(myID)) {
			continue
		}
		r, f := &rs.tanks[rec.ID], &rs.f
		drawn := pose{x: f.X.Get(rec.Fields), y: f.Y.Get(rec.Fields), angle: f.Angle.Get(rec.Fields)}
		size := f.Size.Get(rec.Fields)
		if !sanePose(drawn) || !finite32(size, 255) {
			continue
		}
		seen[rec.ID] = true
		n := copy(r.row, rec.Fields)
		clear(r.row[n:])
		rs.body(r, size)
		r.follow = drawn
		r.followReach = rs.reachOf(rec.Fields, drawn.x, drawn.y)
		if !r.predicted {
			r.set(r.follow)
			r.sim.Reach = r.followReach
		}
	}
	for i := range rs.tanks {
		r := &rs.tanks[i]
		r.seen = seen[i]
		if !r.seen && r.predicted {
			rs.demote(r)
		}
	}
}

// begin stores a frame's authoritative states and rewinds the predicted
// tanks to them.
func (rs *remoteSet) begin(b *clientcore.Block, myID uint8) {
	for j := range b.Rows {
		row := &b.Rows[j]
		if row.ID > 255 || row.ID == uint32(myID) || row.Null {
			continue
		}
		r, f, v := &rs.tanks[row.ID], &rs.f, row.Fields
		auth := pose{f.X.Get(v), f.Y.Get(v), f.Angle.Get(v), f.VX.Get(v), f.VY.Get(v), f.AngVel.Get(v)}
		if !sanePose(auth) {
			continue
		}
		r.auth, r.hasAuth = auth, true
		r.authReach = rs.reachOf(v, auth.x, auth.y)
		if r.predicted {
			r.old = r.pose()
			r.set(r.auth)
			r.sim.Reach = r.authReach
		}
	}
}

func (rs *remoteSet) finish() {
	if rs.n == 0 {
		return
	}
	for i := range rs.tanks {
		r := &rs.tanks[i]
		if !r.predicted {
			continue
		}
		foldCorrection(&r.err, &r.old, r.pose())
	}
}

func (rs *remoteSet) capture(own *tanks.Body, now float64) {
	for i := range rs.tanks {
		if rs.n >= maxPredictedTanks {
			return
		}
		r := &rs.tanks[i]
		if r.predicted || !r.seen || r.sim.HalfW <= 0 {
			continue
		}
		probe := r.sim
		if r.hasAuth {
			probe.X = r.auth.x + r.auth.vx*leadSeconds
			probe.Y = r.auth.y + r.auth.vy*leadSeconds
			probe.Angle = r.auth.angle
			probe.Reach = r.authReach
		}
		if !own.Reach.Meets(probe.Reach) || !overlaps(own, &probe, captureMargin) {
			continue
		}
		drawn := r.follow
		if r.hasAuth {
			r.set(r.auth)
			r.sim.Reach = r.authReach
		} else {
			r.set(pose{x: drawn.x, y: drawn.y, angle: drawn.angle})
			r.sim.Reach = r.followReach
		}
		r.err = predict.VisualError{X: drawn.x - r.sim.X, Y: drawn.y - r.sim.Y, Angle: angle.Normalize(drawn.angle - r.sim.Angle)}
		if math.Hypot(float64(r.err.X), float64(r.err.Y)) > bodySnap {
			r.err = predict.VisualError{}
		}
		r.predicted, r.lastContact = true, now
		rs.n++
	}
}

// integrate moves the predicted tanks one step at constant velocity.
func (rs *remoteSet) integrate(dt float32) {
	if rs.n == 0 {
		return
	}
	for i := range rs.tanks {
		r := &rs.tanks[i]
		if !r.predicted {
			continue
		}
		r.sim.Integrate(dt, 0, 0) // no damping: constant velocity
	}
}

func (rs *remoteSet) appendPredicted(bodies []*tanks.Body) []*tanks.Body {
	if rs.n == 0 {
		return bodies
	}
	for i := range rs.tanks {
		if rs.tanks[i].predicted {
			bodies = append(bodies, &rs.tanks[i].sim)
		}
	}
	return bodies
}

func (rs *remoteSet) touched(now float64) {
	if rs.n == 0 {
		return
	}
	for i := range rs.tanks {
		if r := &rs.tanks[i]; r.predicted && r.sim.Touched {
			r.lastContact = now
		}
	}
}

func (rs *remoteSet) demote(r *remoteTank) {
	r.predicted, r.err = false, predict.VisualError{}
	r.set(r.follow)
	r.sim.Reach = r.followReach
	r.sim.VX, r.sim.VY, r.sim.AngVel = 0, 0, 0
	rs.n--
}

func (rs *remoteSet) settle(now float64, factor float32, stepping bool) {
	if rs.n == 0 {
		return
	}
	for i := range rs.tanks {
		r := &rs.tanks[i]
		if !r.predicted {
			continue
		}
		r.err.X *= factor
		r.err.Y *= factor
		r.err.Angle *= factor
		converged := math.Hypot(float64(r.sim.X-r.follow.x), float64(r.sim.Y-r.follow.y)) < returnDistance &&
			abs(angle.Normalize(r.sim.Angle-r.follow.angle)) < returnAngle
		if !stepping || (now-r.lastContact > holdMs && converged) {
			rs.demote(r)
		}
	}
}

func (rs *remoteSet) reset() {
	for i := range rs.tanks {
		r := &rs.tanks[i]
		r.predicted, r.err, r.seen, r.hasAuth = false, predict.VisualError{}, false, false
	}
	rs.n = 0
}

// rows appends the full model row of each predicted tank: pose from the
// simulation plus its error, velocities from the simulation, the rest from
// the latest interpolated row.
func (rs *remoteSet) rows(tail []clientcore.Record) []clientcore.Record {
	if rs.key == nil || rs.n == 0 {
		return tail
	}
	for i := range rs.tanks {
		r := &rs.tanks[i]
		if !r.predicted {
			continue
		}
		b, f, v := &r.sim, &rs.f, r.vals
		copy(v, r.row)
		f.X.Set(v, b.X+r.err.X)
		f.Y.Set(v, b.Y+r.err.Y)
		f.Angle.Set(v, b.Angle+r.err.Angle)
		f.VX.Set(v, b.VX)
		f.VY.Set(v, b.VY)
		f.AngVel.Set(v, b.AngVel)
		tail = append(tail, clientcore.Record{Schema: rs.key, ID: uint32(i), Fields: r.vals})
	}
	return tail
}
