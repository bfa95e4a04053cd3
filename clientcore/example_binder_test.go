package clientcore_test

import (
	"fmt"

	"vimpclient/clientcore"
	"vimpclient/snapschema"
)

// Binding a key's rows by name: each field a reader needs is found once per
// schema, so reading it from a row is an index load, and a layout the reader
// cannot read is told apart before any frame arrives. Roles (z, level, state)
// are bound by role, never by name.
func ExampleBinder() {
	s, err := clientcore.ParseSchema([]byte(`{"version":5,"port":5,"keys":{
	  "c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[
	    {"name":"x","ty":"f32","interp":"lerp"},
	    {"name":"y","ty":"f32","interp":"lerp"},
	    {"name":"angle","ty":"f32","interp":"lerpAngle"},
	    {"name":"z","ty":"f32","role":"z"},
	    {"name":"level","ty":"u8","role":"level"},
	    {"name":"skin","ty":"u8"}]}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := clientcore.NewBinder(s.Key("c1"))
	x, y := b.Require("x"), b.Require("y")
	angle := b.Optional("angle", 0)
	spin := b.Optional("spin", 1) // an older layout's absent field reads its default
	z, level := b.Role(snapschema.RoleZ), b.Role(snapschema.RoleLevel)
	if err := b.Err(); err != nil {
		fmt.Println(err)
		return
	}
	row := []float32{120, 40, 1.5, 32, 1, 3} // one row in the key's layout
	fmt.Println("x, y, angle:", x.Get(row), y.Get(row), angle.Get(row))
	fmt.Println("z, level:", z.Get(row), level.Get(row))
	fmt.Println("spin:", spin.Get(row), "bound:", spin.Bound())
	fmt.Println("not read:", b.Unaccounted())

	// A reader that needs a field the key lacks is refused.
	strict := clientcore.NewBinder(s.Key("c1"))
	strict.Require("hp")
	fmt.Println(strict.Err() != nil, strict.Missing())
	// Output:
	// x, y, angle: 120 40 1.5
	// z, level: 32 1
	// spin: 1 bound: false
	// not read: [skin]
	// true [hp]
}
