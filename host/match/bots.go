package match

import (
	"math"

	"vimpclient/games/tanks"
	"vimpclient/internal/angle"
)

// Bots play the way tanks 0.22's do, on the preset of Config.BotSkill: a
// bot knows of an enemy out of its sight only from a radar that updates
// now and then with an error; it fights a visible enemy within its combat
// range, keeps its preferred distance and weaves; it turns its turret only
// after a reaction delay, with an aim error that settles while it tracks,
// a tremor and a flinch after each shot, and fires in bursts; it retreats
// when hurt, outnumbered or out of ammunition, holds there, and goes back
// when the team pushes; the team focuses one enemy (teamboard.go), a
// wounded bot supports from behind, the boldest of three or more flanks,
// and a bot that ran ahead alone waits for the others. It decides ten
// times a second and drives, aims and fires every step, with the keys a
// player has.

// botMode is what a bot is doing.
type botMode uint8

const (
	modeRoam    botMode = iota // no enemy known: wander
	modeHunt                   // drive to the target
	modeEngage                 // fight a visible target
	modeRetreat                // fall back to the team or away from threats
	modeHold                   // hold the position fallen back to
	modeRegroup                // ran ahead alone: back to the team
)

// Bot rules that are not part of a preset (tanks 0.22's own constants).
const (
	botThinkTicks     = 12   // decisions at 10 Hz, as tanks 0.22 bots decide
	botViewRange      = 900  // no enemy is seen farther, even in the open
	botFeel           = 28   // the wall feelers' reach that makes a bot steer
	engageRangeFactor = 1.3  // combat range: preferredRange's far end × this
	retaliateSeconds  = 3.0  // an attacker this fresh is answered at any distance
	targetInterval    = 0.3  // between target choices
	targetHold        = 1.5  // a target is kept at least this long
	aimingAtAngle     = 0.15 // an enemy's gun this close to the bot aims at it
	modeMinSeconds    = 0.5  // a mode is kept at least this long (retreat excepted)
	lostSightSeconds  = 1.0  // engage → hunt when the target is unseen this long
	unclearSeconds    = 1.5  // engage → hunt when the line of fire is not clear this long
	reacquireSeconds  = 1.0  // a target seen again after this long is acquired anew
	bombRangeShare    = 0.8  // a bomb only for an enemy within this share of the blast
	bombEvadeSeconds  = 1.0  // drive away from the own bomb this long
	bombBrawler       = 0.8  // only bots bolder than this take their own blast
	weaveAngle        = math.Pi/2 - 0.5
	backOffAggression = 0.7 // bolder bots do not back off from a close enemy
	lateRetreatAggr   = 0.8 // bolder bots retreat later: at 0.6 × retreatHealth
	advantageRadius   = 350 // the strengths counted for the advantage
	advantageRadarAge = 2.0 // a radar contact counts in the advantage when this fresh
	threatNear        = 450 // a visible enemy this close is a threat
	retreatRepick     = 1.0 // a retreat point is chosen anew this often
	retreatArrive     = 40
	allyNear          = 250
	pushRadius        = 300 // allies hunting within this pull a holding bot along
	leadGap           = 350 // ahead of the team's centre by this much: regroup
	regroupRadius     = 180
	regroupSeconds    = 4.0
	retreatAimPenalty = 1.3 // firing back while retreating is worse
	// recoilStep is what is left of the aim's flinch after one step: it
	// decays with a time constant of 0.3 s, e^(-1/(120·0.3)).
	recoilStep         = 0.972604
	preAimedAngle      = 0.3 // the gun already this close to a new target: quicker reaction
	preAimedReaction   = 0.6
	lateralSpeedFull   = 150 // a target crossing this fast doubles half the aim error
	motionError        = 0.15
	trackingError      = 0.1
	turretDeadband     = 0.03
	hullRequestMargin  = 0.1
	panicWindow        = 0.4
	flankOffset        = 160 // how far to the side a flanker comes from
	damageMemorySecond = 4.0 // a retreat needs damage this fresh (or a threat near)
)

// botContact is what a bot knows of one enemy.
type botContact struct {
	gid       uint8
	x, y      float32
	visible   bool
	updatedAt float64
	seenAt    float64 // -1: never seen
}

// botAim is a bot's aim at its current target.
type botAim struct {
	target      uint8
	acquiredAt  float64
	reactUntil  float64
	error0      float32
	tremorPhase float32
	tremorFreq  float32
	recoil      float32
	burstLeft   int
	nextShotAt  float64
	lastSeen    float64 // -1: not seen since acquired
	lostAt      float64 // -1: not lost
	panic       bool
}

// botBrain is a bot's character and its memory between decisions.
type botBrain struct {
	profile botPreset
	role    botRole // its part in the team's attack (the team board deals it)

	nextThink int64
	mode      botMode
	modeSince float64

	target      uint8
	targetSince float64
	nextTarget  float64
	contacts    []botContact
	nextRadar   float64

	hurt    botHurt
	aim     botAim
	drive   botDrive
	weave   botWeave
	evade   botEvade
	retreat botRetreat
	tactics botTactics
}

// botHurt is what a bot remembers of the damage it took.
type botHurt struct {
	health int     // the tank's health when the bot last looked
	at     float64 // when it was last hurt; -1: never
	by     uint8   // whom it blames for the last hit (0: nobody)
}

// botDrive is how a bot drives: getting unstuck, its steering and its
// pauses.
type botDrive struct {
	stuckTicks    int
	reverse       int64 // reverse until this tick
	turnSign      float32
	steerBias     float32
	nextSteerBias float64
	hesitateUntil float64
	wander        float32
}

