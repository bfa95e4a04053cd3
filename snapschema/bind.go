package snapschema

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is where one field sits in a key's rows, found once per schema by a
// Binder. The zero Pos is unbound: the key lacks the field (an optional
// field, a role the key does not declare).
//
// A host places values with Index; a client reads its decoded rows (one
// float32 per field, full width) with Get. Reading a row too short for the
// field, which only a caller can build, gives 0 instead of a panic.
type Pos struct{ p int32 } // index + 1; 0 when unbound

// At is the Pos of the field at index i (unbound for i < 0).
func At(i int) Pos {
	if i < 0 {
		return Pos{}
	}
	return Pos{int32(i + 1)}
}

// Index is the field's position in the row, or -1 when unbound.
func (p Pos) Index() int { return int(p.p) - 1 }

// Bound reports whether the key has the field.
func (p Pos) Bound() bool { return p.p != 0 }

// Lookup reads the field from a decoded row and reports whether the row
// holds it: false for an unbound field or a row too short (a null row has
// no fields).
func (p Pos) Lookup(row []float32) (float32, bool) {
	if i := int(p.p) - 1; uint(i) < uint(len(row)) {
		return row[i], true
	}
	return 0, false
}

// Get reads the field from a decoded row; an unbound one reads 0.
func (p Pos) Get(row []float32) float32 {
	v, _ := p.Lookup(row)
	return v
}

// Float64 is Get widened, for callers that compute in float64.
func (p Pos) Float64(row []float32) float64 { return float64(p.Get(row)) }

// Set writes the field into a row being built in the key's layout; an
// unbound field is not written.
func (p Pos) Set(row []float32, v float32) {
	if i := int(p.p) - 1; uint(i) < uint(len(row)) {
		row[i] = v
	}
}

// Binder binds the fields a reader or writer of one key's rows uses, by
// name, by the engine's role or as the author id, and keeps account of the
// key's fields so that a game can tell a layout it does not fully know.
//
// Names bind only fields without a role: the roles z, level and state are
// the engine's, and a role, never a name, says which field carries them.
type Binder struct {
	key     *Key
	used    []bool   // bound or knowingly ignored
	missing []string // required names the key lacks
	absent  []string // optional names the key lacks
}

// NewBinder starts binding against key.
func NewBinder(key *Key) *Binder {
	return &Binder{key: key, used: make([]bool, len(key.Fields))}
}

// Key is the key being bound.
func (b *Binder) Key() *Key { return b.key }

func (b *Binder) bind(i int) Pos {
	if i >= 0 {
		b.used[i] = true
	}
	return At(i)
}

// Require binds a field the game cannot do without; a key that lacks it
// makes Err fail.
func (b *Binder) Require(name string) Pos {
	i := b.key.Index(name)
	if i < 0 {
		b.missing = append(b.missing, name)
	}
	return b.bind(i)
}

// Optional binds a field that older layouts may lack (typically one of the
// optional row tail): the Pos is unbound when the key has no such field.
func (b *Binder) Optional(name string) Pos {
	i := b.key.Index(name)
	if i < 0 {
		b.absent = append(b.absent, name)
	}
	return b.bind(i)
}

// Role binds the field carrying an engine role (z, level or state of a map
// body). A key without the role gives an unbound Pos: a flat row has no z
// or level, a body without the role no state byte.
func (b *Binder) Role(r Role) Pos { return b.bind(b.key.RoleIndex(r)) }

// RoleOrName binds the field carrying engine role r, else the field
// called name: a game may write such a value in a row of its own without
// the engine's role (tanks 0.22's m1 has z and level by name alone). The
// Pos is unbound when the key has neither.
func (b *Binder) RoleOrName(r Role, name string) Pos {
	if i := b.key.RoleIndex(r); i >= 0 {
		return b.bind(i)
	}
	return b.bind(b.key.Index(name))
}

// Author binds the author id of a weapon event row by its name: the first
// of names the key has (a game names its own: shooterId, ownerId). Never
// by position: newer layouts put other fields after the author (the levels
// a shot starts and ends on), which a positional rule would read as the
// shooter. A key with none of the names makes Err fail.
func (b *Binder) Author(names ...string) Pos {
	for _, n := range names {
		if i := b.key.Index(n); i >= 0 {
			return b.bind(i)
		}
	}
	b.missing = append(b.missing, "author id ("+strings.Join(names, " or ")+")")
	return Pos{}
}

// Ignore accounts for fields the game knowingly leaves alone. Names the
// key does not have are ignored too.
func (b *Binder) Ignore(names ...string) {
	for _, n := range names {
		b.bind(b.key.Index(n))
	}
}

// IgnoreRoles accounts for role fields the game knowingly leaves alone.
func (b *Binder) IgnoreRoles(roles ...Role) {
	for _, r := range roles {
		b.bind(b.key.RoleIndex(r))
	}
}

// Err refuses the binding when a required field is missing; nothing else
// fails it.
func (b *Binder) Err() error {
	if len(b.missing) == 0 {
		return nil
	}
	return &BindError{Key: b.key.Name, Missing: b.missing}
}

// Missing lists the required names the key lacks.
func (b *Binder) Missing() []string { return b.missing }

// Absent lists the optional names the key lacks.
func (b *Binder) Absent() []string { return b.absent }

// Unaccounted lists the key's fields the game neither bound nor ignored,
// in row order: a layout newer than the game. Role fields are named by
// their role.
func (b *Binder) Unaccounted() []string {
	var out []string
	for i, ok := range b.used {
		if !ok {
			out = append(out, fieldLabel(&b.key.Fields[i]))
		}
	}
	return out
}

// Complete is Err, and also refuses a key with unaccounted fields: for a
// game that must not guess, such as a part that would draw a newer layout
// wrongly or a host that would leave a field unwritten.
func (b *Binder) Complete() error {
	un := b.Unaccounted()
	if len(b.missing) == 0 && len(un) == 0 {
		return nil
	}
	return &BindError{Key: b.key.Name, Missing: b.missing, Unaccounted: un}
}

func fieldLabel(f *Field) string {
	if f.Role != RoleNone {
		return "role " + f.Role.String() + " (" + f.Name + ")"
	}
	return f.Name
}

// BindError names the key and the fields a binding refused.
type BindError struct {
	Key         string
	Missing     []string // required fields the key lacks
	Unaccounted []string // key fields the game does not know (Complete only)
}

func (e *BindError) Error() string {
	var parts []string
	for _, n := range e.Missing {
		parts = append(parts, "missing field "+strconv.Quote(n))
	}
	for _, n := range e.Unaccounted {
		parts = append(parts, "unaccounted field "+strconv.Quote(n))
	}
	return fmt.Sprintf("snapshot key %q: %s", e.Key, strings.Join(parts, ", "))
}
