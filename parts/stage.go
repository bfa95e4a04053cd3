package parts

import "sort"

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
	d Drawable
}

// Stage is a canvas's draw list in ascending z, ties in insertion order.
// Adding and removing happen when entities appear or vanish; drawing walks
// the list without allocating.
type Stage struct {
	ID      string
	entries []stageEntry
	next    uint64
}

// NewStage returns an empty stage for canvas id.
func NewStage(id string) *Stage { return &Stage{ID: id} }

// Add inserts d at z and returns its handle.
func (s *Stage) Add(z int, d Drawable) Handle {
	s.next++
	h := Handle{z: z, seq: s.next}
	i := sort.Search(len(s.entries), func(i int) bool { return s.entries[i].z > z })
	s.entries = append(s.entries, stageEntry{})
	copy(s.entries[i+1:], s.entries[i:])
	s.entries[i] = stageEntry{Handle: h, d: d}
	return h
}

// Remove takes the entry out; an unknown handle is ignored.
func (s *Stage) Remove(h Handle) {
	lo := sort.Search(len(s.entries), func(i int) bool { return s.entries[i].z >= h.z })
	for i := lo; i < len(s.entries) && s.entries[i].z == h.z; i++ {
		if s.entries[i].seq == h.seq {
			copy(s.entries[i:], s.entries[i+1:])
			s.entries[len(s.entries)-1] = stageEntry{}
			s.entries = s.entries[:len(s.entries)-1]
			return
		}
	}
}

// Len is the number of entries.
func (s *Stage) Len() int { return len(s.entries) }

// Move puts the entry at z (after the entries already there) and returns
// its new handle; an unknown handle is ignored and returned as is.
func (s *Stage) Move(h Handle, z int) Handle {
	if h.z == z {
		return h
	}
	lo := sort.Search(len(s.entries), func(i int) bool { return s.entries[i].z >= h.z })
	for i := lo; i < len(s.entries) && s.entries[i].z == h.z; i++ {
		if s.entries[i].seq == h.seq {
			d := s.entries[i].d
			s.Remove(h)
			return s.Add(z, d)
		}
	}
	return h
}

// Z is the draw order an entry was added at.
func (h Handle) Z() int { return h.z }

// Draw draws every entry in order, each from the ground up (height 0).
func (s *Stage) Draw(g Gfx) {
	for i := range s.entries {
		g.Elevate(0)
		s.entries[i].d.Draw(g)
	}
	g.Elevate(0)
}

// Clear drops every entry.
func (s *Stage) Clear() {
	clear(s.entries)
	s.entries = s.entries[:0]
}