// botWeave is a bot's weaving under fire: the side it weaves to, when
// that changes, and the point it weaves to.
type botWeave struct {
	side   float32
	next   float64 // when the weave changes sides
	x, y   float32 // the point the bot weaves to
	picked float64 // when it was chosen; -1: none
}

// botEvade is a bot dodging: the fire aimed at it and the bomb it runs
// from.
type botEvade struct {
	aimedAt      bool // the target aimed at the bot at the last step
	until        float64
	bombX, bombY float32
}

// botRetreat is the point a retreating bot heads for.
type botRetreat struct {
	x, y float32
	at   float64 // when the point was chosen; -1: none
}

// botTactics are the timers of a bot's fighting decisions.
type botTactics struct {
	holdUntil    float64
	threatSeenAt float64
	regroupSince float64
	unclearSince float64 // since when the line of fire to the target is not clear; -1: it is
}

// newBotBrain is a new bot of the match's skill, its character rolled from
// the preset.
func (m *Match) newBotBrain() *botBrain {
	b := &botBrain{profile: rollProfile(m.rules.skill, m.rng)}
	b.reset()
	return b
}

// reset clears the bot's memory for a new life; its character stays.
func (b *botBrain) reset() {
	*b = botBrain{profile: b.profile, contacts: b.contacts[:0],
		hurt: botHurt{health: maxHealth, at: -1}, retreat: botRetreat{at: -1},
		tactics: botTactics{unclearSince: -1, threatSeenAt: -1}, weave: botWeave{side: 1, picked: -1},
		aim: botAim{lastSeen: -1, lostAt: -1}}
}

func (m *Match) clock() float64 { return float64(m.tick) / TicksPerSecond }

// thinkBots runs the bots for one step: the team boards and each live
// bot's decision when due (or at once when its target died), then every
// live bot's keys.
func (m *Match) thinkBots() {
	if m.tick >= m.teams.next {
		m.teams.next = m.tick + botThinkTicks
		m.updateBoards(m.clock())
	}
	for _, p := range m.Players {
		if p == nil || p.bot == nil || p.tank == nil || !p.tank.alive() {
			continue
		}
		b := p.bot
		if m.tick >= b.nextThink || m.targetDied(b) {
			b.nextThink = m.tick + botThinkTicks
			m.think(p)
		}
		m.act(p)
	}
}

// targetDied reports whether the bot's target is gone: a bot decides
// again at once.
func (m *Match) targetDied(b *botBrain) bool {
	if b.target == 0 {
		return false
	}
	q := m.Players[b.target]
	return q == nil || q.tank == nil || !q.tank.alive()
}

func dist(ax, ay, bx, by float32) float32 {
	return float32(math.Hypot(float64(bx-ax), float64(by-ay)))
}

func atan2(y, x float32) float32 { return float32(math.Atan2(float64(y), float64(x))) }

// sees reports whether p's tank sees q's: near enough, on a level it can
// be shot on, and no wall of p's level between them.
func (m *Match) sees(p, q *player) bool {
	s, o := &p.tank.st, &q.tank.st
	d := dist(s.X, s.Y, o.X, o.Y)
	if d > botViewRange || !onLevel(&q.tank.lv, p.tank.lv.Level) {
		return false
	}
	if d < 1 {
		return true
	}
	dx, dy := (o.X-s.X)/d, (o.Y-s.Y)/d
	return m.current.geom.Terrain.Ray(p.tank.lv.Level, s.X, s.Y, dx, dy, d) >= d
}

// perceive updates what the bot knows of the enemies: the visible ones
// exactly, the others from the radar, whose picture is renewed every
// radarInterval with radarNoise of error.
func (m *Match) perceive(p *player, now float64) {
	b := p.bot
	radar := now >= b.nextRadar
	if radar {
		b.nextRadar = now + float64(b.profile.radarInterval*(0.8+0.4*m.rng.Float32()))
	}
	// The dead and the gone are forgotten.
	kept := b.contacts[:0]
	for _, c := range b.contacts {
		q := m.Players[c.gid]
		if q != nil && q.team != p.team && q.team != Spectators && q.tank != nil && q.tank.alive() {
			kept = append(kept, c)
		}
	}
	b.contacts = kept
	for _, q := range m.Players {
		if q == nil || q.team == p.team || q.team == Spectators || q.tank == nil || !q.tank.alive() {
			continue
		}
		i := b.contact(q.gid)
		if m.sees(p, q) {
			c := botContact{gid: q.gid, x: q.tank.st.X, y: q.tank.st.Y, visible: true, updatedAt: now, seenAt: now}
			if i < 0 {
				b.contacts = append(b.contacts, c)
			} else {
				b.contacts[i] = c
			}
			continue
		}
		switch {
		case radar:
			n := b.profile.radarNoise
			c := botContact{gid: q.gid, x: q.tank.st.X + n*(2*m.rng.Float32()-1), y: q.tank.st.Y + n*(2*m.rng.Float32()-1),
				updatedAt: now, seenAt: -1}
			if i < 0 {
				b.contacts = append(b.contacts, c)
			} else {
				c.seenAt = b.contacts[i].seenAt
				b.contacts[i] = c
			}
		case i >= 0:
			b.contacts[i].visible = false // out of sight between radar updates: remembered where seen
		}
	}
	// Damage: when and, by what the bot sees, from whom.
	t := p.tank
	if t.health < b.hurt.health {
		// Blamed: the nearest enemy in sight aiming at the bot, else the
		// nearest in sight, else the nearest known.
		b.hurt.at = now
		b.hurt.by = 0
		best, rank := float32(math.MaxFloat32), 3
		for _, c := range b.contacts {
			r := 2
			switch {
			case c.visible && m.aimingAt(m.Players[c.gid], p):
				r = 0
			case c.visible:
				r = 1
			}
			if d := dist(t.st.X, t.st.Y, c.x, c.y); r < rank || r == rank && d < best {
				best, rank, b.hurt.by = d, r, c.gid
			}
		}
	}
	b.hurt.health = t.health
}

