package parts

import (
	"cmp"
	"slices"
)

// Drawable is anything a canvas draws each frame.
type Drawable interface {
	Draw(g Gfx)
}

// Handle identifies one entry on a Stage.
type Handle struct {
	z   int
	seq uint64
}

type stageEntry struct {
	Handle
	d Drawable // nil: removed, dropped at the next merge
}

func byOrder(a, b stageEntry) int {
	if c := cmp.Compare(a.z, b.z); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// Stage is a canvas's draw list in ascending z, ties in insertion order.
//
// Entities appear and vanish by the thousand when a host floods a canvas,
// so no operation moves the list: Add appends to a pending run (in
// insertion order, so in seq order), Remove marks its entry by binary
// search, and the list is rebuilt — the pending run sorted and merged in,
// the marked entries left out — once before drawing, or as soon as the
// pending and removed entries outnumber the sorted ones (a headless client
// never draws). An operation costs O(log n) amortised, a rebuild O(n + k
// log k) for k pending entries, and drawing walks the list without
// allocating.
type Stage struct {
	ID      string
	entries []stageEntry // sorted by (z, seq); removed ones have a nil d
	pending []stageEntry // added since the last merge, ascending seq
	spare   []stageEntry // the merge's destination, swapped with entries
	dead    int          // removed entries still in entries or pending
	next    uint64
	decals  []*DecalLayer // the ground decal layers drawn among the entries
}

// NewStage returns an empty stage for canvas id.
func NewStage(id string) *Stage { return &Stage{ID: id} }

// Add inserts d at z and returns its handle.
func (s *Stage) Add(z int, d Drawable) Handle {
	s.next++
	h := Handle{z: z, seq: s.next}
	s.pending = append(s.pending, stageEntry{Handle: h, d: d})
	s.maybeMerge()
	return h
}

// find returns the live entry of h (nil for an unknown or removed handle).
func (s *Stage) find(h Handle) *stageEntry {
	if i, ok := slices.BinarySearchFunc(s.entries, stageEntry{Handle: h}, byOrder); ok && s.entries[i].d != nil {
		return &s.entries[i]
	}
	if i, ok := slices.BinarySearchFunc(s.pending, h.seq, func(e stageEntry, seq uint64) int { return cmp.Compare(e.seq, seq) }); ok &&
		s.pending[i].z == h.z && s.pending[i].d != nil {
		return &s.pending[i]
	}
	return nil
}

// Remove takes the entry out; an unknown handle is ignored.
func (s *Stage) Remove(h Handle) {
	if e := s.find(h); e != nil {
		e.d = nil
		s.dead++
		s.maybeMerge()
	}
}

// Len is the number of entries.
func (s *Stage) Len() int { return len(s.entries) + len(s.pending) - s.dead }

// Move puts the entry at z (after the entries already there) and returns
// its new handle; an unknown handle is ignored and returned as is.
func (s *Stage) Move(h Handle, z int) Handle {
	if h.z == z {
		return h
	}
	e := s.find(h)
	if e == nil {
		return h
	}
	d := e.d
	e.d = nil
	s.dead++
	return s.Add(z, d)
}

// Z is the draw order an entry was added at.
func (h Handle) Z() int { return h.z }

// maybeMerge merges once the pending and removed entries outnumber the
// sorted ones, which keeps the memory held and the cost per operation
// bounded without drawing.
func (s *Stage) maybeMerge() {
	if len(s.pending)+s.dead > len(s.entries)+64 {
		s.merge()
	}
}

// merge rebuilds entries in order without the removed ones.
func (s *Stage) merge() {
	if len(s.pending) == 0 && s.dead == 0 {
		return
	}
	// Pending entries are in seq order; a stable sort by z keeps that for
	// ties, which is the (z, seq) order.
	slices.SortStableFunc(s.pending, func(a, b stageEntry) int { return cmp.Compare(a.z, b.z) })
	out := s.spare[:0]
	i, j := 0, 0
	for i < len(s.entries) || j < len(s.pending) {
		var e stageEntry
		if j == len(s.pending) || (i < len(s.entries) && byOrder(s.entries[i], s.pending[j]) < 0) {
			e = s.entries[i]
			i++
		} else {
			e = s.pending[j]
			j++
		}
		if e.d != nil {
			out = append(out, e)
		}
	}
	clear(s.entries)
	clear(s.pending)
	s.spare = s.entries[:0]
	s.entries = out
	s.pending = s.pending[:0]
	s.dead = 0
}

// Draw draws every entry in order, each from the ground up (height 0).
func (s *Stage) Draw(g Gfx) {
	s.merge()
	for i := range s.entries {
		g.Elevate(0)
		s.entries[i].d.Draw(g)
	}
	g.Elevate(0)
}

// Clear drops every entry, decal layers included.
func (s *Stage) Clear() {
	clear(s.entries)
	clear(s.pending)
	clear(s.decals)
	s.entries, s.pending, s.dead, s.decals = s.entries[:0], s.pending[:0], 0, s.decals[:0]
}

// Decals returns the stage's decal layer at draw order z and height h
// (levels) fading at fadeRate alpha per millisecond, adding it to the
// stage the first time it is asked for: the parts that leave marks at one
// height share one layer. It stays on the stage until Clear.
func (s *Stage) Decals(z int, h, fadeRate float64) *DecalLayer {
	return s.decalLayer(z, h, fadeRate, 0, 0)
}

// HeldDecals is Decals for a held layer: each of its marks shows whole for
// holdMs, then fades out over fadeMs.
func (s *Stage) HeldDecals(z int, h, holdMs, fadeMs float64) *DecalLayer {
	return s.decalLayer(z, h, 0, holdMs, fadeMs)
}

// decalLayer returns the stage's layer with these settings, adding it when
// there is none.
func (s *Stage) decalLayer(z int, h, fadeRate, hold, fade float64) *DecalLayer {
	for _, l := range s.decals {
		if l.z == z && l.H == h && l.FadeRate == fadeRate && l.Hold == hold && l.FadeOut == fade {
			return l
		}
	}
	l := &DecalLayer{H: h, FadeRate: fadeRate, Hold: hold, FadeOut: fade, z: z}
	s.decals = append(s.decals, l)
	s.Add(z, l)
	return l
}

// Advance runs the clocks of the stage's decal layers on by dtMs.
func (s *Stage) Advance(dtMs float64) {
	for _, l := range s.decals {
		l.Advance(dtMs)
	}
}
