package clientcore

import (
	"encoding/binary"

	"vimpclient/snapschema"
)

// The span path decodes the common block: every row is present (no null
// row), no id comes twice (indexed32: ids increase) and every f32 value is
// on round2's fast path. A row pass per kind reads the row headers, checks
// each row's bytes are there and lists where each row's bytes and values
// are; the rows are cut in a pass of their own; then each kernel of the
// key's column plan (see colplan.go) runs down the listed rows. Any other
// block, and any block that breaks one of these on the way, is decoded by
// decodeRows' passes from its start, which write over what the span path
// wrote.

// spanDst is where the row pass of the span path writes a block: its rows
// and, from the block's first value on, their values; and the lists of
// where each row's bytes and values are.
type spanDst struct {
	rows  []Row
	vals  []float32
	lists *rowLists
	v0, w int // the block's first value in Frame.vals; values a row
}

// rowLists are the rows of a block with their optional tail (or of a key
// without one) and without it, as the column plans read them. The row
// passes reach them through a pointer, which leaves their registers to
// the row's bytes.
type rowLists struct {
	full, head []rowAt
	nf, nh     int
}

// add lists a row whose fields are at b[pos:] and its values at
// Frame.vals[off:].
func (l *rowLists) add(pos, off int, tail bool) {
	r := rowAt{pos: uint32(pos), off: uint32(off)}
	if tail && l.nf < len(l.full) {
		l.full[l.nf] = r
		l.nf++
	} else if !tail && l.nh < len(l.head) {
		l.head[l.nh] = r
		l.nh++
	}
}

// cutSpanRows cuts the fields of the rows of a span block, whose ids the
// row pass wrote, w values each from vals, which starts at v0 in
// Frame.vals. It stays a call of its own, not inlined into decodeSpan,
// so that its loop has the registers to itself.
//
//go:noinline
func cutSpanRows(rows []Row, vals []float32, v0, w int) {
	off := 0
	for i := range rows {
		if len(vals)-off < w {
			return // cannot happen: vals holds w values a row
		}
		row := &rows[i]
		row.Null, row.Local = false, 0
		row.Fields = vals[off : off+w : off+w]
		row.wide, row.off, row.woff = nil, v0+off, 0
		off += w
	}
}

// decodeSpan decodes the block of count rows of key k at b[pos:] on the
// span path, into the room reserve made, and returns the position after
// it. It reports false when the block is not for the span path, having
// changed nothing but the storage past the frame's rows and values.
func (d *Decoder) decodeSpan(b []byte, pos, count int, k *KeySchema, f *Frame) (int, bool) {
	w, ww := len(k.Fields), k.wideN
	r0, v0, w0 := len(f.rows), len(f.vals), len(f.wide)
	if cap(f.rows)-r0 < count || cap(f.vals)-v0 < count*w || cap(f.wide)-w0 < count*ww {
		return pos, false // more rows than the frame's bytes can hold
	}
	if cap(d.full) < count || cap(d.head) < count {
		d.full, d.head = make([]rowAt, count), make([]rowAt, count)
	}
	lists := &d.lists
	*lists = rowLists{full: d.full[:count], head: d.head[:count]}
	dst := spanDst{rows: f.rows[r0 : r0+count], vals: f.vals[v0 : v0+count*w], lists: lists, v0: v0, w: w}
	sz := rowSizes{full: k.fullBytes, head: k.headBytes, opt: k.OptionalFrom != 0}
	end, ok := pos, false
	switch {
	case !sz.opt:
		d.gen++
		end, ok = spanFixed(b, pos, k.Kind, k.hdrBytes, sz.full, dst, &d.seenGen, d.gen)
	case k.Kind == snapschema.KindIndexed8:
		d.gen++
		end, ok = span8(b, pos, sz, dst, &d.seenGen, d.gen)
	case k.Kind == snapschema.KindIndexedNoNull8:
		d.gen++
		end, ok = spanNoNull8(b, pos, sz, dst, &d.seenGen, d.gen)
	case k.Kind == snapschema.KindIndexed32:
		end, ok = span32(b, pos, sz, dst)
	default:
		end, ok = spanList(b, pos, sz, dst)
	}
	if !ok {
		return pos, false
	}
	cutSpanRows(dst.rows, dst.vals, v0, w)
	full, head := lists.full[:lists.nf], lists.head[:lists.nh]
	if ww > 0 {
		spanWide(dst.rows, f.wide[w0:w0+count*ww], w0, ww)
		wideAt(full, dst.rows)
		wideAt(head, dst.rows)
	}
	vals, wide := f.vals[:cap(f.vals)], f.wide[:cap(f.wide)]
	acc := readCols(k.fullCols, vals, wide, b, full)
	acc |= readCols(k.headCols, vals, wide, b, head)
	if acc >= round2FastBound {
		return pos, false
	}
	f.rows, f.vals, f.wide = f.rows[:r0+count], f.vals[:v0+count*w], f.wide[:w0+count*ww]
	return end, true
}