func (b *botBrain) contact(gid uint8) int {
	for i := range b.contacts {
		if b.contacts[i].gid == gid {
			return i
		}
	}
	return -1
}

// freshAttacker reports whether gid hurt the bot within retaliateSeconds.
func (b *botBrain) freshAttacker(gid uint8, now float64) bool {
	return gid != 0 && b.hurt.by == gid && b.hurt.at >= 0 && now-b.hurt.at < retaliateSeconds
}

// chooseTarget picks whom to attack, every targetInterval or at once when
// hurt: the lowest of the straight distance weighed down for an enemy in
// sight (more with a clear line of fire), for one aiming at the bot or
// that just hit it, for a damaged hull, for the team's focus and for the
// current target. A target is kept targetHold seconds unless the new one
// has just hit the bot.
func (m *Match) chooseTarget(p *player, now float64) {
	b := p.bot
	if b.target != 0 && b.contact(b.target) < 0 {
		b.target = 0
	}
	if now < b.nextTarget && b.target != 0 {
		return
	}
	b.nextTarget = now + targetInterval
	s := &p.tank.st
	best, bestScore := uint8(0), float32(math.MaxFloat32)
	for _, c := range b.contacts {
		score := dist(s.X, s.Y, c.x, c.y)
		q := m.Players[c.gid]
		if c.visible {
			if m.fireLineClear(p, c.gid) {
				score *= 0.6
			} else {
				score *= 0.85
			}
			if m.aimingAt(q, p) {
				score *= 0.5
			}
		}
		if b.hurt.by == c.gid && b.hurt.at >= 0 && now-b.hurt.at < 2 && !(c.visible && m.aimingAt(q, p)) {
			score *= 0.5
		}
		if c.visible && q != nil && q.tank != nil {
			switch q.tank.condition() {
			case 1:
				score *= 0.8
			case 2:
				score *= 0.9
			}
		}
		if m.teamFocus(p) == c.gid {
			score *= 0.75
		}
		if b.target == c.gid {
			score *= 0.8 // hysteresis
		}
		if score < bestScore {
			best, bestScore = c.gid, score
		}
	}
	if best == b.target {
		return
	}
	holding := b.target != 0 && now-b.targetSince < targetHold
	if holding && !(b.hurt.by == best && b.hurt.at >= 0 && now-b.hurt.at < 1) {
		return
	}
	b.target, b.targetSince = best, now
}

// aimingAt reports whether q's gun points at p (within 0.15 rad) with
// nothing between them.
func (m *Match) aimingAt(q, p *player) bool {
	if q == nil || q.tank == nil || p.tank == nil || !m.sees(q, p) {
		return false
	}
	o, s := &q.tank.st, &p.tank.st
	return abs(angle.Normalize(o.Angle+o.Gun-atan2(s.Y-o.Y, s.X-o.X))) < aimingAtAngle
}

// teamFocus is the enemy p's team focuses (0: none).
func (m *Match) teamFocus(p *player) uint8 { return m.teams.boards[p.team].focus }

// advantage is the strength of the bot's side near it over the enemies'
// it knows of there: its own health, its teammates' and the visible
// enemies' by their hulls' condition, an enemy on the radar as a whole
// tank.
func (m *Match) advantage(p *player, now float64) float32 {
	s := &p.tank.st
	own := float32(p.tank.health) / maxHealth
	for _, q := range m.Players {
		if q != nil && q != p && q.team == p.team && q.tank != nil && q.tank.alive() && dist(s.X, s.Y, q.tank.st.X, q.tank.st.Y) < advantageRadius {
			own += hullStrength(q.tank)
		}
	}
	var enemy float32
	for _, c := range p.bot.contacts {
		if !c.visible && now-c.updatedAt >= advantageRadarAge || dist(s.X, s.Y, c.x, c.y) > advantageRadius {
			continue
		}
		strength := float32(1)
		if q := m.Players[c.gid]; c.visible && q != nil && q.tank != nil {
			strength = hullStrength(q.tank)
		}
		enemy += strength
	}
	if enemy <= 0 {
		return 10
	}
	return own / enemy
}

// nearestVisible is the nearest enemy in sight within radius (0: none).
func (b *botBrain) nearestVisible(x, y, radius float32) (uint8, float32) {
	best, bestD := uint8(0), radius
	for _, c := range b.contacts {
		if d := dist(x, y, c.x, c.y); c.visible && d <= bestD {
			best, bestD = c.gid, d
		}
	}
	return best, bestD
}

// teamCentre is where the bot's live teammates are on average (ok false:
// none).
func (m *Match) teamCentre(p *player) (x, y float32, ok bool) {
	n := 0
	for _, q := range m.Players {
		if q != nil && q != p && q.team == p.team && q.tank != nil && q.tank.alive() {
			x += q.tank.st.X
			y += q.tank.st.Y
			n++
		}
	}
	if n == 0 {
		return 0, 0, false
	}
	return x / float32(n), y / float32(n), true
}

