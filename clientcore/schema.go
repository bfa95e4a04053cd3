package clientcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"vimpclient/internal/jsonobj"
)

// Kind is a block's wire layout: how rows are counted and identified.
type Kind uint8

const (
	KindIndexed8       Kind = iota + 1 // u8 count, u8 id, null marker
	KindIndexed32                      // u16 count, u32 id, null marker
	KindList16                         // u16 count, rows only
	KindIndexedNoNull8                 // u8 count, u8 index, no null marker
)

var kindNames = [...]string{KindIndexed8: "indexed8", KindIndexed32: "indexed32", KindList16: "list16", KindIndexedNoNull8: "indexedNoNull8"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Class says whether a block is interpolated between frames (hot) or only
// delivered through event frames.
type Class uint8

const (
	ClassHot Class = iota + 1
	ClassEvent
)

func (c Class) String() string {
	switch c {
	case ClassHot:
		return "hot"
	case ClassEvent:
		return "event"
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// FieldType is a field's wire type (big-endian).
type FieldType uint8

const (
	TypeF32 FieldType = iota + 1
	TypeU8
	TypeU16
	TypeU32
)

var typeNames = [...]string{TypeF32: "f32", TypeU8: "u8", TypeU16: "u16", TypeU32: "u32"}

func (t FieldType) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return "FieldType(" + strconv.Itoa(int(t)) + ")"
}

// size is the field's width on the wire in bytes.
func (t FieldType) size() int {
	switch t {
	case TypeU8:
		return 1
	case TypeU16:
		return 2
	}
	return 4
}

// Interp is how a hot f32 field moves between two frames.
type Interp uint8

const (
	InterpDiscrete  Interp = iota // the reference frame's value
	InterpLerp                    // linear
	InterpLerpAngle               // linear along the shorter arc
)

// Role is the engine contract of a map-dynamics field (z, level, state).
type Role uint8

const (
	RoleNone Role = iota
	RoleZ
	RoleLevel
	RoleState
)

// Field is one column of a key's rows, in wire order.
type Field struct {
	Name   string
	Type   FieldType
	Interp Interp
	Role   Role
}

// KeySchema describes one snapshot key: its wire id, block kind and row layout.
type KeySchema struct {
	Name   string
	ID     uint8
	Kind   Kind
	Class  Class
	Fields []Field
	// OptionalFrom is the index of the first field of the optional row tail,
	// or 0 when rows have no tail (0 is never a legal tail start).
	OptionalFrom int

	// interpolated is true for hot indexed8 / indexedNoNull8 keys, the only
	// blocks the sampler interpolates and writes into the hot data.
	interpolated bool
	// lerped marks the fields that interpolate (lerp or lerpAngle on f32).
	lerped []Interp
	// types, headBytes and fullBytes let the decoder check a row's length
	// once: the mandatory head's size and the full row's size in bytes.
	types     []FieldType
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
	interp     []interpRun
	// discrete and angles list an interpolated key's fields that are not
	// lerped: discrete ones (every non-f32 field) and lerpAngle ones.
	discrete, angles []int
	// minRowBytes and minFullBytes are the fewest wire bytes of a row and
	// of a non-null row, its id and null marker included: they bound the
	// storage a block's row count may claim.
	minRowBytes, minFullBytes int
}

// Interpolated reports whether rows of this key appear in the hot data.
func (k *KeySchema) Interpolated() bool { return k.interpolated }

// Schema is the snapshot key registry a host sends in CONFIG_DATA.snapshot.
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

// SchemaError names the key (and field) a schema rule rejected.
type SchemaError struct {
	Key   string // "" for errors about the whole schema
	Field int    // -1 when the error is not about one field
	Rule  string // the rule, e.g. "V4"
	Msg   string
}

func (e *SchemaError) Error() string {
	var b bytes.Buffer
	b.WriteString("snapshot schema")
	if e.Key != "" {
		fmt.Fprintf(&b, ": key %q", e.Key)
	}
	if e.Field >= 0 {
		fmt.Fprintf(&b, " field %d", e.Field)
	}
	fmt.Fprintf(&b, ": %s (rule %s)", e.Msg, e.Rule)
	return b.String()
}

// Bounds of a snapshot schema. The reference games' schemas are 2–3 KiB
// with at most 37 fields a key (the snakes spine); every frame is decoded
// and every part bound against the schema, so one that is far larger only
// costs time and memory on every CONFIG_DATA a host repeats.
const (
	MaxSchemaBytes = 256 << 10
	MaxKeyFields   = 256
)

func schemaErr(key string, field int, rule, format string, args ...any) error {
	return &SchemaError{Key: key, Field: field, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// ParseSchema parses and validates a snapshot schema. It accepts the bare keys
// object that CONFIG_DATA.snapshot carries, and the wrapper form
// {"version": 5, "port": 5, "keys": {...}} used by the engine's own config
// files (recognised only when version and port are numbers and keys is an
// object; the wrapper's version and port must then be 5).
//
// A schema longer than MaxSchemaBytes, or a key with more than
// MaxKeyFields fields, is refused before anything is built from it.
func ParseSchema(raw []byte) (*Schema, error) {
	if len(raw) > MaxSchemaBytes {
		return nil, schemaErr("", -1, "limit", "%d bytes, the limit is %d", len(raw), MaxSchemaBytes)
	}
	keys, err := unwrapSchema(raw)
	if err != nil {
		return nil, err
	}
	entries, err := jsonobj.Members(keys, 0)
	if err == nil && len(entries) == 0 && !isJSONObject(keys) {
		err = jsonobj.ErrNotObject
	}
	if err != nil {
		return nil, schemaErr("", -1, "V3", "the schema is not an object of objects: %v", err)
	}
	s := &Schema{byName: make(map[string]*KeySchema, len(entries))}
	for _, e := range entries {
		k, err := parseKey(e.Name, e.Value)
		if err != nil {
			return nil, err
		}
		if prev := s.byID[k.ID]; prev != nil {
			return nil, schemaErr(k.Name, -1, "V4", "id %d is already used by key %q", k.ID, prev.Name)
		}
		s.byID[k.ID] = k
		s.byName[k.Name] = k
		s.Keys = append(s.Keys, k)
	}
	return s, nil
}

func unwrapSchema(raw []byte) (json.RawMessage, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, schemaErr("", -1, "V3", "the schema is not a JSON object: %v", err)
	}
	v, p, k := probe["version"], probe["port"], probe["keys"]
	if isJSONNumber(v) && isJSONNumber(p) && isJSONObject(k) {
		if string(bytes.TrimSpace(v)) != "5" {
			return nil, schemaErr("", -1, "wrapper", "format version %s is not 5", bytes.TrimSpace(v))
		}
		if string(bytes.TrimSpace(p)) != "5" {
			return nil, schemaErr("", -1, "wrapper", "snapshot port %s is not 5", bytes.TrimSpace(p))
		}
		return k, nil
	}
	return raw, nil
}

func isJSONNumber(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9'))
}

func isJSONObject(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{'
}

type rawKey struct {
	ID           json.RawMessage `json:"id"`
	Kind         json.RawMessage `json:"kind"`
	Class        json.RawMessage `json:"class"`
	Fields       json.RawMessage `json:"fields"`
	OptionalFrom json.RawMessage `json:"optionalFrom"`
}

type rawField struct {
	Name   json.RawMessage `json:"name"`
	Ty     json.RawMessage `json:"ty"`
	Interp json.RawMessage `json:"interp"`
	Role   json.RawMessage `json:"role"`
}

func isNull(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) == 0 || string(b) == "null"
}

func jsonString(b json.RawMessage) (string, bool) {
	var s string
	if isNull(b) || json.Unmarshal(b, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonUint parses an integer literal (no fraction, no exponent) up to max.
func jsonUint(b json.RawMessage, max uint64) (uint64, bool) {
	t := string(bytes.TrimSpace(b))
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n > max {
		return 0, false
	}
	return n, true
}

func parseKey(name string, raw json.RawMessage) (*KeySchema, error) {
	if !isJSONObject(raw) {
		return nil, schemaErr(name, -1, "V3", "entry is not an object")
	}
	var rk rawKey
	if err := json.Unmarshal(raw, &rk); err != nil {
		return nil, schemaErr(name, -1, "V3", "entry is malformed: %v", err)
	}
	k := &KeySchema{Name: name}
	if isNull(rk.ID) {
		return nil, schemaErr(name, -1, "V1", "id is missing")
	}
	id, ok := jsonUint(rk.ID, 255)
	if !ok {
		return nil, schemaErr(name, -1, "V1", "id %s is not an integer in 0..255", bytes.TrimSpace(rk.ID))
	}
	k.ID = uint8(id)
	kind, ok := jsonString(rk.Kind)
	if !ok {
		return nil, schemaErr(name, -1, "V1", "kind is missing or not a string")
	}
	switch kind {
	case "indexed8":
		k.Kind = KindIndexed8
	case "indexed32":
		k.Kind = KindIndexed32
	case "list16":
		k.Kind = KindList16
	case "indexedNoNull8":
		k.Kind = KindIndexedNoNull8
	default:
		return nil, schemaErr(name, -1, "V1", "kind %q is not indexed8, indexed32, list16 or indexedNoNull8", kind)
	}
	class, ok := jsonString(rk.Class)
	if !ok {
		return nil, schemaErr(name, -1, "V1", "class is missing or not a string")
	}
	switch class {
	case "hot":
		k.Class = ClassHot
	case "event":
		k.Class = ClassEvent
	default:
		return nil, schemaErr(name, -1, "V1", "class %q is not hot or event", class)
	}
	if !isNull(rk.Fields) {
		var fields []json.RawMessage
		if err := json.Unmarshal(rk.Fields, &fields); err != nil {
			return nil, schemaErr(name, -1, "V3", "fields is not an array")
		}
		if len(fields) > MaxKeyFields {
			return nil, schemaErr(name, -1, "limit", "%d fields, the limit is %d", len(fields), MaxKeyFields)
		}
		for i, fr := range fields {
			f, err := parseField(name, i, fr)
			if err != nil {
				return nil, err
			}
			k.Fields = append(k.Fields, f)
		}
	}
	if !isNull(rk.OptionalFrom) {
		of, ok := jsonUint(rk.OptionalFrom, 1<<31)
		if !ok {
			return nil, schemaErr(name, -1, "V3", "optionalFrom %s is not a non-negative integer", bytes.TrimSpace(rk.OptionalFrom))
		}
		if of == 0 || of >= uint64(len(k.Fields)) {
			return nil, schemaErr(name, -1, "V5", "optionalFrom %d is outside 1..%d", of, len(k.Fields)-1)
		}
		k.OptionalFrom = int(of)
	}
	if err := checkRoles(k); err != nil {
		return nil, err
	}
	k.interpolated = k.Class == ClassHot && (k.Kind == KindIndexed8 || k.Kind == KindIndexedNoNull8)
	k.lerped = make([]Interp, len(k.Fields))
	k.types = make([]FieldType, len(k.Fields))
	k.wideAt = make([]int, len(k.Fields))
	for i, f := range k.Fields {
		k.wideAt[i] = -1
		if f.Type == TypeU32 {
			k.wideAt[i] = k.wideN
			k.wideN++
		}
		if k.interpolated && f.Type == TypeF32 {
			k.lerped[i] = f.Interp
		}
		k.types[i] = f.Type
		k.fullBytes += f.Type.size()
		if k.OptionalFrom == 0 || i < k.OptionalFrom {
			k.headBytes += f.Type.size()
		}
	}
	k.compilePlan()
	return k, nil
}

func parseField(key string, i int, raw json.RawMessage) (Field, error) {
	var f Field
	if !isJSONObject(raw) {
		return f, schemaErr(key, i, "V2", "field is not an object")
	}
	var rf rawField
	if err := json.Unmarshal(raw, &rf); err != nil {
		return f, schemaErr(key, i, "V2", "field is malformed: %v", err)
	}
	name, ok := jsonString(rf.Name)
	if !ok {
		return f, schemaErr(key, i, "V2", "name is missing or not a string")
	}
	f.Name = name
	ty, ok := jsonString(rf.Ty)
	if !ok {
		return f, schemaErr(key, i, "V2", "ty is missing or not a string")
	}
	switch ty {
	case "f32":
		f.Type = TypeF32
	case "u8":
		f.Type = TypeU8
	case "u16":
		f.Type = TypeU16
	case "u32":
		f.Type = TypeU32
	default:
		return f, schemaErr(key, i, "V2", "ty %q is not f32, u8, u16 or u32", ty)
	}
	if !isNull(rf.Interp) {
		in, ok := jsonString(rf.Interp)
		switch {
		case !ok:
			return f, schemaErr(key, i, "V2", "interp is not a string")
		case in == "lerp":
			f.Interp = InterpLerp
		case in == "lerpAngle":
			f.Interp = InterpLerpAngle
		case in == "discrete":
			f.Interp = InterpDiscrete
		default:
			return f, schemaErr(key, i, "V2", "interp %q is not lerp, lerpAngle or discrete", in)
		}
	}
	if !isNull(rf.Role) {
		r, ok := jsonString(rf.Role)
		switch {
		case !ok:
			return f, schemaErr(key, i, "V6a", "role is not a string")
		case r == "z":
			f.Role = RoleZ
		case r == "level":
			f.Role = RoleLevel
		case r == "state":
			f.Role = RoleState
		default:
			return f, schemaErr(key, i, "V6a", "role %q is not z, level or state", r)
		}
	}
	return f, nil
}

// checkRoles applies the placement rules of the map-dynamics roles: layered
// rows are [x, y, angle, z, level, state?, tail...], flat rows [x, y, angle,
// state?, tail...], and the state byte must precede the optional tail.
func checkRoles(k *KeySchema) error {
	zAt, levelAt, stateAt := -1, -1, -1
	for i, f := range k.Fields {
		switch f.Role {
		case RoleZ:
			if zAt >= 0 {
				return schemaErr(k.Name, i, "V6b", "role z is declared twice")
			}
			zAt = i
		case RoleLevel:
			if levelAt >= 0 {
				return schemaErr(k.Name, i, "V6b", "role level is declared twice")
			}
			levelAt = i
		case RoleState:
			if stateAt >= 0 {
				return schemaErr(k.Name, i, "V6d", "role state is declared twice")
			}
			stateAt = i
		}
	}
	if (zAt >= 0) != (levelAt >= 0) {
		return schemaErr(k.Name, -1, "V6b", "roles z and level must be declared together")
	}
	layered := zAt >= 0
	if layered && zAt != 3 {
		return schemaErr(k.Name, zAt, "V6b", "role z must be at index 3")
	}
	if layered && levelAt != 4 {
		return schemaErr(k.Name, levelAt, "V6b", "role level must be at index 4")
	}
	if len(k.Fields) > 4 && k.Fields[3].Name == "z" && k.Fields[4].Name == "level" && !layered {
		return schemaErr(k.Name, 3, "V6c", "fields named z and level at indices 3 and 4 must declare roles z and level")
	}
	if stateAt >= 0 {
		want := 3
		if layered {
			want = 5
		}
		if k.Fields[stateAt].Type != TypeU8 {
			return schemaErr(k.Name, stateAt, "V6d", "role state must be of type u8, not %s", k.Fields[stateAt].Type)
		}
		if stateAt != want {
			return schemaErr(k.Name, stateAt, "V6d", "role state must be at index %d", want)
		}
		if k.OptionalFrom != 0 && k.OptionalFrom <= stateAt {
			return schemaErr(k.Name, stateAt, "V6e", "optionalFrom %d must lie after the state field", k.OptionalFrom)
		}
	}
	return nil
}
