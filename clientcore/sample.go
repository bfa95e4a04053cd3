package clientcore

import (
	"math"
	"slices"
	"vimpclient/snapschema"
)

// The render-time sample: the two buffered frames around render time and
// the world interpolated between them.

func (c *Core) sampleWorld(localNow float64) *Hot {
	b := &c.buf
	h := &c.hot
	h.Flags, h.Camera = 0, [2]float32{}
	h.Actors, h.Dynamics, h.Tail = h.Actors[:0], h.Dynamics[:0], h.Tail[:0]
	for _, s := range b.pendingLate {
		s.inQueue = false
		c.enqueue(s)
	}
	clear(b.pendingLate)
	b.pendingLate = b.pendingLate[:0]
	dt := c.fig.step(localNow)
	if !b.hasOffset || len(b.frames) == 0 {
		return h
	}
	renderTime := localNow + b.offset - c.delay
	delay := c.delay
	if c.adaptive {
		rt, ok := c.rc.advance(localNow)
		if !ok {
			return h
		}
		renderTime, delay = rt, c.rc.delay
	}
	if b.hasLastRender {
		c.fig.backStep(b.lastRenderTime, renderTime)
		c.fig.renderStep(renderTime-b.lastRenderTime, dt)
	}
	b.lastRenderTime, b.hasLastRender = renderTime, true
	a := -1
	for i, s := range b.frames {
		if s.frame.ServerTime > renderTime {
			break
		}
		a = i
	}
	if a < 0 {
		c.fig.observe(dt, delay, false, false)
		return h
	}
	if a > 0 {
		freed := c.slots.freed[:0]
		if c.adaptive {
			freed = c.keepPrev(b.frames[a-1], freed)
		}
		for _, s := range b.frames[:a] {
			s.inBuffer = false
			if !s.issued {
				s.issued = true
				b.markIssued(s.frame.Seq)
				c.enqueue(s)
			} else {
				freed = append(freed, s)
			}
		}
		c.slots.release(freed)
		clear(freed)
		c.slots.freed = freed[:0]
		n := copy(b.frames, b.frames[a:])
		clear(b.frames[n:])
		b.frames = b.frames[:n]
	}
	ref := b.frames[0]
	if !ref.issued {
		ref.issued = true
		b.markIssued(ref.frame.Seq)
		c.enqueue(ref)
	}
	b.forgetIssuedBelow(forgetBelow(ref.frame.Seq))
	fa := &ref.frame
	fb, alpha := fa, float32(0)
	pair := framePair{a: ref.gen, b: ref.gen}
	if len(b.frames) > 1 {
		fb = &b.frames[1].frame
		pair.b = b.frames[1].gen
		al := (renderTime - fa.ServerTime) / (fb.ServerTime - fa.ServerTime)
		al = max(0, min(1, al))
		alpha = float32(al)
	}
	if c.cut.valid && c.cut.pair == pair {
		c.relerp(alpha)
	} else {
		c.cut.valid = false
		c.interpolate(fa, fb, alpha)
		c.cut = cutState{valid: c.cut.spansOnly, pair: pair, actors: len(h.Actors), dynamics: len(h.Dynamics)}
	}
	past := renderTime - fa.ServerTime
	if fb != fa {
		past = 0
	}
	extrapolated, frozen := false, past > 0
	if c.adaptive {
		c.rc.starved(past)
		if past > 0 && c.prev != nil {
			c.extrapolate(&c.prev.frame, fa, min(past, maxExtrapolateMs))
			extrapolated, frozen = true, past > maxExtrapolateMs
		}
		if c.blend.shownValid && (!extrapolated || c.blend.shownRef != ref.gen) {
			c.startBlend(localNow)
			c.blend.shownValid = false
		}
		c.applyBlend(localNow)
		if extrapolated {
			c.keepShown()
			c.blend.shownValid, c.blend.shownRef = true, ref.gen
		}
	}
	c.fig.observe(dt, delay, extrapolated, frozen)
	if c.watchJumps {
		frameMs := defaultFrameMs
		if fb != fa {
			frameMs = fb.ServerTime - fa.ServerTime
		} else if c.adaptive {
			frameMs = c.rc.interval
		}
		c.jumps.observe(h.Actors, localNow, uint32(fa.Player.GameID), fa.HasPlayer, frameMs)
	}
	h.Flags |= HotGame
	switch {
	case fb != fa && fa.HasCamera && fb.HasCamera:
		h.Camera = [2]float32{lerp(fa.Camera.X, fb.Camera.X, alpha), lerp(fa.Camera.Y, fb.Camera.Y, alpha)}
		h.Flags |= HotCamera
	case fa.HasCamera:
		h.Camera = [2]float32{fa.Camera.X, fa.Camera.Y}
		h.Flags |= HotCamera
	}
	return h
}

