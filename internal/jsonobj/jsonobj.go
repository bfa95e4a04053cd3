// Package jsonobj reads JSON objects whose member order matters (Go maps lose
// it): snapshot schemas, weapon catalogs.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Member is one name and its raw value.
type Member struct {
	Name  string
	Value json.RawMessage
}

// ErrNotObject: the value is not a JSON object.
var ErrNotObject = errors.New("not an object")

// Members returns the members of a JSON object in document order. A repeated
// name keeps its first position and its last value, as JSON parsers that
// keep insertion order do. Absent or null is no members. limit > 0 refuses an
// object with more distinct members than that.
func Members(raw json.RawMessage, limit int) ([]Member, error) {
	return members(raw, limit, false)
}

// Unique is Members for objects whose repeated names are a mistake worth
// refusing (a catalog where the second entry would silently win).
func Unique(raw json.RawMessage, limit int) ([]Member, error) {
	return members(raw, limit, true)
}

func members(raw json.RawMessage, limit int, unique bool) ([]Member, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, ErrNotObject
	}
	var out []Member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		replaced := false
		for i := range out {
			if out[i].Name == name {
				if unique {
					return nil, fmt.Errorf("repeated member %q", name)
				}
				out[i].Value, replaced = v, true
			}
		}
		if replaced {
			continue
		}
		if limit > 0 && len(out) == limit {
			return nil, fmt.Errorf("more than %d members", limit)
		}
		out = append(out, Member{name, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}
