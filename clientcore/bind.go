package clientcore

import "vimpclient/snapschema"

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
	pos snapschema.Pos
	def float32 // what an unbound field reads
}

// Get reads the field from a row's (or a record's) fields.
func (f BoundField) Get(fields []float32) float32 {
	if v, ok := f.pos.Lookup(fields); ok {
		return v
	}
	return f.def
}

// Lookup is Get that also reports whether the value came from the row:
// false for an unbound field or a row too short to hold it (a null row has
// no fields).
func (f BoundField) Lookup(fields []float32) (float32, bool) {
	if v, ok := f.pos.Lookup(fields); ok {
		return v, true
	}
	return f.def, false
}

// Float64 is Get widened, for callers that compute in float64.
func (f BoundField) Float64(fields []float32) float64 { return float64(f.Get(fields)) }

// Set writes the field into a row being built in the key's layout; an
// unbound field is not written.
func (f BoundField) Set(fields []float32, v float32) { f.pos.Set(fields, v) }

// Bound reports whether the schema has the field.
func (f BoundField) Bound() bool { return f.pos.Bound() }

// Index is the field's position in the row, or -1 when unbound.
func (f BoundField) Index() int { return f.pos.Index() }

// Binder binds the fields a reader of one key's rows uses, by name, by the
// engine's role or as the author id, and keeps account of the key's fields
// so that a reader can tell a layout it does not fully know. It is a
// snapschema.Binder whose fields carry a default; a game's row declaration
// binds through Positions and shares the account.
//
// Names bind only fields without a role: the roles z, level and state are
// the engine's, and a role, never a name, says which field carries them.
type Binder struct {
	key *KeySchema
	pos *snapschema.Binder
}

// NewBinder starts binding against key.
func NewBinder(key *KeySchema) *Binder {
	return &Binder{key: key, pos: snapschema.NewBinder(&key.Key)}
}

// BindLayout binds key by a row layout a game declares once (a function
// over the position binder, shared with the host that writes the rows): the
// whole of a part factory's binding when the game's declaration is all it
// reads. As Err does, it fails only when a field the layout requires is
// missing: fields the layout does not know (a newer host's, anywhere in the
// row) are read past, so an added field never takes a part down.
func BindLayout[R any](key *KeySchema, layout func(*snapschema.Binder) R) (R, error) {
	b := NewBinder(key)
	r := layout(b.Positions())
	return r, b.Err()
}

// Key is the key being bound.
func (b *Binder) Key() *KeySchema { return b.key }

// Positions is the position binder under b: a game's row declaration,
// shared with the host that writes the rows, binds through it, and what it
// binds counts for Err, Complete and Unaccounted.
func (b *Binder) Positions() *snapschema.Binder { return b.pos }

// Require binds a field the reader cannot do without; a key that lacks it
// makes Err fail.
func (b *Binder) Require(name string) BoundField { return BoundField{pos: b.pos.Require(name)} }

// Optional binds a field that older layouts may lack (typically one of the
// optional row tail): when the key has no such field it reads def. A field
// the key has reads what the row holds, zeros for a tail the host did not
// send.
func (b *Binder) Optional(name string, def float32) BoundField {
	return BoundField{pos: b.pos.Optional(name), def: def}
}

// Role binds the field carrying an engine role (z, level or state of a map
// body). A key without the role gives an unbound field that reads 0: a
// flat row has no z or level, a body without the role no state byte.
func (b *Binder) Role(r snapschema.Role) BoundField { return BoundField{pos: b.pos.Role(r)} }

// Author binds the author id of a weapon event row by its name, the first
// of names the key has; a key with none makes Err fail.
func (b *Binder) Author(names ...string) BoundField { return BoundField{pos: b.pos.Author(names...)} }

// Ignore accounts for fields the reader knowingly leaves alone. Names the
// key does not have are ignored too.
func (b *Binder) Ignore(names ...string) { b.pos.Ignore(names...) }

// IgnoreRoles accounts for role fields the reader knowingly leaves alone.
func (b *Binder) IgnoreRoles(roles ...snapschema.Role) { b.pos.IgnoreRoles(roles...) }

// Err refuses the binding when a required field is missing (a
// *snapschema.BindError); nothing else fails it.
func (b *Binder) Err() error { return b.pos.Err() }

// Missing lists the required names the key lacks.
func (b *Binder) Missing() []string { return b.pos.Missing() }

// Unaccounted lists the key's fields the reader neither bound nor ignored,
// in row order: a layout newer than the reader. Role fields are named by
// their role.
func (b *Binder) Unaccounted() []string { return b.pos.Unaccounted() }

// Absent lists the optional names the key lacks, which read their
// defaults.
func (b *Binder) Absent() []string { return b.pos.Absent() }

// Complete is Err, and also refuses a key with unaccounted fields: for a
// reader that must not guess, such as a part that would draw a newer layout
// wrongly.
func (b *Binder) Complete() error { return b.pos.Complete() }
