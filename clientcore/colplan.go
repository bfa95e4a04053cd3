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
	colF32x8    colKind = iota // eight f32 fields, rounded
	colF32x7                   // seven f32 fields, rounded
	colF32x6                   // six f32 fields, rounded
	colF32x4                   // four f32 fields, rounded
	colF32x3                   // three f32 fields, rounded
	colF32x2                   // two f32 fields, rounded
	colF32x1                   // one f32 field, rounded
	colU8                      // one to four u8 fields
	colU16                     // one u16 field
	colU32                     // one u32 field, its exact value kept too
	colZero                    // the fields of the optional tail a row came without
	colZeroWide                // the exact values of the tail's u32 fields
)

// rounds reports whether the kernel rounds f32 fields.
func (k colKind) rounds() bool { return k <= colF32x1 }

// maxU8Run is the most u8 fields one colU8 kernel reads.
const maxU8Run = 4

// colOp is one kernel of a column plan.
type colOp struct {
	kind colKind
	off  int // byte offset of its first field among the row's field bytes
	at   int // index of its first field
	wide int // position of the field among the key's u32 fields (colU32, colZeroWide)
	n    int // fields read (f32 and colU8 kernels) or zeroed (colZero, colZeroWide)
}

// compileCols returns the column plan of the fields [0, n) of a key, the
// fields [n, zeroTo) zeroed (a row without its optional tail). Each
// kernel costs a loop down the rows, so a run of fields of one type takes
// as few kernels as the widths allow: a run of seven f32 fields is one
// colF32x7.
func compileCols(types []snapschema.FieldType, wideAt []int, n, zeroTo int) []colOp {
	var ops []colOp
	off := 0
	for i := 0; i < n; {
		t := types[i]
		run := 0
		for i+run < n && types[i+run] == t {
			run++
		}
		switch t {
		case snapschema.TypeF32:
			for run > 0 {
				kind, width := f32Col(run)
				ops = append(ops, colOp{kind: kind, off: off, at: i, n: width})
				off += 4 * width
				i += width
				run -= width
			}
		case snapschema.TypeU8:
			for run > 0 {
				width := min(run, maxU8Run)
				ops = append(ops, colOp{kind: colU8, off: off, at: i, n: width})
				off += width
				i += width
				run -= width
			}
		default:
			for ; run > 0; run-- {
				ops = append(ops, colOp{kind: intCol(t), off: off, at: i, wide: wideAt[i]})
				off += t.Size()
				i++
			}
		}
	}
	if zeroTo > n {
		ops = append(ops, colOp{kind: colZero, at: n, n: zeroTo - n})
	}
	// The tail's u32 fields are the key's last ones, their exact values
	// one run.
	wide := colOp{kind: colZeroWide, wide: -1}
	for i := n; i < zeroTo; i++ {
		if types[i] == snapschema.TypeU32 {
			if wide.n == 0 {
				wide.wide = wideAt[i]
			}
			wide.n++
		}
	}
	if wide.n > 0 {
		ops = append(ops, wide)
	}
	return ops
}

// f32Col returns the widest f32 kernel for the first fields of a run of n
// and its width: a run of five is a colF32x4 and a colF32x1, one of nine
// a colF32x8 and a colF32x1.
func f32Col(n int) (colKind, int) {
	switch {
	case n >= 8:
		return colF32x8, 8
	case n == 7:
		return colF32x7, 7
	case n == 6:
		return colF32x6, 6
	case n >= 4:
		return colF32x4, 4
	case n == 3:
		return colF32x3, 3
	case n == 2:
		return colF32x2, 2
	}
	return colF32x1, 1
}

// intCol is the kernel of one u16 or u32 field.
func intCol(t snapschema.FieldType) colKind {
	if t == snapschema.TypeU16 {
		return colU16
	}
	return colU32
}
