package parts

import (
	"math"
	"testing"
)

// An actor's place on the map is kept beside its height, neither
// overwriting the other; a place that is not a number is not taken, and
// an actor that left is nowhere.
func TestLevelsPlace(t *testing.T) {
	l := NewLevels()
	if _, _, ok := l.Where(1); ok {
		t.Fatal("an unknown actor has a place")
	}
	l.SetActor(1, Height{Level: 1, H: 1})
	if _, _, ok := l.Where(1); ok {
		t.Error("an actor with only a height has a place")
	}
	l.Place(1, 10, 20)
	l.Place(1, math.NaN(), 5)
	l.Place(1, 5, math.Inf(1))
	if x, y, ok := l.Where(1); !ok || x != 10 || y != 20 {
		t.Errorf("Where = %v, %v, %v; want 10, 20", x, y, ok)
	}
	if h := l.Actor(1); h != (Height{Level: 1, H: 1}) {
		t.Errorf("placing it changed its height to %+v", h)
	}
	l.SetActor(1, Height{})
	if x, _, ok := l.Where(1); !ok || x != 10 {
		t.Error("a new height lost its place")
	}
	l.ForgetActor(1)
	if _, _, ok := l.Where(1); ok {
		t.Error("an actor that left has a place")
	}
}
