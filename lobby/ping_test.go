package lobby

import (
	"testing"
	"time"
)

// However fast pings are asked for, no second of them holds more than the
// budget (rate, plus the one in hand), well under the master's 10.
func TestPingBudget(t *testing.T) {
	p := newPinger(nil, DefaultPingRate, 0)
	start := time.Unix(1000, 0)
	var sends []time.Time
	at := start
	for i := 0; i < 200; i++ {
		at = at.Add(7 * time.Millisecond)
		sends = append(sends, at.Add(p.reserve(at)))
	}
	for i := range sends {
		n := 0
		for j := i; j < len(sends) && sends[j].Sub(sends[i]) < time.Second; j++ {
			n++
		}
		if n > int(DefaultPingRate)+1 {
			t.Fatalf("%d pings within a second from %v", n, sends[i].Sub(start))
		}
	}
	p.refused()
}
