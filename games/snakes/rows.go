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
// (p0x, p0y ... p15x, p15y), heading, radius, crystals, colour and the
// flags byte, which the schema names "boost" (see Flags).
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

// The bits of the s1 row's last byte. Hosts of the older game send it as
// 0 or 1 (boosting or not); newer hosts add bit 1 for the spawn grace, the
// seconds after a spawn when the snake stands still, cannot crash and
// cannot be crashed into. Both read the same way: one decoder for both.
const (
	FlagBoost = 1 << 0
	FlagGrace = 1 << 1
)

// Flags reads the s1 row's flags byte: whether the snake boosts and whether
// it is in its spawn grace. A value that is no byte (negative, fractional
// garbage, NaN, past 255) sets neither.
func Flags(v float64) (boost, grace bool) {
	if !(v >= 0 && v <= 255) {
		return false, false
	}
	b := uint8(v)
	return b&FlagBoost != 0, b&FlagGrace != 0
}

// CrystalRow is a crystal's row (cr): where it lies, its tier and colour.
type CrystalRow struct{ X, Y, Tier, Color snapschema.Pos }

// BindCrystalRow binds the cr row through b.
func BindCrystalRow(b *snapschema.Binder) CrystalRow {
	return CrystalRow{X: b.Require("x"), Y: b.Require("y"), Tier: b.Require("tier"), Color: b.Require("color")}
}

// Palette is the snakes' colours, by the s1 row's colour index modulo its
// length; the game only ever appends to it.
var Palette = [12]uint32{0xff4d4d, 0xff9f1c, 0xffd23f, 0x9bde3c, 0x2ec4b6, 0x3ab7ff, 0x5468ff, 0xb15cff, 0xff5cc8, 0xf7f7f7, 0x7de2d1, 0xffa4a4}

// CSSColour is colour index i as a CSS colour ("#ff4d4d"): the colour of
// its player's name in chat.
func CSSColour(i uint8) string {
	const hex = "0123456789abcdef"
	c := Palette[int(i)%len(Palette)]
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for k := 6; k >= 1; k-- {
		b[k] = hex[c&0xf]
		c >>= 4
	}
	return string(b)
}
