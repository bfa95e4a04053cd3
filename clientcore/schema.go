package clientcore

import "vimpclient/snapschema"

// KeySchema is one snapshot key as the decoder uses it: the key the schema
// describes, with its decode and sample plans compiled once.
type KeySchema struct {
	snapschema.Key

	// interpolated is true for hot indexed8 / indexedNoNull8 keys, the only
	// blocks the sampler interpolates and writes into the hot data.
	interpolated bool
	// lerped marks the fields that interpolate (lerp or lerpAngle on f32).
	lerped []snapschema.Interp
	// types, headBytes and fullBytes let the decoder check a row's length
	// once: the mandatory head's size and the full row's size in bytes.
	types     []snapschema.FieldType
	headBytes int
	fullBytes int
	// wideAt maps a field index to its position among the key's u32
	// fields (-1 for other types); wideN counts them. Rows keep those
	// fields' exact values beside Fields.
	wideAt []int
	wideN  int
	// full and head are the decode plan of a row with and without its
	// optional tail (the same runs when there is none); headWide counts
	// the u32 fields of the head. interp is the sample plan of an
	// interpolated key. See rowplan.go.
	full, head []fieldRun
	headWide   int
	// fullCols and headCols are the column plans of the span path (see
	// colplan.go): a row with its optional tail (or of a key without
	// one), and a row without it, the tail zeroed.
	fullCols, headCols []colOp
	interp             []interpRun
	// discrete and angles list an interpolated key's fields that are not
	// lerped: discrete ones (every non-f32 field) and lerpAngle ones.
	discrete, angles []int
	// hdrBytes is the size of a row's header: its id and null marker.
	hdrBytes int
	// minRowBytes and minFullBytes are the fewest wire bytes of a row and
	// of a non-null row, its id and null marker included: they bound the
	// storage a block's row count may claim.
	minRowBytes, minFullBytes int
}

// Interpolated reports whether rows of this key appear in the hot data.
func (k *KeySchema) Interpolated() bool { return k.interpolated }

// Schema is the snapshot key registry a host sends in CONFIG_DATA.snapshot,
// compiled for decoding.
type Schema struct {
	// Keys in the order the host listed them.
	Keys   []*KeySchema
	byID   [256]*KeySchema
	byName map[string]*KeySchema
}

// KeyByID returns the key registered under wire id, or nil.
func (s *Schema) KeyByID(id uint8) *KeySchema { return s.byID[id] }

// Key returns the key with the given name, or nil.
func (s *Schema) Key(name string) *KeySchema { return s.byName[name] }

// ParseSchema parses and validates a snapshot schema with snapschema.Parse
// (every error is a *snapschema.Error) and compiles it for decoding.
func ParseSchema(raw []byte) (*Schema, error) {
	ss, err := snapschema.Parse(raw)
	if err != nil {
		return nil, err
	}
	return Compile(ss), nil
}

// Compile builds the decode and sample plans of every key of a parsed
// schema.
func Compile(ss *snapschema.Schema) *Schema {
	s := &Schema{byName: make(map[string]*KeySchema, len(ss.Keys))}
	for _, sk := range ss.Keys {
		k := &KeySchema{Key: *sk}
		k.compile()
		s.byID[k.ID] = k
		s.byName[k.Name] = k
		s.Keys = append(s.Keys, k)
	}
	return s
}

// compile derives the decoder's view of the key's fields.
func (k *KeySchema) compile() {
	k.interpolated = k.Class == snapschema.ClassHot && (k.Kind == snapschema.KindIndexed8 || k.Kind == snapschema.KindIndexedNoNull8)
	k.lerped = make([]snapschema.Interp, len(k.Fields))
	k.types = make([]snapschema.FieldType, len(k.Fields))
	k.wideAt = make([]int, len(k.Fields))
	for i, f := range k.Fields {
		k.wideAt[i] = -1
		if f.Type == snapschema.TypeU32 {
			k.wideAt[i] = k.wideN
			k.wideN++
		}
		if k.interpolated && f.Type == snapschema.TypeF32 {
			k.lerped[i] = f.Interp
		}
		k.types[i] = f.Type
		k.fullBytes += f.Type.Size()
		if k.OptionalFrom == 0 || i < k.OptionalFrom {
			k.headBytes += f.Type.Size()
		}
	}
	k.compilePlan()
}