// keepPrev keeps s, the frame before the new reference one, for the
// velocity extrapolation reads; the one kept before is appended to freed,
// to be released.
func (c *Core) keepPrev(s *slot, freed []*slot) []*slot {
	if c.prev == s {
		return freed
	}
	if old := c.prev; old != nil {
		old.kept = false
		freed = append(freed, old)
	}
	s.kept, c.prev = true, s
	return freed
}

// forgetBelow is the lowest seq the issued memory keeps: 128 below the
// reference frame, saturating at 0 only in the sense that serial arithmetic
// has no floor (seq 5 keeps everything from 2^32-123 on).
func forgetBelow(ref uint32) uint32 { return ref - issuedWindow }

// interpolate writes the hot groups for A→B at alpha (A with itself when
// holding). Blocks are walked in A's order; B's block is found by key, first
// match; a later block of a repeated key replaces the earlier one's rows but
// keeps its position; a block that yields no rows is left out.
func (c *Core) interpolate(fa, fb *Frame, alpha float32) {
	h := &c.hot
	c.spans, c.cut.spansOnly = c.spans[:0], true
	// Size the value arena up front so Fields can be cut while writing.
	need, dup := 0, false
	c.keys.gen++
	for bi := range fa.Blocks {
		k := fa.Blocks[bi].Schema
		if !k.interpolated {
			continue
		}
		need += len(fa.Blocks[bi].Rows) * len(k.Fields)
		if c.keys.seen[k.ID] == c.keys.gen {
			dup = true
		}
		c.keys.seen[k.ID] = c.keys.gen
	}
	if cap(c.vals) < need {
		c.vals = make([]float32, 0, need)
	}
	c.vals = c.vals[:0]
	c.cut.spansOnly = !dup
	if !dup {
		for bi := range fa.Blocks {
			ab := &fa.Blocks[bi]
			if !ab.Schema.interpolated {
				continue
			}
			if ab.Schema.Kind == snapschema.KindIndexed8 {
				h.Actors = c.interpolateBlock(fa, ab, fb, alpha, h.Actors)
			} else {
				h.Dynamics = c.interpolateBlock(fa, ab, fb, alpha, h.Dynamics)
			}
		}
		return
	}
	// Repeated keys: interpolate every block into segments, then let the
	// first non-empty segment of a key fix the position and the last
	// non-empty one supply the rows.
	c.recs = c.recs[:0]
	c.segs = c.segs[:0]
	for bi := range fa.Blocks {
		ab := &fa.Blocks[bi]
		if !ab.Schema.interpolated {
			continue
		}
		start := len(c.recs)
		c.recs = c.interpolateBlock(fa, ab, fb, alpha, c.recs)
		c.segs = append(c.segs, segment{key: ab.Schema, start: start, end: len(c.recs)})
	}
	c.keys.gen++
	for i, sg := range c.segs {
		if sg.end > sg.start {
			c.keys.seen[sg.key.ID], c.keys.pos[sg.key.ID] = c.keys.gen, int32(i)
		}
	}
	for _, sg := range c.segs {
		id := sg.key.ID
		if sg.end == sg.start || c.keys.seen[id] != c.keys.gen {
			continue
		}
		last := c.segs[c.keys.pos[id]]
		c.keys.seen[id] = 0 // placed, at its first position
		if sg.key.Kind == snapschema.KindIndexed8 {
			h.Actors = append(h.Actors, c.recs[last.start:last.end]...)
		} else {
			h.Dynamics = append(h.Dynamics, c.recs[last.start:last.end]...)
		}
	}
}

