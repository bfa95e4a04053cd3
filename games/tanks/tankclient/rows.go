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

// crateRow is a map dynamics row (c1, c2): the body's corner origin and
// angle, and the velocity tail a resting body does not send (it reads 0).
type crateRow struct {
	x, y, angle, vx, vy, angvel clientcore.BoundField
}

func bindCrateRow(b *clientcore.Binder) crateRow {
	return crateRow{
		x: b.Require("x"), y: b.Require("y"), angle: b.Require("angle"),
		vx: b.Optional("vx", 0), vy: b.Optional("vy", 0), angvel: b.Optional("angvel", 0),
	}
}

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
