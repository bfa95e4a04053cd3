package registry

import (
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/testkit/capturetest"
)

var (
	tanksParts  = parts.PartsConfig{EntitiesOnCanvas: map[string]string{"Map": "vimp", "MapRadar": "radar", "TankRadar": "radar", "Tank": "vimp", "ShotEffect": "vimp", "Bomb": "vimp", "ExplosionEffect": "vimp", "Smoke": "vimp", "Tracks": "vimp"}}
	snakesParts = parts.PartsConfig{EntitiesOnCanvas: map[string]string{"Arena": "vimp", "Snake": "vimp", "Crystal": "vimp"}}
	otherParts  = parts.PartsConfig{EntitiesOnCanvas: map[string]string{"Ball": "vimp"}}
)

func rnd() float64 { return 0.5 }

func TestPick(t *testing.T) {
	r := Default()
	for _, tc := range []struct {
		id   string
		pc   parts.PartsConfig
		want string // "" = not known
	}{
		{"", tanksParts, "tanks"},
		{"", snakesParts, "snakes"},
		{"", otherParts, ""},
		{"tanks", tanksParts, "tanks"},
		{"tanks", snakesParts, ""}, // announced tanks, but not a tanks config: drawn generically
		{"snakes", snakesParts, "snakes"},
		{"miniGame", tanksParts, ""}, // an announced game the client does not know
	} {
		g, pg, ok := r.Pick(tc.id, tc.pc, rnd)
		got := ""
		if ok {
			got = g.ID
			if pg == nil || pg.ID != g.ID {
				t.Errorf("%q: parts %v for game %q", tc.id, pg, g.ID)
			}
		}
		if got != tc.want {
			t.Errorf("Pick(%q, %v) = %q, want %q", tc.id, tc.pc.EntitiesOnCanvas, got, tc.want)
		}
	}
}

// A config that is not the game's (or has no prediction) gives no game half
// at all: never a typed nil the core would call into.
func TestClientWithoutPrediction(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "conformance", "schemas", "snakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range Default() {
		for _, pred := range []string{"", `{"models":{}}`} {
			c, err := g.Client(s, []byte(pred))
			if err == nil {
				t.Errorf("%s: prediction %q accepted for the snakes schema: %T", g.ID, pred, c)
			}
			if c != nil {
				t.Errorf("%s: a non-nil game half with an error", g.ID)
			}
		}
	}
}