// interpolateBlock appends the records of one of A's blocks: rows present
// and non-null in A and in B's first block of the same key.
func (c *Core) interpolateBlock(fa *Frame, ab *Block, fb *Frame, alpha float32, dst []Record) []Record {
	k := ab.Schema
	var bb *Block
	for j := range fb.Blocks {
		if fb.Blocks[j].Schema == k {
			bb = &fb.Blocks[j]
			break
		}
	}
	if bb == nil {
		return dst
	}
	if out, ok := c.lerpSpan(fa, ab, fb, bb, alpha, dst); ok {
		return out
	}
	c.cut.spansOnly = false
	c.ids.gen++
	for j := range bb.Rows {
		id := bb.Rows[j].ID
		if c.ids.seen[id] != c.ids.gen {
			c.ids.seen[id], c.ids.pos[id] = c.ids.gen, int32(j)
		}
	}
	// The fast loop below holds no call; a block with an angle
	// difference outside [-π, π] is done again by interpolateRows, which
	// wraps it as the engine does.
	start, voff := len(dst), len(c.vals)
	if dst, ok := c.lerpRows(ab, bb, alpha, dst); ok {
		return dst
	}
	c.vals = c.vals[:voff]
	return c.interpolateRows(ab, bb, alpha, dst[:start])
}

// lerpRows appends the records of A's block ab interpolated towards B's
// block bb (indexed by c.ids.seen and c.ids.pos), each row's fields by the
// key's runs. It reports false, having written garbage, when an angle
// difference needs wrapping.
func (c *Core) lerpRows(ab, bb *Block, alpha float32, dst []Record) ([]Record, bool) {
	k := ab.Schema
	w := len(k.Fields)
	runs := k.interp
	vals := c.vals
	wrap := false
	// Room for every row up front: the loop then holds no call, which
	// keeps its state in registers.
	if cap(dst)-len(dst) < len(ab.Rows) {
		dst = slices.Grow(dst, len(ab.Rows))
	}
	n := len(dst)
	for ri := range ab.Rows {
		ra := &ab.Rows[ri]
		if ra.Null || c.ids.seen[ra.ID&0xff] != c.ids.gen {
			continue
		}
		rb := &bb.Rows[c.ids.pos[ra.ID&0xff]]
		if rb.Null {
			continue
		}
		off := len(vals)
		vals = vals[:off+w]
		out := vals[off : off+w : off+w]
		av, bv := ra.Fields[:w], rb.Fields[:w]
		i := 0
		for ri := range runs {
			run := &runs[ri]
			end := min(i+run.n, w)
			switch run.mode {
			case snapschema.InterpDiscrete:
				for ; i < end; i++ {
					out[i] = av[i]
				}
			case snapschema.InterpLerp:
				for ; i < end; i++ {
					a := av[i]
					out[i] = a + float32((bv[i]-a)*alpha)
				}
			case snapschema.InterpLerpAngle:
				for ; i < end; i++ {
					a := av[i]
					d := bv[i] - a
					wrap = wrap || d > pi || d < -pi
					out[i] = a + float32(d*alpha)
				}
			}
		}
		if n >= cap(dst) {
			break // cannot happen: room was made for every row
		}
		dst = dst[:n+1]
		dst[n] = Record{Schema: k, ID: ra.ID, Fields: out}
		n++
	}
	c.vals = vals
	return dst, !wrap
}

