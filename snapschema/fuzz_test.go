package snapschema

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/capturetest"
)

// FuzzParse: any text is a schema or an *Error naming a rule, never a
// panic; an accepted schema has a consistent registry, every key keeps
// the bounds and the role placement the rules demand, and a game that
// binds every field of a key accounts for it completely.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"tanks", "snakes", "synthetic", "interpolation"} {
		if b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(f), "conformance", "schemas", name+".json")); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"a":{"id":3,"kind":"list16","class":"event","fields":[{"name":"x","ty":"u16"}]}}`))
	f.Add([]byte(`{"a":{"id":3,"kind":"indexed8","class":"hot","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"u8"}],"optionalFrom":1}}`))
	f.Add([]byte(`{"version":5,"port":5,"keys":{}}`))
	f.Add([]byte(`{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":6,"fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"angle","ty":"f32"},{"name":"z","ty":"f32","role":"z"},{"name":"level","ty":"u8","role":"level"},{"name":"state","ty":"u8","role":"state"},{"name":"vx","ty":"f32"}]}}`))
	f.Add([]byte(`{"a":{"id":300}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := Parse(raw)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error is not an *Error: %v", err)
			}
			return
		}
		seen := map[uint8]bool{}
		for _, k := range s.Keys {
			if seen[k.ID] || s.KeyByID(k.ID) != k || s.Key(k.Name) != k {
				t.Fatalf("key %q: registry inconsistent", k.Name)
			}
			seen[k.ID] = true
			if len(k.Fields) > MaxKeyFields || (k.OptionalFrom != 0 && k.OptionalFrom >= len(k.Fields)) {
				t.Fatalf("key %q: %d fields, optionalFrom %d accepted", k.Name, len(k.Fields), k.OptionalFrom)
			}
			if err := checkRoles(k); err != nil {
				t.Fatalf("key %q: accepted against the role rules: %v", k.Name, err)
			}
			b := NewBinder(k)
			repeats, names := 0, map[string]bool{}
			for i, fl := range k.Fields {
				if fl.Role == RoleNone {
					if names[fl.Name] {
						repeats++
					}
					names[fl.Name] = true
				}
				var p Pos
				if fl.Role != RoleNone {
					p = b.Role(fl.Role)
				} else {
					p = b.Optional(fl.Name)
				}
				// A repeated name binds its first field.
				if !p.Bound() || p.Index() > i {
					t.Fatalf("key %q field %d (%q): bound at %d", k.Name, i, fl.Name, p.Index())
				}
			}
			// Only a field whose name an earlier one took stays unaccounted.
			if un := b.Unaccounted(); len(un) != repeats || (repeats == 0 && b.Complete() != nil) {
				t.Fatalf("key %q: %d repeated names, unaccounted %v", k.Name, repeats, un)
			}
		}
	})
}
