package clientcore

import (
	"fmt"
	"strconv"
	"strings"
)

// BoundField is one field of a key's rows, found once per schema by a
// Binder: reading it from a row is an index load. A field the schema does
// not have (an optional field, a role the key does not declare) is unbound
// and reads its default. The zero BoundField is unbound and reads 0.
//
// Rows and records are full width (the decoder fills a missing optional
// tail with zeros), so a bound field always finds its value; a shorter
// slice, which only a caller can build, reads the default instead of
// panicking.
type BoundField struct {
	pos int32   // index + 1; 0 when unbound
	def float32 // what an unbound field reads
}

// Get reads the field from a row's (or a record's) fields.
func (f BoundField) Get(fields []float32) float32 {
	if i := int(f.pos) - 1; uint(i) < uint(len(fields)) {
		return fields[i]
	}
	return f.def
}

// Lookup is Get that also reports whether the value came from the row:
// false for an unbound field or a row too short to hold it (a null row has
// no fields).
func (f BoundField) Lookup(fields []float32) (float32, bool) {
	if i := int(f.pos) - 1; uint(i) < uint(len(fields)) {
		return fields[i], true
	}
	return f.def, false
}

// Float64 is Get widened, for callers that compute in float64.
func (f BoundField) Float64(fields []float32) float64 { return float64(f.Get(fields)) }

// Set writes the field into a row being built in the key's layout; an
// unbound field is not written.
func (f BoundField) Set(fields []float32, v float32) {
	if i := int(f.pos) - 1; uint(i) < uint(len(fields)) {
		fields[i] = v
	}
}

// Bound reports whether the schema has the field.
func (f BoundField) Bound() bool { return f.pos != 0 }

// Index is the field's position in the row, or -1 when unbound.
func (f BoundField) Index() int { return int(f.pos) - 1 }

// Binder binds the fields a reader of one key's rows uses, by name, by the
// engine's role or as the author id, and keeps account of the key's fields
// so that a reader can tell a layout it does not fully know.
//
// Names bind only fields without a role: the roles z, level and state are
// the engine's, and a role, never a name, says which field carries them.
type Binder struct {
	key     *KeySchema
	used    []bool   // read or knowingly ignored
	missing []string // required names the key lacks
	absent  []string // optional names the key lacks
}

// NewBinder starts binding against key.
func NewBinder(key *KeySchema) *Binder {
	return &Binder{key: key, used: make([]bool, len(key.Fields))}
}

// Key is the key being bound.
func (b *Binder) Key() *KeySchema { return b.key }

func (b *Binder) byName(name string) int {
	for i := range b.key.Fields {
		if f := &b.key.Fields[i]; f.Role == RoleNone && f.Name == name {
			return i
		}
	}
	return -1
}

func (b *Binder) bind(i int, def float32) BoundField {
	if i < 0 {
		return BoundField{def: def}
	}
	b.used[i] = true
	return BoundField{pos: int32(i + 1), def: def}
}

// Require binds a field the reader cannot do without; a key that lacks it
// makes Err fail.
func (b *Binder) Require(name string) BoundField {
	i := b.byName(name)
	if i < 0 {
		b.missing = append(b.missing, name)
	}
	return b.bind(i, 0)
}

// Optional binds a field that older layouts may lack (typically one of the
// optional row tail): when the key has no such field it reads def. A field
// the key has reads what the row holds, zeros for a tail the host did not
// send.
func (b *Binder) Optional(name string, def float32) BoundField {
	i := b.byName(name)
	if i < 0 {
		b.absent = append(b.absent, name)
	}
	return b.bind(i, def)
}

// Role binds the field carrying an engine role (z, level or state of a map
// body). A key without the role gives an unbound field that reads 0: a
// flat row has no z or level, a body without the role no state byte.
func (b *Binder) Role(r Role) BoundField {
	if r == RoleNone {
		return BoundField{}
	}
	for i := range b.key.Fields {
		if b.key.Fields[i].Role == r {
			return b.bind(i, 0)
		}
	}
	return BoundField{}
}

// Author binds the author id of a weapon event row: by the engine's rule,
// the last field of every weapon event block. A key without fields has no
// author, which makes Err fail.
func (b *Binder) Author() BoundField {
	n := len(b.key.Fields)
	if n == 0 {
		b.missing = append(b.missing, "author id (the last field)")
		return BoundField{}
	}
	return b.bind(n-1, 0)
}

// Ignore accounts for fields the reader knowingly leaves alone. Names the
// key does not have are ignored too.
func (b *Binder) Ignore(names ...string) {
	for _, n := range names {
		if i := b.byName(n); i >= 0 {
			b.used[i] = true
		}
	}
}

// IgnoreRoles accounts for role fields the reader knowingly leaves alone.
func (b *Binder) IgnoreRoles(roles ...Role) {
	for i := range b.key.Fields {
		for _, r := range roles {
			if r != RoleNone && b.key.Fields[i].Role == r {
				b.used[i] = true
			}
		}
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

// Unaccounted lists the key's fields the reader neither bound nor ignored,
// in row order: a layout newer than the reader. Role fields are named by
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

// Absent lists the optional names the key lacks, which read their
// defaults.
func (b *Binder) Absent() []string { return b.absent }

// Complete is Err, and also refuses a key with unaccounted fields: for a
// reader that must not guess, such as a part that would draw a newer layout
// wrongly.
func (b *Binder) Complete() error {
	un := b.Unaccounted()
	if len(b.missing) == 0 && len(un) == 0 {
		return nil
	}
	return &BindError{Key: b.key.Name, Missing: b.missing, Unaccounted: un}
}

func fieldLabel(f *Field) string {
	switch f.Role {
	case RoleZ:
		return "role z (" + f.Name + ")"
	case RoleLevel:
		return "role level (" + f.Name + ")"
	case RoleState:
		return "role state (" + f.Name + ")"
	}
	return f.Name
}

// BindError names the key and the fields a binding refused.
type BindError struct {
	Key         string
	Missing     []string // required fields the key lacks
	Unaccounted []string // key fields the reader does not know (Complete only)
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
