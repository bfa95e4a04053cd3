// Package tanks holds the tank game's simulation rules that the host and
// the client's predictor must run identically: the tank motion model of
// one fixed step, the terrain both collide with (every level's glued wall
// blocks and the ramp guards) and the contact solver, the level rules of a
// layered map (climbing a ramp from either end, falling off a slab edge
// along the map's FallModel, the slope's pull) with the rebuilding of a
// level state from a frame, and the shot ray at a level. One
// implementation for both sides: a second copy would drift from the first
// in silence, and prediction is where that shows. Plain Go with float32
// state; it reads maps through package gamemap.
package tanks

import (
	"math"

	"vimpclient/internal/angle"
)

// Key bits of prediction.playerKeys (the bits the host and the predictor agree on).
const (
	KeyForward    = 1
	KeyBack       = 2
	KeyLeft       = 4
	KeyRight      = 8
	KeyGunCenter  = 16
	KeyGunLeft    = 32
	KeyGunRight   = 64
	KeyFire       = 128
	KeyNextWeapon = 256
	KeyPrevWeapon = 512
)

// OneShotKeys are the bits armed for exactly one step by a down.
const OneShotKeys = KeyGunCenter | KeyFire | KeyNextWeapon | KeyPrevWeapon

// Step is the fixed simulation step in seconds (120 Hz).
const Step = float32(1.0 / 120.0)

// Model holds the motion constants of a tank model (m1 in the game data).
type Model struct {
	Size               float32
	Acceleration       float32
	Braking            float32
	MaxForward         float32
	MaxReverse         float32
	TurnTorque         float32
	LinearDamping      float32
	AngularDamping     float32
	LateralGrip        float32
	TurnSpeedThreshold float32
	BaseTurnRatio      float32
	ReverseTurn        float32
	ThrottleUp         float32
	ThrottleDown       float32
	Strain             float32
	MaxGunAngle        float32
	GunSpeed           float32
	GunCenterSpeed     float32
	Density            float32
	Friction           float32
	Restitution        float32
	// BarrelHeight and TurretTop are the gun's and the turret top's
	// heights above the tank's floor (world units): a shot flies at the
	// gun's height and passes over a tank whose top stays below it (0, as
	// in tanks 0.13: shots fly flat and meet every tank of their level).
	BarrelHeight, TurretTop float32
}

// M1 returns the tanks model m1 with the reference game's figures.
func M1() Model {
	return Model{
		Size: 2, Acceleration: 1000, Braking: 0.3, MaxForward: 260, MaxReverse: -130,
		TurnTorque: 215, LinearDamping: 3, AngularDamping: 100, LateralGrip: 20,
		TurnSpeedThreshold: 10, BaseTurnRatio: 0.8, ReverseTurn: 0.7,
		ThrottleUp: 2.0, ThrottleDown: 2.5, Strain: 1.5,
		MaxGunAngle: 1.4, GunSpeed: 3.0, GunCenterSpeed: 10.0,
		Density: 200, Friction: 0.5, Restitution: 0.1,
	}
}

// HalfSize returns the hull half extents (size·2 × size·1.5).
func (m *Model) HalfSize() (float32, float32) { return m.Size * 2, m.Size * 1.5 }

// Tank is the simulated state of one tank; it is also the player block
// state (x, y, angle, vx, vy, angvel, gun, throttle).
type Tank struct {
	X, Y, Angle    float32
	VX, VY, AngVel float32
	Gun            float32
	Throttle       float32
	Centering      bool
	// EngineLoad is derived by each step (0..2), for sound and tracks.
	EngineLoad float32
}

func clamp(v, lo, hi float32) float32 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// DriveKeys are the keys that move the hull (the gun keys are the others).
const DriveKeys = KeyForward | KeyBack | KeyLeft | KeyRight

// Move advances t by one step of dt seconds with the key mask keys (held
// bits plus the one-shots of this step) on flat ground. It does not resolve
// collisions.
func (m *Model) Move(t *Tank, keys uint32, dt float32) { m.MoveOn(t, keys, dt, nil, nil) }

// MoveOn is Move for a tank in level state lv under rules r (both nil on
// flat ground): a falling tank's drive keys do nothing, and on a ramp the
// grade under the hull lowers the top speed uphill and pulls the tank
// down the slope. Off a ramp it is Move bit for bit.
func (m *Model) MoveOn(t *Tank, keys uint32, dt float32, lv *LevelState, r *LevelRules) {
	m.MoveOnGround(t, keys, dt, lv, r, nil)
}

