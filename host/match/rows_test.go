package match

import (
	"encoding/json"
	"strings"
	"testing"
	"vimpclient/snapschema"
)

// The match places its row values by name: its own schema binds, and a
// schema with a field the match does not write, or without one it writes,
// or with the crate pose in the optional tail, is refused with the key and
// the field named.
func TestRowLayoutsBindByName(t *testing.T) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(configJSON, &top); err != nil {
		t.Fatal(err)
	}
	parse := func(edit func(keys map[string]map[string]any)) *snapschema.Schema {
		t.Helper()
		var keys map[string]map[string]any
		if err := json.Unmarshal(top["snapshot"], &keys); err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			edit(keys)
		}
		raw, err := json.Marshal(keys)
		if err != nil {
			t.Fatal(err)
		}
		s, err := snapschema.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := parse(nil)
	l, err := bindRowLayouts(s)
	if err != nil {
		t.Fatal(err)
	}
	if k := s.Key("m1"); l.m1.AngVel.Index() != k.Index("angvel") || l.m1.Team.Index() != k.Index("team") || l.m1.Layered() {
		t.Fatalf("m1 layout %+v", l.m1)
	}
	for _, c := range []struct {
		name string
		edit func(keys map[string]map[string]any)
		want string
	}{
		{"extra field", func(keys map[string]map[string]any) {
			keys["m1"]["fields"] = append(keys["m1"]["fields"].([]any), map[string]any{"name": "shield", "ty": "u8"})
		}, `"m1": unaccounted field "shield"`},
		{"renamed field", func(keys map[string]map[string]any) {
			f := keys["w1"]["fields"].([]any)
			f[0].(map[string]any)["name"] = "fromX"
		}, `"w1": missing field "startX", unaccounted field "fromX"`},
		{"crate without velocities", func(keys map[string]map[string]any) {
			keys["c1"]["fields"] = keys["c1"]["fields"].([]any)[:3]
			delete(keys["c1"], "optionalFrom")
		}, `"c1": the match writes the velocities`},
		{"pose in the tail", func(keys map[string]map[string]any) {
			keys["c1"]["optionalFrom"] = 2
		}, `"c1": the pose must precede optionalFrom 2`},
	} {
		s := parse(c.edit)
		if _, err := bindRowLayouts(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A prop's state byte (the schema rules keep it in the head) is written.
	s = parse(func(keys map[string]map[string]any) {
		f := keys["c1"]["fields"].([]any)
		keys["c1"]["fields"] = append(f[:3:3], append([]any{map[string]any{"name": "state", "ty": "u8", "role": "state"}}, f[3:]...)...)
		keys["c1"]["optionalFrom"] = 4
	})
	if l, err := bindRowLayouts(s); err != nil || l.c1.State.Index() != 3 {
		t.Fatalf("crate state in the head: %v, %+v", err, l.c1)
	}
}
