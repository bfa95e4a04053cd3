package tankclient

import "vimpclient/clientcore"

// The snapshot rows the tanks game reads and writes, bound by name once per
// CONFIG_DATA (or MAP_DATA for the map set key). Each bind function is the
// game's record of a key: the key-record tests compare it with the engine's
// schemas both ways.

// tankRow is a tank model's row (m1).
type tankRow struct {
	x, y, angle, gun, vx, vy, load, cond, size, team, angvel clientcore.BoundField
}

func bindTankRow(b *clientcore.Binder) tankRow {
	return tankRow{
		x: b.Require("x"), y: b.Require("y"), angle: b.Require("angle"), gun: b.Require("gunRotation"),
		vx: b.Require("vx"), vy: b.Require("vy"), load: b.Require("engineLoad"),
		cond: b.Require("condition"), size: b.Require("size"), team: b.Require("team"),
		angvel: b.Require("angvel"),
	}
}

// tankHeight is where a tank is on a layered map, in the tank row of a host
// that says it (the embedded host's m1): its height above the ground in
// world units and its level. A row without them is flat: both unbound.
type tankHeight struct {
	z, level clientcore.BoundField
}

// bindTankHeight binds the height fields when the key has both (a key with
// only one of them is read as flat).
func bindTankHeight(b *clientcore.Binder) tankHeight {
	k := b.Key()
	if !hasField(k, "z") || !hasField(k, "level") {
		return tankHeight{}
	}
	return tankHeight{z: b.Optional("z", 0), level: b.Optional("level", 0)}
}

func (h *tankHeight) bound() bool { return h.z.Bound() && h.level.Bound() }

func hasField(k *clientcore.KeySchema, name string) bool {
	for i := range k.Fields {
		if f := &k.Fields[i]; f.Role == clientcore.RoleNone && f.Name == name {
			return true
		}
	}
	return false
}

// crateRow is a map dynamics row (c1, c2): the body's corner origin and
// angle, the velocity tail a resting body does not send (it reads 0), and
// on a layered row the body's height above the ground (world units) and
// level, by their engine roles; the state byte, when a host sends one, is
// not the tanks game's.
type crateRow struct {
	x, y, angle, vx, vy, angvel clientcore.BoundField
	z, level                    clientcore.BoundField
}

func bindCrateRow(b *clientcore.Binder) crateRow {
	r := crateRow{
		x: b.Require("x"), y: b.Require("y"), angle: b.Require("angle"),
		vx: b.Optional("vx", 0), vy: b.Optional("vy", 0), angvel: b.Optional("angvel", 0),
		z: b.Role(clientcore.RoleZ), level: b.Role(clientcore.RoleLevel),
	}
	b.IgnoreRoles(clientcore.RoleState)
	return r
}

// layered reports whether the rows carry the height and level.
func (r *crateRow) layered() bool { return r.z.Bound() && r.level.Bound() }

// tracerRow is a hitscan weapon's event row (w1).
type tracerRow struct {
	startX, startY, endX, endY, bodyX, bodyY, hit, author clientcore.BoundField
}

func bindTracerRow(b *clientcore.Binder) tracerRow {
	return tracerRow{
		startX: b.Require("startX"), startY: b.Require("startY"), endX: b.Require("endX"), endY: b.Require("endY"),
		bodyX: b.Require("bodyX"), bodyY: b.Require("bodyY"), hit: b.Require("wasHit"),
		author: b.Author(),
	}
}

// bombRow is an explosive weapon's event row (w2).
type bombRow struct {
	x, y, angle, size, time, author clientcore.BoundField
}

func bindBombRow(b *clientcore.Binder) bombRow {
	return bombRow{
		x: b.Require("x"), y: b.Require("y"), angle: b.Require("angle"),
		size: b.Require("size"), time: b.Require("time"),
		author: b.Author(),
	}
}
