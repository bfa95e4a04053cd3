package snapschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"vimpclient/internal/jsonobj"
)

// Error names the key (and field) a schema rule rejected.
type Error struct {
	Key   string // "" for errors about the whole schema
	Field int    // -1 when the error is not about one field
	Rule  string // the rule, e.g. "V4"
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
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
	MaxBytes     = 256 << 10
	MaxKeyFields = 256
)

func schemaErr(key string, field int, rule, format string, args ...any) error {
	return &Error{Key: key, Field: field, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// Parse parses and validates a snapshot schema; every error is an *Error.
// It accepts the bare keys object that CONFIG_DATA.snapshot carries, and
// the wrapper form {"version": 5, "port": 5, "keys": {...}} used by the
// engine's own config files (recognised only when version and port are
// numbers and keys is an object; the wrapper's version and port must then
// be 5).
//
// The schema comes from the network: a text longer than MaxBytes, or a key
// with more than MaxKeyFields fields, is refused before anything is built
// from it, and every rule of the engine's schema validation is applied.
func Parse(raw []byte) (*Schema, error) {
	if len(raw) > MaxBytes {
		return nil, schemaErr("", -1, "limit", "%d bytes, the limit is %d", len(raw), MaxBytes)
	}
	keys, err := unwrap(raw)
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
	s := &Schema{byName: make(map[string]*Key, len(entries))}
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

func unwrap(raw []byte) (json.RawMessage, error) {
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

// enumRule is how one enum member of an entry is read: the rule that
// rejects it, what it is called and the names it may take.
type enumRule struct {
	rule, what string
	names      []string
	optional   bool // absent or null reads as the zero value
}

// parse reads raw as one of r.names and returns its index. A member that
// is missing (unless optional), not a string or not one of the names is
// refused under r.rule.
func (r enumRule) parse(key string, field int, raw json.RawMessage) (uint8, error) {
	if r.optional && isNull(raw) {
		return 0, nil
	}
	s, ok := jsonString(raw)
	if !ok {
		if r.optional {
			return 0, schemaErr(key, field, r.rule, "%s is not a string", r.what)
		}
		return 0, schemaErr(key, field, r.rule, "%s is missing or not a string", r.what)
	}
	var legal []string
	for i, n := range r.names {
		if n == "" {
			continue
		}
		if n == s {
			return uint8(i), nil
		}
		legal = append(legal, n)
	}
	return 0, schemaErr(key, field, r.rule, "%s %q is not %s or %s", r.what, s,
		strings.Join(legal[:len(legal)-1], ", "), legal[len(legal)-1])
}

var (
	kindRule   = enumRule{rule: "V1", what: "kind", names: kindNames[:]}
	classRule  = enumRule{rule: "V1", what: "class", names: classNames[:]}
	typeRule   = enumRule{rule: "V2", what: "ty", names: typeNames[:]}
	interpRule = enumRule{rule: "V2", what: "interp", names: interpNames[:], optional: true}
	roleRule   = enumRule{rule: "V6a", what: "role", names: roleNames[:], optional: true}
)

func parseKey(name string, raw json.RawMessage) (*Key, error) {
	if !isJSONObject(raw) {
		return nil, schemaErr(name, -1, "V3", "entry is not an object")
	}
	var rk rawKey
	if err := json.Unmarshal(raw, &rk); err != nil {
		return nil, schemaErr(name, -1, "V3", "entry is malformed: %v", err)
	}
	k := &Key{Name: name}
	if isNull(rk.ID) {
		return nil, schemaErr(name, -1, "V1", "id is missing")
	}
	id, ok := jsonUint(rk.ID, 255)
	if !ok {
		return nil, schemaErr(name, -1, "V1", "id %s is not an integer in 0..255", bytes.TrimSpace(rk.ID))
	}
	k.ID = uint8(id)
	kind, err := kindRule.parse(name, -1, rk.Kind)
	if err != nil {
		return nil, err
	}
	k.Kind = Kind(kind)
	class, err := classRule.parse(name, -1, rk.Class)
	if err != nil {
		return nil, err
	}
	k.Class = Class(class)
	if !isNull(rk.Fields) {
		var fields []json.RawMessage
		if err := json.Unmarshal(rk.Fields, &fields); err != nil {
			return nil, schemaErr(name, -1, "V3", "fields is not an array")
		}
		if len(fields) > MaxKeyFields {
			return nil, schemaErr(name, -1, "limit", "%d fields, the limit is %d", len(fields), MaxKeyFields)
		}
		k.Fields = make([]Field, 0, len(fields))
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
	ty, err := typeRule.parse(key, i, rf.Ty)
	if err != nil {
		return f, err
	}
	in, err := interpRule.parse(key, i, rf.Interp)
	if err != nil {
		return f, err
	}
	role, err := roleRule.parse(key, i, rf.Role)
	if err != nil {
		return f, err
	}
	f.Type, f.Interp, f.Role = FieldType(ty), Interp(in), Role(role)
	return f, nil
}

// checkRoles applies the placement rules of the map-dynamics roles: layered
// rows are [x, y, angle, z, level, state?, tail...], flat rows [x, y, angle,
// state?, tail...], and the state byte must precede the optional tail.
func checkRoles(k *Key) error {
	at := [len(roleNames)]int{-1, -1, -1, -1}
	for i, f := range k.Fields {
		if f.Role == RoleNone {
			continue
		}
		if at[f.Role] >= 0 {
			rule := "V6b"
			if f.Role == RoleState {
				rule = "V6d"
			}
			return schemaErr(k.Name, i, rule, "role %s is declared twice", f.Role)
		}
		at[f.Role] = i
	}
	zAt, levelAt, stateAt := at[RoleZ], at[RoleLevel], at[RoleState]
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
