package hud

import (
	"encoding/json"
	"testing"

	"vimpclient/protocol"
)

func numericForm(t *testing.T) *AuthForm {
	t.Helper()
	raw := `{"params":[
		{"name":"round","value":"120000","options":{"control":"text","label":"Round","unit":"s","min":30,"max":600}},
		{"name":"bots","value":"4","options":{"control":"text","label":"Bots","numeric":true,"min":0,"max":"8"}},
		{"name":"lives","value":"3","options":{"control":"text","numeric":true}}]}`
	a, err := protocol.ParseAuthData(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return NewAuthForm(a, "h", "g", nil)
}

func TestNumericFieldsShowUnitRangeAndDefault(t *testing.T) {
	f := numericForm(t)
	round, bots, lives := &f.Fields[0], &f.Fields[1], &f.Fields[2]
	if !round.Numeric || round.Label != "Round (s, 30–600)" || round.Value != "120" {
		t.Fatalf("round %+v", round)
	}
	if !bots.Numeric || bots.Label != "Bots (0–8)" || bots.Value != "4" || !bots.HasMax || bots.Max != 8 {
		t.Fatalf("bots %+v", bots)
	}
	if !lives.Numeric || lives.Label != "lives" || lives.HasMin || lives.HasMax {
		t.Fatalf("lives %+v", lives)
	}
}

func TestNumericArrowsStepWithinBounds(t *testing.T) {
	f := numericForm(t)
	f.Key(39, false) // Right: 121 s
	if f.Fields[0].Value != "121" {
		t.Fatalf("right: %q", f.Fields[0].Value)
	}
	for i := 0; i < 60; i++ {
		f.Key(33, false) // PageUp: +10, stops at the maximum
	}
	if f.Fields[0].Value != "600" {
		t.Fatalf("clamped up: %q", f.Fields[0].Value)
	}
	f.Key(40, false) // Down: the focus moves to bots
	for i := 0; i < 6; i++ {
		f.Key(37, false) // Left
	}
	if f.Fields[1].Value != "0" {
		t.Fatalf("clamped down: %q", f.Fields[1].Value)
	}
	// Invalid text steps from the host's default.
	f.Fields[1].Value = "x"
	f.Key(39, false)
	if f.Fields[1].Value != "5" {
		t.Fatalf("from default: %q", f.Fields[1].Value)
	}
	// Typing keeps only what a number is made of.
	f.Fields[1].Value = ""
	f.Type([]rune("7a b"))
	if f.Fields[1].Value != "7" {
		t.Fatalf("typed %q", f.Fields[1].Value)
	}
}

func TestNumericValidationMessagesAndStoredUnit(t *testing.T) {
	f := numericForm(t)
	for _, c := range []struct{ round, bots, want string }{
		{"", "4", "Round (s, 30–600): required"},
		{"1e", "4", "Round (s, 30–600): must be a number"},
		{"10", "4", "Round (s, 30–600): must be ≥ 30"},
		{"601", "4", "Round (s, 30–600): must be ≤ 600"},
		{"90", "9", "Bots (0–8): must be ≤ 8"},
	} {
		f.Fields[0].Value, f.Fields[1].Value = c.round, c.bots
		if msg := f.Submit(); msg != nil || len(f.Errors) != 1 || f.Errors[0] != c.want {
			t.Errorf("round %q bots %q: %v, want %q", c.round, c.bots, f.Errors, c.want)
		}
	}
	f.Fields[0].Value, f.Fields[1].Value = " 90.5 ", "8"
	msg := f.Submit()
	if msg == nil {
		t.Fatalf("refused: %v", f.Errors)
	}
	var env []json.RawMessage
	var sent map[string]string
	if json.Unmarshal(msg, &env) != nil || json.Unmarshal(env[1], &sent) != nil {
		t.Fatalf("message %s", msg)
	}
	// Seconds go back to the host's ms, as strings.
	if sent["round"] != "90500" || sent["bots"] != "8" || sent["lives"] != "3" {
		t.Fatalf("sent %v", sent)
	}
}

func TestNumericClickButtons(t *testing.T) {
	f := numericForm(t)
	g := f.Layout(1280, 800)
	c := g.Rows[1].Control
	f.Click(1280, 800, c.X+3, c.Y+c.H/2) // − on bots
	if f.Fields[1].Value != "3" || f.FocusedField() != &f.Fields[1] {
		t.Fatalf("minus: %q", f.Fields[1].Value)
	}
	f.Click(1280, 800, c.X+c.W-3, c.Y+c.H/2)
	f.Click(1280, 800, c.X+c.W-3, c.Y+c.H/2)
	if f.Fields[1].Value != "5" {
		t.Fatalf("plus: %q", f.Fields[1].Value)
	}
}
