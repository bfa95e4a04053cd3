package clientcore

// Engine constants of the interpolation buffer.
const (
	offsetSmoothing = 0.1
	issuedWindow    = 128 // seqs kept in the issued memory below the reference frame
	maxBuffered     = 256
	// maxIssued bounds the issued memory against a host that floods late
	// frames with ever new seqs (the engine's set has no bound).
	maxIssued = 1024
	// maxPendingLate bounds late frames waiting for the next sample.
	maxPendingLate = 256
	// emittedSlots sizes the direct-mapped memory of emitted seqs that keeps
	// a re-delivered frame from being emitted twice after the issued window
	// has forgotten it.
	emittedSlots = 4096
)

// slot holds one decoded frame while the buffer, the event queue or both
// refer to it; it returns to the pool when neither does.
type slot struct {
	frame    Frame
	issued   bool
	inBuffer bool
	inQueue  bool
	pooled   bool
	// kept: the core keeps the slot as the frame before the reference
	// one, for extrapolation.
	kept bool
	// gen numbers the slot's decode, in Core.decodes: a slot decoded anew
	// holds a new frame.
	gen uint64
	// dedup is the frame's blocks with repeated keys merged, built when
	// the frame is emitted; event is the event frame handed out.
	dedup []Block
	event EventFrame
}

// emittedMemory remembers emitted seqs in a direct-mapped table: a seq is
// emitted if its slot holds it, and counted as emitted (too old) if its slot
// holds a later seq of the same residue.
type emittedMemory struct {
	seq   [emittedSlots]uint32
	valid [emittedSlots]bool
}

func (m *emittedMemory) mark(seq uint32) {
	i := seq % emittedSlots
	m.seq[i], m.valid[i] = seq, true
}

func (m *emittedMemory) has(seq uint32) bool {
	i := seq % emittedSlots
	if !m.valid[i] {
		return false
	}
	return m.seq[i] == seq || seqLess(seq, m.seq[i])
}

func (m *emittedMemory) clear() { clear(m.valid[:]) }

// buffer is the interpolation buffer of frames ordered by seq.
type buffer struct {
	frames []*slot

	hasOffset bool
	offset    float64

	hasLastRender  bool
	lastRenderTime float64

	pendingLate []*slot
	lateDropped uint64
	issued      []uint32
	emitted     emittedMemory
}

func (b *buffer) isIssued(seq uint32) bool {
	for _, s := range b.issued {
		if s == seq {
			return true
		}
	}
	return false
}

// markIssued records seq in the issued memory (bounded) and the emitted memory.
func (b *buffer) markIssued(seq uint32) {
	if !b.isIssued(seq) {
		if len(b.issued) >= maxIssued {
			copy(b.issued, b.issued[1:])
			b.issued = b.issued[:len(b.issued)-1]
		}
		b.issued = append(b.issued, seq)
	}
	b.emitted.mark(seq)
}

// forgetIssuedBelow drops issued seqs serially below min.
func (b *buffer) forgetIssuedBelow(min uint32) {
	kept := b.issued[:0]
	for _, s := range b.issued {
		if !seqLess(s, min) {
			kept = append(kept, s)
		}
	}
	b.issued = kept
}

// pushResult says what the buffer did with a frame.
type pushResult uint8

const (
	pushBuffered  pushResult = iota // inserted
	pushLate                        // queued for the next sample, never interpolated
	pushDuplicate                   // already buffered, issued or emitted: no effect at all
)

// push inserts s (its frame decoded) per the engine's rules. It reports what
// happened and appends the slots it released (pruned) to released.
func (b *buffer) push(s *slot, localNow, maxFrameAge float64, released []*slot) (pushResult, []*slot) {
	seq, t := s.frame.Seq, s.frame.ServerTime
	if b.isIssued(seq) || b.emitted.has(seq) {
		return pushDuplicate, released
	}
	// The whole buffer is searched for the seq: serial order is not
	// transitive once a host's seqs span half the number space, so the walk
	// below could stop short of an equal seq and buffer the frame twice.
	for _, f := range b.frames {
		if f.frame.Seq == seq {
			return pushDuplicate, released
		}
	}
	idx := len(b.frames)
	for idx > 0 && !seqLess(b.frames[idx-1].frame.Seq, seq) {
		idx--
	}
	if !b.hasOffset {
		b.offset, b.hasOffset = t-localNow, true
	} else {
		b.offset += ((t - localNow) - b.offset) * offsetSmoothing
	}
	if b.hasLastRender && t <= b.lastRenderTime {
		b.markIssued(seq)
		if len(b.pendingLate) >= maxPendingLate {
			b.lateDropped++
			released = append(released, b.pendingLate[0])
			b.pendingLate[0].inQueue = false
			copy(b.pendingLate, b.pendingLate[1:])
			b.pendingLate = b.pendingLate[:len(b.pendingLate)-1]
		}
		s.issued, s.inQueue = true, true
		b.pendingLate = append(b.pendingLate, s)
		return pushLate, released
	}
	s.issued, s.inBuffer = false, true
	b.frames = append(b.frames, nil)
	copy(b.frames[idx+1:], b.frames[idx:])
	b.frames[idx] = s
	newest := b.frames[len(b.frames)-1].frame.ServerTime
	drop := 0
	for len(b.frames)-drop > 2 && b.frames[drop].frame.ServerTime < newest-maxFrameAge {
		drop++
	}
	if n := len(b.frames) - drop; n > maxBuffered {
		drop += n - maxBuffered
	}
	if drop > 0 {
		for _, old := range b.frames[:drop] {
			old.inBuffer = false
			released = append(released, old)
		}
		n := copy(b.frames, b.frames[drop:])
		clear(b.frames[n:])
		b.frames = b.frames[:n]
	}
	return pushBuffered, released
}

// reset forgets everything; the same seqs are accepted again afterwards.
func (b *buffer) reset(released []*slot) []*slot {
	for _, s := range b.frames {
		s.inBuffer = false
		released = append(released, s)
	}
	for _, s := range b.pendingLate {
		s.inQueue = false
		released = append(released, s)
	}
	clear(b.frames)
	b.frames = b.frames[:0]
	clear(b.pendingLate)
	b.pendingLate = b.pendingLate[:0]
	b.issued = b.issued[:0]
	b.hasOffset, b.offset = false, 0
	b.hasLastRender, b.lastRenderTime = false, 0
	b.emitted.clear()
	return released
}
