package parts

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

type mark struct {
	id  int
	out *[]int
}

func (m mark) Draw(Gfx) { *m.out = append(*m.out, m.id) }

// heightOnly is a Gfx that only takes heights: a stage sets one before
// every entry.
type heightOnly struct {
	Gfx
	set int
}

func (g *heightOnly) Elevate(float64) { g.set++ }

func TestStageOrder(t *testing.T) {
	var got []int
	s := NewStage("vimp")
	h3 := s.Add(3, mark{1, &got})
	s.Add(1, mark{2, &got})
	s.Add(3, mark{3, &got})
	s.Add(2, mark{4, &got})
	s.Add(1, mark{5, &got})
	s.Draw(&heightOnly{})
	if want := "2 5 4 1 3"; join(got) != want {
		t.Fatalf("order %s want %s (ascending z, ties in insertion order)", join(got), want)
	}
	s.Remove(h3)
	s.Remove(h3) // twice is harmless
	got = got[:0]
	s.Draw(&heightOnly{})
	if want := "2 5 4 3"; join(got) != want || s.Len() != 4 {
		t.Fatalf("after removal %s", join(got))
	}
	// Move puts an entry last among its new order's; an unknown handle stays.
	h := s.Add(0, mark{6, &got})
	h = s.Move(h, 2)
	got = got[:0]
	s.Draw(&heightOnly{})
	if want := "2 5 4 6 3"; join(got) != want || h.Z() != 2 || s.Move(h3, 9) != h3 {
		t.Fatalf("after move %s", join(got))
	}
}

func join(v []int) string {
	var b strings.Builder
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(rune('0' + x)))
	}
	return b.String()
}

func TestAffine(t *testing.T) {
	m := Identity().Translate(-1, 0).Scale(2, 2).Rotate(math.Pi/2).Translate(10, 20)
	x, y := m.Apply(1, 0) // -> (0,0) -> (0,0) -> (0,0) -> (10,20)
	if math.Abs(x-10) > 1e-12 || math.Abs(y-20) > 1e-12 {
		t.Fatalf("origin -> %v,%v", x, y)
	}
	x, y = m.Apply(2, 0) // -> (1,0) -> (2,0) -> (0,2) (y down: clockwise) -> (10,22)
	if math.Abs(x-10) > 1e-12 || math.Abs(y-22) > 1e-12 {
		t.Fatalf("unit -> %v,%v", x, y)
	}
	if c := RGB(0x552222); c.R != float32(0x55)/255 || c.A != 1 {
		t.Fatalf("colour %+v", c)
	}
}

func FuzzParsePartsConfig(f *testing.F) {
	f.Add([]byte(`{"gameSets":{"m1":["Tank","TankRadar"]},"entitiesOnCanvas":{"Tank":"vimp"}}`))
	f.Add([]byte(`{"gameSets":{"a":[1]}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		pc, err := ParsePartsConfig(json.RawMessage(b))
		if err != nil {
			return
		}
		for k, v := range pc.GameSets {
			_ = k
			_ = len(v)
		}
	})
}
