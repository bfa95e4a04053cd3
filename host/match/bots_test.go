package match

import (
	"math"
	"strings"
	"testing"
)

// duel is a match on yard of one bot of team1 (its character exactly the
// preset, no variance) and an idle player of team2, both placed on an open
// line: the bot at (x, y) facing along it, the player d units further.
type duel struct {
	m       *Match
	bot     *player
	target  *player
	pinHull bool // a pinned bot's hull keeps its heading too
}

func newDuel(t *testing.T, skill BotSkill, d float32) *duel {
	t.Helper()
	m, err := New(Config{Seed: 7, BotSkill: skill, Map: "yard", Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	joinHuman(t, m, 1, "Target")
	m.Vote(1, []byte(`["teamChange","team2"]`))
	if !m.addBotTo(Team1) {
		t.Fatal("no bot added")
	}
	du := &duel{m: m, target: m.Users[1]}
	for _, p := range m.Players {
		if p != nil && p.bot != nil {
			du.bot = p
		}
	}
	if du.bot.tank == nil || du.target.tank == nil {
		t.Fatal("a tank is missing")
	}
	du.bot.bot.profile = botPresets[skill]
	x, y := du.openLine(t, d+40)
	du.place(du.bot, x, y, 0)
	du.place(du.target, x+d, y, math.Pi)
	return du
}

// openLine finds a row of yard with d units of open ground eastwards.
func (du *duel) openLine(t *testing.T, d float32) (float32, float32) {
	t.Helper()
	tile := du.m.tile()
	terrain := du.m.current.geom.Terrain
	for row := 3; row < mapRows-3; row++ {
		for col := 10; col < mapCols/2; col++ {
			x, y := (float32(col)+0.5)*tile, (float32(row)+0.5)*tile
			// Clear along the line and a tank's width either side.
			if terrain.Ray(0, x, y, 1, 0, d) >= d && terrain.Ray(0, x, y-6, 1, 0, d) >= d && terrain.Ray(0, x, y+6, 1, 0, d) >= d {
				return x, y
			}
		}
	}
	t.Fatal("yard has no open line")
	return 0, 0
}

func (du *duel) place(p *player, x, y, a float32) {
	s := &p.tank.st
	s.X, s.Y, s.Angle, s.VX, s.VY, s.AngVel, s.Gun, s.Throttle = x, y, a, 0, 0, 0, 0, 0
}

// hold keeps p where it is placed: its position and velocity are put back
// after every step (its hull and gun still turn).
func (du *duel) hold(p *player, x, y float32) {
	s := &p.tank.st
	s.X, s.Y, s.VX, s.VY = x, y, 0, 0
}

// step runs n steps, pinning the bot (when pin) and the target.
func (du *duel) step(n int, pin bool, each func()) {
	bx, by, ba := du.bot.tank.st.X, du.bot.tank.st.Y, du.bot.tank.st.Angle
	tx, ty := du.target.tank.st.X, du.target.tank.st.Y
	for i := 0; i < n; i++ {
		du.m.Step(float64(du.m.tick) * 1000 / TicksPerSecond)
		du.hold(du.target, tx, ty)
		if pin {
			du.hold(du.bot, bx, by)
			if du.pinHull {
				du.bot.tank.st.Angle, du.bot.tank.st.AngVel = ba, 0
			}
		}
		if each != nil {
			each()
		}
	}
}

// An attacking bot does not fire beyond its combat range (1.3 × its
// preferred range's far end): it aims, but holds fire; within the range it
// fires.
func TestBotHoldsFireBeyondCombatRange(t *testing.T) {
	for _, skill := range []BotSkill{BotEasy, BotNormal, BotHard} {
		combat := engageRangeFactor * botPresets[skill].preferredRange[1]
		far := newDuel(t, skill, combat+80)
		far.step(10*TicksPerSecond, true, nil)
		if used := startW1 - far.bot.tank.ammo[0]; used != 0 {
			t.Errorf("%v: %d shots at %.0f units, beyond the combat range %.0f", skill, used, combat+80, combat)
		}
		if far.bot.tank.health != maxHealth || far.bot.bot.target != far.target.gid {
			t.Errorf("%v: the bot did not take the target (target %d)", skill, far.bot.bot.target)
		}
		near := newDuel(t, skill, combat-60)
		near.step(10*TicksPerSecond, true, nil)
		if near.bot.tank.ammo[0] == startW1 {
			t.Errorf("%v: no shot at %.0f units, within the combat range %.0f", skill, combat-60, combat)
		}
	}
}

// A bot's turret does not move before its reaction time has passed since
// the target came into sight, and does move soon after.
func TestBotAimLagsByReaction(t *testing.T) {
	for _, skill := range []BotSkill{BotEasy, BotHard} {
		du := newDuel(t, skill, 200)
		du.pinHull = true // the turret alone turns to the target
		// Out of sight first: far off the map, known by the radar only.
		du.place(du.target, -3000, -3000, 0)
		du.step(TicksPerSecond, true, nil)
		// Into sight, well off the gun (no head start for a gun already
		// pointing that way).
		bx, by := du.bot.tank.st.X, du.bot.tank.st.Y
		placed := false
		for _, off := range []float32{1, -1, 0.7, -0.7, 1.2, -1.2, 0.5, -0.5} {
			for _, r := range []float32{200, 150, 120, 90, 60} {
				a := du.bot.tank.st.Angle + du.bot.tank.st.Gun + off
				du.place(du.target, bx+r*float32(math.Cos(float64(a))), by+r*float32(math.Sin(float64(a))), 0)
				if placed = du.m.sees(du.bot, du.target); placed {
					break
				}
			}
			if placed {
				break
			}
		}
		if !placed {
			t.Fatal("nowhere in sight of the bot")
		}
		gun0 := du.bot.tank.st.Gun
		seen := du.m.tick
		moved := int64(-1)
		du.step(2*TicksPerSecond, true, func() {
			if moved < 0 && du.bot.tank.st.Gun != gun0 {
				moved = du.m.tick
			}
		})
		reaction := float64(botPresets[skill].reactionTime)
		lag := float64(moved-seen) / TicksPerSecond
		// The bot notices at its next decision (within 0.1 s) and reacts
		// after 0.8–1.3 × its reaction time.
		if moved < 0 || lag < 0.8*reaction || lag > 1.3*reaction+0.1+0.02 {
			t.Errorf("%v: the turret moved %.3f s after the target came into sight, reaction %.2f s", skill, lag, reaction)
		}
	}
}

// A hurt bot under fire falls back: hit down to under its retreat health
// with the enemy in sight, it retreats and gets farther from the enemy.
func TestHurtBotRetreats(t *testing.T) {
	du := newDuel(t, BotEasy, 150)
	du.step(TicksPerSecond/2, false, nil)
	b := du.bot
	if b.bot.mode == modeRetreat {
		t.Fatal("a healthy bot retreats")
	}
	b.tank.health = int(botPresets[BotEasy].retreatHealth) - 10 // a hit
	d0 := dist(b.tank.st.X, b.tank.st.Y, du.target.tank.st.X, du.target.tank.st.Y)
	retreated := false
	du.step(3*TicksPerSecond, false, func() { retreated = retreated || b.bot.mode == modeRetreat })
	if !retreated {
		t.Fatalf("the hurt bot did not retreat (mode %d)", b.bot.mode)
	}
	if d := dist(b.tank.st.X, b.tank.st.Y, du.target.tank.st.X, du.target.tank.st.Y); d < d0+40 {
		t.Fatalf("the retreating bot is %.0f units from the enemy, %.0f before", d, d0)
	}
}

// Teams stay within one of each other: joining players count, and bots
// change sides, when a player joins a team and when one leaves.
func TestTeamsBalanceOnJoinAndLeave(t *testing.T) {
	m, err := New(Config{Bots: 5, Seed: 1, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	counts := func() (t1, t2, bots int) {
		for _, p := range m.Players {
			if p == nil {
				continue
			}
			switch p.team {
			case Team1:
				t1++
			case Team2:
				t2++
			}
			if p.bot != nil {
				bots++
			}
		}
		return
	}
	check := func(when string) {
		t.Helper()
		t1, t2, bots := counts()
		if t1-t2 > 1 || t2-t1 > 1 || bots != 5 {
			t.Fatalf("%s: team1 %d, team2 %d, %d bots", when, t1, t2, bots)
		}
	}
	check("bots alone")
	for uid := 1; uid <= 3; uid++ {
		joinHuman(t, m, uid, "P"+strings.Repeat("x", uid))
		m.Vote(uid, []byte(`["teamChange","team1"]`))
		if p := m.Users[uid]; p.team != Team1 {
			t.Fatalf("player %d is in team %d", uid, p.team)
		}
		check("a player joined team1")
	}
	m.Leave(2)
	check("a player left")
	m.Vote(3, []byte(`["teamChange","spectators"]`))
	check("a player went to watch")
	// Every player and bot of a playing team plays the next round.
	m.startRound()
	for _, p := range m.Players {
		if p != nil && p.team != Spectators && p.tank == nil {
			t.Fatalf("%s of team %d has no tank", p.name, p.team)
		}
	}
}

// The skills parse by name, an unknown one is a clear error, and the
// presets get harder in order.
func TestBotSkills(t *testing.T) {
	for _, s := range []BotSkill{BotEasy, BotNormal, BotHard} {
		if got, err := ParseBotSkill(s.String()); err != nil || got != s {
			t.Errorf("%v: %v %v", s, got, err)
		}
	}
	if s, err := ParseBotSkill(""); err != nil || s != BotEasy {
		t.Errorf("the default skill %v %v, want easy", s, err)
	}
	if _, err := ParseBotSkill("Hard"); err == nil || !strings.Contains(err.Error(), "easy, normal, hard") {
		t.Errorf("Hard: %v", err)
	}
	if _, err := New(Config{BotSkill: 7, Log: quiet()}); err == nil {
		t.Error("a match with skill 7 was made")
	}
	for i := 1; i < len(botPresets); i++ {
		e, h := &botPresets[i-1], &botPresets[i]
		if h.reactionTime >= e.reactionTime || h.aimError >= e.aimError || h.aimTremor >= e.aimTremor ||
			h.retreatHealth >= e.retreatHealth || h.aggression <= e.aggression {
			t.Errorf("%v is not harder than %v", BotSkill(i), BotSkill(i-1))
		}
	}
}