// nextMode applies the mode rules in priority order.
func (m *Match) nextMode(p *player, now float64) botMode {
	b, t := p.bot, p.tank
	pr := &b.profile
	s := &t.st
	if len(b.contacts) == 0 {
		if now-b.modeSince < modeMinSeconds {
			return b.mode
		}
		return modeRoam
	}
	retreatHP := pr.retreatHealth
	if pr.aggression > lateRetreatAggr {
		retreatHP *= 0.6
	}
	health := float32(t.health)
	_, nearD := b.nearestVisible(s.X, s.Y, threatNear)
	threatClose := nearD < threatNear
	adv := m.advantage(p, now)
	outOfAmmo := t.ammo[0] < 1 && (t.ammo[1] < 1 || !m.enemyInBlast(p))
	mustRetreat := (health <= retreatHP && (b.hurt.at >= 0 && now-b.hurt.at < damageMemorySecond || threatClose)) ||
		(adv < pr.retreatAdvantage && health < 70) || outOfAmmo
	mode := b.mode
	if (mode == modeHunt || mode == modeEngage || mode == modeRegroup || mode == modeRoam) && mustRetreat {
		return modeRetreat
	}
	if now-b.modeSince < modeMinSeconds {
		return mode
	}
	target := b.contact(b.target)
	var targetD float32 = math.MaxFloat32
	visible := false
	if target >= 0 {
		c := &b.contacts[target]
		targetD, visible = dist(s.X, s.Y, c.x, c.y), c.visible
	}
	engage := visible && targetD <= engageRangeFactor*pr.preferredRange[1] && m.fireLineClear(p, b.target)
	switch mode {
	case modeRoam:
		return modeHunt
	case modeRetreat:
		arrived := b.retreat.at >= 0 && dist(s.X, s.Y, b.retreat.x, b.retreat.y) < retreatArrive
		safe := b.tactics.threatSeenAt < 0 || now-b.tactics.threatSeenAt > 2
		if arrived || safe && m.allyWithin(p, allyNear) {
			return modeHold
		}
	case modeHold:
		switch {
		case health < 20 && threatClose && now-b.modeSince > 1:
			return modeRetreat
		case threatClose && nearD < pr.preferredRange[0] && health > retreatHP:
			return modeEngage
		case now >= b.tactics.holdUntil && adv >= 1, m.alliesPushing(p):
			return modeHunt
		}
	case modeHunt:
		if m.leadingAlone(p, adv) {
			b.tactics.regroupSince = now
			return modeRegroup
		}
		if engage {
			return modeEngage
		}
	case modeRegroup:
		cx, cy, ok := m.teamCentre(p)
		if !ok || dist(s.X, s.Y, cx, cy) < regroupRadius || now-b.tactics.regroupSince > regroupSeconds {
			return modeHunt
		}
		if engage {
			return modeEngage
		}
	case modeEngage:
		if b.aim.target == b.target && b.aim.lastSeen >= 0 && now-b.aim.lastSeen > lostSightSeconds || target < 0 {
			return modeHunt
		}
		if !visible && now-b.modeSince > lostSightSeconds {
			return modeHunt
		}
		if b.tactics.unclearSince >= 0 && now-b.tactics.unclearSince > unclearSeconds {
			return modeHunt // no clear shot for a while: move
		}
	}
	return mode
}

func (m *Match) allyWithin(p *player, r float32) bool {
	s := &p.tank.st
	for _, q := range m.Players {
		if q != nil && q != p && q.team == p.team && q.tank != nil && q.tank.alive() && dist(s.X, s.Y, q.tank.st.X, q.tank.st.Y) < r {
			return true
		}
	}
	return false
}

// alliesPushing reports whether two bots of the team near p are on the
// attack.
func (m *Match) alliesPushing(p *player) bool {
	s := &p.tank.st
	n := 0
	for _, q := range m.Players {
		if q != nil && q != p && q.bot != nil && q.team == p.team && q.tank != nil && q.tank.alive() &&
			(q.bot.mode == modeHunt || q.bot.mode == modeEngage) && dist(s.X, s.Y, q.tank.st.X, q.tank.st.Y) < pushRadius {
			n++
		}
	}
	return n >= 2
}

// leadingAlone reports whether the bot is well ahead of its team towards
// its target without the upper hand.
func (m *Match) leadingAlone(p *player, adv float32) bool {
	b := p.bot
	i := b.contact(b.target)
	if i < 0 || adv >= 1 {
		return false
	}
	cx, cy, ok := m.teamCentre(p)
	if !ok {
		return false
	}
	c := &b.contacts[i]
	s := &p.tank.st
	return dist(cx, cy, c.x, c.y)-dist(s.X, s.Y, c.x, c.y) > leadGap
}

// enemyInBlast reports whether a live enemy is within the share of the
// blast radius a bomb is dropped for.
func (m *Match) enemyInBlast(p *player) bool {
	s := &p.tank.st
	for _, q := range m.Players {
		if q != nil && q.team != p.team && q.team != Spectators && q.tank != nil && q.tank.alive() &&
			onLevel(&q.tank.lv, p.tank.lv.Level) && dist(s.X, s.Y, q.tank.st.X, q.tank.st.Y) < m.rules.wp.w2Radius*bombRangeShare {
			return true
		}
	}
	return false
}

// wantsBomb reports whether the bot drops a bomb under itself: an enemy
// is inside the blast, it has one, its last has gone off, and — the
// blast hurting everyone in it here, the dropper and its team included,
// as the game's bombs do with friendly fire on — only a brawler with the
// health to take its own blast, and no teammate that could be in it when
// it goes off.
func (m *Match) wantsBomb(p *player) bool {
	t := p.tank
	if t.ammo[1] < 1 || t.bomb || !m.enemyInBlast(p) {
		return false
	}
	if p.bot.profile.aggression <= bombBrawler || float32(t.health) <= m.rules.wp.w2Damage+10 {
		return false
	}
	reach := m.rules.wp.w2Radius + m.rules.model.MaxForward*float32(m.rules.wp.w2FuseMs)/1000
	for _, q := range m.Players {
		if q != nil && q != p && q.team == p.team && q.tank != nil && q.tank.alive() &&
			onLevel(&q.tank.lv, t.lv.Level) && dist(t.st.X, t.st.Y, q.tank.st.X, q.tank.st.Y) < reach {
			return false
		}
	}
	return true
}

