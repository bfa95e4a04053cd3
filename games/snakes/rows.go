package snakes

import (
	"strconv"

	"vimpclient/snapschema"
)

// The snapshot rows of the snakes game, each declared once: the host binds
// them against the schema it sends and places its values at the positions
// found, the client's parts and prediction bind them against the schema
// they receive. Each Bind function is the game's record of a key: the
// key-record test compares it with the engine's schema both ways.

// SnakeRow is a snake model's row (s1): the spine points head first
// (p0x, p0y ... p15x, p15y), heading, radius, crystals, colour and boost.
type SnakeRow struct {
	Spine                                 [SpinePoints][2]snapschema.Pos
	Angle, Radius, Crystals, Color, Boost snapschema.Pos
}

// BindSnakeRow binds the s1 row through b.
func BindSnakeRow(b *snapschema.Binder) SnakeRow {
	var r SnakeRow
	for i := range r.Spine {
		r.Spine[i][0] = b.Require("p" + strconv.Itoa(i) + "x")
		r.Spine[i][1] = b.Require("p" + strconv.Itoa(i) + "y")
	}
	r.Angle, r.Radius, r.Crystals = b.Require("angle"), b.Require("radius"), b.Require("crystals")
	r.Color, r.Boost = b.Require("color"), b.Require("boost")
	return r
}

// CrystalRow is a crystal's row (cr): where it lies, its tier and colour.
type CrystalRow struct{ X, Y, Tier, Color snapschema.Pos }

// BindCrystalRow binds the cr row through b.
func BindCrystalRow(b *snapschema.Binder) CrystalRow {
	return CrystalRow{X: b.Require("x"), Y: b.Require("y"), Tier: b.Require("tier"), Color: b.Require("color")}
}
