package clientcore

import (
	"encoding/binary"
	"math"

	"vimpclient/snapschema"
)

// The values of a block's rows, read a run at a time: each run of a key's
// row plan is one wire type. When a block's rows lie at regular steps in
// the frame and in the values (as a block of rows of one size does), each
// field of a run is one loop down the rows, a column, small enough to keep
// its values in registers; otherwise each row's run is one such loop.

// readRuns reads the values of the rows at by the runs and returns the
// or of round2Fast's magnitudes: round2FastBound or above, some value
// needs round2's formula.
func readRuns(runs []fieldRun, f *Frame, b []byte, at []rowAt) (hi uint64) {
	if len(at) == 0 {
		return 0
	}
	qs, vs, ws, ok := steps(at)
	if !ok {
		return readRows(runs, f, b, at)
	}
	n, p0, v0, w0 := len(at), int(at[0].pos), int(at[0].off), int(at[0].woff)
	for ri := range runs {
		run := &runs[ri]
		p, v := p0+run.off, v0+run.at
		switch run.typ {
		case snapschema.TypeF32:
			for t := 0; t < run.n; t++ {
				hi |= roundColumn(f.vals[v+t:], vs, b[p+4*t:], qs, n)
			}
		case snapschema.TypeU8:
			for t := 0; t < run.n; t++ {
				u8Column(f.vals[v+t:], vs, b[p+t:], qs, n)
			}
		case snapschema.TypeU16:
			for t := 0; t < run.n; t++ {
				u16Column(f.vals[v+t:], vs, b[p+2*t:], qs, n)
			}
		case snapschema.TypeU32:
			for t := 0; t < run.n; t++ {
				u32Column(f.vals[v+t:], vs, f.wide[w0+run.wide+t:], ws, b[p+4*t:], qs, n)
			}
		}
	}
	return hi
}

// steps returns the steps between consecutive rows of at in the frame's
// bytes, values and exact values, or false when they are not regular.
func steps(at []rowAt) (qs, vs, ws int, ok bool) {
	if len(at) < 2 {
		return 0, 0, 0, true
	}
	dq, dv, dw := at[1].pos-at[0].pos, at[1].off-at[0].off, at[1].woff-at[0].woff
	for i := 2; i < len(at); i++ {
		if at[i].pos-at[i-1].pos != dq || at[i].off-at[i-1].off != dv || at[i].woff-at[i-1].woff != dw {
			return 0, 0, 0, false
		}
	}
	qd, vd, wd := int32(dq), int32(dv), int32(dw) // differences of positions below 2^31
	return int(qd), int(vd), int(wd), qd > 0 && vd >= 0 && wd >= 0
}

// roundColumn rounds one f32 field of n rows, the first row's bytes at
// q[0] and its value to o[0], the others qs bytes and vs values apart, on
// round2's fast path, and returns the or of their magnitudes.
func roundColumn(o []float32, vs int, q []byte, qs, n int) (acc uint64) {
	sc := round2Scales()
	qi, vi := 0, 0
	for r := 0; r < n; r++ {
		var m uint64
		o[vi], m = round2Fast(binary.BigEndian.Uint32(q[qi:qi+4]), &sc)
		acc |= m
		qi += qs
		vi += vs
	}
	return acc
}

// u8Column is roundColumn for a u8 field.
func u8Column(o []float32, vs int, q []byte, qs, n int) {
	qi, vi := 0, 0
	for r := 0; r < n; r++ {
		o[vi] = float32(q[qi])
		qi += qs
		vi += vs
	}
}

// u16Column is roundColumn for a u16 field.
func u16Column(o []float32, vs int, q []byte, qs, n int) {
	qi, vi := 0, 0
	for r := 0; r < n; r++ {
		o[vi] = float32(binary.BigEndian.Uint16(q[qi : qi+2]))
		qi += qs
		vi += vs
	}
}

// u32Column is roundColumn for a u32 field, keeping its exact values in e,
// ws apart.
func u32Column(o []float32, vs int, e []uint32, ws int, q []byte, qs, n int) {
	qi, vi, wi := 0, 0, 0
	for r := 0; r < n; r++ {
		u := binary.BigEndian.Uint32(q[qi : qi+4])
		o[vi], e[wi] = float32(u), u
		qi += qs
		vi += vs
		wi += ws
	}
}

// readRows is readRuns for rows at irregular places: each row's run is
// one loop.
func readRows(runs []fieldRun, f *Frame, b []byte, at []rowAt) (hi uint64) {
	for ri := range runs {
		run := &runs[ri]
		for _, r := range at {
			o := f.vals[int(r.off)+run.at : int(r.off)+run.at+run.n]
			q := b[int(r.pos)+run.off:]
			switch run.typ {
			case snapschema.TypeF32:
				hi |= roundRun(o, q)
			case snapschema.TypeU8:
				for t := range o {
					o[t] = float32(q[t])
				}
			case snapschema.TypeU16:
				for t := range o {
					o[t] = float32(binary.BigEndian.Uint16(q[2*t : 2*t+2]))
				}
			case snapschema.TypeU32:
				e := f.wide[int(r.woff)+run.wide : int(r.woff)+run.wide+run.n]
				for t := range o {
					u := binary.BigEndian.Uint32(q[4*t : 4*t+4])
					o[t], e[t] = float32(u), u
				}
			}
		}
	}
	return hi
}

// roundRun rounds the big-endian f32 values from q[0] into o on round2's
// fast path and returns the or of their magnitudes.
func roundRun(o []float32, q []byte) (acc uint64) {
	sc := round2Scales()
	for t := range o {
		var n uint64
		o[t], n = round2Fast(binary.BigEndian.Uint32(q[4*t:4*t+4]), &sc)
		acc |= n
	}
	return acc
}

// clearTails zeroes the fields [from, to) of the rows at, which came
// without their optional tail.
func clearTails(vals []float32, at []rowAt, from, to int) {
	for _, r := range at {
		o := vals[int(r.off)+from : int(r.off)+to]
		for t := range o {
			o[t] = 0
		}
	}
}

// clearWideTails is clearTails for the exact u32 values.
func clearWideTails(wide []uint32, at []rowAt, from, to int) {
	for _, r := range at {
		clear(wide[int(r.woff)+from : int(r.woff)+to])
	}
}

// decodeF32Exact reads again, with the engine's formula, the f32 fields
// decodeRows could not round on its fast path (values beyond ±167772,
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