// interpolateRows is lerpRows field by field, with lerpAngle's wrap: the
// engine's interpolation as written.
func (c *Core) interpolateRows(ab, bb *Block, alpha float32, dst []Record) []Record {
	k := ab.Schema
	w := len(k.Fields)
	for ri := range ab.Rows {
		ra := &ab.Rows[ri]
		if ra.Null || c.ids.seen[ra.ID&0xff] != c.ids.gen {
			continue
		}
		rb := &bb.Rows[c.ids.pos[ra.ID&0xff]]
		if rb.Null {
			continue
		}
		off := len(c.vals)
		c.vals = c.vals[:off+w]
		out := c.vals[off : off+w : off+w]
		for i, mode := range k.lerped[:w] {
			a, b := ra.Fields[i], rb.Fields[i]
			switch mode {
			case snapschema.InterpLerp:
				a = lerp(a, b, alpha)
			case snapschema.InterpLerpAngle:
				a = lerpAngle(a, b, alpha)
			}
			out[i] = a
		}
		dst = append(dst, Record{Schema: k, ID: ra.ID, Fields: out})
	}
	return dst
}

// lerpSpan is the common case: both blocks are as the decoder wrote them
// with Block.span, and B's block holds A's rows in the same order. Then
// each block's fields are one contiguous span of its frame's values, the
// whole span is lerped in one loop, the discrete fields copied back
// strided by the row width, and the records cut from the output span. A
// lerpAngle field lerps as a lerp one does while its difference is within
// [-π, π], so the angles are only checked. It reports false, having
// written nothing, when the blocks are not so or an angle difference
// needs wrapping.
func (c *Core) lerpSpan(fa *Frame, ab *Block, fb *Frame, bb *Block, alpha float32, dst []Record) ([]Record, bool) {
	k := ab.Schema
	w, n := len(k.Fields), len(ab.Rows)
	if w == 0 || n == 0 || len(bb.Rows) != n {
		return dst, false
	}
	sa, ok := spanOf(fa, ab, w)
	if !ok {
		return dst, false
	}
	sb, ok := spanOf(fb, bb, w)
	if !ok || !sameIDs(ab.Rows, bb.Rows) || !anglesInRange(sa, sb, k.angles, w) {
		return dst, false
	}
	o := len(c.vals)
	if cap(c.vals)-o < len(sa) {
		return dst, false // cannot happen: interpolate sized vals
	}
	out := c.vals[o : o+len(sa) : o+len(sa)]
	c.vals = c.vals[:o+len(sa)]
	c.spans = append(c.spans, spanLerp{out: out, a: sa, b: sb, k: k})
	lerpSpanWhole(out, sa, sb, k, alpha)
	if cap(dst)-len(dst) < n {
		dst = slices.Grow(dst, n)
	}
	m := len(dst)
	cutRecords(dst[m:m+n], ab.Rows[:n], out, k, w)
	return dst[:m+n], true
}

// lerpSpanWhole lerps the span sa→sb into out, the discrete fields of key
// k copied from sa.
func lerpSpanWhole(out, sa, sb []float32, k *KeySchema, alpha float32) {
	lerpSpanValues(out, sa, sb, alpha)
	w := len(k.Fields)
	for _, i := range k.discrete {
		for r := i; r < len(out); r += w {
			out[r] = sa[r]
		}
	}
}

// cutRecords writes the records of rows, their fields cut from out row
// after row, w each.
func cutRecords(recs []Record, rows []Row, out []float32, k *KeySchema, w int) {
	rows = rows[:len(recs)]
	lo := 0
	for r := range recs {
		if lo+w > len(out) {
			return // cannot happen: out holds a row per record
		}
		rec := &recs[r]
		rec.Schema, rec.ID, rec.Fields = k, rows[r].ID, out[lo:lo+w:lo+w]
		lo += w
	}
}

