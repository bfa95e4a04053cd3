package game

import (
	"reflect"
	"testing"

	"vimpclient/host/packer"
	"vimpclient/snapschema"
)

func TestFirstShot(t *testing.T) {
	key := &snapschema.Key{Name: "k1", Fields: []snapschema.Field{{Type: snapschema.TypeF32}, {Type: snapschema.TypeU8}}}
	empty := NewFirstShot(key)
	if got := empty.Snapshot(); !reflect.DeepEqual(got, map[string]any{}) {
		t.Fatalf("an empty first shot is %v", got)
	}
	shot := NewFirstShot(key)
	shot.Add(7, []packer.Value{packer.F(1.5), packer.I(3)})
	want := map[string]any{"k1": map[string][]float64{"7": {1.5, 3}}}
	if got := shot.Snapshot(); !reflect.DeepEqual(got, want) {
		t.Fatalf("first shot %v, want %v", got, want)
	}
}
