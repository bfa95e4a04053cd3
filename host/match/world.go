package match

import (
	"math"

	"vimpclient/gamemap"
	"vimpclient/games/tanks"
	"vimpclient/host/packer"
	"vimpclient/internal/angle"
	"vimpclient/protocol"
)

// Weapons: their figures are the config's (rules.go).
const (
	weaponW1 = 0
	weaponW2 = 1
	startW1  = 200
	startW2  = 100
)

// weaponKey is the panel and snapshot key of weapon index i.
func weaponKey(i int) string {
	if i == weaponW2 {
		return "w2"
	}
	return "w1"
}

type tankObj struct {
	st       tanks.Tank
	lv       tanks.LevelState
	body     tanks.Body
	health   int
	keys     uint32
	oneShot  uint32
	weapon   int
	ammo     [2]int
	nextFire [2]int64
	bomb     bool // a planted bomb has not gone off yet
	// pitch and roll are how the hull leans (radians), for the rows.
	pitch, roll float32
}

func (t *tankObj) alive() bool { return t.health > 0 }

func (t *tankObj) condition() uint32 {
	switch {
	case t.health <= 0:
		return 0
	case t.health < 35:
		return 1
	case t.health < 70:
		return 2
	}
	return 3
}

type crateObj struct {
	body    tanks.Body
	lv      tanks.LevelState
	linDamp float32
	angDamp float32
}

// CrateBodies appends the simulated state of the map bodies, in MAP_DATA
// order, to dst: what each step integrates and packs into the map set's
// rows. It is for diagnostics and for holding a predictor to the host bit
// for bit; call it on the goroutine that steps the match.
func (m *Match) CrateBodies(dst []tanks.Body) []tanks.Body {
	for i := range m.crates {
		dst = append(dst, m.crates[i].body)
	}
	return dst
}

type bomb struct {
	id       uint32
	owner    uint8
	x, y     float32
	level    int // the level it lies on: only bodies there feel it
	explodes int64
}

// CrateLevels appends the level states of the map bodies, in MAP_DATA
// order, to dst (as CrateBodies, for holding a predictor to the host).
func (m *Match) CrateLevels(dst []tanks.LevelState) []tanks.LevelState {
	for i := range m.crates {
		dst = append(dst, m.crates[i].lv)
	}
	return dst
}

// spawnTank puts p's new tank on spawn point s of the current map, on the
// level the point names or stands over.
func (m *Match) spawnTank(p *player, s gamemap.Spawn) {
	d := m.current.Data
	scale := float32(d.Scale)
	x, y, angleDeg := float32(s.X)*scale, float32(s.Y)*scale, float32(s.AngleDeg)
	t := &tankObj{health: maxHealth, ammo: [2]int{startW1, startW2}}
	t.st = tanks.Tank{X: x, Y: y, Angle: angle.Normalize(angleDeg * math.Pi / 180)}
	if d.Layered() {
		lv := min(max(d.SpawnLevel(s), 0), d.MapLevels().LevelCount()-1)
		t.lv = tanks.LevelState{Level: lv, Z: float32(lv)}
	}
	t.body = tanks.NewTankBody(&m.rules.model)
	p.tank = t
	p.dead = false
}

func (m *Match) resetCrates() {
	m.crates = m.crates[:0]
	// Every round the props stand whole again, as the crates return.
	m.terrain.props = tanks.NewProps(m.current.Data, m.rules.props)
	for _, c := range m.current.geom.Crates {
		m.crates = append(m.crates, crateObj{body: c.Body, lv: c.Rest(), linDamp: c.LinearDamping, angDamp: c.AngularDamping})
	}
}

func sincos(a float32) (float32, float32) {
	s, c := math.Sincos(float64(a))
	return float32(s), float32(c)
}