// MoveOnGround is MoveOn over the surfaces of sm (nil: none), and under
// ballistic rules (r.Air.On) a tank in the air only turns its turret. A
// tank that is not in the air samples the surfaces under its tracks (TankMix, with
// a slick residue carried in lv): its speed relative to the ground (a
// conveyor's belt moves it) takes the grip, traction, top speed and
// braking of the blend, the blend's drag and angular drag slow it, the
// tracks' traction difference yaws it, and a boost plate it enters
// pushes it, and a plate with a hold raises its top speed and cancels
// its linear damping for a while. On neutral ground it is MoveOn bit for
// bit.
func (m *Model) MoveOnGround(t *Tank, keys uint32, dt float32, lv *LevelState, r *LevelRules, sm *SurfaceMap) {
	if lv != nil && r != nil && r.Air.On && lv.Airborne() {
		m.fly(t, keys, dt, lv)
		return
	}
	mix := NeutralMix
	var boostX, boostY float32
	hold := false
	if sm != nil && lv != nil {
		DecayBoost(lv, dt)
		if lv.Airborne() {
			DecaySlick(lv, dt)
		} else {
			hw, hh := m.HalfSize()
			mix = sm.TankMix(lv.Level, t.X, t.Y, t.Angle, hw, hh)
			mix = sm.ApplySlick(lv, t.X, t.Y, t.Angle, hw, hh, mix, dt)
			// The look-back of the boost is where the hull was a step
			// ago: this integrator moved it by the velocity before the
			// damping, v·(1 + LinearDamping·dt).
			boostX, boostY = sm.BoostDV(lv.Level, t.X, t.Y, t.VX, t.VY, dt*(1+m.LinearDamping*dt))
			if boostX != 0 || boostY != 0 {
				sm.StartBoostHold(lv, t.X, t.Y)
			}
			if hold = lv.BoostLeft > 0; hold {
				mix.MaxSpeed *= lv.BoostFactor
			}
		}
	}
	if mix != NeutralMix || boostX != 0 || boostY != 0 || hold {
		if hold {
			// The hold cancels this step's linear damping: v·ld·dt added
			// now is taken off again by the damping at the end.
			boostX += t.VX * m.LinearDamping * dt
			boostY += t.VY * m.LinearDamping * dt
		}
		m.moveMixed(t, keys, dt, lv, r, &mix, boostX, boostY, sm.Rules.TrackYawGain)
		return
	}
	if lv != nil && lv.InputLocked() {
		keys &^= DriveKeys
	}
	// 1. Turret.
	m.stepGun(t, keys, dt)
	// 2. Throttle.
	fwdKey, backKey := m.stepThrottle(t, keys, dt)
	// 3. Body frame.
	s64, c64 := math.Sincos(float64(t.Angle))
	c, s := float32(c64), float32(s64)
	fwd := t.VX*c + t.VY*s
	lat := -t.VX*s + t.VY*c
	// 4. Lateral grip.
	dLat := -lat * m.LateralGrip * dt
	// 5. Drive.
	var grade float32
	limit := m.MaxForward
	if lv != nil && r != nil {
		if grade = lv.Grade(c, s); grade > 0 {
			limit *= max(1-r.ClimbSpeedLoss*grade, MinClimbSpeed)
		}
	}
	var a float32
	if t.Throttle > 0 {
		if fwdKey && fwd < limit {
			a = m.Acceleration * t.Throttle
		} else if backKey && fwd > m.MaxReverse {
			a = -m.Acceleration * t.Throttle
		}
	}
	if a == 0 && !fwdKey && !backKey {
		a = -m.Braking * fwd
	}
	if grade != 0 {
		a -= grade * r.ClimbGravity
	}
	dFwd := a * dt
	// 6. Velocity.
	t.VX += c*dFwd - s*dLat
	t.VY += s*dFwd + c*dLat
	// 7. Engine load.
	t.EngineLoad = m.engineLoad(t.Throttle, fwd)
	// 8. Turning.
	t.AngVel += m.turnTorque(fwd, keys) * dt
	// 9. Integrate with the velocity before damping.
	// 10. Damp.
	m.integrate(t, dt)
}

// moveMixed is the step of MoveOn on a surface blend mix with a boost
// push (bx, by) decided from the velocity of the start of the step. The
// body-frame speeds are taken relative to the ground (v − belt): the
// lateral grip is scaled by mix.Grip, the top speed by mix.MaxSpeed, the
// traction by the tracks' mean, the coasting brake by mix.Brake; the
// drag −(v − belt)·Drag·dt and the push are added to the velocity; the
// turn is scaled by mix.Turn, and the tracks' difference
// (AccelL − AccelR)·throttle·Acceleration·yawGain·dt·(±1 with the drive
// direction) and the angular drag −ω·AngularDrag·dt are added to the spin.
func (m *Model) moveMixed(t *Tank, keys uint32, dt float32, lv *LevelState, r *LevelRules, mix *SurfaceMix, bx, by, yawGain float32) {
	if lv != nil && lv.InputLocked() {
		keys &^= DriveKeys
	}
	m.stepGun(t, keys, dt)
	fwdKey, backKey := m.stepThrottle(t, keys, dt)
	s64, c64 := math.Sincos(float64(t.Angle))
	c, s := float32(c64), float32(s64)
	rvx, rvy := t.VX-mix.BeltX, t.VY-mix.BeltY
	fwd := rvx*c + rvy*s
	lat := -rvx*s + rvy*c
	dLat := -lat * m.LateralGrip * dt * mix.Grip
	var grade float32
	limit := m.MaxForward
	if lv != nil && r != nil {
		if grade = lv.Grade(c, s); grade > 0 {
			limit *= max(1-r.ClimbSpeedLoss*grade, MinClimbSpeed)
		}
	}
	limit *= mix.MaxSpeed
	traction := (mix.AccelL + mix.AccelR) * 0.5
	var a float32
	if t.Throttle > 0 {
		if fwdKey && fwd < limit {
			a = m.Acceleration * t.Throttle * traction
		} else if backKey && fwd > m.MaxReverse {
			a = -m.Acceleration * t.Throttle * traction
		}
	}
	if a == 0 && !fwdKey && !backKey {
		a = -m.Braking * fwd * mix.Brake
	}
	if grade != 0 {
		a -= grade * r.ClimbGravity
	}
	dFwd := a * dt
	t.VX += c*dFwd - s*dLat - rvx*mix.Drag*dt + bx
	t.VY += s*dFwd + c*dLat - rvy*mix.Drag*dt + by
	t.EngineLoad = m.engineLoad(t.Throttle, fwd)
	dw := m.turnTorque(fwd, keys)
	var dir float32
	if fwdKey {
		dir = 1
	} else if backKey {
		dir = -1
	}
	yaw := (mix.AccelL - mix.AccelR) * t.Throttle * m.Acceleration * yawGain * dt * dir
	t.AngVel += dw*dt*mix.Turn + yaw - t.AngVel*mix.AngularDrag*dt
	m.integrate(t, dt)
}