// wideAt sets the exact values' place of each row of at, one of rows,
// from its row: the row whose values are at r.off.
func wideAt(at []rowAt, rows []Row) {
	if len(rows) == 0 {
		return
	}
	first, w := rows[0].off, len(rows[0].Fields)
	for i := range at {
		if w == 0 {
			return
		}
		if j := (int(at[i].off) - first) / w; j >= 0 && j < len(rows) {
			at[i].woff = uint32(rows[j].woff)
		}
	}
}

// spanFixed is the row pass for a key without an optional tail, whose
// rows all take hdr+size bytes, hdr the row header of kind kind: the
// bytes of every row are checked at once, then each row's header is read
// at its place. seen marks the 8-bit ids met with gen.
func spanFixed(b []byte, pos int, kind snapschema.Kind, hdr, size int, s spanDst, seen *[256]uint32, gen uint32) (int, bool) {
	rows, full, v0, w := s.rows, s.lists.full, s.v0, s.w
	stride := hdr + size
	if stride > 0 && (len(b)-pos)/stride < len(rows) || len(full) < len(rows) {
		return pos, false
	}
	q := b[pos : pos+len(rows)*stride]
	full = full[:len(rows)]
	prev := uint32(0)
	for i := range rows {
		h := q[i*stride : i*stride+stride]
		var id uint32
		switch kind {
		case snapschema.KindIndexed8:
			if len(h) < 2 || h[1] == 0 || seen[h[0]] == gen {
				return pos, false
			}
			seen[h[0]], id = gen, uint32(h[0])
		case snapschema.KindIndexedNoNull8:
			if len(h) < 1 || seen[h[0]] == gen {
				return pos, false
			}
			seen[h[0]], id = gen, uint32(h[0])
		case snapschema.KindIndexed32:
			if len(h) < 5 || h[4] == 0 {
				return pos, false
			}
			id = binary.BigEndian.Uint32(h[0:4])
			if i > 0 && id <= prev {
				return pos, false
			}
			prev = id
		default:
			id = uint32(i)
		}
		rows[i].ID = id
		full[i] = rowAt{pos: uint32(pos + i*stride + hdr), off: uint32(v0 + i*w)}
	}
	s.lists.nf = len(rows)
	return pos + len(rows)*stride, true
}

// span8 is the row pass for indexed8 rows: u8 id, null marker, fields.
// seen marks the ids met with gen.
func span8(b []byte, pos int, sz rowSizes, s spanDst, seen *[256]uint32, gen uint32) (int, bool) {
	rows, vals, l, v0, w := s.rows, s.vals, s.lists, s.v0, s.w
	off := 0
	for i := range rows {
		if len(b)-pos < 2 || b[pos+1] == 0 {
			return pos, false
		}
		id := b[pos]
		if seen[id] == gen {
			return pos, false
		}
		seen[id] = gen
		at, next, tail, ok := sz.fields(b, pos+2)
		if !ok || len(vals)-off < w {
			return pos, false
		}
		rows[i].ID = uint32(id)
		l.add(at, v0+off, tail)
		pos, off = next, off+w
	}
	return pos, true
}

// spanNoNull8 is span8 for indexedNoNull8 rows: u8 slot, fields.
func spanNoNull8(b []byte, pos int, sz rowSizes, s spanDst, seen *[256]uint32, gen uint32) (int, bool) {
	rows, vals, l, v0, w := s.rows, s.vals, s.lists, s.v0, s.w
	off := 0
	for i := range rows {
		if pos >= len(b) {
			return pos, false
		}
		id := b[pos]
		if seen[id] == gen {
			return pos, false
		}
		seen[id] = gen
		at, next, tail, ok := sz.fields(b, pos+1)
		if !ok || len(vals)-off < w {
			return pos, false
		}
		rows[i].ID = uint32(id)
		l.add(at, v0+off, tail)
		pos, off = next, off+w
	}
	return pos, true
}

