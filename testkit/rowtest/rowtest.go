// Package rowtest builds and reads snapshot rows by field name in tests, so
// that test fixtures, like the code they test, never place a value by its
// position in a row; and it runs the key-record test that holds a game's
// bound fields and the engine's schema to each other, both ways.
package rowtest

import (
	"encoding/json"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/snapschema"
)

// RoleZ, RoleLevel and RoleState stand for the fields with those engine
// roles where Row, Set and Get take a field name: a role field is found by
// its role, never by its name.
const (
	RoleZ     = "role z"
	RoleLevel = "role level"
	RoleState = "role state"
)

var roles = map[string]snapschema.Role{RoleZ: snapschema.RoleZ, RoleLevel: snapschema.RoleLevel, RoleState: snapschema.RoleState}

// field binds name (a field name or one of the role constants) in k; a
// field k does not have fails the test.
func field(t testing.TB, k *clientcore.KeySchema, name string) clientcore.BoundField {
	t.Helper()
	b := clientcore.NewBinder(k)
	if r, ok := roles[name]; ok {
		f := b.Role(r)
		if !f.Bound() {
			t.Fatalf("key %s has no field with the %s", k.Name, name)
		}
		return f
	}
	f := b.Require(name)
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	return f
}

// Row returns a full-width row of k holding vals by field name (or role),
// zeros elsewhere. A name k does not have fails the test.
func Row(t testing.TB, k *clientcore.KeySchema, vals map[string]float64) []float32 {
	t.Helper()
	row := make([]float32, len(k.Fields))
	for name, v := range vals {
		field(t, k, name).Set(row, float32(v))
	}
	return row
}

// Set writes one named field (or role field) of a row of k.
func Set(t testing.TB, k *clientcore.KeySchema, row []float32, name string, v float64) {
	t.Helper()
	field(t, k, name).Set(row, float32(v))
}

// Get reads one named field (or role field) of a row of k.
func Get(t testing.TB, k *clientcore.KeySchema, row []float32, name string) float32 {
	t.Helper()
	return field(t, k, name).Get(row)
}

// Mismatch binds k with bind, a game's record of the key, and lists every
// disagreement between the two: names the record asks for that k lacks
// (required or optional) and fields of k the record does not account for.
// Empty means the record and the key agree exactly.
func Mismatch(k *clientcore.KeySchema, bind func(*clientcore.Binder)) []string {
	b := clientcore.NewBinder(k)
	bind(b)
	var out []string
	for _, n := range b.Missing() {
		out = append(out, "the record reads "+n+", the key lacks it")
	}
	for _, n := range b.Absent() {
		out = append(out, "the record reads "+n+" (optional), the key lacks it")
	}
	for _, n := range b.Unaccounted() {
		out = append(out, "the key has "+n+", the record lacks it")
	}
	return out
}

// GrowKey parses the schema raw with one more f32 field, name, appended to
// key's row: a newer game version (after an optional tail the new field is
// part of it, as the engine requires).
func GrowKey(t testing.TB, raw []byte, key, name string) *clientcore.Schema {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	keys := doc
	if k, ok := doc["keys"].(map[string]any); ok {
		keys = k
	}
	entry, ok := keys[key].(map[string]any)
	if !ok {
		t.Fatalf("schema has no key %q", key)
	}
	fields, _ := entry["fields"].([]any)
	entry["fields"] = append(fields, map[string]any{"name": name, "ty": "f32"})
	grown, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(grown)
	if err != nil {
		t.Fatalf("grown schema: %v", err)
	}
	return s
}

// CheckKeyRecord is the key-record test of one key, both ways: the record
// (bind) must agree exactly with the key in the schema raw; and the
// comparison must fail when the schema gains a field the record lacks, and
// when the record gains a field the schema does not have. newer names the
// optional fields of the record an older layout (raw's) lacks by design:
// those, and only those, may be absent.
func CheckKeyRecord(t *testing.T, raw []byte, key string, bind func(*clientcore.Binder), newer ...string) {
	t.Helper()
	s, err := clientcore.ParseSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	k := s.Key(key)
	if k == nil {
		t.Fatalf("schema has no key %q", key)
	}
	var m []string
	for _, d := range Mismatch(k, bind) {
		older := false
		for _, n := range newer {
			older = older || d == "the record reads "+n+" (optional), the key lacks it"
		}
		if !older {
			m = append(m, d)
		}
	}
	if len(m) > 0 {
		t.Errorf("key %s: the game's record and the schema disagree: %s", key, strings.Join(m, "; "))
	}
	const extra = "keyRecordExtra"
	// Appended after an author id (the last field of a weapon row), the new
	// field takes the author's place and the old author id is the one the
	// record no longer accounts for: either way the comparison fails.
	if m := Mismatch(GrowKey(t, raw, key, extra).Key(key), bind); len(m) == 0 {
		t.Errorf("key %s: a schema field the record lacks went unnoticed", key)
	}
	for _, grow := range []func(*clientcore.Binder){
		func(b *clientcore.Binder) { bind(b); b.Require(extra) },
		func(b *clientcore.Binder) { bind(b); b.Optional(extra, 0) },
	} {
		if m := Mismatch(k, grow); !containsName(m, extra) {
			t.Errorf("key %s: a record field the schema lacks went unnoticed (%v)", key, m)
		}
	}
}

func containsName(msgs []string, name string) bool {
	for _, m := range msgs {
		if strings.Contains(m, name) {
			return true
		}
	}
	return false
}
