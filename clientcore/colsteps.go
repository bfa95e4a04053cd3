package clientcore

import "encoding/binary"

// The column kernels of a block whose rows all take the same bytes (a key
// without an optional tail): row i's fields are i·qs bytes and its values
// i·vs values from the first row's, so a kernel steps down the rows by
// adding, with no list of rows to load.
//
// Each kernel's q ends with the block's bytes, so the rows are those whose
// fields fit in q: the loop's test is the bounds check of the row's bytes,
// and the row count is one value fewer in registers. The steps are
// counted in uint32, so that an index made from one is known to be far
// from overflowing and each read needs one bounds check, not two; they
// cannot wrap, as a frame's bytes and values are far fewer than 2^32
// (and a wrapped index would still be bounds checked).

// readSteps applies the column plan ops down the rows whose values are
// vals, vs a row, and exact values wide, ws a row, row i's fields at
// q[i·qs:], q ending with the last row's, and returns the or of
// round2Fast's magnitudes, as readCols does. With vec the f32 kernels
// take their vector forms (see round_amd64.go).
func readSteps(ops []colOp, vals []float32, vs int, wide []uint32, ws int, q []byte, qs int, vec bool) (acc uint64) {
	for i := range ops {
		op := &ops[i]
		v, p := vals[op.at:], q[op.off:]
		if vec && op.kind.rounds() {
			if a, ok := roundStepsVec(v, vs, p, qs, op.n); ok {
				acc |= a
				continue
			}
		}
		switch op.kind {
		case colF32x8:
			acc |= roundSteps8(v, vs, p, qs)
		case colF32x7:
			acc |= roundSteps7(v, vs, p, qs)
		case colF32x6:
			acc |= roundSteps6(v, vs, p, qs)
		case colF32x4:
			acc |= roundSteps4(v, vs, p, qs)
		case colF32x3:
			acc |= roundSteps3(v, vs, p, qs)
		case colF32x2:
			acc |= roundSteps2(v, vs, p, qs)
		case colF32x1:
			acc |= roundSteps1(v, vs, p, qs)
		case colU8:
			u8Steps(v, vs, p, qs, op.n)
		case colU16:
			u16Steps(v, vs, p, qs)
		case colU32:
			u32Steps(v, vs, wide[op.wide:], ws, p, qs)
		}
	}
	return acc
}

// roundSteps4 rounds four consecutive f32 fields of n rows, the first
// row's bytes at q[0] and its values to v[0], each next row's qs bytes
// and vs values further, and returns the or of their magnitudes.
func roundSteps4(v []float32, vs int, q []byte, qs int) (acc uint64) {
	sc := round2Scales()
	var o uint32
	for p := uint32(0); int(p)+16 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		out, x := (*[4]float32)(v[i:i+4]), (*[16]byte)(q[j:j+16])
		var m0, m1, m2, m3 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		out[3], m3 = round2Fast(binary.BigEndian.Uint32(x[12:16]), &sc)
		acc |= m0 | m1 | m2 | m3
		o += uint32(vs)
	}
	return acc
}

// roundSteps8 is roundSteps4 for eight fields.
func roundSteps8(v []float32, vs int, q []byte, qs int) (acc uint64) {
	sc := round2Scales()
	var o uint32
	for p := uint32(0); int(p)+32 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		out, x := (*[8]float32)(v[i:i+8]), (*[32]byte)(q[j:j+32])
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
		o += uint32(vs)
	}
	return acc
}

// roundSteps7 is roundSteps4 for seven fields.
func roundSteps7(v []float32, vs int, q []byte, qs int) (acc uint64) {
	sc := round2Scales()
	var o uint32
	for p := uint32(0); int(p)+28 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		out, x := (*[7]float32)(v[i:i+7]), (*[28]byte)(q[j:j+28])
		var m0, m1, m2, m3, m4, m5, m6 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		out[3], m3 = round2Fast(binary.BigEndian.Uint32(x[12:16]), &sc)
		out[4], m4 = round2Fast(binary.BigEndian.Uint32(x[16:20]), &sc)
		out[5], m5 = round2Fast(binary.BigEndian.Uint32(x[20:24]), &sc)
		out[6], m6 = round2Fast(binary.BigEndian.Uint32(x[24:28]), &sc)
		acc |= m0 | m1 | m2 | m3 | m4 | m5 | m6
		o += uint32(vs)
	}
	return acc
}

