package protocol

import (
	"strings"
	"testing"
)

func TestFillTemplate(t *testing.T) {
	for _, c := range []struct{ t, want string }{
		{"Max players: {0}. You are #{1}", "Max players: 30. You are #7"},
		{"{2} stays without a third parameter", "{2} stays without a third parameter"},
		{"{01} is the second, {x} and {} are text", "7 is the second, {x} and {} are text"},
		{"{99999999999999999999}", "{99999999999999999999}"},
		{"open {0", "open {0"},
	} {
		if got := FillTemplate(c.t, []string{"30", "7"}, 1000); got != c.want {
			t.Errorf("FillTemplate(%q) = %q, want %q", c.t, got, c.want)
		}
	}
	// Many placeholders and a long parameter stop near the bound.
	got := FillTemplate(strings.Repeat("{0}", 1000), []string{strings.Repeat("x", 5000)}, 100)
	if len(got) > 2*100+1 || !strings.HasPrefix(got, "xxx") {
		t.Errorf("a bound of 100 bytes gave %d bytes", len(got))
	}
	if d := DefaultTechInform(); len(d) != 7 || d[2] != "Loading..." {
		t.Errorf("DefaultTechInform = %q", d)
	}
}
