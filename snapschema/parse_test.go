package snapschema

import (
	"errors"
	"strings"
	"testing"
)

// Every rule of the schema validation refuses what it must, naming the key
// and the rule.
func TestSchemaRules(t *testing.T) {
	field := `{"name":"x","ty":"f32"}`
	cases := []struct {
		name, schema, key, rule string
	}{
		{"not an object", `[1]`, "", "V3"},
		{"entry not an object", `{"m1":3}`, "m1", "V3"},
		{"missing id", `{"m1":{"kind":"indexed8","class":"hot"}}`, "m1", "V1"},
		{"id out of range", `{"m1":{"id":256,"kind":"indexed8","class":"hot"}}`, "m1", "V1"},
		{"id not integer", `{"m1":{"id":1.5,"kind":"indexed8","class":"hot"}}`, "m1", "V1"},
		{"bad kind", `{"m1":{"id":1,"kind":"indexed16","class":"hot"}}`, "m1", "V1"},
		{"bad class", `{"m1":{"id":1,"kind":"indexed8","class":"warm"}}`, "m1", "V1"},
		{"field without ty", `{"m1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"x"}]}}`, "m1", "V2"},
		{"bad ty", `{"m1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"x","ty":"f64"}]}}`, "m1", "V2"},
		{"bad interp", `{"m1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"x","ty":"f32","interp":"cubic"}]}}`, "m1", "V2"},
		{"optionalFrom negative", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":-1,"fields":[` + field + `,` + field + `]}}`, "c1", "V3"},
		{"duplicate id", `{"a":{"id":1,"kind":"list16","class":"event"},"b":{"id":1,"kind":"list16","class":"event"}}`, "b", "V4"},
		{"optionalFrom zero", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":0,"fields":[` + field + `,` + field + `]}}`, "c1", "V5"},
		{"optionalFrom past end", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":2,"fields":[` + field + `,` + field + `]}}`, "c1", "V5"},
		{"unknown role", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[{"name":"x","ty":"f32","role":"height"}]}}`, "c1", "V6a"},
		{"z alone", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[` + field + `,` + field + `,` + field + `,{"name":"z","ty":"f32","role":"z"},{"name":"l","ty":"u8"}]}}`, "c1", "V6b"},
		{"z misplaced", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[` + field + `,` + field + `,{"name":"z","ty":"f32","role":"z"},{"name":"level","ty":"u8","role":"level"}]}}`, "c1", "V6b"},
		{"names without roles", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[` + field + `,` + field + `,` + field + `,{"name":"z","ty":"f32"},{"name":"level","ty":"u8"}]}}`, "c1", "V6c"},
		{"state not u8", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[` + field + `,` + field + `,` + field + `,{"name":"s","ty":"u16","role":"state"}]}}`, "c1", "V6d"},
		{"state misplaced", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[` + field + `,` + field + `,` + field + `,` + field + `,{"name":"s","ty":"u8","role":"state"}]}}`, "c1", "V6d"},
		{"tail before state", `{"c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":3,"fields":[` + field + `,` + field + `,` + field + `,{"name":"s","ty":"u8","role":"state"},` + field + `]}}`, "c1", "V6e"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.schema))
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a schema error", c.name, err)
			continue
		}
		if se.Key != c.key || se.Rule != c.rule || !strings.Contains(err.Error(), c.rule) {
			t.Errorf("%s: got %v (key %q rule %s), want key %q rule %s", c.name, err, se.Key, se.Rule, c.key, c.rule)
		}
	}
}

// A schema the rules allow parses, keys in their listed order, unknown
// members ignored, in the bare and the wrapper form.
func TestSchemaAccepts(t *testing.T) {
	layered := `{"c2":{"id":6,"kind":"indexedNoNull8","class":"hot","optionalFrom":6,"extra":true,"fields":[
		{"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"angle","ty":"f32","interp":"lerpAngle"},
		{"name":"z","ty":"f32","interp":"lerp","role":"z"},{"name":"level","ty":"u8","role":"level"},{"name":"state","ty":"u8","role":"state"},
		{"name":"vx","ty":"f32"}]},
		"m1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"team","ty":"u8","interp":"lerp"}]},
		"w1":{"id":2,"kind":"list16","class":"event","optionalFrom":null}}`
	s, err := Parse([]byte(layered))
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{s.Keys[0].Name, s.Keys[1].Name, s.Keys[2].Name}; strings.Join(got, ",") != "c2,m1,w1" {
		t.Errorf("key order %v", got)
	}
	wrapped := `{"version":5,"port":5,"keys":{"w1":{"id":2,"kind":"list16","class":"event"}}}`
	if s, err := Parse([]byte(wrapped)); err != nil || s.Key("w1") == nil {
		t.Errorf("wrapper form: %v", err)
	}
	if _, err := Parse([]byte(`{"version":4,"port":5,"keys":{}}`)); err == nil {
		t.Errorf("wrapper with version 4 accepted")
	}
	// A key literally named "keys" is not mistaken for the wrapper.
	if s, err := Parse([]byte(`{"keys":{"id":3,"kind":"list16","class":"event"}}`)); err != nil || s.Key("keys") == nil {
		t.Errorf("bare schema with a key named keys: %v", err)
	}
}

// A schema longer than MaxBytes, or a key with more than MaxKeyFields
// fields, is refused under the limit rule; at the bounds it parses.
func TestParseLimits(t *testing.T) {
	fields := func(n int) string {
		return `{"k":{"id":1,"kind":"list16","class":"event","fields":[` +
			strings.TrimSuffix(strings.Repeat(`{"name":"f","ty":"u8"},`, n), ",") + `]}}`
	}
	if _, err := Parse([]byte(fields(MaxKeyFields))); err != nil {
		t.Fatalf("%d fields: %v", MaxKeyFields, err)
	}
	long := `{"k":{"id":1,"kind":"list16","class":"event"}}` + strings.Repeat(" ", MaxBytes)
	for name, raw := range map[string]string{"fields": fields(MaxKeyFields + 1), "bytes": long} {
		var se *Error
		if _, err := Parse([]byte(raw)); !errors.As(err, &se) || se.Rule != "limit" {
			t.Errorf("%s over the limit: %v", name, err)
		}
	}
}

// The enums print as the schema JSON spells them.
func TestEnumNames(t *testing.T) {
	for got, want := range map[string]string{
		KindIndexedNoNull8.String(): "indexedNoNull8", ClassEvent.String(): "event", TypeU16.String(): "u16",
		InterpLerpAngle.String(): "lerpAngle", RoleState.String(): "state", RoleNone.String(): "none", Kind(9).String(): "Kind(9)",
	} {
		if got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
}