// span32 is span8 for indexed32 rows: u32 id, null marker, fields; the
// ids increase.
func span32(b []byte, pos int, sz rowSizes, s spanDst) (int, bool) {
	rows, vals, l, v0, w := s.rows, s.vals, s.lists, s.v0, s.w
	off, prev := 0, uint32(0)
	for i := range rows {
		if len(b)-pos < 5 || b[pos+4] == 0 {
			return pos, false
		}
		id := binary.BigEndian.Uint32(b[pos : pos+4])
		if i > 0 && id <= prev {
			return pos, false
		}
		prev = id
		at, next, tail, ok := sz.fields(b, pos+5)
		if !ok || len(vals)-off < w {
			return pos, false
		}
		rows[i].ID = id
		l.add(at, v0+off, tail)
		pos, off = next, off+w
	}
	return pos, true
}

// spanList is span8 for list16 rows: fields only, the id the position.
func spanList(b []byte, pos int, sz rowSizes, s spanDst) (int, bool) {
	rows, vals, l, v0, w := s.rows, s.vals, s.lists, s.v0, s.w
	off := 0
	for i := range rows {
		at, next, tail, ok := sz.fields(b, pos)
		if !ok || len(vals)-off < w {
			return pos, false
		}
		rows[i].ID = uint32(i)
		l.add(at, v0+off, tail)
		pos, off = next, off+w
	}
	return pos, true
}

// readCols applies the column plan ops down the rows at and returns the
// or of round2Fast's magnitudes (round2FastBound or above: some value is
// not on its fast path).
func readCols(ops []colOp, vals []float32, wide []uint32, b []byte, at []rowAt) (acc uint64) {
	if len(at) == 0 {
		return 0
	}
	for i := range ops {
		op := &ops[i]
		v, q := vals[op.at:], b[op.off:]
		switch op.kind {
		case colF32x4:
			acc |= roundCol4(v, q, at)
		case colF32x2:
			acc |= roundCol2(v, q, at)
		case colF32x1:
			acc |= roundCol1(v, q, at)
		case colU8:
			u8Col(v, q, at)
		case colU16:
			u16Col(v, q, at)
		case colU32:
			u32Col(v, wide[op.wide:], q, at)
		case colZero:
			zeroCol(v, at)
		case colZeroU32:
			zeroCol(v, at)
			zeroWideCol(wide[op.wide:], at)
		}
	}
	return acc
}

// roundCol4 rounds four consecutive f32 fields of each row r of at, from
// q[r.pos] on into v[r.off] on (q and v start at the fields' byte and
// value in a row), and returns the or of their magnitudes.
func roundCol4(v []float32, q []byte, at []rowAt) (acc uint64) {
	sc := round2Scales()
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		out, x := (*[4]float32)(v[o:o+4]), (*[16]byte)(q[p:p+16])
		var m0, m1, m2, m3 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		out[3], m3 = round2Fast(binary.BigEndian.Uint32(x[12:16]), &sc)
		acc |= m0 | m1 | m2 | m3
	}
	return acc
}

// roundCol2 is roundCol4 for two fields.
func roundCol2(v []float32, q []byte, at []rowAt) (acc uint64) {
	sc := round2Scales()
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		out, x := (*[2]float32)(v[o:o+2]), (*[8]byte)(q[p:p+8])
		var m0, m1 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		acc |= m0 | m1
	}
	return acc
}

// roundCol1 is roundCol4 for one field.
func roundCol1(v []float32, q []byte, at []rowAt) (acc uint64) {
	sc := round2Scales()
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		var m uint64
		v[o], m = round2Fast(binary.BigEndian.Uint32(q[p:p+4]), &sc)
		acc |= m
	}
	return acc
}

// u8Col is roundCol1 for a u8 field.
func u8Col(v []float32, q []byte, at []rowAt) {
	for _, r := range at {
		v[r.off] = float32(q[r.pos])
	}
}

// u16Col is roundCol1 for a u16 field.
func u16Col(v []float32, q []byte, at []rowAt) {
	for _, r := range at {
		v[r.off] = float32(binary.BigEndian.Uint16(q[r.pos : r.pos+2]))
	}
}

// u32Col is roundCol1 for a u32 field, its exact value kept in e[r.woff]
// (e starts at the field's exact value in a row).
func u32Col(v []float32, e []uint32, q []byte, at []rowAt) {
	for _, r := range at {
		u := binary.BigEndian.Uint32(q[r.pos : r.pos+4])
		v[r.off], e[r.woff] = float32(u), u
	}
}

// zeroCol zeroes v[r.off] for each row r of at.
func zeroCol(v []float32, at []rowAt) {
	for _, r := range at {
		v[r.off] = 0
	}
}

// zeroWideCol is zeroCol for an exact u32 value.
func zeroWideCol(e []uint32, at []rowAt) {
	for _, r := range at {
		e[r.woff] = 0
	}
}
