package tankclient

import "vimpclient/clientcore"

// The tanks commands pointer aim drives: the gun keys, fire and the weapon
// cycle (the names of prediction.playerKeys).
const (
	cmdGunLeft  = "gunLeft"
	cmdGunRight = "gunRight"
	cmdFire     = "fire"
	cmdNext     = "nextWeapon"
	cmdPrev     = "prevWeapon"
)

// maxBombSteps bounds the weapon switches a bomb drop makes each way.
const maxBombSteps = 3

// Turret implements clientcore.TurretGame: the own tank's drawn position
// and heading, its predicted gun angle and the model's gun limits. While
// the tank is not predicted, dead, or its model unknown there is nothing
// to aim.
func (g *Game) Turret() (clientcore.Turret, bool) {
	if !g.pred.HasState() || !g.me.hasRow || g.me.cond == 0 || g.model == nil {
		return clientcore.Turret{}, false
	}
	x, y, a := g.renderPose()
	t := clientcore.Turret{
		X: float64(x), Y: float64(y), Hull: float64(a),
		Gun: float64(g.st.Gun), MaxGun: float64(g.motion.MaxGunAngle), Speed: float64(g.motion.GunSpeed),
		Left: cmdGunLeft, Right: cmdGunRight, Fire: cmdFire,
	}
	t.Bomb = g.bombSteps(g.bomb[:0])
	return t, true
}

// bombSteps appends to dst the one-shot commands that drop a bomb from the
// weapon held now: as many weapon switches forward as reach the first bomb
// weapon with ammunition left, fire, and as many back. None when there is
// no such weapon, or it is further than maxBombSteps.
func (g *Game) bombSteps(dst []string) []string {
	s := &g.shots
	n := len(s.weapons)
	if n == 0 || s.current < 0 {
		return dst
	}
	for d := 0; d < n && d <= maxBombSteps; d++ {
		i := (s.current + d) % n
		if !s.weapons[i].Explosive || (s.ammoKnown[i] && s.ammo[i] <= 0) {
			continue
		}
		for range d {
			dst = append(dst, cmdNext)
		}
		dst = append(dst, cmdFire)
		for range d {
			dst = append(dst, cmdPrev)
		}
		return dst
	}
	return dst
}