// fireLineClear reports whether a shot from p at gid would meet no wall,
// teammate or crate first.
func (m *Match) fireLineClear(p *player, gid uint8) bool {
	q := m.Players[gid]
	if q == nil || q.tank == nil || !m.sees(p, q) {
		return false
	}
	s, o := &p.tank.st, &q.tank.st
	d := dist(s.X, s.Y, o.X, o.Y)
	if d < 1 {
		return true
	}
	dx, dy := (o.X-s.X)/d, (o.Y-s.Y)/d
	level := p.tank.lv.Level
	for _, a := range m.Players {
		if a == nil || a == p || a.team != p.team || a.tank == nil || !onLevel(&a.tank.lv, level) {
			continue
		}
		if h, ok := tanks.RayBox(&a.tank.body, s.X, s.Y, dx, dy, d); ok && h < d {
			return false
		}
	}
	for i := range m.crates {
		if !onLevel(&m.crates[i].lv, level) {
			continue
		}
		if h, ok := tanks.RayBox(&m.crates[i].body, s.X, s.Y, dx, dy, d); ok && h < d {
			return false
		}
	}
	return true
}

// think is one decision (10 a second): perceive, choose a target, then a
// mode.
func (m *Match) think(p *player) {
	b, t := p.bot, p.tank
	now := m.clock()
	hurtBefore := b.hurt.at
	m.perceive(p, now)
	damagedNow := b.hurt.at != hurtBefore
	if damagedNow {
		b.nextTarget = 0 // a hit makes the bot look for whom to answer
	}
	m.chooseTarget(p, now)
	switch {
	case b.target != 0 && m.fireLineClear(p, b.target):
		b.tactics.unclearSince = -1
	case b.tactics.unclearSince < 0:
		b.tactics.unclearSince = now
	}
	if _, d := b.nearestVisible(t.st.X, t.st.Y, botViewRange); d < botViewRange {
		b.tactics.threatSeenAt = now
	}
	mode := m.nextMode(p, now)
	if damagedNow && b.hurt.by != 0 && mode != modeRetreat &&
		(b.mode == modeRoam || b.mode == modeHunt || b.mode == modeRegroup) {
		if i := b.contact(b.hurt.by); i >= 0 && b.contacts[i].visible {
			mode = modeEngage // attacked by an enemy in sight: fight back at once
			b.weave.next = now
		}
	}
	if mode != b.mode {
		b.mode, b.modeSince = mode, now
		switch mode {
		case modeRetreat:
			b.retreat.at = -1
		case modeHold:
			b.tactics.holdUntil = now + float64((4+4*m.rng.Float32())*(1.5-b.profile.aggression))
		}
	}
	if i := b.contact(b.target); b.mode == modeHunt && now >= b.drive.hesitateUntil && i >= 0 && !b.contacts[i].visible &&
		m.rng.Float32() < b.profile.hesitation*0.1 {
		b.drive.hesitateUntil = now + 0.3 + 0.5*float64(m.rng.Float32()) // a look round for the unseen target
	}
	if b.mode == modeRoam && m.rng.IntN(6) == 0 {
		b.drive.wander = (2*m.rng.Float32() - 1) * 1.5
	}
}

// act sets the bot's keys for this step: its mode's driving, the turret,
// and the one-shots of firing.
func (m *Match) act(p *player) {
	b, t := p.bot, p.tank
	now := m.clock()
	b.aim.recoil *= recoilStep
	keys := m.drive(p, now)
	turret, hull := m.aimAndFire(p, now)
	if hull != 0 {
		keys = keys&^(tanks.KeyLeft|tanks.KeyRight) | hull
	}
	t.keys = keys | turret
}

// drive returns the drive keys of the bot's mode.
func (m *Match) drive(p *player, now float64) uint32 {
	b, t := p.bot, p.tank
	s := &t.st
	pr := &b.profile
	if now >= b.drive.nextSteerBias {
		b.drive.steerBias = pr.steerNoise * (2*m.rng.Float32() - 1)
		b.drive.nextSteerBias = now + 0.5 + float64(m.rng.Float32())
	}
	ti := b.contact(b.target)
	var tx, ty, td float32
	tVisible := false
	if ti >= 0 {
		c := &b.contacts[ti]
		tx, ty, td, tVisible = c.x, c.y, dist(s.X, s.Y, c.x, c.y), c.visible
	}
	// Away from the own bomb first.
	if now < b.evade.until {
		return m.steer(p, atan2(s.Y-b.evade.bombY, s.X-b.evade.bombX), 1)
	}
	switch b.mode {
	case modeRoam:
		return m.steer(p, s.Angle+b.drive.wander, 1)
	case modeHunt:
		if ti < 0 {
			return 0
		}
		if now < b.drive.hesitateUntil {
			return 0 // looking around
		}
		gx, gy := tx, ty
		switch {
		case b.role == roleSupport:
			if x, y, ok := m.supportPoint(p, tx, ty); ok {
				gx, gy = x, y // behind the assault
			}
		case b.role == roleFlanker && td > engageRangeFactor*pr.preferredRange[1]:
			// Come from the side: aim at a point beside the target.
			a := atan2(ty-s.Y, tx-s.X)
			gy += float32(math.Cos(float64(a))) * flankOffset
			gx -= float32(math.Sin(float64(a))) * flankOffset
		}
		if tVisible && td < pr.preferredRange[0] {
			return m.steer(p, atan2(ty-s.Y, tx-s.X), 0)
		}
		return m.steer(p, atan2(gy-s.Y, gx-s.X), 1)
	case modeEngage:
		if ti < 0 {
			return 0
		}
		toT := atan2(ty-s.Y, tx-s.X)
		switch {
		case td > pr.preferredRange[1]:
			return m.steer(p, toT, 1)
		case td < pr.preferredRange[0] && pr.aggression < backOffAggression:
			return m.steer(p, toT, -1) // back off, gun on the enemy
		}
		return m.weave(p, now, toT)
	case modeRetreat:
		if b.retreat.at < 0 || now-b.retreat.at > retreatRepick {
			m.pickRetreat(p)
			b.retreat.at = now
		}
		a := atan2(b.retreat.y-s.Y, b.retreat.x-s.X)
		if abs(angle.Normalize(a-s.Angle)) > 1.9 {
			return m.steer(p, a+math.Pi, -1) // back away, the front to the threat
		}
		return m.steer(p, a, 1)
	case modeHold:
		if id, _ := b.nearestVisible(s.X, s.Y, botViewRange); id != 0 {
			c := &b.contacts[b.contact(id)]
			return m.steer(p, atan2(c.y-s.Y, c.x-s.X), 0)
		}
		return 0
	case modeRegroup:
		cx, cy, ok := m.teamCentre(p)
		if !ok {
			return 0
		}
		return m.steer(p, atan2(cy-s.Y, cx-s.X), 1)
	}
	return 0
}

