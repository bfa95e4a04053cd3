package clientcore

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
	if !b.hasOffset || len(b.frames) == 0 {
		return h
	}
	renderTime := localNow + b.offset - c.delay
	b.lastRenderTime, b.hasLastRender = renderTime, true
	a := -1
	for i, s := range b.frames {
		if s.frame.ServerTime > renderTime {
			break
		}
		a = i
	}
	if a < 0 {
		return h
	}
	if a > 0 {
		freed := c.freed[:0]
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
		c.release(freed)
		clear(freed)
		c.freed = freed[:0]
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
	if len(b.frames) > 1 {
		fb = &b.frames[1].frame
		al := (renderTime - fa.ServerTime) / (fb.ServerTime - fa.ServerTime)
		al = max(0, min(1, al))
		alpha = float32(al)
	}
	c.interpolate(fa, fb, alpha)
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
	// Size the value arena up front so Fields can be cut while writing.
	need, dup := 0, false
	c.keyGen++
	for bi := range fa.Blocks {
		k := fa.Blocks[bi].Schema
		if !k.interpolated {
			continue
		}
		need += len(fa.Blocks[bi].Rows) * len(k.Fields)
		if c.keySeen[k.ID] == c.keyGen {
			dup = true
		}
		c.keySeen[k.ID] = c.keyGen
	}
	if cap(c.vals) < need {
		c.vals = make([]float32, 0, need)
	}
	c.vals = c.vals[:0]
	if !dup {
		for bi := range fa.Blocks {
			ab := &fa.Blocks[bi]
			if !ab.Schema.interpolated {
				continue
			}
			if ab.Schema.Kind == KindIndexed8 {
				h.Actors = c.interpolateBlock(ab, fb, alpha, h.Actors)
			} else {
				h.Dynamics = c.interpolateBlock(ab, fb, alpha, h.Dynamics)
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
		c.recs = c.interpolateBlock(ab, fb, alpha, c.recs)
		c.segs = append(c.segs, segment{key: ab.Schema, start: start, end: len(c.recs)})
	}
	c.keyGen++
	for i, sg := range c.segs {
		if sg.end > sg.start {
			c.keySeen[sg.key.ID], c.keyLast[sg.key.ID] = c.keyGen, int32(i)
		}
	}
	for _, sg := range c.segs {
		id := sg.key.ID
		if sg.end == sg.start || c.keySeen[id] != c.keyGen {
			continue
		}
		last := c.segs[c.keyLast[id]]
		c.keySeen[id] = 0 // placed, at its first position
		if sg.key.Kind == KindIndexed8 {
			h.Actors = append(h.Actors, c.recs[last.start:last.end]...)
		} else {
			h.Dynamics = append(h.Dynamics, c.recs[last.start:last.end]...)
		}
	}
}

// interpolateBlock appends the records of one of A's blocks: rows present
// and non-null in A and in B's first block of the same key.
func (c *Core) interpolateBlock(ab *Block, fb *Frame, alpha float32, dst []Record) []Record {
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
	c.idGen++
	for j := range bb.Rows {
		id := bb.Rows[j].ID
		if c.idSeen[id] != c.idGen {
			c.idSeen[id], c.idPos[id] = c.idGen, int32(j)
		}
	}
	w := len(k.Fields)
	lerped := k.lerped[:w]
	for ri := range ab.Rows {
		ra := &ab.Rows[ri]
		if ra.Null || c.idSeen[ra.ID] != c.idGen {
			continue
		}
		rb := &bb.Rows[c.idPos[ra.ID]]
		if rb.Null {
			continue
		}
		off := len(c.vals)
		c.vals = c.vals[:off+w]
		out := c.vals[off : off+w : off+w]
		av, bv := ra.Fields[:w], rb.Fields[:w]
		for i, mode := range lerped {
			a := av[i]
			switch mode {
			case InterpLerp:
				a = lerp(a, bv[i], alpha)
			case InterpLerpAngle:
				a = lerpAngle(a, bv[i], alpha)
			}
			out[i] = a
		}
		dst = append(dst, Record{Schema: k, ID: ra.ID, Fields: out})
	}
	return dst
}