// step advances the world one fixed step: every tank's motion (on the
// level it stood on at the start of the step), the crates' integration, the
// contacts, then every body's level from where the contacts left it.
func (m *Match) step() {
	dt := tanks.Step
	geom := m.current.geom
	surf := m.currentSurfaces()
	m.bodies = m.bodies[:0]
	for _, p := range m.Players {
		if p == nil || p.tank == nil {
			continue
		}
		t := p.tank
		keys := t.keys | t.oneShot
		t.oneShot = 0
		if !t.alive() {
			keys = 0
		} else {
			m.weaponInput(p, keys)
		}
		m.rules.model.MoveOnGround(&t.st, keys, dt, &t.lv, &m.rules.levels, surf)
		t.st.ToBody(&t.body)
		t.body.Reach = t.lv.Reach()
		m.bodies = append(m.bodies, &t.body)
	}
	for i := range m.crates {
		c := &m.crates[i]
		if m.terrain.props.Destroyed(i) {
			continue // debris: no physics
		}
		surf.PushBody(&c.body, &c.lv, c.linDamp, dt)
		c.body.Integrate(dt, c.linDamp, c.angDamp)
		c.body.Reach = c.lv.Reach()
		m.bodies = append(m.bodies, &c.body)
	}
	m.solver.Resolve(m.bodies, geom.Terrain)
	hw, hh := m.rules.model.HalfSize()
	for _, p := range m.Players {
		if p == nil || p.tank == nil {
			continue
		}
		t := p.tank
		t.st.FromBody(&t.body)
		landing := m.rules.levels.StepMoving(&t.lv, geom.Levels, t.st.X, t.st.Y, t.st.VX, t.st.VY, t.st.Angle, hw, hh, dt, true)
		if m.rules.tilt != nil {
			// The hull leans with the slope under it and its flight.
			s, c := sincos(t.st.Angle)
			pitch, roll := m.rules.tilt.Target(&t.lv, c, s)
			t.pitch, t.roll = m.rules.tilt.Approach(t.pitch, pitch, dt), m.rules.tilt.Approach(t.roll, roll, dt)
		}
		// A hard landing hurts; one that kills is the tank's own doing.
		if d := m.rules.levels.Air.LandingDamage(landing); d > 0 && t.alive() {
			m.damage(p, p, int(math.Round(float64(d))), "")
		}
	}
	for i := range m.crates {
		c := &m.crates[i]
		b := &c.body
		if m.terrain.props.Destroyed(i) {
			continue
		}
		m.rules.levels.Step(&c.lv, geom.Levels, b.X, b.Y, b.Angle, b.HalfW, b.HalfH, dt, false)
	}
	for i := 0; i < len(m.bombs); {
		if m.bombs[i].explodes <= m.tick {
			m.detonate(m.bombs[i])
			m.bombs[i] = m.bombs[len(m.bombs)-1]
			m.bombs = m.bombs[:len(m.bombs)-1]
			continue
		}
		i++
	}
}

// currentSurfaces is the current map's SurfaceMap under the config's
// surface rules, built once per map (nil: no surfaces), with its wall
// heights. A map whose surfaces or heights do not read is played without
// them, and said once.
func (m *Match) currentSurfaces() *tanks.SurfaceMap {
	if m.terrain.of != m.current {
		m.terrain.of = m.current
		sm, err := tanks.NewSurfaceMap(m.current.Data, m.rules.surfaces)
		if err != nil {
			m.log.Warn("map surfaces ignored", "map", m.current.Name, "err", err)
		}
		m.terrain.surfaces = sm
		wh, err := tanks.NewWallHeights(m.current.Data)
		if err != nil {
			m.log.Warn("map wall heights ignored", "map", m.current.Name, "err", err)
		}
		m.terrain.wallHeights = wh
	}
	return m.terrain.surfaces
}

func (m *Match) weaponInput(p *player, keys uint32) {
	t := p.tank
	if keys&tanks.KeyNextWeapon != 0 || keys&tanks.KeyPrevWeapon != 0 {
		t.weapon = 1 - t.weapon // two weapons: next and previous coincide
		if p.human != nil {
			p.human.panel.wa = weaponKey(t.weapon)
		}
	}
	if keys&tanks.KeyFire == 0 || m.tick < t.nextFire[t.weapon] || t.ammo[t.weapon] < 1 {
		return
	}
	if t.weapon == weaponW1 {
		t.ammo[0]--
		t.nextFire[0] = m.tick + m.rules.wp.w1FireTicks
		m.fireHitscan(p)
	} else {
		if t.bomb {
			return
		}
		t.ammo[1]--
		t.nextFire[1] = m.tick + m.rules.wp.w2FireTicks
		t.bomb = true
		m.nextBombID++
		b := bomb{id: m.nextBombID, owner: p.gid, x: t.st.X, y: t.st.Y, level: bombLevel(&t.lv, m.current.geom, t.st.X, t.st.Y),
			explodes: m.tick + m.rules.wp.w2FuseTicks}
		m.bombs = append(m.bombs, b)
		m.events.planted = append(m.events.planted, b)
	}
	if p.human != nil {
		p.human.panel.w1, p.human.panel.w2 = t.ammo[0], t.ammo[1]
	}
}

// bombLevel is the level a bomb planted by a tank in level state lv at
// (x, y) lies on: the tank's, or the floor below when it falls or hangs over
// an edge.
func bombLevel(lv *tanks.LevelState, g *tanks.Geometry, x, y float32) int {
	if lv.Level >= 1 && (lv.Stance == tanks.Falling || !g.Levels.HasFloor(lv.Level, x, y)) {
		return g.Levels.LandingLevel(lv.Level, x, y)
	}
	return lv.Level
}