// weave keeps the bot moving while it fights within its preferred range:
// it drives to a point 3 to 6 tiles off to one side at weaveAngle from the
// line to the target, so the target stays in the turret's arc, and
// changes sides every 1.5 to 3 s, when it gets there, or when the way is
// blocked; above easy, also when the target starts aiming at it, half the
// time. A moving bot is harder to hit, and aims worse.
func (m *Match) weave(p *player, now float64, toT float32) uint32 {
	b := p.bot
	s := &p.tank.st
	tile := m.tile()
	// Above easy, a bot the target starts aiming at dodges half the time.
	aimed := m.aimingAt(m.Players[b.target], p)
	dodge := aimed && !b.evade.aimedAt && m.rules.skill != BotEasy && m.rng.IntN(2) == 0
	b.evade.aimedAt = aimed
	if now >= b.weave.next || dodge {
		b.weave.side = -b.weave.side
		b.weave.next = now + 1.5 + 1.5*float64(m.rng.Float32())
		b.weave.picked = -1
	}
	if b.weave.picked >= 0 && dist(s.X, s.Y, b.weave.x, b.weave.y) < tile {
		b.weave.picked = -1
	}
	if b.weave.picked < 0 {
		if !m.pickWeave(p, toT, tile) {
			return m.steer(p, toT, 0) // nowhere to weave: face the target
		}
		b.weave.picked = now
	}
	keys := m.steer(p, atan2(b.weave.y-s.Y, b.weave.x-s.X), 1)
	if keys&tanks.KeyBack != 0 && now-b.weave.picked > 0.5 {
		b.weave.side = -b.weave.side // blocked: the other side
		b.weave.picked = -1
	}
	return keys
}

// pickWeave chooses the weave point on the bot's side, else the other
// side, with no wall in the way.
func (m *Match) pickWeave(p *player, toT, tile float32) bool {
	b := p.bot
	s := &p.tank.st
	terrain, level := m.current.geom.Terrain, p.tank.lv.Level
	for _, side := range [2]float32{b.weave.side, -b.weave.side} {
		r := (3 + 3*m.rng.Float32()) * tile
		dy, dx := sincos(toT + side*weaveAngle)
		if terrain.Ray(level, s.X, s.Y, dx, dy, r+tile) >= r+tile {
			b.weave.side = side
			b.weave.x, b.weave.y = s.X+dx*r, s.Y+dy*r
			return true
		}
	}
	return false
}

// tile is the side of a map cell in world units.
func (m *Match) tile() float32 { return float32(m.current.Data.CellWorld()) }

// pickRetreat chooses where to fall back to: of the points behind the
// nearest teammate farther from the threats, and of cover around the bot
// (5 and 8 tiles out in eight directions, reachable in a straight line),
// the one near the bot and far from the threats, better with teammates
// near it and much better out of the threats' sight.
func (m *Match) pickRetreat(p *player) {
	b := p.bot
	s := &p.tank.st
	tile := m.tile()
	terrain, level := m.current.geom.Terrain, p.tank.lv.Level
	nearestThreat := func(x, y float32) float32 {
		d := float32(math.MaxFloat32)
		for _, c := range b.contacts {
			d = min(d, dist(x, y, c.x, c.y))
		}
		return d
	}
	hidden := func(x, y float32) bool {
		for _, c := range b.contacts {
			if d := dist(c.x, c.y, x, y); d > 1 && (c.visible || dist(s.X, s.Y, c.x, c.y) < 2*threatNear) &&
				terrain.Ray(level, c.x, c.y, (x-c.x)/d, (y-c.y)/d, d) >= d {
				return false
			}
		}
		return true
	}
	best := float32(math.MaxFloat32)
	consider := func(x, y float32) {
		if dist(s.X, s.Y, x, y) < 1.5*tile {
			return
		}
		score := dist(s.X, s.Y, x, y) - 1.5*min(nearestThreat(x, y), 2*threatNear)
		for _, q := range m.Players {
			if q != nil && q != p && q.team == p.team && q.tank != nil && q.tank.alive() && dist(x, y, q.tank.st.X, q.tank.st.Y) < allyNear {
				score -= 200
			}
		}
		if !hidden(x, y) {
			score += 300
		}
		if score < best {
			best, b.retreat.x, b.retreat.y = score, x, y
		}
	}
	mine := nearestThreat(s.X, s.Y)
	for _, q := range m.Players {
		if q == nil || q == p || q.team != p.team || q.tank == nil || !q.tank.alive() {
			continue
		}
		o := &q.tank.st
		if nearestThreat(o.X, o.Y) <= mine {
			continue
		}
		if d := dist(s.X, s.Y, o.X, o.Y); d > 1 {
			consider(o.X-(o.X-s.X)/d*1.5*tile, o.Y-(o.Y-s.Y)/d*1.5*tile) // just behind the teammate
		}
	}
	for k := 0; k < 8; k++ {
		dy, dx := sincos(float32(k) * math.Pi / 4)
		for _, r := range [2]float32{5 * tile, 8 * tile} {
			if l := terrain.Ray(level, s.X, s.Y, dx, dy, r+tile); l >= r+tile {
				consider(s.X+dx*r, s.Y+dy*r)
			}
		}
	}
	if best == math.MaxFloat32 {
		// Nowhere better: straight away from the nearest threat.
		b.retreat.x, b.retreat.y = s.X, s.Y
		if id, _ := b.nearestVisible(s.X, s.Y, math.MaxFloat32); id != 0 {
			c := &b.contacts[b.contact(id)]
			if d := dist(s.X, s.Y, c.x, c.y); d > 1 {
				b.retreat.x, b.retreat.y = s.X+(s.X-c.x)/d*6*tile, s.Y+(s.Y-c.y)/d*6*tile
			}
		}
	}
}

