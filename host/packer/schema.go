// Package packer writes snapshot frames in the engine's binary format
// version 5, the way a vimp host's packer does: the game
// hands it rows of raw field values and it lays them out by the snapshot
// schema the host also sends in CONFIG_DATA. It imports only the standard
// library so the host loop can use it without pulling in client code.
package packer

import (
	"encoding/json"
	"fmt"
	"math"
)

// Kind is a block kind: it fixes the width of the count and id and whether
// rows can be null.
type Kind uint8

// The four block kinds of format version 5.
const (
	Indexed8 Kind = iota + 1
	Indexed32
	List16
	IndexedNoNull8
)

// FieldType is the wire type of one row field.
type FieldType uint8

// Wire types; every multi-byte value is big-endian.
const (
	F32 FieldType = iota + 1
	U8
	U16
	U32
)

// Key is one schema entry: the block id and the row layout.
type Key struct {
	Name string
	ID   uint8
	Kind Kind
	// Types holds the wire type of each field in row order.
	Types []FieldType
	// Names holds each field's name in row order, for a game that places
	// its values by name.
	Names []string
	// Roles holds each field's engine role in row order ("" for none; z,
	// level or state on a map-dynamics row), for a game that places the
	// engine's fields by role.
	Roles []string
	// OptionalFrom is the index of the first tail field, or 0 when rows have
	// no optional tail.
	OptionalFrom int
}

// Index is the position of the named field in the key's rows, or -1.
func (k *Key) Index(name string) int {
	for i, n := range k.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// RoleIndex is the position of the field with the engine role, or -1.
func (k *Key) RoleIndex(role string) int {
	for i, r := range k.Roles {
		if r != "" && r == role {
			return i
		}
	}
	return -1
}

// Schema is a set of keys, looked up by name when the game packs a block.
type Schema struct {
	keys map[string]*Key
}

// Key returns the named key or nil.
func (s *Schema) Key(name string) *Key { return s.keys[name] }

type wireField struct {
	Name string `json:"name"`
	Ty   string `json:"ty"`
	Role string `json:"role"`
}

type wireKey struct {
	ID           *int        `json:"id"`
	Kind         string      `json:"kind"`
	Class        string      `json:"class"`
	Fields       []wireField `json:"fields"`
	OptionalFrom *int        `json:"optionalFrom"`
}

// ParseSchema reads the CONFIG_DATA "snapshot" object (key → entry) or the
// conformance form {"version","port","keys"}.
func ParseSchema(raw []byte) (*Schema, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("snapshot schema: %w", err)
	}
	if k, ok := probe["keys"]; ok {
		if _, hasVer := probe["version"]; hasVer {
			probe = nil
			if err := json.Unmarshal(k, &probe); err != nil {
				return nil, fmt.Errorf("snapshot schema keys: %w", err)
			}
		}
	}
	s := &Schema{keys: make(map[string]*Key, len(probe))}
	seen := map[int]string{}
	for name, body := range probe {
		var wk wireKey
		if err := json.Unmarshal(body, &wk); err != nil {
			return nil, fmt.Errorf("snapshot key %q: %w", name, err)
		}
		if wk.ID == nil || *wk.ID < 0 || *wk.ID > 255 {
			return nil, fmt.Errorf("snapshot key %q: id missing or outside 0..255", name)
		}
		if other, dup := seen[*wk.ID]; dup {
			return nil, fmt.Errorf("snapshot key %q: id %d already used by %q", name, *wk.ID, other)
		}
		seen[*wk.ID] = name
		k := &Key{Name: name, ID: uint8(*wk.ID)}
		switch wk.Kind {
		case "indexed8":
			k.Kind = Indexed8
		case "indexed32":
			k.Kind = Indexed32
		case "list16":
			k.Kind = List16
		case "indexedNoNull8":
			k.Kind = IndexedNoNull8
		default:
			return nil, fmt.Errorf("snapshot key %q: unknown kind %q", name, wk.Kind)
		}
		for _, f := range wk.Fields {
			var t FieldType
			switch f.Ty {
			case "f32":
				t = F32
			case "u8":
				t = U8
			case "u16":
				t = U16
			case "u32":
				t = U32
			default:
				return nil, fmt.Errorf("snapshot key %q field %q: unknown type %q", name, f.Name, f.Ty)
			}
			k.Types = append(k.Types, t)
			k.Names = append(k.Names, f.Name)
			k.Roles = append(k.Roles, f.Role)
		}
		if wk.OptionalFrom != nil {
			of := *wk.OptionalFrom
			if of < 1 || of >= len(k.Types) {
				return nil, fmt.Errorf("snapshot key %q: optionalFrom %d outside 1..%d", name, of, len(k.Types)-1)
			}
			k.OptionalFrom = of
		}
		s.keys[name] = k
	}
	return s, nil
}

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
