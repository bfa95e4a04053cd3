// Package coreview is the renderer's view of the client core's output: the
// per-tick hot data, the event frames and the snapshot schema. The types
// mirror package clientcore field for field so the renderer can be built and
// tested without it; the wiring converts nothing, it only hands these over.
package coreview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Kind is a snapshot block kind.
type Kind uint8

// Block kinds.
const (
	KindIndexed8 Kind = iota
	KindIndexed32
	KindList16
	KindIndexedNoNull8
)

// HotFlags are the hot data flags (clientcore.md §6.3).
type HotFlags uint32

// Hot flags.
const (
	HotGame      HotFlags = 1
	HotCamera    HotFlags = 2
	HotPredicted HotFlags = 4
	HotFrames    HotFlags = 8
)

// Record is one hot record.
type Record struct {
	KeyID  uint8
	Key    string
	ID     uint32
	Fields []float32
}

// Hot is one tick's hot data; valid until the next call into the core.
type Hot struct {
	Flags    HotFlags
	Camera   [2]float32
	Actors   []Record
	Dynamics []Record
	Tail     []Record
}

// Camera is an event frame's camera.
type Camera struct {
	X, Y       float64
	ForceReset bool
	Shake      string
}

// EventRow is one row of an event block; Null removes the entity.
type EventRow struct {
	ID     uint32
	Null   bool
	Fields []float64
}

// EventBlock is one key's rows in an event frame.
type EventBlock struct {
	KeyID uint8
	Key   string
	Kind  Kind
	Rows  []EventRow
}

// EventFrame is one crossed frame, emitted exactly once.
type EventFrame struct {
	Blocks    []EventBlock
	Camera    Camera
	HasCamera bool
}

// Source is what the render loop needs from the core each tick.
type Source interface {
	Sample(localNowMs float64) *Hot
	TakeFrames() []EventFrame
	MyGameID() (uint8, bool)
}

// KeySchema is one snapshot key as the renderer needs it.
type KeySchema struct {
	Name   string
	ID     uint8
	Kind   Kind
	Hot    bool
	Fields []string
}

// Schema is the snapshot schema in wire order.
type Schema struct {
	Keys []KeySchema
}

// Key returns the key named name, or nil.
func (s *Schema) Key(name string) *KeySchema {
	for i := range s.Keys {
		if s.Keys[i].Name == name {
			return &s.Keys[i]
		}
	}
	return nil
}

// ParseSchema reads the CONFIG_DATA "snapshot" keys object (or the
// {"version","port","keys"} form), keeping key order. It validates only what
// the renderer relies on; the core does the full validation.
func ParseSchema(raw []byte) (*Schema, error) {
	var wrapped struct {
		Keys json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(raw, &wrapped); err == nil && len(wrapped.Keys) > 0 && wrapped.Keys[0] == '{' {
		raw = wrapped.Keys
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("schema: not an object")
	}
	s := &Schema{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("schema: %w", err)
		}
		name, _ := kt.(string)
		var k struct {
			ID     *int   `json:"id"`
			Kind   string `json:"kind"`
			Class  string `json:"class"`
			Fields []struct {
				Name string `json:"name"`
			} `json:"fields"`
		}
		if err := dec.Decode(&k); err != nil {
			return nil, fmt.Errorf("schema key %q: %w", name, err)
		}
		if k.ID == nil || *k.ID < 0 || *k.ID > 255 {
			return nil, fmt.Errorf("schema key %q: bad id", name)
		}
		ks := KeySchema{Name: name, ID: uint8(*k.ID), Hot: k.Class == "hot"}
		switch k.Kind {
		case "indexed8":
			ks.Kind = KindIndexed8
		case "indexed32":
			ks.Kind = KindIndexed32
		case "list16":
			ks.Kind = KindList16
		case "indexedNoNull8":
			ks.Kind = KindIndexedNoNull8
		default:
			return nil, fmt.Errorf("schema key %q: unknown kind %q", name, k.Kind)
		}
		if len(k.Fields) > 255 || len(s.Keys) >= 256 {
			return nil, fmt.Errorf("schema key %q: too large", name)
		}
		for _, f := range k.Fields {
			ks.Fields = append(ks.Fields, f.Name)
		}
		s.Keys = append(s.Keys, ks)
	}
	return s, nil
}