// steer turns the hull towards heading (plus the bot's steering noise) and
// drives: throttle 1 forward, -1 back, 0 stand, between: forward only
// while the heading is off. Wall feelers steer it round walls, and a bot
// that does not move while it drives backs off and turns.
func (m *Match) steer(p *player, heading float32, throttle float32) uint32 {
	b, t := p.bot, p.tank
	s := &t.st
	terrain, level := m.current.geom.Terrain, t.lv.Level
	feel := func(off float32) float32 {
		dy, dx := sincos(s.Angle + off)
		return terrain.Ray(level, s.X, s.Y, dx, dy, 80)
	}
	front, left, right := feel(0), feel(-0.6), feel(0.6)
	speed := float32(math.Hypot(float64(s.VX), float64(s.VY)))
	if speed < 5 && s.Throttle > 0.9 {
		b.drive.stuckTicks++
	} else {
		b.drive.stuckTicks = 0
	}
	if b.drive.stuckTicks > TicksPerSecond {
		b.drive.reverse = m.tick + TicksPerSecond/2 + int64(m.rng.IntN(TicksPerSecond/2))
		b.drive.stuckTicks = 0
		b.drive.turnSign = 1
		if m.rng.IntN(2) == 0 {
			b.drive.turnSign = -1
		}
	}
	var keys uint32
	turn := angle.Normalize(heading + b.drive.steerBias - s.Angle)
	switch {
	case m.tick < b.drive.reverse:
		keys |= tanks.KeyBack
		if b.drive.turnSign > 0 {
			keys |= tanks.KeyRight
		} else {
			keys |= tanks.KeyLeft
		}
		return keys
	case throttle > 0 && front < botFeel:
		if left > right {
			keys |= tanks.KeyLeft
		} else {
			keys |= tanks.KeyRight
		}
		if front < botFeel/2 {
			keys |= tanks.KeyBack
		} else {
			keys |= tanks.KeyForward
		}
		return keys
	}
	switch {
	case throttle >= 1 || throttle > 0 && abs(turn) > 0.6:
		keys |= tanks.KeyForward
	case throttle < 0:
		keys |= tanks.KeyBack
	}
	switch {
	case throttle > 0 && left < botFeel:
		keys |= tanks.KeyRight
	case throttle > 0 && right < botFeel:
		keys |= tanks.KeyLeft
	case turn > 0.15:
		keys |= tanks.KeyRight
	case turn < -0.15:
		keys |= tanks.KeyLeft
	}
	return keys
}

// aimTarget is whom the bot aims at: its target, or, falling back or
// holding, the nearest enemy in sight.
func (m *Match) aimTarget(p *player) (uint8, bool) {
	b := p.bot
	if b.mode == modeRetreat || b.mode == modeHold {
		if id, _ := b.nearestVisible(p.tank.st.X, p.tank.st.Y, botViewRange); id != 0 {
			return id, true
		}
	}
	i := b.contact(b.target)
	if i < 0 {
		return 0, false
	}
	return b.target, b.contacts[i].visible
}

// retarget acquires a target: the turret waits out the reaction time, and
// the aim starts off by an error that settles while the bot tracks.
func (m *Match) retarget(p *player, gid uint8, now float64, toT, lateral float32) {
	b := p.bot
	pr := &b.profile
	reaction := pr.reactionTime * (0.8 + 0.5*m.rng.Float32())
	if abs(angle.Normalize(p.tank.st.Angle+p.tank.st.Gun-toT)) < preAimedAngle {
		reaction *= preAimedReaction
	}
	fast := min(lateral/lateralSpeedFull, 1)
	b.aim = botAim{target: gid, acquiredAt: now, reactUntil: now + float64(reaction),
		error0:      (2*m.rng.Float32() - 1) * pr.aimError * (1 + 0.5*fast),
		tremorPhase: m.rng.Float32() * 2 * math.Pi, tremorFreq: (1.5 + 1.5*m.rng.Float32()) * 2 * math.Pi,
		recoil: b.aim.recoil, burstLeft: m.rollBurst(pr), lastSeen: now, lostAt: -1}
	b.aim.nextShotAt = b.aim.reactUntil
}

func (m *Match) rollBurst(pr *botPreset) int {
	lo, hi := max(pr.burstShots[0], 1), max(pr.burstShots[1], pr.burstShots[0], 1)
	return lo + m.rng.IntN(hi-lo+1)
}