// spanOf returns the span of f's values that holds the fields of every row
// of blk, row after row, or false when blk is not a span block of f as its
// decoder left it.
func spanOf(f *Frame, blk *Block, w int) ([]float32, bool) {
	if !blk.span || blk.start < 0 || blk.end > len(f.rows) || blk.end-blk.start != len(blk.Rows) ||
		&blk.Rows[0] != &f.rows[blk.start] {
		return nil, false
	}
	off := blk.voff
	end := off + len(blk.Rows)*w
	if off < 0 || end > len(f.vals) || end < off {
		return nil, false
	}
	return f.vals[off:end:end], true
}

// sameIDs reports whether a and b hold the same ids in the same order.
func sameIDs(a, b []Row) bool {
	b = b[:len(a)]
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

// lerpSpanValues writes a + (b-a)·alpha over whole spans, two halves a
// step; a leaf, so that its loop keeps everything in registers.
func lerpSpanValues(out, sa, sb []float32, alpha float32) {
	h := len(out) / 2
	o1, o2 := out[:h], out[h:2*h]
	a1, a2, b1, b2 := sa[:len(o1)], sa[h:2*h], sb[:len(o1)], sb[h:2*h]
	a2, b2, o2 = a2[:len(o1)], b2[:len(o1)], o2[:len(o1)]
	for i := range o1 {
		x, y := a1[i], a2[i]
		o1[i] = x + float32((b1[i]-x)*alpha)
		o2[i] = y + float32((b2[i]-y)*alpha)
	}
	if len(out)%2 != 0 {
		i := len(out) - 1
		x := sa[i]
		out[i] = x + float32((sb[i]-x)*alpha)
	}
}

// anglesInRange reports whether every lerpAngle difference of the spans
// (fields angles of rows w wide) lies within [-π, π], where lerpAngle is a
// lerp. It compares magnitude bits, branch-free: bit 31 of bits(π)-|d|
// is set when |d| > π (NaN included, which lerpAngle leaves unwrapped:
// the field-by-field path then gives the same value).
func anglesInRange(sa, sb []float32, angles []int, w int) bool {
	sb = sb[:len(sa)]
	var over uint32
	for _, i := range angles {
		for r := i; r < len(sa); r += w {
			over |= math.Float32bits(pi) - math.Float32bits(sb[r]-sa[r])&0x7fffffff
		}
	}
	return over&(1<<31) == 0
}

// framePair names the two frames a sample lies between by their slots'
// decode generations, which no other decode shares.
type framePair struct{ a, b uint64 }

// cutState is what the last interpolate left for a next sample between
// the same two frames: while valid, the hot records it cut (their ids,
// schemas and places in Core.vals) and the checks that chose the span
// path (same ids, angles within ±π) still hold, since the buffered frames
// are not written again until their slot is decoded anew, and only the
// values depend on alpha. A render tick that samples several times per
// frame pair then only lerps.
type cutState struct {
	valid bool
	pair  framePair
	// actors and dynamics are the lengths of Hot.Actors and Hot.Dynamics.
	actors, dynamics int
	// spansOnly: every block that interpolated took the span path (its
	// lerp is in Core.spans) and no key repeated; only then is the cut
	// kept.
	spansOnly bool
}

// spanLerp is one block's lerp on the span path: its output span, A's and
// B's value spans and the key.
type spanLerp struct {
	out, a, b []float32
	k         *KeySchema
}

// relerp is a sample between the same two frames as the last: the records
// stand as cut, only their values are lerped again at alpha.
func (c *Core) relerp(alpha float32) {
	h := &c.hot
	h.Actors, h.Dynamics = h.Actors[:c.cut.actors], h.Dynamics[:c.cut.dynamics]
	for i := range c.spans {
		sp := &c.spans[i]
		lerpSpanWhole(sp.out, sp.a, sp.b, sp.k, alpha)
	}
}
