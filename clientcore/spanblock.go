package clientcore

import (
	"encoding/binary"

	"vimpclient/snapschema"
)

// The span path decodes the common block: every row is present (no null
// row), no id comes twice (indexed32: ids increase) and every f32 value is
// on round2's fast path. Any other block, and any block that breaks one of
// these on the way, is decoded by decodeRows' passes from its start,
// which write over what the span path wrote.
//
// The span path is a few passes down the block, each a loop with so few
// values live that they stay in registers (a loop that does more spills
// its state and reloads it every row, which costs more than the passes
// it would save):
//   - a row pass per kind checks each row's header and bytes and notes
//     its id, and for a key with an optional tail its fields' place and
//     whether it has its tail;
//   - cutSpanRows writes each row, pointing it at its values (only its id
//     and fields when its slot is plain: see Frame.plainFrom);
//   - for a key with an optional tail, listSpanRows lists the rows with
//     their tail and those without;
//   - each kernel of the key's column plan (see colplan.go) runs down the
//     rows: at fixed steps when every row takes the same bytes (see
//     colsteps.go), else down the lists.

// spanScratch is the decoder's scratch for the span path, a place a row
// of the block being decoded: its rows' ids, and for a key with an
// optional tail their fields' places in the frame, their tail bytes (1:
// present) and their lists.
type spanScratch struct {
	ids   []uint32
	fpos  []uint32
	tails []uint8
	at    []rowAt
}

