package clientcore

// Turret is the own actor's gun as the game predicts it now: what aiming
// with the pointer needs to steer the gun by the game's own turn keys, so
// that pointer aim works against any host of the game and puts nothing new
// on the wire.
type Turret struct {
	// X and Y are the gun's pivot in world units; Hull is the heading the
	// gun angle is measured from, in radians.
	X, Y, Hull float64
	// Gun is the gun's angle from the hull (radians, the direction the
	// Right command turns it is positive); MaxGun bounds its magnitude (0:
	// unbounded); Speed is how fast a held turn command turns it, in
	// radians a second.
	Gun, MaxGun, Speed float64
	// Left and Right are the commands that turn the gun towards smaller and
	// larger angles; Fire fires the current weapon.
	Left, Right, Fire string
	// Bomb lists the one-shot commands that drop a bomb from the weapon
	// held now (switch to the bomb, fire, switch back); empty when the
	// game has no bomb or none is left.
	Bomb []string
}

// TurretGame is a Game whose own actor has a gun the pointer can aim.
type TurretGame interface {
	// Turret reports the own actor's gun now; ok is false while there is
	// nothing to aim (no actor predicted, dead, spectating).
	Turret() (t Turret, ok bool)
}

// Turret reports the game's own gun now, for pointer aim; ok is false when
// the game has no gun or nothing to aim.
func (c *Core) Turret() (Turret, bool) {
	if c.game.turret == nil {
		return Turret{}, false
	}
	return c.game.turret.Turret()
}
