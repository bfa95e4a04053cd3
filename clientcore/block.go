package clientcore

import (
	"encoding/binary"
	"math"
	"vimpclient/snapschema"
)

// decodeBlock decodes the block of key k whose row count starts at b[pos],
// writing each row once, in place, into f's storage: a repeated id keeps
// its first position and takes the last value. It returns the position
// after the block.
//
// Each kind has its own loop over the row headers; putRow writes a row and
// reads its fields by the key's compiled runs.
func (d *Decoder) decodeBlock(b []byte, pos int, k *KeySchema, f *Frame) (int, error) {
	var count int
	kind := k.Kind
	if kind == snapschema.KindIndexed8 || kind == snapschema.KindIndexedNoNull8 {
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
	start := len(f.rows)
	var err error
	switch kind {
	case snapschema.KindIndexed8:
		pos, err = d.rows8(b, pos, count, k, f)
	case snapschema.KindIndexed32:
		pos, err = d.rows32(b, pos, count, k, f)
	case snapschema.KindIndexedNoNull8:
		pos, err = d.rowsNoNull8(b, pos, count, k, f)
	default:
		for i := 0; i < count && err == nil; i++ {
			pos, err = f.putRow(k, -1, uint32(i), b, pos)
		}
	}
	if err != nil {
		return pos, err
	}
	f.Blocks = append(f.Blocks, Block{Schema: k, start: start, end: len(f.rows)})
	return pos, nil
}

// rows8 reads the rows of an indexed8 block: u8 id, null marker, fields.
func (d *Decoder) rows8(b []byte, pos, count int, k *KeySchema, f *Frame) (int, error) {
	d.gen++
	for i := 0; i < count; i++ {
		if len(b)-pos < 2 {
			return pos, ErrTruncated
		}
		id, null := uint32(b[pos]), b[pos+1] == 0
		pos += 2
		at := d.seen8(id, len(f.rows))
		if null {
			f.putNull(at, id)
			continue
		}
		var err error
		if pos, err = f.putRow(k, at, id, b, pos); err != nil {
			return pos, err
		}
	}
	return pos, nil
}

// rows32 reads the rows of an indexed32 block: u32 id, null marker, fields.
func (d *Decoder) rows32(b []byte, pos, count int, k *KeySchema, f *Frame) (int, error) {
	d.ids.reset(count)
	for i := 0; i < count; i++ {
		if len(b)-pos < 5 {
			return pos, ErrTruncated
		}
		id, null := binary.BigEndian.Uint32(b[pos:pos+4]), b[pos+4] == 0
		pos += 5
		at := d.ids.lookupOrAdd(id, int32(len(f.rows)))
		if null {
			f.putNull(at, id)
			continue
		}
		var err error
		if pos, err = f.putRow(k, at, id, b, pos); err != nil {
			return pos, err
		}
	}
	return pos, nil
}

// rowsNoNull8 reads the rows of an indexedNoNull8 block: u8 slot, fields.
func (d *Decoder) rowsNoNull8(b []byte, pos, count int, k *KeySchema, f *Frame) (int, error) {
	d.gen++
	for i := 0; i < count; i++ {
		if pos >= len(b) {
			return pos, ErrTruncated
		}
		id := uint32(b[pos])
		pos++
		var err error
		if pos, err = f.putRow(k, d.seen8(id, len(f.rows)), id, b, pos); err != nil {
			return pos, err
		}
	}
	return pos, nil
}

// slot returns the row at, or a new row at the end when at < 0.
func (f *Frame) slot(at int) *Row {
	if at < 0 {
		at = len(f.rows)
		if at == cap(f.rows) { // past what reserve foresaw: cannot happen, but stay safe
			f.rows = growSlice(f.rows, 1)
		}
		f.rows = f.rows[:at+1]
	}
	return &f.rows[at]
}

// putNull writes a null row (an entity gone) at at, or appends it.
func (f *Frame) putNull(at int, id uint32) {
	*f.slot(at) = Row{ID: id, Null: true}
}

// putRow writes the non-null row whose fields start at b[pos] at at (or
// appends it) and returns the position after it.
func (f *Frame) putRow(k *KeySchema, at int, id uint32, b []byte, pos int) (int, error) {
	row := f.slot(at)
	w, ww := len(k.Fields), k.wideN
	off, woff := len(f.vals), len(f.wide)
	if cap(f.vals)-off < w || cap(f.wide)-woff < ww { // as in slot
		f.vals, f.wide, f.moved = growSlice(f.vals, w), growSlice(f.wide, ww), true
	}
	f.vals, f.wide = f.vals[:off+w], f.wide[:woff+ww]
	fields := f.vals[off : off+w : off+w]
	var exact []uint32
	if ww > 0 {
		exact = f.wide[woff : woff+ww : woff+ww]
	}
	*row = Row{ID: id, Fields: fields, wide: exact, off: off, woff: woff}
	runs, size := k.full, k.fullBytes
	if opt := k.OptionalFrom; opt != 0 {
		if pos >= len(b) {
			return pos, ErrTruncated
		}
		if b[pos] != 1 {
			runs, size = k.head, k.headBytes
			clear(fields[opt:])
			clear(exact[k.headWide:])
		}
		pos++
	}
	if len(b)-pos < size {
		return pos, ErrTruncated
	}
	p := b[pos : pos+size : pos+size]
	if !decodeFields(runs, p, fields, exact) {
		decodeF32Exact(runs, p, fields)
	}
	return pos + size, nil
}

// decodeFields reads a row's fields from its bytes p (exactly the runs'
// size) into out and its u32 fields into wide. The runs are consecutive,
// so one field index and one byte index walk them; each run is a loop over
// values of one type. It reports false when an f32 value needs round2's
// formula (decodeF32Exact).
func decodeFields(runs []fieldRun, p []byte, out []float32, wide []uint32) (fast bool) {
	i, j, fast := 0, 0, true
	for ri := range runs {
		run := &runs[ri]
		end := i + run.n
		switch run.typ {
		case snapschema.TypeF32:
			// Two values a load while two remain.
			for ; i+1 < end; i += 2 {
				x := binary.BigEndian.Uint64(p[j : j+8 : j+8])
				r0, ok0 := round2Bits(uint32(x >> 32))
				r1, ok1 := round2Bits(uint32(x))
				out[i], out[i+1] = r0, r1
				fast = fast && ok0 && ok1
				j += 8
			}
			if i < end {
				r, ok := round2Bits(binary.BigEndian.Uint32(p[j : j+4 : j+4]))
				out[i] = r
				fast = fast && ok
				i++
				j += 4
			}
		case snapschema.TypeU8:
			for ; i < end; i++ {
				out[i] = float32(p[j])
				j++
			}
		case snapschema.TypeU16:
			for ; i < end; i++ {
				out[i] = float32(binary.BigEndian.Uint16(p[j : j+2 : j+2]))
				j += 2
			}
		case snapschema.TypeU32:
			w := run.wide
			for ; i < end; i++ {
				u := binary.BigEndian.Uint32(p[j : j+4 : j+4])
				out[i], wide[w] = float32(u), u
				j += 4
				w++
			}
		}
	}
	return fast
}

// decodeF32Exact reads again, with the engine's formula, the f32 fields
// decodeFields could not round on its fast path (values beyond ±167772,
// infinities, NaN), so that its loops hold no call.
func decodeF32Exact(runs []fieldRun, p []byte, out []float32) {
	for ri := range runs {
		run := &runs[ri]
		if run.typ != snapschema.TypeF32 {
			continue
		}
		for t := 0; t < run.n; t++ {
			j := run.off + 4*t
			out[run.at+t] = round2(math.Float32frombits(binary.BigEndian.Uint32(p[j : j+4 : j+4])))
		}
	}
}

// rebase points every row's fields into vals and wide again after they
// moved while growing (only while a decoder's storage grows to its size).
func (f *Frame) rebase() {
	for bi := range f.Blocks {
		blk := &f.Blocks[bi]
		w, ww := len(blk.Schema.Fields), blk.Schema.wideN
		for i := blk.start; i < blk.end; i++ {
			row := &f.rows[i]
			if row.Null {
				continue
			}
			row.Fields = f.vals[row.off : row.off+w : row.off+w]
			if ww > 0 {
				row.wide = f.wide[row.woff : row.woff+ww : row.woff+ww]
			}
		}
	}
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
