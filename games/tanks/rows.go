package tanks

import "vimpclient/snapschema"

// The snapshot rows of the tanks game, each declared once: which fields a
// row has (by name, or by engine role for z, level and state) and which of
// them older layouts may lack. The host binds them against the schema it
// sends and places its values at the positions found; the client's parts
// and its prediction bind them against the schema they receive and read
// their fields from them. Each Bind function is the game's record of a
// key: the key-record tests compare it with the engine's schemas both ways.

// TankRow is a tank model's row (m1).
type TankRow struct {
	X, Y, Angle, Gun, VX, VY, Load, Cond, Size, Team, AngVel snapschema.Pos
	// Z and Level are the tank's height and level: z in levels above the
	// ground (1.5: half way up from level 1 to level 2, on a ramp or in a
	// jump), by the engine roles z and level or, as tanks 0.22 writes them,
	// by the names alone. A flat row (a real tanks 0.13 host's) has
	// neither and leaves both unbound.
	Z, Level snapschema.Pos
	// VZ is the vertical speed in levels a second (0 on the ground), Pitch
	// and Roll the hull's tilt in radians: tanks 0.21 and later; unbound
	// in older rows.
	VZ, Pitch, Roll snapschema.Pos
}

// BindTankRow binds the m1 row through b.
func BindTankRow(b *snapschema.Binder) TankRow {
	return TankRow{
		X: b.Require("x"), Y: b.Require("y"), Angle: b.Require("angle"), Gun: b.Require("gunRotation"),
		VX: b.Require("vx"), VY: b.Require("vy"), Load: b.Require("engineLoad"),
		Cond: b.Require("condition"), Size: b.Require("size"), Team: b.Require("team"),
		AngVel: b.Require("angvel"),
		Z:      b.RoleOrName(snapschema.RoleZ, "z"), Level: b.RoleOrName(snapschema.RoleLevel, "level"),
		VZ: b.Optional("vz"), Pitch: b.Optional("pitch"), Roll: b.Optional("roll"),
	}
}

// Layered reports whether the rows carry the height and level (the schema
// rules declare the two roles together).
func (r *TankRow) Layered() bool { return r.Z.Bound() && r.Level.Bound() }

// CrateRow is a map dynamics row (c1, c2): the body's corner origin and
// angle in the mandatory head, the velocities in the optional tail a
// resting body does not send (a client reads 0 for them). A layered row
// also carries, in its head, the body's height in levels above the ground
// and its level by the engine roles z and level; a host may send the
// body's state byte (role state: 1 damaged, 2 destroyed).
type CrateRow struct {
	X, Y, Angle, VX, VY, AngVel snapschema.Pos
	Z, Level, State             snapschema.Pos
}

// BindCrateRow binds a map dynamics row through b.
func BindCrateRow(b *snapschema.Binder) CrateRow {
	return CrateRow{
		X: b.Require("x"), Y: b.Require("y"), Angle: b.Require("angle"),
		VX: b.Optional("vx"), VY: b.Optional("vy"), AngVel: b.Optional("angvel"),
		Z: b.Role(snapschema.RoleZ), Level: b.Role(snapschema.RoleLevel), State: b.Role(snapschema.RoleState),
	}
}

// Layered reports whether the rows carry the height and level.
func (r *CrateRow) Layered() bool { return r.Z.Bound() && r.Level.Bound() }

// TracerRow is a hitscan weapon's event row (w1): the tracer from the
// muzzle to where it ended, the body it started from, whether it hit, and
// its author (the shooterId field, found by name: newer layouts follow it
// with the levels the shot starts and ends on).
type TracerRow struct {
	StartX, StartY, EndX, EndY, BodyX, BodyY, Hit, Author snapschema.Pos
	// StartLevel and EndLevel are the levels the shot left and ended on
	// (tanks 0.17 and later; unbound in older rows).
	StartLevel, EndLevel snapschema.Pos
}

// BindTracerRow binds the w1 row through b.
func BindTracerRow(b *snapschema.Binder) TracerRow {
	return TracerRow{
		StartX: b.Require("startX"), StartY: b.Require("startY"), EndX: b.Require("endX"), EndY: b.Require("endY"),
		BodyX: b.Require("bodyX"), BodyY: b.Require("bodyY"), Hit: b.Require("wasHit"),
		Author:     b.Author("shooterId"),
		StartLevel: b.Optional("startLevel"), EndLevel: b.Optional("endLevel"),
	}
}

// BombRow is an explosive weapon's event row (w2): where the bomb lies,
// its size, its fuse time and its author (the ownerId field, found by name:
// newer layouts follow it with the bomb's level).
type BombRow struct {
	X, Y, Angle, Size, Time, Author snapschema.Pos
	// Level is the level the bomb lies on (tanks 0.17 and later).
	Level snapschema.Pos
}

// BindBombRow binds the w2 row through b.
func BindBombRow(b *snapschema.Binder) BombRow {
	return BombRow{
		X: b.Require("x"), Y: b.Require("y"), Angle: b.Require("angle"),
		Size: b.Require("size"), Time: b.Require("time"),
		Author: b.Author("ownerId"), Level: b.Optional("level"),
	}
}

// ExplosionRow is a bomb's explosion (w2e): its centre and radius, and
// the level it goes off on (tanks 0.17 and later).
type ExplosionRow struct{ X, Y, Radius, Level snapschema.Pos }

// BindExplosionRow binds the w2e row through b.
func BindExplosionRow(b *snapschema.Binder) ExplosionRow {
	return ExplosionRow{X: b.Require("x"), Y: b.Require("y"), Radius: b.Require("radius"), Level: b.Optional("level")}
}
