package clientcore

import "vimpclient/snapschema"

// A column plan is a key's row layout compiled once, when the schema is
// parsed, into kernels over a few consecutive fields of one type. The
// decoder's span path (spanblock.go) applies each kernel down the rows of
// a block, a column of them, so that a loop's few values stay in
// registers and a kernel's fixed-size reads need one bounds check per row
// instead of one per field.

// colKind is what a column kernel reads.
type colKind uint8

const (
	colF32x4   colKind = iota // four f32 fields, rounded
	colF32x2                  // two f32 fields, rounded
	colF32x1                  // one f32 field, rounded
	colU8                     // one u8 field
	colU16                    // one u16 field
	colU32                    // one u32 field, its exact value kept too
	colZero                   // one field of the optional tail a row came without
	colZeroU32                // colZero for a u32 field, its exact value too
)

// colOp is one kernel of a column plan.
type colOp struct {
	kind colKind
	off  int // byte offset of its first field among the row's field bytes
	at   int // index of its first field
	wide int // position of the field among the key's u32 fields (colU32 only)
}

// compileCols returns the column plan of the fields [0, n) of a key, the
// fields [n, zeroTo) zeroed (a row without its optional tail).
func compileCols(types []snapschema.FieldType, wideAt []int, n, zeroTo int) []colOp {
	var ops []colOp
	off := 0
	for i := 0; i < n; {
		t := types[i]
		if t != snapschema.TypeF32 {
			ops = append(ops, colOp{kind: intCol(t), off: off, at: i, wide: wideAt[i]})
			off += t.Size()
			i++
			continue
		}
		run := 0
		for i+run < n && types[i+run] == snapschema.TypeF32 {
			run++
		}
		for run > 0 {
			op := colOp{kind: colF32x1, off: off, at: i}
			width := 1
			switch {
			case run >= 4:
				op.kind, width = colF32x4, 4
			case run >= 2:
				op.kind, width = colF32x2, 2
			}
			ops = append(ops, op)
			off += 4 * width
			i += width
			run -= width
		}
	}
	for i := n; i < zeroTo; i++ {
		op := colOp{kind: colZero, at: i}
		if types[i] == snapschema.TypeU32 {
			op.kind, op.wide = colZeroU32, wideAt[i]
		}
		ops = append(ops, op)
	}
	return ops
}

// intCol is the kernel of one integer field.
func intCol(t snapschema.FieldType) colKind {
	switch t {
	case snapschema.TypeU8:
		return colU8
	case snapschema.TypeU16:
		return colU16
	}
	return colU32
}
