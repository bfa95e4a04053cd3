package parts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"vimpclient/clientcore"
	"vimpclient/snapschema"
)

// Limits on a FIRST_SHOT_DATA snapshot.
const (
	maxFirstShotBytes = 4 << 20
	maxFirstShotRows  = 1 << 14
)

// ParseFirstShot reads FIRST_SHOT_DATA `[gameSnapshot, camera, serverTime,
// seq]` (the first snapshot after a map is ready) into an event frame the scene can apply. Only
// the object-of-objects snapshot shape is rendered; any other shape yields
// an empty frame. Keys the schema does not know are skipped; rows may be
// narrower than the schema. A camera array [x, y, reset?, shake?] is kept.
func ParseFirstShot(schema *clientcore.Schema, raw []byte) (*clientcore.EventFrame, error) {
	if len(raw) > maxFirstShotBytes {
		return nil, fmt.Errorf("first shot: %d bytes", len(raw))
	}
	var msg []json.RawMessage
	if err := json.Unmarshal(raw, &msg); err != nil {
		return nil, fmt.Errorf("first shot: %w", err)
	}
	if len(msg) < 1 {
		return nil, errors.New("first shot: empty message")
	}
	var camera json.RawMessage
	if len(msg) > 1 {
		camera = msg[1]
	}
	return ParseFirstShotGame(schema, msg[0], camera)
}

// ParseFirstShotGame is ParseFirstShot for a message already split into its
// game snapshot and camera.
func ParseFirstShotGame(schema *clientcore.Schema, gameRaw, camera json.RawMessage) (*clientcore.EventFrame, error) {
	if len(gameRaw)+len(camera) > maxFirstShotBytes {
		return nil, fmt.Errorf("first shot: %d bytes", len(gameRaw)+len(camera))
	}
	f := &clientcore.EventFrame{}
	if len(camera) > 0 {
		var cam []json.RawMessage
		if json.Unmarshal(camera, &cam) == nil && len(cam) >= 2 {
			var x, y float64
			if json.Unmarshal(cam[0], &x) == nil && json.Unmarshal(cam[1], &y) == nil {
				f.HasCamera = true
				f.Camera.X, f.Camera.Y = float32(x), float32(y)
				if len(cam) > 2 {
					var reset bool
					f.Camera.ForceReset = json.Unmarshal(cam[2], &reset) == nil && reset
				}
				if len(cam) > 3 {
					var shake string
					if json.Unmarshal(cam[3], &shake) == nil {
						f.Camera.HasShake, f.Camera.Shake = true, []byte(shake)
					}
				}
			}
		}
	}
	game := bytes.TrimSpace(gameRaw)
	if len(game) == 0 || game[0] != '{' {
		return f, nil // arrays, scalars, null: not rendered
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(game, &keys); err != nil {
		return nil, fmt.Errorf("first shot: %w", err)
	}
	for _, v := range keys {
		if v = bytes.TrimSpace(v); len(v) == 0 || v[0] != '{' {
			return f, nil // not object-of-objects: not rendered
		}
	}
	rows := 0
	for _, k := range schema.Keys {
		if k == nil {
			continue
		}
		v, ok := keys[k.Name]
		if !ok || k.Kind == snapschema.KindList16 {
			continue
		}
		var byID map[string]json.RawMessage
		if err := json.Unmarshal(v, &byID); err != nil {
			return nil, fmt.Errorf("first shot key %s: %w", k.Name, err)
		}
		blk := clientcore.Block{Schema: k}
		for ids, rv := range byID {
			id, ok := parseRowID(k.Kind, ids)
			if !ok {
				continue
			}
			if rows++; rows > maxFirstShotRows {
				return nil, errors.New("first shot: too many rows")
			}
			row := clientcore.Row{ID: id}
			if string(bytes.TrimSpace(rv)) == "null" {
				row.Null = true
			} else {
				var vals []any
				if err := json.Unmarshal(rv, &vals); err != nil {
					continue
				}
				row.Fields = make([]float32, len(k.Fields))
				for i := 0; i < len(vals) && i < len(k.Fields); i++ {
					switch x := vals[i].(type) {
					case float64:
						row.Fields[i] = float32(x)
					case bool:
						if x {
							row.Fields[i] = 1
						}
					}
				}
			}
			blk.Rows = append(blk.Rows, row)
		}
		f.Blocks = append(f.Blocks, blk)
	}
	return f, nil
}

// parseRowID reads a JSON-form row id: decimal (indexed8), base 36
// (indexed32) or "d<i>" (indexedNoNull8).
func parseRowID(kind snapschema.Kind, s string) (uint32, bool) {
	var v uint64
	var err error
	switch kind {
	case snapschema.KindIndexed32:
		v, err = strconv.ParseUint(s, 36, 32)
	case snapschema.KindIndexedNoNull8:
		rest, ok := strings.CutPrefix(s, "d")
		if !ok {
			return 0, false
		}
		v, err = strconv.ParseUint(rest, 10, 8)
	default:
		v, err = strconv.ParseUint(s, 10, 8)
	}
	if err != nil || v > math.MaxUint32 {
		return 0, false
	}
	return uint32(v), true
}
