package clientcore

import (
	"encoding/binary"
	"vimpclient/snapschema"
)

// decodeBlock decodes the block of key k whose row count starts at b[pos],
// writing each row once, in place, into f's storage: a repeated id keeps
// its first position and takes the last value. It returns the position
// after the block.
func (d *Decoder) decodeBlock(b []byte, pos int, k *KeySchema, f *Frame) (int, error) {
	var count int
	if k.Kind == snapschema.KindIndexed8 || k.Kind == snapschema.KindIndexedNoNull8 {
		if pos >= len(b) {
			return pos, ErrTruncated
		}
		count = int(b[pos])
		pos++
	} else {
		if len(b)-pos < 2 {
			return pos, ErrTruncated
		}
		count = int(binary.BigEndian.Uint16(b[pos:]))
		pos += 2
	}
	if len(f.rows)+count > MaxRowsPerFrame {
		return pos, ErrTooManyRows
	}
	f.reserve(k, count, len(b)-pos)
	start, voff := len(f.rows), len(f.vals)
	pos, span, err := d.decodeRows(b, pos, count, k, f)
	if err != nil {
		return pos, err
	}
	if !span || k.wideN > 0 {
		f.messy(len(f.rows))
	}
	f.Blocks = append(f.Blocks, Block{Schema: k, start: start, end: len(f.rows), span: span, voff: voff})
	return pos, nil
}

// rowHdr is a row header as scanRows reads it.
type rowHdr struct {
	id   uint32
	pos  int32 // the fields' first byte; -1 for a null row
	tail bool  // the optional tail is present (or the key has none)
}

// rowAt locates a non-null row while its block decodes: its fields' first
// byte in the frame and its first value in Frame.vals and Frame.wide.
// Unsigned, so that an index made from one is known not to be negative.
type rowAt struct {
	pos, off, woff uint32
}

// decodeRows reads count rows of key k from b[pos:] into f in passes, each
// a loop that keeps its few values in registers. scanRows reads the row
// headers as the kind lays them out and checks the rows' bytes are there;
// placeSpan (or placeRows, for a block with null rows or repeated ids)
// gives each row its place and cuts its fields, listing where each row's
// bytes and values are; readRuns reads the values a run at a time. It
// reports whether the block is a span (see Block.span).
func (d *Decoder) decodeRows(b []byte, pos, count int, k *KeySchema, f *Frame) (int, bool, error) {
	n := count
	if k.minRowBytes > 0 {
		n = min(count, (len(b)-pos)/k.minRowBytes)
	}
	if count > n { // more rows than the bytes left can hold
		return pos, false, ErrTruncated
	}
	if !d.passesOnly {
		if end, ok := d.decodeSpan(b, pos, count, k, f); ok {
			return end, true, nil
		}
	}
	if cap(d.hdrs) < n {
		d.hdrs = make([]rowHdr, n)
	}
	if cap(d.full) < n || cap(d.head) < n {
		d.full, d.head = make([]rowAt, n), make([]rowAt, n)
	}
	hs := d.hdrs[:n]
	pos, span, err := d.scanRows(b, pos, k, hs)
	if err != nil {
		return pos, false, err
	}
	if span {
		d.placeSpan(hs, k, f)
	} else {
		d.placeRows(hs, k, f)
	}
	hi := readRuns(k.full, f, b, d.full)
	if len(d.head) > 0 {
		hi = max(hi, readRuns(k.head, f, b, d.head))
		clearTails(f.vals, d.head, k.OptionalFrom, len(k.Fields))
		if k.wideN > k.headWide {
			clearWideTails(f.wide, d.head, k.headWide, k.wideN)
		}
	}
	if hi >= round2FastBound {
		for _, r := range d.full {
			decodeF32Exact(k.full, b[r.pos:int(r.pos)+k.fullBytes], f.vals[r.off:int(r.off)+len(k.Fields)])
		}
		for _, r := range d.head {
			decodeF32Exact(k.head, b[r.pos:int(r.pos)+k.headBytes], f.vals[r.off:int(r.off)+len(k.Fields)])
		}
	}
	return pos, span, nil
}

// scanRows reads the row headers of a block from b[pos:] into hs, one per
// row, and checks that every row's bytes are there. It reports whether
// the block is a span: no null row and no id twice (an indexed32 block
// counts as one while its ids increase). Each kind has its own loop.
func (d *Decoder) scanRows(b []byte, pos int, k *KeySchema, hs []rowHdr) (int, bool, error) {
	sz := rowSizes{full: k.fullBytes, head: k.headBytes, opt: k.OptionalFrom != 0}
	switch k.Kind {
	case snapschema.KindIndexed8:
		d.gen++
		return scan8(b, pos, sz, hs, &d.seenGen, d.gen)
	case snapschema.KindIndexed32:
		return scan32(b, pos, sz, hs)
	case snapschema.KindIndexedNoNull8:
		d.gen++
		return scanNoNull8(b, pos, sz, hs, &d.seenGen, d.gen)
	}
	pos, err := scanList(b, pos, sz, hs)
	return pos, err == nil, err
}

