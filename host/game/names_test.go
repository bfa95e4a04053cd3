package game

import "testing"

func TestUniqueName(t *testing.T) {
	taken := map[string]bool{"Alice": true, "Alice#1": true}
	for in, want := range map[string]string{"Bob": "Bob", "Alice": "Alice#2"} {
		if got := UniqueName(in, func(n string) bool { return taken[n] }); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	if id := FreeID(func(id uint8) bool { return id < 3 }); id != 3 {
		t.Errorf("free id %d, want 3", id)
	}
	if id := FreeID(func(uint8) bool { return true }); id != 0 {
		t.Errorf("full: %d, want 0", id)
	}
}