// fly is the step of a tank in a ballistic flight: its tracks touch
// nothing, so only the turret answers the keys; the hull keeps its
// throttle and goes on with its velocity and spin, damped. A slick
// residue and a boost hold run down meanwhile.
func (m *Model) fly(t *Tank, keys uint32, dt float32, lv *LevelState) {
	DecayBoost(lv, dt)
	DecaySlick(lv, dt)
	m.stepGun(t, keys, dt)
	t.EngineLoad = 0
	m.integrate(t, dt)
}

// integrate moves the tank by its velocity and spin before the damping,
// then damps them: the end of every step, on the ground or in the air.
func (m *Model) integrate(t *Tank, dt float32) {
	t.X += t.VX * dt
	t.Y += t.VY * dt
	t.Angle = angle.Normalize(t.Angle + t.AngVel*dt)
	ld := 1 / (1 + m.LinearDamping*dt)
	t.VX *= ld
	t.VY *= ld
	t.AngVel *= 1 / (1 + m.AngularDamping*dt)
}

// stepThrottle opens the throttle while a drive key is held and closes it
// otherwise, and reports the keys held.
func (m *Model) stepThrottle(t *Tank, keys uint32, dt float32) (fwdKey, backKey bool) {
	fwdKey, backKey = keys&KeyForward != 0, keys&KeyBack != 0
	if fwdKey || backKey {
		t.Throttle = min(t.Throttle+m.ThrottleUp*dt, 1)
	} else {
		t.Throttle = max(t.Throttle-m.ThrottleDown*dt, 0)
	}
	return fwdKey, backKey
}

// engineLoad is the engine's load (0..2) at throttle while the hull runs
// at fwd along its heading: above the throttle when the tank is held back
// (strain).
func (m *Model) engineLoad(throttle, fwd float32) float32 {
	var ratio float32
	if fwd > 0 {
		ratio = clamp(fwd/m.MaxForward, 0, 1)
	} else if fwd < 0 {
		ratio = clamp(abs32(fwd/m.MaxReverse), 0, 1)
	}
	ratio = float32(math.Round(float64(ratio)*10000) / 10000)
	return clamp(throttle+m.Strain*max(0, throttle-ratio), 0, 2)
}

// turnTorque is the spin a held turn key adds a second at speed fwd: less
// when slow, less again in reverse.
func (m *Model) turnTorque(fwd float32, keys uint32) float32 {
	f := float32(1)
	if abs32(fwd) < m.TurnSpeedThreshold {
		f = m.BaseTurnRatio
	}
	if fwd < 0 {
		f *= m.ReverseTurn
	}
	switch {
	case keys&KeyRight != 0:
		return m.TurnTorque * f
	case keys&KeyLeft != 0:
		return -m.TurnTorque * f
	}
	return 0
}

// stepGun turns or centres the turret by one step.
func (m *Model) stepGun(t *Tank, keys uint32, dt float32) {
	if keys&KeyGunCenter != 0 {
		t.Centering = true
	}
	if t.Centering {
		t.Gun += (0 - t.Gun) * min(m.GunCenterSpeed*dt, 1)
		if abs32(t.Gun) < 0.01 {
			t.Gun = 0
			t.Centering = false
		}
		if keys&(KeyGunLeft|KeyGunRight) != 0 {
			t.Centering = false
		}
	} else {
		r := m.GunSpeed * dt
		if keys&KeyGunLeft != 0 {
			t.Gun = max(t.Gun-r, -m.MaxGunAngle)
		} else if keys&KeyGunRight != 0 {
			t.Gun = min(t.Gun+r, m.MaxGunAngle)
		}
	}
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