// rowSizes are a key's row sizes in bytes, with and without the optional
// tail (opt: the key has one, and a row its presence byte).
type rowSizes struct {
	full, head int
	opt        bool
}

// fields reads a non-null row's optional-tail byte, if the key has one,
// and checks its bytes are there; it returns the fields' position, the
// position after them and whether the tail is present, or false when the
// row is truncated (at is then where).
func (sz rowSizes) fields(b []byte, pos int) (at, next int, tail, ok bool) {
	size := sz.full
	tail = true
	if sz.opt {
		if pos >= len(b) {
			return pos, pos, false, false
		}
		if b[pos] != 1 {
			size, tail = sz.head, false
		}
		pos++
	}
	return pos, pos + size, tail, len(b)-pos >= size
}

// scan8 is scanRows for indexed8 rows: u8 id, null marker, fields. seen
// marks the ids met with gen.
func scan8(b []byte, pos int, sz rowSizes, hs []rowHdr, seen *[256]uint32, gen uint32) (int, bool, error) {
	span := true
	for i := range hs {
		if len(b)-pos < 2 {
			return pos, false, ErrTruncated
		}
		id, null := b[pos], b[pos+1] == 0
		pos += 2
		span = span && seen[id] != gen
		seen[id] = gen
		h := &hs[i]
		h.id, h.pos, h.tail = uint32(id), -1, true
		if null {
			span = false
			continue
		}
		at, next, tail, ok := sz.fields(b, pos)
		if !ok {
			return at, false, ErrTruncated
		}
		h.pos, h.tail, pos = int32(at), tail, next
	}
	return pos, span, nil
}

// scanNoNull8 is scanRows for indexedNoNull8 rows: u8 slot, fields.
func scanNoNull8(b []byte, pos int, sz rowSizes, hs []rowHdr, seen *[256]uint32, gen uint32) (int, bool, error) {
	span := true
	for i := range hs {
		if pos >= len(b) {
			return pos, false, ErrTruncated
		}
		id := b[pos]
		span = span && seen[id] != gen
		seen[id] = gen
		at, next, tail, ok := sz.fields(b, pos+1)
		if !ok {
			return at, false, ErrTruncated
		}
		hs[i] = rowHdr{id: uint32(id), pos: int32(at), tail: tail}
		pos = next
	}
	return pos, span, nil
}

// scan32 is scanRows for indexed32 rows: u32 id, null marker, fields.
func scan32(b []byte, pos int, sz rowSizes, hs []rowHdr) (int, bool, error) {
	span, prev := true, uint32(0)
	for i := range hs {
		if len(b)-pos < 5 {
			return pos, false, ErrTruncated
		}
		id, null := binary.BigEndian.Uint32(b[pos:pos+4]), b[pos+4] == 0
		pos += 5
		span = span && (i == 0 || id > prev)
		prev = id
		h := &hs[i]
		h.id, h.pos, h.tail = id, -1, true
		if null {
			span = false
			continue
		}
		at, next, tail, ok := sz.fields(b, pos)
		if !ok {
			return at, false, ErrTruncated
		}
		h.pos, h.tail, pos = int32(at), tail, next
	}
	return pos, span, nil
}

// scanList is scanRows for list16 rows: fields only, the id the position.
func scanList(b []byte, pos int, sz rowSizes, hs []rowHdr) (int, error) {
	for i := range hs {
		at, next, tail, ok := sz.fields(b, pos)
		if !ok {
			return at, ErrTruncated
		}
		hs[i] = rowHdr{id: uint32(i), pos: int32(at), tail: tail}
		pos = next
	}
	return pos, nil
}

// placeSpan places the rows of a span block: each new, non-null, its
// fields after the previous row's. It lists the rows in d.full and d.head
// as placeRows does.
func (d *Decoder) placeSpan(hs []rowHdr, k *KeySchema, f *Frame) {
	w, ww, n := len(k.Fields), k.wideN, len(hs)
	r0, v0, w0 := len(f.rows), len(f.vals), len(f.wide)
	// reserve made this room; growing is only a safety net
	if cap(f.rows)-r0 < n {
		f.rows = growSlice(f.rows, n)
	}
	if cap(f.vals)-v0 < n*w {
		f.vals, f.moved = growSlice(f.vals, n*w), true
	}
	if cap(f.wide)-w0 < n*ww {
		f.wide, f.moved = growSlice(f.wide, n*ww), true
	}
	f.rows, f.vals, f.wide = f.rows[:r0+n], f.vals[:v0+n*w], f.wide[:w0+n*ww]
	rows, vals := f.rows[r0:], f.vals[v0:]
	hs = hs[:len(rows)]
	full, head := d.full[:len(rows)], d.head[:len(rows)]
	nf, nh, off := 0, 0, 0
	for i := range rows {
		h, row := &hs[i], &rows[i]
		if off+w > len(vals) {
			break // cannot happen: vals holds n rows
		}
		row.ID, row.Null, row.Local = h.id, false, 0
		row.Fields = vals[off : off+w : off+w]
		row.wide = nil
		at := rowAt{pos: uint32(h.pos), off: uint32(v0 + off), woff: uint32(w0 + i*ww)}
		if h.tail {
			full[nf] = at
			nf++
		} else {
			head[nh] = at
			nh++
		}
		off += w
	}
	d.full, d.head = full[:nf], head[:nh]
	if ww > 0 {
		spanWide(rows, f.wide[w0:], ww)
	}
}

