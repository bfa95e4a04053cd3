// Package packer writes snapshot frames in the engine's binary format
// version 5, the way a vimp host's packer does: the game
// hands it rows of raw field values and it lays them out by the snapshot
// schema the host also sends in CONFIG_DATA (a snapschema.Schema, the one
// schema model client and host share). It imports only the standard
// library and snapschema, so the host loop can use it without pulling in
// client code.
package packer

import (
	"math"
	"vimpclient/snapschema"
)

// Value is one row field as it goes on the wire: the bit pattern of an f32
// or the integer itself. Carrying bits keeps NaN payloads and signed zeros
// exact, which a float64 round trip would not.
type Value uint32

// F is the Value of an f32 field.
func F(v float32) Value { return Value(math.Float32bits(v)) }

// I is the Value of an integer field (u8, u16 or u32; excess bits are cut
// to the field's width when packed).
func I(v uint32) Value { return Value(v) }

// Round2 rounds a float to two decimals, half away from zero, the way the
// host rounds row values before packing: the decoder rounds every f32 to
// two decimals, so a value packed unrounded would reach the client changed.
func Round2(v float32) float32 { return float32(math.Round(float64(v)*100) / 100) }

// Round1 rounds to one decimal (tracer end points and explosion centres).
func Round1(v float32) float32 { return float32(math.Round(float64(v)*10) / 10) }

// Number is the number v stands for in a field of wire type t: the f32 an
// f32 field's bits encode, else the integer. It gives a packed row's JSON
// form (FIRST_SHOT_DATA sends rows as numbers).
func (v Value) Number(t snapschema.FieldType) float64 {
	if t == snapschema.TypeF32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return float64(v)
}