// onLevel reports whether a body in level state lv can be hit on level.
func onLevel(lv *tanks.LevelState, level int) bool {
	return lv.Reach().OnLevel(level)
}

// fireHitscan fires p's gun: the shot flies at the tank's level, stopped by
// the walls there (Terrain.Ray), and hits the nearest tank or crate on
// that level.
func (m *Match) fireHitscan(p *player) {
	t := p.tank
	dirA := t.st.Angle + t.st.Gun
	dy, dx := sincos(dirA)
	mx, my := t.st.X+muzzleOffset(&m.rules.model)*dx, t.st.Y+muzzleOffset(&m.rules.model)*dy
	level := t.lv.Level
	geom := m.current.geom
	// A shot at the gun's height passes over walls lower than it, stops on
	// an embankment above it and passes over tanks below it (a model with
	// a barrel height).
	line, high := m.rules.model.ShotLine(&t.lv, geom.Levels, dx, dy, muzzleOffset(&m.rules.model))
	var dist float32
	if high {
		m.currentSurfaces()
		dist = geom.Terrain.ShotRay(level, line, m.terrain.wallHeights, mx, my, dx, dy, m.rules.wp.w1Range)
		if d, _, ok := tanks.EmbankmentHit(geom.Levels, mx, my, dx, dy, 0, dist, tanks.ShotFloor(&t.lv), line); ok {
			dist = d
		}
	} else {
		dist = geom.Terrain.Ray(level, mx, my, dx, dy, m.rules.wp.w1Range)
	}
	hit := dist < m.rules.wp.w1Range
	var victim *player
	var crate *crateObj
	crateIdx := -1
	for _, q := range m.Players {
		if q == nil || q == p || q.tank == nil || !onLevel(&q.tank.lv, level) {
			continue
		}
		if d, ok := tanks.RayBox(&q.tank.body, mx, my, dx, dy, dist); ok && d < dist &&
			(!high || tanks.TankReaches(q.tank.lv.Z, m.rules.model.TurretTop, geom.Levels.LevelHeight(), line.At(d))) {
			dist, hit, victim, crate = d, true, q, nil
		}
	}
	for i := range m.crates {
		if !onLevel(&m.crates[i].lv, level) || m.terrain.props.Destroyed(i) {
			continue // shots pass a prop's debris
		}
		if d, ok := tanks.RayBox(&m.crates[i].body, mx, my, dx, dy, dist); ok && d < dist {
			dist, hit, victim, crate, crateIdx = d, true, nil, &m.crates[i], i
		}
	}
	ex, ey := mx+dx*dist, my+dy*dist
	wasHit := uint32(0)
	if hit {
		wasHit = 1
	}
	m.events.shots = append(m.events.shots, tracer{
		startX: packer.Round2(mx), startY: packer.Round2(my), endX: packer.Round1(ex), endY: packer.Round1(ey),
		bodyX: packer.Round2(t.st.X), bodyY: packer.Round2(t.st.Y), hit: wasHit, shooter: uint32(p.gid),
		startLevel: uint32(max(level, 0)), endLevel: uint32(max(level, 0)), // the ray stays on its level
	})
	switch {
	case crate != nil:
		push(&crate.body, ex, ey, dx, dy, m.rules.wp.w1Push*crate.body.InvMass)
		m.terrain.props.Damage(crateIdx, m.rules.wp.w1Damage, false)
	case victim != nil:
		vt := victim.tank
		if vt.alive() {
			vt.st.VX += dx * m.rules.wp.w1Push * vt.body.InvMass
			vt.st.VY += dy * m.rules.wp.w1Push * vt.body.InvMass
			m.damage(victim, p, int(m.rules.wp.w1Damage), "20:200")
		}
	}
}

// push adds a velocity change dv along (dx,dy) applied at (px,py).
func push(b *tanks.Body, px, py, dx, dy, dv float32) {
	b.VX += dx * dv
	b.VY += dy * dv
	rx, ry := px-b.X, py-b.Y
	b.AngVel += (rx*dy - ry*dx) * dv * b.InvInertia / b.InvMass / 50
}

