package tankclient

import (
	"math"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
)

// muzzleRatio places the muzzle at 0.55 of the hull width from the centre.
const muzzleRatio = 0.55

// cycle switches the local weapon at once on a next/previous key, while
// the own tank is alive and predicted.
func (g *Game) cycle(dir int) {
	if !g.pred.HasState() || !g.me.hasRow || g.me.cond == 0 {
		return
	}
	g.shots.cycle(dir)
}

// tryFire runs the fire gate and spawns the local shot: a bomb at the drawn
// tank, or a tracer whose ray flies at the own tank's level and stops at the
// first wall, crate or tank it meets there.
func (g *Game) tryFire(now float64) {
	if !g.pred.HasState() || !g.me.hasRow || g.me.cond == 0 || !g.me.hasID || g.model == nil {
		return
	}
	w, ok := g.shots.gate(now)
	if !ok {
		return
	}
	x, y, a := g.renderPose()
	wp := &g.shots.weapons[w]
	if wp.Explosive {
		local, ok := g.shots.plantBomb(w, now)
		if !ok {
			return
		}
		k := g.shots.keys[w]
		if k == nil {
			return
		}
		f := &g.shots.rows[w].bomb
		row := make([]float32, len(k.Fields))
		f.X.Set(row, x)
		f.Y.Set(row, y)
		f.Size.Set(row, wp.Size)
		f.Time.Set(row, wp.TimeMs)
		f.Author.Set(row, float32(g.me.id))
		g.spawn(k, clientcore.Row{Local: local, Fields: row})
		return
	}
	total := float64(a + g.st.Gun)
	s64, c64 := math.Sincos(total)
	dx, dy := float32(c64), float32(s64)
	muzzle := g.me.size * 4 * muzzleRatio
	mx, my := x+muzzle*dx, y+muzzle*dy
	dist := wp.Range
	level := g.lv.Level
	line, high := g.motion.ShotLine(&g.lv, g.levels, dx, dy, muzzle)
	switch {
	case g.terrain != nil && high:
		dist = min(dist, g.terrain.ShotRay(level, line, g.loaded.wallHeights, mx, my, dx, dy, wp.Range))
	case g.terrain != nil:
		dist = min(dist, g.terrain.Ray(level, mx, my, dx, dy, wp.Range))
	}
	if high {
		if d, _, ok := tanks.EmbankmentHit(g.levels, mx, my, dx, dy, 0, dist, tanks.ShotFloor(&g.lv), line); ok {
			dist = d
		}
	}
	for i := range g.crates.crates {
		if !g.crates.crates[i].onLevel(level) || g.crates.crates[i].debris {
			continue // shots pass a prop's debris
		}
		box := g.crates.crates[i].rayBox()
		if d, hit := tanks.RayBox(&box, mx, my, dx, dy, dist); hit {
			dist = min(dist, d)
		}
	}
	for id := range g.others {
		o := &g.others[id]
		if !o.present || (g.me.hasID && id == int(g.me.id)) || !o.reach.OnLevel(level) {
			continue
		}
		b := tanks.Body{X: o.x, Y: o.y, Angle: o.angle, HalfW: o.size * 2, HalfH: o.size * 1.5}
		if d, hit := tanks.RayBox(&b, mx, my, dx, dy, dist); hit &&
			(!high || tanks.TankReaches(o.z, g.motion.TurretTop, g.levels.LevelHeight(), line.At(d))) {
			dist = min(dist, d)
		}
	}
	var hit float32
	if dist < wp.Range {
		hit = 1
	}
	ex, ey := mx+dx*dist, my+dy*dist
	g.shots.addTracer(w, now)
	k := g.shots.keys[w]
	if k == nil {
		return
	}
	f := &g.shots.rows[w].tracer
	row := make([]float32, len(k.Fields))
	f.StartX.Set(row, mx)
	f.StartY.Set(row, my)
	f.EndX.Set(row, ex)
	f.EndY.Set(row, ey)
	f.BodyX.Set(row, x)
	f.BodyY.Set(row, y)
	f.Hit.Set(row, hit)
	f.Author.Set(row, float32(g.me.id))
	g.spawn(k, clientcore.Row{Fields: row})
}

func (g *Game) spawn(k *clientcore.KeySchema, r clientcore.Row) {
	g.spawns = append(g.spawns, clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: k, Rows: []clientcore.Row{r}}}})
}
