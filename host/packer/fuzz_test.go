package packer

import (
	"os"
	"path/filepath"
	"testing"

	"vimpclient/snapschema"
)

// FuzzPackSchema: every key of any schema the parser accepts takes rows
// the frame builder packs without an error or a panic, full rows and rows
// without their optional tail alike.
func FuzzPackSchema(f *testing.F) {
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		if b, err := os.ReadFile(filepath.Join(sharedDir(f), "conformance", "schemas", name+".json")); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"a":{"id":3,"kind":"list16","class":"event","fields":[{"name":"x","ty":"u16"}]}}`))
	f.Add([]byte(`{"a":{"id":3,"kind":"indexed8","class":"hot","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"u8"}],"optionalFrom":1}}`))
	f.Add([]byte(`{"version":5,"port":5,"keys":{}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := snapschema.Parse(raw)
		if err != nil {
			return
		}
		var fr Frame
		fr.Start(1, 2, &Camera{X: 1}, &Player{})
		for _, k := range s.Keys {
			fr.Block(k)
			vals := make([]Value, len(k.Fields))
			if k.Kind == snapschema.KindList16 {
				fr.ListRow(vals)
			} else {
				fr.Row(7, vals)
			}
			if k.OptionalFrom > 0 {
				if k.Kind == snapschema.KindList16 {
					fr.ListRow(vals[:k.OptionalFrom])
				} else {
					fr.Row(8, vals[:k.OptionalFrom])
				}
			}
		}
		if _, err := fr.Bytes(); err != nil {
			t.Fatalf("packing rows of a parsed schema: %v", err)
		}
	})
}
