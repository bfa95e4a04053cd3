package snapschema_test

import (
	"fmt"

	"vimpclient/snapschema"
)

// A game declares a row layout once, as positions bound by name (and the
// engine's fields by role); the host places values at them and the client
// reads its decoded rows through them.
func ExampleBinder() {
	s, err := snapschema.Parse([]byte(`{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[
		{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"angle","ty":"f32"},
		{"name":"z","ty":"f32","role":"z"},{"name":"level","ty":"u8","role":"level"}]}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	type crate struct{ X, Y, Angle, Z, Level snapschema.Pos }
	b := snapschema.NewBinder(s.Key("c1"))
	c := crate{X: b.Require("x"), Y: b.Require("y"), Angle: b.Require("angle"),
		Z: b.Role(snapschema.RoleZ), Level: b.Role(snapschema.RoleLevel)}
	if err := b.Complete(); err != nil {
		fmt.Println(err)
		return
	}
	row := []float32{120, 80, 0, 19.2, 1}
	fmt.Println(c.Z.Index(), c.Level.Get(row))
	// Output: 3 1
}