// grow makes room for n rows.
func (s *spanScratch) grow(n int) {
	if cap(s.ids) < n {
		n = max(n, 2*cap(s.ids))
		s.ids, s.fpos, s.tails, s.at = make([]uint32, n), make([]uint32, n), make([]uint8, n), make([]rowAt, n)
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
	if count == 0 {
		return pos, true
	}
	d.span.grow(count)
	if k.Kind == snapschema.KindIndexed8 || k.Kind == snapschema.KindIndexedNoNull8 {
		d.gen++
	}
	rows, vals, wide := f.rows[r0:r0+count], f.vals[v0:v0+count*w], f.wide[w0:w0+count*ww]
	ids := d.span.ids[:count]
	var end int
	var acc uint64
	if k.OptionalFrom == 0 {
		hdr := k.hdrBytes
		stride := hdr + k.fullBytes
		if (len(b)-pos)/max(stride, 1) < count {
			return pos, false
		}
		q := b[pos : pos+count*stride]
		if !fixedRows(q, stride, k.Kind, ids, &d.seenGen, d.gen) || hdr > len(q) {
			return pos, false
		}
		cutSpanRows(rows, ids, vals, w, r0 >= f.plainFrom)
		if ww > 0 {
			spanWide(rows, wide, ww)
		}
		end = pos + count*stride
		acc = readSteps(k.fullCols, vals, w, wide, ww, q[hdr:], stride, d.vector)
	} else {
		s := &d.span
		fpos, tails := s.fpos[:count], s.tails[:count]
		var ok bool
		end, ok = optRows(b, pos, k, ids, fpos, tails, &d.seenGen, d.gen)
		if !ok {
			return pos, false
		}
		cutSpanRows(rows, ids, vals, w, r0 >= f.plainFrom)
		if ww > 0 {
			spanWide(rows, wide, ww)
		}
		at := s.at[:count]
		nf := listSpanRows(at, fpos, tails, w, ww)
		acc = readCols(k.fullCols, vals, wide, b, at[:nf], d.vector)
		acc |= readCols(k.headCols, vals, wide, b, at[nf:], d.vector)
	}
	if acc >= round2FastBound {
		return pos, false
	}
	f.rows, f.vals, f.wide = f.rows[:r0+count], f.vals[:v0+count*w], f.wide[:w0+count*ww]
	return end, true
}

// cutSpanRows writes the rows of a span block whole, ids their ids,
// pointing them at their values, w each from vals; their exact values are
// none until spanWide cuts them. Rows whose slots are plain (see
// Frame.plainFrom) only get their ids and fields. It stays a call of its
// own, not inlined, so that its loop has the registers to itself.
//
//go:noinline
func cutSpanRows(rows []Row, ids []uint32, vals []float32, w int, plain bool) {
	ids = ids[:len(rows)]
	if w <= 0 {
		for i := range rows {
			rows[i] = Row{ID: ids[i], Fields: vals[:0:0]}
		}
		return
	}
	// w > 0 spares the cut the care for a slice of none.
	if plain {
		for i := range rows {
			o := i * w
			rows[i].ID, rows[i].Fields = ids[i], vals[o:o+w:o+w]
		}
		return
	}
	for i := range rows {
		o := i * w
		f := vals[o : o+w : o+w]
		row := &rows[i]
		row.ID, row.Null, row.Local = ids[i], false, 0
		row.Fields, row.wide = f, nil
	}
}

// fixedRows is the row pass of rows of stride bytes each from q[0], their
// header of kind kind: it checks each header and notes each row's id in
// ids. seen marks the 8-bit ids met with gen.
func fixedRows(q []byte, stride int, kind snapschema.Kind, ids []uint32, seen *[256]uint32, gen uint32) bool {
	switch kind {
	case snapschema.KindIndexed8:
		for i, p := 0, 0; i < len(ids); i, p = i+1, p+stride {
			if p > len(q)-2 {
				return false
			}
			h := (*[2]byte)(q[p : p+2])
			if h[1] == 0 || seen[h[0]] == gen {
				return false
			}
			seen[h[0]], ids[i] = gen, uint32(h[0])
		}
	case snapschema.KindIndexedNoNull8:
		for i, p := 0, 0; i < len(ids); i, p = i+1, p+stride {
			if p >= len(q) || seen[q[p]] == gen {
				return false
			}
			seen[q[p]], ids[i] = gen, uint32(q[p])
		}
	case snapschema.KindIndexed32:
		prev := uint32(0)
		for i, p := 0, 0; i < len(ids); i, p = i+1, p+stride {
			if p > len(q)-5 {
				return false
			}
			h := (*[5]byte)(q[p : p+5])
			id := binary.BigEndian.Uint32(h[0:4])
			if h[4] == 0 || i > 0 && id <= prev {
				return false
			}
			ids[i], prev = id, id
		}
	default:
		for i := range ids {
			ids[i] = uint32(i)
		}
	}
	return true
}

// optRows is the row pass of rows with an optional tail from b[pos:],
// their header of k's kind, then the tail byte and the fields: it checks
// each row and its bytes and notes its id, its fields' place and its tail
// byte (1 when the tail is there, else 0). seen marks the 8-bit ids met
// with gen. It returns the position after the rows.
func optRows(b []byte, pos int, k *KeySchema, ids, fpos []uint32, tails []uint8, seen *[256]uint32, gen uint32) (int, bool) {
	// Each row's next position hangs on its tail byte: the step is one of
	// two values in registers (see rowStep), not loaded from a table,
	// which would put a load's latency on every row's path to the next.
	head, full := k.headBytes, k.fullBytes
	fpos, tails = fpos[:len(ids)], tails[:len(ids)]
	switch k.Kind {
	case snapschema.KindIndexed8:
		for i := range ids {
			if pos > len(b)-3 {
				return pos, false
			}
			h := (*[3]byte)(b[pos : pos+3])
			if h[1] == 0 || seen[h[0]] == gen {
				return pos, false
			}
			seen[h[0]], ids[i] = gen, uint32(h[0])
			t := tailBit(h[2])
			fpos[i], tails[i], pos = uint32(pos+3), t, pos+3+rowStep(t, head, full)
		}
	case snapschema.KindIndexedNoNull8:
		for i := range ids {
			if pos > len(b)-2 {
				return pos, false
			}
			h := (*[2]byte)(b[pos : pos+2])
			if seen[h[0]] == gen {
				return pos, false
			}
			seen[h[0]], ids[i] = gen, uint32(h[0])
			t := tailBit(h[1])
			fpos[i], tails[i], pos = uint32(pos+2), t, pos+2+rowStep(t, head, full)
		}
	case snapschema.KindIndexed32:
		prev := uint32(0)
		for i := range ids {
			if pos > len(b)-6 {
				return pos, false
			}
			h := (*[6]byte)(b[pos : pos+6])
			id := binary.BigEndian.Uint32(h[0:4])
			if h[4] == 0 || i > 0 && id <= prev {
				return pos, false
			}
			ids[i], prev = id, id
			t := tailBit(h[5])
			fpos[i], tails[i], pos = uint32(pos+6), t, pos+6+rowStep(t, head, full)
		}
	default:
		for i := range ids {
			if pos >= len(b) {
				return pos, false
			}
			t := tailBit(b[pos])
			ids[i] = uint32(i)
			fpos[i], tails[i], pos = uint32(pos+1), t, pos+1+rowStep(t, head, full)
		}
	}
	// Each row's header was there; its fields, all but the last row's,
	// are there as the next header is.
	return pos, pos <= len(b)
}

// rowStep returns a row's field bytes: full with its tail (t 1), else
// head.
func rowStep(t uint8, head, full int) int {
	if t != 0 {
		return full
	}
	return head
}

// tailBit returns 1 for a tail byte that says the tail is there, else 0.
func tailBit(x byte) uint8 {
	if x == 1 {
		return 1
	}
	return 0
}

// listSpanRows lists the rows of a span block of a key with an optional
// tail in at, one place a row, from their fields' places fpos and tail
// bits tails: the rows with their tail from the front, the others from
// the back, each row's values w and exact values ww a row (w > 0 when ww
// is). It returns the rows with their tail.
//
// Each row is written to its place in both halves and counted in one: a
// store more where a branch on the tail bit, which alternates as the rows
// come, would mispredict. Of the two stores the one in the wrong half
// lands where a later row, or the row itself, writes its own place.
func listSpanRows(at []rowAt, fpos []uint32, tails []uint8, w, ww int) int {
	fpos, tails = fpos[:len(at)], tails[:len(at)]
	nf, nh := 0, len(at)-1 // the next places from the front and from the back
	var o uint32
	for i := range at {
		if uint(nf) >= uint(len(at)) || uint(nh) >= uint(len(at)) {
			return 0 // cannot happen: nf <= i <= nh
		}
		r := rowAt{pos: fpos[i], off: o}
		at[nf], at[nh] = r, r
		t := int(tails[i])
		nf, nh = nf+t, nh-1+t
		o += uint32(w)
	}
	if ww > 0 {
		for i := range at {
			at[i].woff = at[i].off / uint32(w) * uint32(ww)
		}
	}
	return nf
}

// readCols applies the column plan ops down the rows at and returns the
// or of round2Fast's magnitudes (round2FastBound or above: some value is
// not on its fast path). With vec the f32 kernels take their vector forms
// (see round_amd64.go).
func readCols(ops []colOp, vals []float32, wide []uint32, b []byte, at []rowAt, vec bool) (acc uint64) {
	if len(at) == 0 {
		return 0
	}
	for i := range ops {
		op := &ops[i]
		v, q := vals[op.at:], b[op.off:]
		if vec && op.kind.rounds() {
			acc |= roundListVec(v, q, at, op.n)
			continue
		}
		switch op.kind {
		case colF32x8:
			acc |= roundCol8(v, q, at)
		case colF32x7:
			acc |= roundCol7(v, q, at)
		case colF32x6:
			acc |= roundCol6(v, q, at)
		case colF32x4:
			acc |= roundCol4(v, q, at)
		case colF32x3:
			acc |= roundCol3(v, q, at)
		case colF32x2:
			acc |= roundCol2(v, q, at)
		case colF32x1:
			acc |= roundCol1(v, q, at)
		case colU8:
			u8Col(v, q, at, op.n)
		case colU16:
			u16Col(v, q, at)
		case colU32:
			u32Col(v, wide[op.wide:], q, at)
		case colZero:
			zeroCol(v, op.n, at)
		case colZeroWide:
			zeroWideCol(wide[op.wide:], op.n, at)
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

// roundCol8 is roundCol4 for eight fields.
func roundCol8(v []float32, q []byte, at []rowAt) (acc uint64) {
	sc := round2Scales()
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		out, x := (*[8]float32)(v[o:o+8]), (*[32]byte)(q[p:p+32])
		var m0, m1, m2, m3, m4, m5, m6, m7 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		out[3], m3 = round2Fast(binary.BigEndian.Uint32(x[12:16]), &sc)
		out[4], m4 = round2Fast(binary.BigEndian.Uint32(x[16:20]), &sc)
		out[5], m5 = round2Fast(binary.BigEndian.Uint32(x[20:24]), &sc)
		out[6], m6 = round2Fast(binary.BigEndian.Uint32(x[24:28]), &sc)
		out[7], m7 = round2Fast(binary.BigEndian.Uint32(x[28:32]), &sc)
		acc |= m0 | m1 | m2 | m3 | m4 | m5 | m6 | m7
	}
	return acc
}

// roundCol7 is roundCol4 for seven fields.
func roundCol7(v []float32, q []byte, at []rowAt) (acc uint64) {
	sc := round2Scales()
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		out, x := (*[7]float32)(v[o:o+7]), (*[28]byte)(q[p:p+28])
		var m0, m1, m2, m3, m4, m5, m6 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		out[3], m3 = round2Fast(binary.BigEndian.Uint32(x[12:16]), &sc)
		out[4], m4 = round2Fast(binary.BigEndian.Uint32(x[16:20]), &sc)
		out[5], m5 = round2Fast(binary.BigEndian.Uint32(x[20:24]), &sc)
		out[6], m6 = round2Fast(binary.BigEndian.Uint32(x[24:28]), &sc)
		acc |= m0 | m1 | m2 | m3 | m4 | m5 | m6
	}
	return acc
}

// roundCol6 is roundCol4 for six fields.
func roundCol6(v []float32, q []byte, at []rowAt) (acc uint64) {
	sc := round2Scales()
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		out, x := (*[6]float32)(v[o:o+6]), (*[24]byte)(q[p:p+24])
		var m0, m1, m2, m3, m4, m5 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		out[3], m3 = round2Fast(binary.BigEndian.Uint32(x[12:16]), &sc)
		out[4], m4 = round2Fast(binary.BigEndian.Uint32(x[16:20]), &sc)
		out[5], m5 = round2Fast(binary.BigEndian.Uint32(x[20:24]), &sc)
		acc |= m0 | m1 | m2 | m3 | m4 | m5
	}
	return acc
}

// roundCol3 is roundCol4 for three fields.
func roundCol3(v []float32, q []byte, at []rowAt) (acc uint64) {
	sc := round2Scales()
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		out, x := (*[3]float32)(v[o:o+3]), (*[12]byte)(q[p:p+12])
		var m0, m1, m2 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		acc |= m0 | m1 | m2
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

// u8Col is roundCol1 for k consecutive u8 fields, k at most maxU8Run.
func u8Col(v []float32, q []byte, at []rowAt, k int) {
	for _, r := range at {
		o, p := int(r.off), int(r.pos)
		switch k {
		case 1:
			v[o] = float32(q[p])
		case 4:
			out, x := (*[4]float32)(v[o:o+4]), (*[4]byte)(q[p:p+4])
			out[0], out[1], out[2], out[3] = float32(x[0]), float32(x[1]), float32(x[2]), float32(x[3])
		case 3:
			out, x := (*[3]float32)(v[o:o+3]), (*[3]byte)(q[p:p+3])
			out[0], out[1], out[2] = float32(x[0]), float32(x[1]), float32(x[2])
		default:
			out, x := (*[2]float32)(v[o:o+2]), (*[2]byte)(q[p:p+2])
			out[0], out[1] = float32(x[0]), float32(x[1])
		}
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

// zeroCol zeroes n values from v[r.off] for each row r of at. A tail of
// a few fields is zeroed by stores, not by a call to clear's loop.
func zeroCol(v []float32, n int, at []rowAt) {
	for _, r := range at {
		o := int(r.off)
		switch n {
		case 3:
			*(*[3]float32)(v[o : o+3]) = [3]float32{}
		case 2:
			*(*[2]float32)(v[o : o+2]) = [2]float32{}
		case 1:
			v[o] = 0
		default:
			clear(v[o : o+n])
		}
	}
}

// zeroWideCol is zeroCol for exact u32 values, from e[r.woff].
func zeroWideCol(e []uint32, n int, at []rowAt) {
	for _, r := range at {
		clear(e[r.woff : int(r.woff)+n])
	}
}