// roundSteps6 is roundSteps4 for six fields.
func roundSteps6(v []float32, vs int, q []byte, qs int) (acc uint64) {
	sc := round2Scales()
	var o uint32
	for p := uint32(0); int(p)+24 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		out, x := (*[6]float32)(v[i:i+6]), (*[24]byte)(q[j:j+24])
		var m0, m1, m2, m3, m4, m5 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		out[3], m3 = round2Fast(binary.BigEndian.Uint32(x[12:16]), &sc)
		out[4], m4 = round2Fast(binary.BigEndian.Uint32(x[16:20]), &sc)
		out[5], m5 = round2Fast(binary.BigEndian.Uint32(x[20:24]), &sc)
		acc |= m0 | m1 | m2 | m3 | m4 | m5
		o += uint32(vs)
	}
	return acc
}

// roundSteps3 is roundSteps4 for three fields.
func roundSteps3(v []float32, vs int, q []byte, qs int) (acc uint64) {
	sc := round2Scales()
	var o uint32
	for p := uint32(0); int(p)+12 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		out, x := (*[3]float32)(v[i:i+3]), (*[12]byte)(q[j:j+12])
		var m0, m1, m2 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		out[2], m2 = round2Fast(binary.BigEndian.Uint32(x[8:12]), &sc)
		acc |= m0 | m1 | m2
		o += uint32(vs)
	}
	return acc
}

// roundSteps2 is roundSteps4 for two fields.
func roundSteps2(v []float32, vs int, q []byte, qs int) (acc uint64) {
	sc := round2Scales()
	var o uint32
	for p := uint32(0); int(p)+8 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		out, x := (*[2]float32)(v[i:i+2]), (*[8]byte)(q[j:j+8])
		var m0, m1 uint64
		out[0], m0 = round2Fast(binary.BigEndian.Uint32(x[0:4]), &sc)
		out[1], m1 = round2Fast(binary.BigEndian.Uint32(x[4:8]), &sc)
		acc |= m0 | m1
		o += uint32(vs)
	}
	return acc
}

// roundSteps1 is roundSteps4 for one field.
func roundSteps1(v []float32, vs int, q []byte, qs int) (acc uint64) {
	sc := round2Scales()
	var o uint32
	for p := uint32(0); int(p)+4 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		var m uint64
		v[i], m = round2Fast(binary.BigEndian.Uint32(q[j:j+4]), &sc)
		acc |= m
		o += uint32(vs)
	}
	return acc
}

// u8Steps is roundSteps1 for k consecutive u8 fields, k at most
// maxU8Run: the switch on k, the same every row, is a predicted branch.
func u8Steps(v []float32, vs int, q []byte, qs, k int) {
	var o uint32
	for p := uint32(0); int(p)+k <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		switch k {
		case 1:
			v[i] = float32(q[j])
		case 4:
			out, x := (*[4]float32)(v[i:i+4]), (*[4]byte)(q[j:j+4])
			out[0], out[1], out[2], out[3] = float32(x[0]), float32(x[1]), float32(x[2]), float32(x[3])
		case 3:
			out, x := (*[3]float32)(v[i:i+3]), (*[3]byte)(q[j:j+3])
			out[0], out[1], out[2] = float32(x[0]), float32(x[1]), float32(x[2])
		default:
			out, x := (*[2]float32)(v[i:i+2]), (*[2]byte)(q[j:j+2])
			out[0], out[1] = float32(x[0]), float32(x[1])
		}
		o += uint32(vs)
	}
}

// u16Steps is roundSteps1 for a u16 field.
func u16Steps(v []float32, vs int, q []byte, qs int) {
	var o uint32
	for p := uint32(0); int(p)+2 <= len(q); p += uint32(qs) {
		i, j := int(o), int(p)
		v[i] = float32(binary.BigEndian.Uint16(q[j : j+2]))
		o += uint32(vs)
	}
}

// u32Steps is roundSteps1 for a u32 field, its exact value kept in e, the
// first row's at e[0] and each next row's es further.
func u32Steps(v []float32, vs int, e []uint32, es int, q []byte, qs int) {
	var o, x uint32
	for p := uint32(0); int(p)+4 <= len(q); p += uint32(qs) {
		i, j, k := int(o), int(p), int(x)
		u := binary.BigEndian.Uint32(q[j : j+4])
		v[i], e[k] = float32(u), u
		o, x = o+uint32(vs), x+uint32(es)
	}
}
