// Package snapschema describes the snapshot schema a vimp host sends in
// CONFIG_DATA.snapshot: the keys of a snapshot frame, each with its wire
// id, block kind, class and row layout (fields with their wire types,
// interpolation and engine roles, and the optional row tail). It parses
// and validates the engine's schema JSON, and binds the fields a game
// reads or writes to their positions in a key's rows.
//
// It is the one schema model of the project: the client's decoder and the
// host's packer both build on it, and each game declares its row layouts
// against it once. It imports only the standard library (and the
// project's JSON member reader), so host and client code alike can use it.
package snapschema

import "strconv"

// Kind is a block's wire layout: how rows are counted and identified and
// whether a row can be null (a removal).
type Kind uint8

// The four block kinds of format version 5.
const (
	KindIndexed8       Kind = iota + 1 // u8 count, u8 id, null marker
	KindIndexed32                      // u16 count, u32 id, null marker
	KindList16                         // u16 count, rows only
	KindIndexedNoNull8                 // u8 count, u8 index, no null marker
)

// Class says whether a block is interpolated between frames (hot) or only
// delivered through event frames.
type Class uint8

// The two block classes.
const (
	ClassHot Class = iota + 1
	ClassEvent
)

// FieldType is a field's wire type; every multi-byte value is big-endian.
type FieldType uint8

// The four wire types.
const (
	TypeF32 FieldType = iota + 1
	TypeU8
	TypeU16
	TypeU32
)

// Interp is how a hot f32 field moves between two frames.
type Interp uint8

// The interpolation modes; discrete is the default.
const (
	InterpDiscrete  Interp = iota // the reference frame's value
	InterpLerp                    // linear
	InterpLerpAngle               // linear along the shorter arc
)

// Role is the engine contract of a map-dynamics field: the engine, not the
// game, says what z, level and state mean, and a role, never a field name,
// says which field carries them.
type Role uint8

// The roles; RoleNone is a game's own field.
const (
	RoleNone Role = iota
	RoleZ
	RoleLevel
	RoleState
)

// The schema JSON spells every enum by name; the tables below give both
// directions (String and parsing).
var (
	kindNames   = [...]string{KindIndexed8: "indexed8", KindIndexed32: "indexed32", KindList16: "list16", KindIndexedNoNull8: "indexedNoNull8"}
	classNames  = [...]string{ClassHot: "hot", ClassEvent: "event"}
	typeNames   = [...]string{TypeF32: "f32", TypeU8: "u8", TypeU16: "u16", TypeU32: "u32"}
	interpNames = [...]string{InterpDiscrete: "discrete", InterpLerp: "lerp", InterpLerpAngle: "lerpAngle"}
	roleNames   = [...]string{RoleZ: "z", RoleLevel: "level", RoleState: "state"}
)

// enumName is names[v], or what(v) for a value without a name.
func enumName(names []string, v uint8, what string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return what + "(" + strconv.Itoa(int(v)) + ")"
}

func (k Kind) String() string      { return enumName(kindNames[:], uint8(k), "Kind") }
func (c Class) String() string     { return enumName(classNames[:], uint8(c), "Class") }
func (t FieldType) String() string { return enumName(typeNames[:], uint8(t), "FieldType") }
func (m Interp) String() string    { return enumName(interpNames[:], uint8(m), "Interp") }
func (r Role) String() string {
	if r == RoleNone {
		return "none"
	}
	return enumName(roleNames[:], uint8(r), "Role")
}

// Size is the field's width on the wire in bytes.
func (t FieldType) Size() int {
	switch t {
	case TypeU8:
		return 1
	case TypeU16:
		return 2
	}
	return 4
}

// Field is one column of a key's rows, in wire order.
type Field struct {
	Name   string
	Type   FieldType
	Interp Interp
	Role   Role
}

// Key describes one snapshot key: its wire id, block kind and row layout.
type Key struct {
	Name   string
	ID     uint8
	Kind   Kind
	Class  Class
	Fields []Field
	// OptionalFrom is the index of the first field of the optional row tail,
	// or 0 when rows have no tail (0 is never a legal tail start).
	OptionalFrom int
}

// Index is the position of the field named name that carries no engine
// role, or -1. Role fields are found by RoleIndex only.
func (k *Key) Index(name string) int {
	for i := range k.Fields {
		if f := &k.Fields[i]; f.Role == RoleNone && f.Name == name {
			return i
		}
	}
	return -1
}

// RoleIndex is the position of the field with the engine role r, or -1.
func (k *Key) RoleIndex(r Role) int {
	if r == RoleNone {
		return -1
	}
	for i := range k.Fields {
		if k.Fields[i].Role == r {
			return i
		}
	}
	return -1
}

// Schema is the snapshot key registry of one CONFIG_DATA.
type Schema struct {
	// Keys in the order the host listed them.
	Keys   []*Key
	byID   [256]*Key
	byName map[string]*Key
}

// KeyByID returns the key registered under wire id, or nil.
func (s *Schema) KeyByID(id uint8) *Key { return s.byID[id] }

// Key returns the key with the given name, or nil.
func (s *Schema) Key(name string) *Key { return s.byName[name] }
