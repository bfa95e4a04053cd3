package parts

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// idMark draws its id into a shared list.
type idMark struct {
	id  int
	out *[]int
}

func (m *idMark) Draw(Gfx) { *m.out = append(*m.out, m.id) }

// The stage against a plain model under random adds, removes and moves:
// after every step the draw order is ascending z, ties in insertion order,
// and Len counts the live entries.
func TestStageMatchesModel(t *testing.T) {
	type live struct {
		h  Handle
		id int
	}
	r := rand.New(rand.NewPCG(1, 2))
	s := NewStage("vimp")
	var model []live // in insertion order (a move re-inserts)
	var got []int
	g := &heightOnly{}
	for step := range 20000 {
		switch op := r.IntN(10); {
		case op < 5 || len(model) == 0:
			z := r.IntN(8)
			model = append(model, live{h: s.Add(z, &idMark{id: step, out: &got}), id: step})
		case op < 8:
			i := r.IntN(len(model))
			s.Remove(model[i].h)
			s.Remove(model[i].h) // twice is harmless
			model = slices.Delete(model, i, i+1)
		default:
			i := r.IntN(len(model))
			l := model[i]
			l.h = s.Move(l.h, r.IntN(8))
			if l.h != model[i].h {
				model = append(slices.Delete(model, i, i+1), l)
			}
		}
		if s.Len() != len(model) {
			t.Fatalf("step %d: Len %d, model %d", step, s.Len(), len(model))
		}
		if step%97 != 0 {
			continue
		}
		want := slices.Clone(model)
		slices.SortStableFunc(want, func(a, b live) int { return cmp.Compare(a.h.Z(), b.h.Z()) })
		got = got[:0]
		s.Draw(g)
		if len(got) != len(want) {
			t.Fatalf("step %d: drew %d, want %d", step, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i].id {
				t.Fatalf("step %d: entry %d is %d, want %d", step, i, got[i], want[i].id)
			}
		}
	}
}

// Drawing a stage that took adds and removes since the last draw allocates
// nothing once its storage has grown.
func TestStageDrawAllocatesNothing(t *testing.T) {
	var out []int
	s := NewStage("vimp")
	hs := make([]Handle, 0, 256)
	for i := range 256 {
		hs = append(hs, s.Add(i%7, &idMark{id: i, out: &out}))
	}
	out = make([]int, 0, 512)
	g := &heightOnly{}
	m := &idMark{id: -1, out: &out}
	allocs := testing.AllocsPerRun(100, func() {
		out = out[:0]
		s.Remove(hs[0])
		hs[0] = s.Add(3, m)
		hs[1] = s.Move(hs[1], (hs[1].Z()+1)%7)
		s.Draw(g)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per draw", allocs)
	}
}

// BenchmarkStageFlood adds b.N entries on a few z values and removes the
// older half as it goes: the cost per operation stays flat as the stage
// grows (a sorted insert would move the list at every add).
func BenchmarkStageFlood(b *testing.B) {
	s := NewStage("vimp")
	var out []int
	m := &idMark{out: &out}
	hs := make([]Handle, 0, 1<<16)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		hs = append(hs, s.Add(i%5, m))
		if len(hs) == cap(hs) {
			for _, h := range hs[:len(hs)/2] {
				s.Remove(h)
			}
			hs = append(hs[:0], hs[len(hs)/2:]...)
		}
	}
}
