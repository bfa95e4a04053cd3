package clientcore

import "vimpclient/snapschema"

// A row plan is a key's row layout compiled once, when the schema is parsed:
// the row header's size and the row as runs of consecutive fields of one
// wire type. Decoding a row walks its few runs, each a tight loop over
// fixed-width values, instead of switching on every field's type; sampling
// walks runs of one interpolation mode the same way.

// fieldRun is n consecutive fields of one wire type.
type fieldRun struct {
	typ  snapschema.FieldType
	at   int // first field index
	n    int // fields in the run
	off  int // byte offset of the first field in the row
	wide int // position of the first field among the key's u32 fields (snapschema.TypeU32 only)
}

// interpRun is n consecutive fields interpolated the same way.
type interpRun struct {
	mode snapschema.Interp
	at   int
	n    int
}

// compileRuns splits the fields [0, n) into runs of one wire type.
func compileRuns(types []snapschema.FieldType, wideAt []int, n int) []fieldRun {
	var runs []fieldRun
	off := 0
	for i := 0; i < n; i++ {
		t := types[i]
		if len(runs) > 0 && runs[len(runs)-1].typ == t {
			runs[len(runs)-1].n++
		} else {
			runs = append(runs, fieldRun{typ: t, at: i, n: 1, off: off, wide: wideAt[i]})
		}
		off += t.Size()
	}
	return runs
}

// compileInterp splits a hot key's fields into runs of one interpolation
// mode (every non-f32 field is discrete).
func compileInterp(lerped []snapschema.Interp) []interpRun {
	var runs []interpRun
	for i, m := range lerped {
		if len(runs) > 0 && runs[len(runs)-1].mode == m {
			runs[len(runs)-1].n++
		} else {
			runs = append(runs, interpRun{mode: m, at: i, n: 1})
		}
	}
	return runs
}

// compilePlan fills the key's decode and sample plans from its fields.
func (k *KeySchema) compilePlan() {
	k.full = compileRuns(k.types, k.wideAt, len(k.Fields))
	k.fullCols = compileCols(k.types, k.wideAt, len(k.Fields), len(k.Fields))
	if k.OptionalFrom != 0 {
		k.headCols = compileCols(k.types, k.wideAt, k.OptionalFrom, len(k.Fields))
	}
	k.head = k.full
	k.headWide = k.wideN
	if k.OptionalFrom != 0 {
		k.head = compileRuns(k.types, k.wideAt, k.OptionalFrom)
		k.headWide = 0
		for _, t := range k.types[:k.OptionalFrom] {
			if t == snapschema.TypeU32 {
				k.headWide++
			}
		}
	}
	if k.interpolated {
		k.interp = compileInterp(k.lerped)
		for i, m := range k.lerped {
			switch m {
			case snapschema.InterpDiscrete:
				k.discrete = append(k.discrete, i)
			case snapschema.InterpLerpAngle:
				k.angles = append(k.angles, i)
			}
		}
	}
	idBytes := 0
	switch k.Kind {
	case snapschema.KindIndexed8:
		idBytes = 2
	case snapschema.KindIndexed32:
		idBytes = 5
	case snapschema.KindIndexedNoNull8:
		idBytes = 1
	}
	k.hdrBytes = idBytes
	k.minFullBytes = idBytes + k.fullBytes
	if k.OptionalFrom != 0 {
		k.minFullBytes = idBytes + 1 + k.headBytes
	}
	k.minRowBytes = k.minFullBytes
	if k.Kind == snapschema.KindIndexed8 || k.Kind == snapschema.KindIndexed32 {
		k.minRowBytes = idBytes // a null row has no fields
	}
}
