package ebiteninput

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/input"
)

// The key table must give the browser's DOM key codes, and every
// named key of the bindings file must be reachable from a physical key.
func TestDOMKeyCode(t *testing.T) {
	for k, want := range map[ebiten.Key]int{
		ebiten.KeyA: 65, ebiten.KeyZ: 90, ebiten.KeyDigit0: 48, ebiten.KeyDigit9: 57,
		ebiten.KeyNumpad0: 96, ebiten.KeyNumpad9: 105, ebiten.KeyF1: 112, ebiten.KeyF12: 123,
		ebiten.KeyTab: 9, ebiten.KeyEnter: 13, ebiten.KeyEscape: 27, ebiten.KeySpace: 32,
		ebiten.KeyArrowLeft: 37, ebiten.KeyArrowUp: 38, ebiten.KeyArrowRight: 39, ebiten.KeyArrowDown: 40,
		ebiten.KeyShiftLeft: 16, ebiten.KeyControlRight: 17, ebiten.KeyAltLeft: 18,
		ebiten.KeySemicolon: 186, ebiten.KeyBackquote: 192, ebiten.KeyQuote: 222,
	} {
		if got, ok := DOMKeyCode(k); !ok || got != want {
			t.Errorf("%v: %d %v, want %d", k, got, ok, want)
		}
	}
	reach := map[int]bool{}
	for k := ebiten.Key(0); k <= ebiten.KeyMax; k++ {
		if code, ok := DOMKeyCode(k); ok {
			reach[code] = true
		}
	}
	for _, m := range mouseButtons {
		reach[m.code] = true // a button, read by mouse
	}
	for code, name := range input.KeyNames() {
		if !reach[code] {
			t.Errorf("%s (%d) has no physical key", name, code)
		}
	}
	for _, c := range "AZ09" {
		if !reach[int(c)] {
			t.Errorf("%c unreachable", c)
		}
	}
}

func TestRepeatPress(t *testing.T) {
	var fired []int
	for d := 0; d <= 40; d++ {
		if repeatPress(d) {
			fired = append(fired, d)
		}
	}
	want := []int{1, 30, 33, 36, 39}
	if len(fired) != len(want) {
		t.Fatalf("fired %v", fired)
	}
	for i := range want {
		if fired[i] != want[i] {
			t.Fatalf("fired %v", fired)
		}
	}
}
