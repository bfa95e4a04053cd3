package gameloop

import (
	"testing"

	"vimpclient/parts"
)

func TestAboutLine(t *testing.T) {
	for _, c := range []struct {
		g    *GameSummary
		want string
	}{
		{nil, ""},
		{&GameSummary{Name: "tanks", Version: "0.22.13", Parts: map[string]string{"Tank": "tanks", "Map": "tanks", "Dust": parts.DrawnByNone, "Neon": parts.DrawnGeneric}},
			"Playing tanks (version 0.22.13) · 2 of its parts drawn as tanks · as markers: Neon · not drawn: Dust"},
		{&GameSummary{Parts: map[string]string{"Orb": parts.DrawnGeneric}}, "Playing a game this client does not know · as markers: Orb"},
	} {
		if got := aboutLine(c.g); got != c.want {
			t.Errorf("%+v: %q, want %q", c.g, got, c.want)
		}
	}
}