func (m *Match) detonate(b bomb) {
	m.events.detonated = append(m.events.detonated, b.id)
	m.events.explosions = append(m.events.explosions, explosion{x: packer.Round1(b.x), y: packer.Round1(b.y), radius: m.rules.wp.w2Radius, level: uint32(max(b.level, 0))})
	owner := m.Players[b.owner]
	if owner != nil && owner.tank != nil {
		owner.tank.bomb = false
	}
	for _, q := range m.Players {
		if q == nil || q.tank == nil || !q.tank.alive() || !onLevel(&q.tank.lv, b.level) {
			continue
		}
		dx, dy := q.tank.st.X-b.x, q.tank.st.Y-b.y
		d := float32(math.Hypot(float64(dx), float64(dy)))
		if d >= m.rules.wp.w2Radius {
			continue
		}
		f := 1 - d/m.rules.wp.w2Radius
		if d > 0.01 {
			q.tank.st.VX += dx / d * f * m.rules.wp.w2Push * q.tank.body.InvMass
			q.tank.st.VY += dy / d * f * m.rules.wp.w2Push * q.tank.body.InvMass
		}
		m.damage(q, owner, int(math.Ceil(float64(m.rules.wp.w2Damage*f))), "30:400")
	}
	for i := range m.crates {
		if !onLevel(&m.crates[i].lv, b.level) || m.terrain.props.Destroyed(i) {
			continue
		}
		c := &m.crates[i].body
		dx, dy := c.X-b.x, c.Y-b.y
		d := float32(math.Hypot(float64(dx), float64(dy)))
		if d < m.rules.wp.w2Radius && d > 0.01 {
			f := 1 - d/m.rules.wp.w2Radius
			c.VX += dx / d * f * m.rules.wp.w2Push * c.InvMass
			c.VY += dy / d * f * m.rules.wp.w2Push * c.InvMass
		}
		if d < m.rules.wp.w2Radius {
			m.terrain.props.Damage(i, m.rules.wp.w2Damage*(1-d/m.rules.wp.w2Radius), true)
		}
	}
}

// damage hurts victim; killer may be nil (its owner left).
func (m *Match) damage(victim, killer *player, amount int, shake string) {
	t := victim.tank
	t.health -= amount
	if victim.human != nil {
		if shake != "" {
			victim.human.shake = shake
		}
		victim.human.panel.h = max(t.health, 0)
	}
	if t.health > 0 {
		return
	}
	t.health = 0
	t.keys, t.oneShot = 0, 0
	victim.dead = true
	victim.deaths++
	m.statRow(victim)
	if killer != nil && killer != victim {
		if killer.team == victim.team {
			killer.score--
		} else {
			killer.score++
		}
		m.statRow(killer)
		if killer.human != nil {
			m.out.JSON(killer.human.UID, protocol.SoundData, "frag")
		}
		m.outbox.Chat("s:4:" + killer.name + "," + victim.name)
	}
	if h := victim.human; h != nil {
		m.sendEmptyPanel(victim)
		m.out.JSON(h.UID, protocol.KeysetData, 0)
		m.out.JSON(h.UID, protocol.SoundData, "gameOver")
		if killer != nil {
			h.Watch = killer.gid
		}
		h.forceReset = true
	}
	for _, q := range m.Players {
		if q != nil && q.human != nil && q.human.Watch == victim.gid && killer != nil && q != victim {
			q.human.Watch = killer.gid
			q.human.forceReset = true
		}
	}
	m.checkWipe()
}

// checkWipe ends the round when a playing team has members but none
// alive: the other team wins if it still has a live tank, else nobody
// (game over).
func (m *Match) checkWipe() {
	if m.round.restartAt != 0 {
		return
	}
	var members, alive [3]int
	for _, p := range m.Players {
		if p == nil || p.team == Spectators {
			continue
		}
		members[p.team]++
		if p.tank != nil && p.tank.alive() {
			alive[p.team]++
		}
	}
	for team := Team1; team <= Team2; team++ {
		if members[team] == 0 || alive[team] > 0 {
			continue
		}
		other := 3 - team
		winner := 0
		if alive[other] > 0 {
			winner = other
		}
		m.endRound(winner)
		return
	}
}

func (m *Match) endRound(winner int) {
	m.round.restartAt = m.tick + restartTicks
	if winner != 0 {
		m.round.won[winner]++
		m.round.lost[3-winner]++
		m.outbox.HeadsDue()
	}
	for _, p := range m.Players {
		if p == nil || p.human == nil || !p.human.InGame {
			continue
		}
		uid := p.human.UID
		if winner == 0 {
			m.out.JSON(uid, protocol.SoundData, "defeat")
			m.out.JSON(uid, protocol.GameInformData, []any{2})
			continue
		}
		if p.team == winner {
			m.out.JSON(uid, protocol.SoundData, "victory")
		} else {
			m.out.JSON(uid, protocol.SoundData, "defeat")
		}
		m.out.JSON(uid, protocol.GameInformData, []any{0, []string{teamKey(winner)}})
	}
}
