package packer

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseSchema: any schema text either fails cleanly or yields keys the
// frame builder can pack rows of without panicking.
func FuzzParseSchema(f *testing.F) {
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		if b, err := os.ReadFile(filepath.Join(sharedDir(f), "conformance", "schemas", name+".json")); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"a":{"id":3,"kind":"list16","class":"event","fields":[{"name":"x","ty":"u16"}]}}`))
	f.Add([]byte(`{"a":{"id":3,"kind":"indexed8","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"u8"}],"optionalFrom":1}}`))
	f.Add([]byte(`{"version":5,"port":5,"keys":{}}`))
	f.Add([]byte(`{"c1":{"id":5,"kind":"indexedNoNull8","optionalFrom":5,"fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"angle","ty":"f32"},{"name":"z","ty":"f32","role":"z"},{"name":"level","ty":"u8","role":"level"},{"name":"vx","ty":"f32"}]}}`))
	f.Add([]byte(`{"a":{"id":300}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := ParseSchema(raw)
		if err != nil {
			return
		}
		var fr Frame
		fr.Start(1, 2, &Camera{X: 1}, &Player{})
		for _, k := range s.keys {
			fr.Block(k)
			vals := make([]Value, len(k.Types))
			if k.Kind == List16 {
				fr.ListRow(vals)
			} else {
				fr.Row(7, vals)
			}
			if k.OptionalFrom > 0 {
				if k.Kind == List16 {
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
