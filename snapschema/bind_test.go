package snapschema

import (
	"errors"
	"slices"
	"testing"
)

func mustParse(t *testing.T, raw string) *Schema {
	t.Helper()
	s, err := Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const layered = `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":6,"fields":[
	{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"angle","ty":"f32"},
	{"name":"z","ty":"f32","role":"z"},{"name":"level","ty":"u8","role":"level"},{"name":"state","ty":"u8","role":"state"},
	{"name":"vx","ty":"f32"}]},
	"w1":{"id":2,"kind":"list16","class":"event","fields":[{"name":"endX","ty":"f32"},{"name":"shooterId","ty":"u8"}]}}`

// Names find only fields without a role, roles only role fields; a
// required name the key lacks fails Err, an optional one is unbound and
// listed as absent; Complete also names the fields nobody bound.
func TestBinderNamesRolesAndAccount(t *testing.T) {
	k := mustParse(t, layered).Key("c1")
	b := NewBinder(k)
	x, z, state := b.Require("x"), b.Role(RoleZ), b.Role(RoleState)
	if x.Index() != 0 || z.Index() != 3 || state.Index() != 5 {
		t.Fatalf("x at %d, z at %d, state at %d", x.Index(), z.Index(), state.Index())
	}
	if byName := b.Optional("z"); byName.Bound() {
		t.Fatalf("the name z bound the role field at %d", byName.Index())
	}
	if b.Require("spin"); b.Err() == nil {
		t.Fatal("a missing required field went unnoticed")
	}
	var be *BindError
	if err := b.Complete(); !errors.As(err, &be) || !slices.Equal(be.Missing, []string{"spin"}) ||
		!slices.Equal(be.Unaccounted, []string{"y", "angle", "role level (level)", "vx"}) {
		t.Fatalf("complete: %v", err)
	}
	if !slices.Equal(b.Absent(), []string{"z"}) {
		t.Fatalf("absent %v", b.Absent())
	}
	b.Ignore("y", "angle", "vx", "nothing")
	b.IgnoreRoles(RoleLevel, RoleNone)
	if un := b.Unaccounted(); len(un) != 0 {
		t.Fatalf("unaccounted after ignoring: %v", un)
	}
	// The author is found by name, whatever follows it.
	w := NewBinder(mustParse(t, layered).Key("w1"))
	if a := w.Author("ownerId", "shooterId"); a.Index() != 1 {
		t.Fatalf("author at %d", a.Index())
	}
	if a := NewBinder(mustParse(t, layered).Key("w1")).Author("endX"); a.Index() != 0 {
		t.Fatalf("author by name at %d", a.Index())
	}
	nameless := NewBinder(mustParse(t, layered).Key("w1"))
	if a := nameless.Author("ownerId"); a.Bound() || nameless.Err() == nil {
		t.Fatal("a key without the author's name gave an author (by position?)")
	}
	empty := NewBinder(mustParse(t, `{"e":{"id":1,"kind":"list16","class":"event"}}`).Key("e"))
	if a := empty.Author("shooterId"); a.Bound() || empty.Err() == nil {
		t.Fatal("a key without fields gave an author")
	}
}

// A Pos reads and writes its field; an unbound one, or a row too short,
// reads 0 and writes nothing.
func TestPosReadsAndWrites(t *testing.T) {
	row := []float32{1, 2, 3}
	p, none := At(2), At(-1)
	if p.Get(row) != 3 || p.Float64(row) != 3 || none.Get(row) != 0 || none.Bound() || none.Index() != -1 {
		t.Fatal("reads")
	}
	if _, ok := p.Lookup(row[:2]); ok {
		t.Fatal("a short row held the field")
	}
	p.Set(row, 9)
	none.Set(row, 7)
	At(5).Set(row, 7)
	if !slices.Equal(row, []float32{1, 2, 9}) {
		t.Fatalf("row %v", row)
	}
}
