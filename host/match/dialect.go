package match

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"vimpclient/internal/jsonobj"
)

// The match speaks one of two dialects, chosen by its maps.
//
// The real one (config.json as it is) is what a tanks 0.13 host on the
// 0.14 engine sends: an 11-field tank row and a 6-field crate row with no
// roles, no level fields in MAP_DATA, no prediction.mapFallTime. The
// rotation of the generated flat maps speaks it.
//
// The 2.5D dialect of the newer engine is the real one with the layered
// fields added: z and level with their engine roles after the angle of the
// tank row and in the crate row's mandatory head (optionalFrom moves past
// them), where the engine's rules place the roles; the fall time per level in prediction.mapFallTime and the
// bomb's ammunition use in weapons.w2.consumption. Only a match pinned to
// a layered map (bridge) sends it, since one CONFIG_DATA serves every map
// of a connection.

// configData is the CONFIG_DATA a match sends: a game's own verbatim
// (compacted), else the built-in one of the match's dialect with the
// host's vote time; the 0.13 one in the 2.5D dialect when the first map is
// layered (today's tanks has its levels in every row already).
func configData(cfg *Config, first *Map) ([]byte, error) {
	var b bytes.Buffer
	if cfg.Game != nil {
		if err := json.Compact(&b, cfg.Game.Config); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	base := config022JSON
	switch cfg.Dialect {
	case "", Dialect022:
	case Dialect013:
		base = configJSON
	default:
		return nil, fmt.Errorf("no dialect %q (there are %v)", cfg.Dialect, Dialects())
	}
	// The vote window the client shows is the host's vote time; the
	// object is patched as text so every key keeps its declared order.
	text := bytes.Replace(base, []byte(`"time": 10000`), []byte(`"time": `+strconv.Itoa(cfg.VoteSeconds*1000)), 1)
	if err := json.Compact(&b, text); err != nil {
		return nil, err
	}
	if cfg.Dialect == Dialect013 && first.layered() {
		return layeredConfig(b.Bytes())
	}
	return b.Bytes(), nil
}

// Layered fields, in the form config.json writes fields.
const (
	// layeredFields are the height and level of a tank or crate row, by
	// their engine roles.
	layeredFields = `[{"name":"z","ty":"f32","interp":"lerp","role":"z"},{"name":"level","ty":"u8","role":"level"}]`
	// layeredAfter is the row field the layered fields follow: the roles
	// z and level sit at indices 3 and 4, after x, y and angle.
	layeredAfter = "angle"
	// layeredFallTime is the fall time per level (seconds) the layered
	// dialect announces; the match steps its falls with it.
	layeredFallTime = `0.35`
)

// maxConfigMembers bounds the members of any object the patch reads (the
// config is the match's own; the bound only keeps the reader honest).
const maxConfigMembers = 64

// layeredConfig returns the 2.5D dialect of a real-dialect CONFIG_DATA.
// Members keep their order; the added ones go at the end of their object.
func layeredConfig(real []byte) ([]byte, error) {
	out := json.RawMessage(real)
	var err error
	edits := []struct {
		path []string
		fn   func(json.RawMessage) (json.RawMessage, error)
	}{
		{[]string{"snapshot", "m1", "fields"}, func(f json.RawMessage) (json.RawMessage, error) {
			return spliceFields(f, layeredAfter, layeredFields)
		}},
		{[]string{"snapshot", "c1", "fields"}, func(f json.RawMessage) (json.RawMessage, error) {
			return spliceFields(f, layeredAfter, layeredFields)
		}},
		{[]string{"snapshot", "c1", "optionalFrom"}, func(v json.RawMessage) (json.RawMessage, error) {
			var of int
			if err := json.Unmarshal(v, &of); err != nil {
				return nil, err
			}
			var added []json.RawMessage
			if err := json.Unmarshal([]byte(layeredFields), &added); err != nil {
				return nil, err
			}
			return json.RawMessage(fmt.Sprint(of + len(added))), nil
		}},
		{[]string{"prediction", "mapFallTime"}, func(json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(layeredFallTime), nil
		}},
		{[]string{"prediction", "weapons", "w2", "consumption"}, func(json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`1`), nil
		}},
	}
	for _, e := range edits {
		if out, err = editPath(out, e.path, e.fn); err != nil {
			return nil, fmt.Errorf("layered config: %v: %w", e.path, err)
		}
	}
	return out, nil
}

// editPath replaces the value at path (object member names) by fn's
// answer; fn gets nil for a member that is not there yet (it is added at
// the end of its object). Every object on the way must exist.
func editPath(obj json.RawMessage, path []string, fn func(json.RawMessage) (json.RawMessage, error)) (json.RawMessage, error) {
	members, err := jsonobj.Unique(obj, maxConfigMembers)
	if err != nil {
		return nil, err
	}
	at := -1
	for i, m := range members {
		if m.Name == path[0] {
			at = i
		}
	}
	if at < 0 {
		if len(path) > 1 {
			return nil, fmt.Errorf("no member %q", path[0])
		}
		members = append(members, jsonobj.Member{Name: path[0]})
		at = len(members) - 1
	}
	var v json.RawMessage
	if len(path) == 1 {
		v, err = fn(members[at].Value)
	} else {
		v, err = editPath(members[at].Value, path[1:], fn)
	}
	if err != nil {
		return nil, err
	}
	members[at].Value = v
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.Name)
		b.Write(name)
		b.WriteByte(':')
		if err := json.Compact(&b, m.Value); err != nil {
			return nil, fmt.Errorf("member %q: %w", m.Name, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// spliceFields inserts the fields of added (a JSON array) after the field
// named after.
func spliceFields(fields json.RawMessage, after, added string) (json.RawMessage, error) {
	var list, extra []json.RawMessage
	if err := json.Unmarshal(fields, &list); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(added), &extra); err != nil {
		return nil, err
	}
	at := -1
	for i, f := range list {
		var named struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(f, &named) == nil && named.Name == after {
			at = i + 1
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("no field %q", after)
	}
	list = append(list[:at], append(extra, list[at:]...)...)
	return json.Marshal(list)
}
