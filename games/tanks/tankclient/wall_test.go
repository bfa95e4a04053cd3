package tankclient

import (
	"fmt"
	"testing"

	"vimpclient/clientcore"
)

// Driving into the bridge map's east wall at full speed through the
// delaying proxy: the predicted tank is never drawn inside the wall, and
// the prediction error while it drives up to the wall and presses
// against it stays under half a world unit.
func TestWallAtFullSpeed(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		lead bool
	}{{5, false}, {5, true}, {9, false}, {9, true}} {
		t.Run(fmt.Sprintf("seed=%d,lead=%v", c.seed, c.lead), func(t *testing.T) { wallAtFullSpeed(t, c.seed, c.lead) })
	}
}

func wallAtFullSpeed(t *testing.T, seed uint64, lead bool) {
	s := newSessionOn(t, seed, lead, 0, "bridge")
	s.run(2000)
	if _, ok := overlayPos(t, s.hot); !ok {
		t.Fatal("no predicted overlay after 2 s")
	}
	s.key(true, "forward")
	s.run(2500) // up to full speed, before the wall
	s.g.Predictor().Stats.Reset()
	maxX := float32(0)
	s.onDraw = func(h *clientcore.Hot) {
		if p, ok := overlayPos(t, h); ok && p[0] > maxX {
			maxX = p[0]
		}
	}
	s.run(5000)
	s.key(false, "forward")
	s.run(1000)
	sum := s.g.Predictor().Summary()
	rest, _ := overlayPos(t, s.hot)
	t.Logf("east wall at full speed: %+v; furthest drawn x %v, at rest against the wall %v", sum, maxX, rest[0])
	if sum.Samples < 50 || sum.ErrorMax >= 0.5 || sum.Snaps != 0 {
		t.Fatalf("prediction at the wall %+v, want error max < 0.5 and no snap", sum)
	}
	if rest[0] < 890 {
		t.Fatalf("the tank stopped at x %v, short of the east wall", rest[0])
	}
	// Never drawn further in than where the host stops it against the wall.
	if maxX > rest[0]+0.5 {
		t.Fatalf("the tank was drawn at x %v, %v into the wall it rests against at %v", maxX, maxX-rest[0], rest[0])
	}
}