// spanWide cuts the exact u32 values of a span block's rows, ww each, from
// wide.
func spanWide(rows []Row, wide []uint32, ww int) {
	for i := range rows {
		o := i * ww
		if o+ww > len(wide) {
			return // cannot happen: wide holds a row's values per row
		}
		rows[i].wide = wide[o : o+ww : o+ww]
	}
}

// placeRows writes the rows of the headers hs into f, a repeated id in the
// place of its first row, and lists where each non-null row's bytes and
// values are in d.full, or d.head for a row without its optional tail.
func (d *Decoder) placeRows(hs []rowHdr, k *KeySchema, f *Frame) {
	kind, w := k.Kind, len(k.Fields)
	d.gen++
	if kind == snapschema.KindIndexed32 {
		d.ids.reset(len(hs))
	}
	full, head := d.full[:cap(d.full)], d.head[:cap(d.head)]
	nf, nh := 0, 0
	for i := range hs {
		h := &hs[i]
		at := -1
		switch kind {
		case snapschema.KindIndexed8, snapschema.KindIndexedNoNull8:
			at = d.seen8(h.id, len(f.rows))
		case snapschema.KindIndexed32:
			at = d.ids.lookupOrAdd(h.id, int32(len(f.rows)))
		}
		if at < 0 {
			at = len(f.rows)
			if at == cap(f.rows) { // past what reserve foresaw: cannot happen, but stay safe
				f.rows = growSlice(f.rows, 1)
			}
			f.rows = f.rows[:at+1]
		}
		row := &f.rows[at]
		if h.pos < 0 {
			*row = Row{ID: h.id, Null: true}
			continue
		}
		off := len(f.vals)
		if cap(f.vals)-off < w { // as for rows
			f.vals, f.moved = growSlice(f.vals, w), true
		}
		f.vals = f.vals[:off+w]
		row.ID, row.Null, row.Local = h.id, false, 0
		row.Fields = f.vals[off : off+w : off+w]
		row.wide = nil
		r := rowAt{pos: uint32(h.pos), off: uint32(off)}
		if k.wideN > 0 {
			r.woff = uint32(cutWide(row, k, f))
		}
		if h.tail && nf < len(full) {
			full[nf] = r
			nf++
		} else if !h.tail && nh < len(head) {
			head[nh] = r
			nh++
		}
	}
	d.full, d.head = full[:nf], head[:nh]
}

// cutWide gives a row of a key with u32 fields its exact values in
// f.wide and returns their position.
func cutWide(row *Row, k *KeySchema, f *Frame) int {
	woff, ww := len(f.wide), k.wideN
	if cap(f.wide)-woff < ww { // as for rows
		f.wide, f.moved = growSlice(f.wide, ww), true
	}
	f.wide = f.wide[:woff+ww]
	row.wide = f.wide[woff : woff+ww : woff+ww]
	return woff
}

// reserve makes room for the rows of a block of count rows whose bytes
// take at most the rem bytes left in the frame. Rows are written in place,
// so the room is claimed up front; it is bounded by the rows that many
// bytes can hold, so a count a short frame cannot back claims nothing. It
// notes in f.moved whether vals or wide moved.
func (f *Frame) reserve(k *KeySchema, count, rem int) {
	rows, full := count, count
	if k.minRowBytes > 0 {
		rows = min(count, rem/k.minRowBytes)
	}
	if k.minFullBytes > 0 {
		full = min(count, rem/k.minFullBytes)
	}
	if cap(f.rows)-len(f.rows) < rows {
		f.rows = growSlice(f.rows, rows)
	}
	if need := full * len(k.Fields); cap(f.vals)-len(f.vals) < need {
		f.vals, f.moved = growSlice(f.vals, need), true
	}
	if need := full * k.wideN; cap(f.wide)-len(f.wide) < need {
		f.wide, f.moved = growSlice(f.wide, need), true
	}
}

// growSlice returns s with room for n more elements, at least doubling.
func growSlice[T any](s []T, n int) []T {
	g := make([]T, len(s), max(2*cap(s), len(s)+n))
	copy(g, s)
	return g
}

// seen8 returns the position of an 8-bit id already seen in the current
// block, or records pos for it and returns -1.
func (d *Decoder) seen8(id uint32, pos int) int {
	id &= 0xff
	if d.seenGen[id] == d.gen {
		return int(d.seenPos[id])
	}
	d.seenGen[id], d.seenPos[id] = d.gen, int32(pos)
	return -1
}
