package clientcore

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"vimpclient/snapschema"
)

// layeredSchema has a map dynamics key with the engine roles (z and level
// at 3 and 4, state at 5, the velocity tail after it), named so that no
// name says what the role is.
const layeredSchema = `{
 "d1": {"id": 1, "kind": "indexedNoNull8", "class": "hot", "optionalFrom": 6, "fields": [
  {"name": "x", "ty": "f32", "interp": "lerp"}, {"name": "y", "ty": "f32", "interp": "lerp"},
  {"name": "angle", "ty": "f32", "interp": "lerpAngle"},
  {"name": "height", "ty": "f32", "role": "z"}, {"name": "floor", "ty": "f32", "role": "level"},
  {"name": "z", "ty": "u8", "role": "state"},
  {"name": "vx", "ty": "f32"}, {"name": "vy", "ty": "f32"}, {"name": "angvel", "ty": "f32"}]},
 "w9": {"id": 2, "kind": "list16", "class": "event", "fields": [
  {"name": "x", "ty": "f32"}, {"name": "y", "ty": "f32"}, {"name": "by", "ty": "u8"}]},
 "e0": {"id": 3, "kind": "list16", "class": "event"}}`

func mustSchema(t testing.TB, raw string) *Schema {
	t.Helper()
	s, err := ParseSchema([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBinderNamesRolesAndAuthor(t *testing.T) {
	s := mustSchema(t, layeredSchema)
	d1 := s.Key("d1")
	b := NewBinder(d1)
	x, angle := b.Require("x"), b.Require("angle")
	z, level, state := b.Role(snapschema.RoleZ), b.Role(snapschema.RoleLevel), b.Role(snapschema.RoleState)
	vx := b.Optional("vx", 7)
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	if x.Index() != 0 || angle.Index() != 2 || z.Index() != 3 || level.Index() != 4 || state.Index() != 5 || vx.Index() != 6 {
		t.Fatalf("indices x %d angle %d z %d level %d state %d vx %d", x.Index(), angle.Index(), z.Index(), level.Index(), state.Index(), vx.Index())
	}
	row := []float32{10, 20, 0.5, 2, 1, 9, -3, 0, 0}
	if x.Get(row) != 10 || z.Get(row) != 2 || level.Get(row) != 1 || state.Get(row) != 9 || vx.Get(row) != -3 {
		t.Fatalf("reads from %v", row)
	}
	// Names never bind role fields: "z" here is the state byte's name, and
	// the fields carrying z and level are not found by their names either.
	nb := NewBinder(d1)
	if f := nb.Optional("z", -1); f.Bound() || f.Get(row) != -1 {
		t.Fatalf("the name z bound the state role field at %d", f.Index())
	}
	if nb.Require("height"); nb.Err() == nil {
		t.Fatal("the name of a role field was bound")
	}
	var be *snapschema.BindError
	if err := nb.Err(); !errors.As(err, &be) || be.Key != "d1" || !slices.Equal(be.Missing, []string{"height"}) ||
		err.Error() != `snapshot key "d1": missing field "height"` {
		t.Fatalf("error %v", err)
	}
	// Unaccounted role fields are named by their role.
	un := b.Unaccounted()
	if !slices.Equal(un, []string{"y", "vy", "angvel"}) {
		t.Fatalf("unaccounted %v", un)
	}
	ib := NewBinder(d1)
	ib.Ignore("x", "y", "angle", "vx", "vy", "angvel", "height", "no-such-field")
	if un := ib.Unaccounted(); !slices.Equal(un, []string{"role z (height)", "role level (floor)", "role state (z)"}) {
		t.Fatalf("role fields ignored by name: %v", un)
	}
	ib.IgnoreRoles(snapschema.RoleZ, snapschema.RoleLevel, snapschema.RoleState)
	if err := ib.Complete(); err != nil {
		t.Fatal(err)
	}
	// A flat key has no roles: unbound, reading 0, and no error.
	w9 := s.Key("w9")
	fb := NewBinder(w9)
	if r := fb.Role(snapschema.RoleZ); r.Bound() || r.Get([]float32{1, 2, 3}) != 0 || fb.Err() != nil {
		t.Fatal("a missing role is not unbound")
	}
	// The author id is found by name, the first of the names the key has,
	// wherever it stands in the row.
	if a := NewBinder(w9).Author("shooterId", "by"); a.Index() != 2 || a.Get([]float32{1, 2, 5}) != 5 {
		t.Fatalf("author at %d", a.Index())
	}
	if a := NewBinder(w9).Author("x"); a.Index() != 0 {
		t.Fatalf("author by name at %d", a.Index())
	}
	eb := NewBinder(s.Key("e0"))
	if a := eb.Author("ownerId"); a.Bound() || eb.Err() == nil || !strings.Contains(eb.Err().Error(), `"e0"`) ||
		!strings.Contains(eb.Err().Error(), "ownerId") {
		t.Fatalf("author of a key without it: %v", eb.Err())
	}
}

func TestBinderAccounting(t *testing.T) {
	s := mustSchema(t, layeredSchema)
	w9 := s.Key("w9")
	b := NewBinder(w9)
	b.Require("x")
	b.Optional("radius", 1)
	if err := b.Err(); err != nil {
		t.Fatalf("an optional field refused the binding: %v", err)
	}
	if !slices.Equal(b.Absent(), []string{"radius"}) || !slices.Equal(b.Unaccounted(), []string{"y", "by"}) {
		t.Fatalf("absent %v unaccounted %v", b.Absent(), b.Unaccounted())
	}
	if err := b.Complete(); err == nil || err.Error() != `snapshot key "w9": unaccounted field "y", unaccounted field "by"` {
		t.Fatalf("complete: %v", err)
	}
	b.Require("speed")
	b.Ignore("y", "by")
	if err := b.Complete(); err == nil || err.Error() != `snapshot key "w9": missing field "speed"` {
		t.Fatalf("complete: %v", err)
	}
}

func TestBoundFieldReadsAndWrites(t *testing.T) {
	var zero BoundField
	if zero.Bound() || zero.Index() != -1 || zero.Get([]float32{4}) != 0 {
		t.Fatal("the zero field must be unbound")
	}
	zero.Set([]float32{4}, 1) // no panic, no write
	s := mustSchema(t, layeredSchema)
	b := NewBinder(s.Key("w9"))
	by, r := b.Require("by"), b.Optional("radius", 2.5)
	row := make([]float32, 3)
	by.Set(row, 7)
	r.Set(row, 9)
	if row[2] != 7 || by.Get(row) != 7 || r.Get(row) != 2.5 || by.Float64(row) != 7 {
		t.Fatalf("row %v", row)
	}
	if v, ok := by.Lookup(row); !ok || v != 7 {
		t.Fatal("lookup in a full row")
	}
	if v, ok := by.Lookup(nil); ok || v != 0 {
		t.Fatal("lookup in a null row")
	}
	if v, ok := r.Lookup(row); ok || v != 2.5 {
		t.Fatal("lookup of an unbound field")
	}
	if by.Get(row[:1]) != 0 {
		t.Fatal("a short row must read the default")
	}
	allocs := testing.AllocsPerRun(100, func() {
		by.Set(row, by.Get(row)+1)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per read and write", allocs)
	}
}

// The velocity tail of the tanks crates is optional: a row sent without it
// reads zeros through the binder, one with it reads its values.
func TestBinderReadsOptionalTail(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	c1 := s.Key("c1")
	b := NewBinder(c1)
	x, vx, w := b.Require("x"), b.Optional("vx", 0), b.Optional("angvel", 0)
	if err := b.Complete(); err == nil || !strings.Contains(err.Error(), `"y"`) {
		t.Fatalf("y and angle are not accounted: %v", err)
	}
	raw := encodeFrame(s, &testFrame{port: 5, version: 5, seq: 1, blocks: []testBlock{{key: "c1", rows: []testRow{
		{id: 0, noTail: true, fields: []float64{1.25, 2, 0.5, 0, 0, 0}},
		{id: 1, fields: []float64{3, 4, 0.25, -6.5, 7, 0.75}},
	}}}})
	var f Frame
	if err := NewDecoder(s).Decode(raw, &f); err != nil {
		t.Fatal(err)
	}
	rest, moving := f.Blocks[0].Rows[0].Fields, f.Blocks[0].Rows[1].Fields
	if x.Get(rest) != 1.25 || vx.Get(rest) != 0 || w.Get(rest) != 0 {
		t.Fatalf("resting row %v", rest)
	}
	if x.Get(moving) != 3 || vx.Get(moving) != -6.5 || w.Get(moving) != 0.75 {
		t.Fatalf("moving row %v", moving)
	}
}

// BenchmarkBoundFieldGet reads three bound fields of every row of the
// heavy tanks frame: an index load each, nothing allocated.
func BenchmarkBoundFieldGet(b *testing.B) {
	s := loadSchema(b, conformanceDir(b), "schemas/tanks.json")
	var f Frame
	if err := NewDecoder(s).Decode(heavyTanksFrame(s, 1, 0), &f); err != nil {
		b.Fatal(err)
	}
	bd := NewBinder(s.Key("m1"))
	x, y, team := bd.Require("x"), bd.Require("y"), bd.Require("team")
	m1 := s.Key("m1")
	b.ReportAllocs()
	var sum float32
	for b.Loop() {
		for bi := range f.Blocks {
			if f.Blocks[bi].Schema != m1 {
				continue
			}
			for ri := range f.Blocks[bi].Rows {
				v := f.Blocks[bi].Rows[ri].Fields
				sum += x.Get(v) + y.Get(v) + team.Get(v)
			}
		}
	}
	if sum == 1 {
		b.Log(sum)
	}
}