// aimError is the aim's error now: the settling initial error, the tremor,
// the flinch of the last shots, and more on the move and against a
// crossing target.
func (a *botAim) aimError(now float64, pr *botPreset, speedRatio, angularSpeed, penalty float32) float32 {
	settle := a.error0 * float32(math.Exp(-(now-a.acquiredAt)/float64(pr.aimSettleTime)))
	tremor := pr.aimTremor * float32(math.Sin(float64(a.tremorPhase)+now*float64(a.tremorFreq)))
	extra := motionError*pr.aimError*min(abs(speedRatio), 1) + trackingError*abs(angularSpeed)
	if settle < 0 {
		extra = -extra
	}
	return (settle + tremor + a.recoil + extra) * penalty
}

// aimAndFire turns the turret onto the aim target once the reaction time
// is over and presses fire when the gun is on its aim point, the line is
// clear and the target is within combat range (any range for a fresh
// attacker, or falling back); it drops a bomb only for an enemy in its
// blast. It returns the turret keys to hold, and the hull's turn key when
// the target is past the turret's arc.
func (m *Match) aimAndFire(p *player, now float64) (turret, hull uint32) {
	b, t := p.bot, p.tank
	s := &t.st
	pr := &b.profile
	if t.weapon == weaponW2 {
		t.oneShot |= tanks.KeyNextWeapon // the bomb is down: back to the gun
	} else if m.wantsBomb(p) && now >= b.evade.until {
		t.oneShot |= tanks.KeyNextWeapon | tanks.KeyFire // switch and drop at once
		b.evade.until, b.evade.bombX, b.evade.bombY = now+bombEvadeSeconds, s.X, s.Y
		return 0, 0
	}
	gid, visible := m.aimTarget(p)
	a := &b.aim
	if gid == 0 {
		return 0, 0
	}
	q := m.Players[gid]
	if q == nil || q.tank == nil {
		return 0, 0
	}
	o := &q.tank.st
	d := dist(s.X, s.Y, o.X, o.Y)
	toT := atan2(o.Y-s.Y, o.X-s.X)
	if !visible {
		if a.target == gid && a.lostAt < 0 && a.lastSeen >= 0 {
			a.lostAt = now
			a.panic = m.rng.Float32() < pr.panicFire
		}
		if a.target == gid && a.panic && now-a.lostAt < panicWindow && a.lastSeen >= 0 && m.ready(a, now) && t.ammo[0] > 0 {
			a.panic = false
			t.oneShot |= tanks.KeyFire // a last shot where it disappeared
			m.onShot(p, now)
		}
		return 0, 0
	}
	// The target's speed across the line to it: more error when acquired,
	// and the angular speed the aim has to follow.
	lateral := abs(-o.VX*float32(math.Sin(float64(toT))) + o.VY*float32(math.Cos(float64(toT))))
	if a.target != gid || a.lastSeen >= 0 && now-a.lastSeen > reacquireSeconds {
		m.retarget(p, gid, now, toT, lateral)
	}
	a.lastSeen, a.lostAt, a.panic = now, -1, false
	penalty := float32(1)
	if b.mode == modeRetreat {
		penalty = retreatAimPenalty
	}
	speed := float32(math.Hypot(float64(s.VX), float64(s.VY)))
	aimAt := toT + a.aimError(now, pr, speed/m.rules.model.MaxForward, lateral/max(d, 1), penalty)
	if now < a.reactUntil {
		return 0, 0 // not reacted yet: the turret stays
	}
	var keys uint32
	lim := m.rules.model.MaxGunAngle
	rel := angle.Normalize(aimAt - s.Angle)
	diff := min(max(rel, -lim), lim) - s.Gun
	if diff > turretDeadband {
		keys |= tanks.KeyGunRight
	} else if diff < -turretDeadband {
		keys |= tanks.KeyGunLeft
	}
	if abs(rel) > lim-hullRequestMargin && b.mode == modeEngage {
		// The target is past the turret's arc: the hull turns to it.
		hull = tanks.KeyLeft
		if rel > 0 {
			hull = tanks.KeyRight
		}
	}
	if !m.ready(a, now) || t.ammo[0] < 1 || d > m.rules.wp.w1Range {
		return keys, hull
	}
	inRange := d <= engageRangeFactor*pr.preferredRange[1] || b.mode == modeRetreat || b.mode == modeHold || b.freshAttacker(gid, now)
	if !inRange || !m.fireLineClear(p, gid) {
		return keys, hull
	}
	halfLen, _ := m.rules.model.HalfSize()
	tolerance := max(float32(math.Atan(float64(halfLen/max(d, 1))))*pr.fireTolerance, 0.01)
	if abs(angle.Normalize(s.Angle+s.Gun-toT)) <= tolerance {
		t.oneShot |= tanks.KeyFire
		m.onShot(p, now)
	}
	return keys, hull
}

func (m *Match) ready(a *botAim, now float64) bool { return now >= a.reactUntil && now >= a.nextShotAt }

// onShot flinches the aim and counts the burst: the next shot after
// shotInterval, or after a pause when the burst is done.
func (m *Match) onShot(p *player, now float64) {
	a, pr := &p.bot.aim, &p.bot.profile
	side := float32(1)
	if m.rng.IntN(2) == 0 {
		side = -1
	}
	a.recoil += (0.3 + 0.7*m.rng.Float32()) * 0.5 * pr.aimError * side
	a.burstLeft--
	if a.burstLeft > 0 {
		a.nextShotAt = now + float64(pr.shotInterval*(0.9+0.3*m.rng.Float32()))
		return
	}
	a.burstLeft = m.rollBurst(pr)
	a.nextShotAt = now + float64(pr.burstPause[0]+(pr.burstPause[1]-pr.burstPause[0])*m.rng.Float32())
}
