package input

import "testing"

func TestCommandLabel(t *testing.T) {
	for in, want := range map[string]string{
		"gunCenter":  "Centre gun",
		"nextWeapon": "Next weapon",
		"nextPlayer": "Watch next player",
		"dropFlag":   "Drop flag",
		"use_item":   "Use item",
		"jump":       "Jump",
		"zoomIn2":    "Zoom in2",
		"":           "",
		"__":         "__",
	} {
		if got := CommandLabel(in); got != want {
			t.Errorf("CommandLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPadControlLabel(t *testing.T) {
	for c, want := range map[PadControl]string{
		PadStickDown: "Left stick down",
		PadRT:        "Right trigger",
		PadA:         "A button",
		PadUp:        "D-pad up",
	} {
		if got := c.Label(); got != want {
			t.Errorf("%v.Label() = %q, want %q", c, got, want)
		}
	}
	if PadControl(200).Label() != PadControl(200).String() {
		t.Error("an unknown control has no name")
	}
}
