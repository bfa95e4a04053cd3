package clientcore

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"vimpclient/snapschema"
)

type vecVerdict struct {
	Unpack            string `json:"unpack"`
	PushFrame         string `json:"pushFrame"`
	Reason            string `json:"reason"`
	DecodeFrameIsNull bool   `json:"decodeFrameIsNull"`
}

type vecCamera struct {
	X, Y       string
	ForceReset bool
	Shake      *string
}

type vecPlayer struct {
	Centering bool
	GameID    uint8 `json:"gameId"`
	InputSeq  uint32
	State     []string
}

type vecBlock struct {
	Key   string
	KeyID uint8 `json:"keyId"`
	Kind  string
	Rows  []json.RawMessage
}

type vecDecoded struct {
	Port       uint8
	Seq        uint32
	ServerTime string
	Camera     *vecCamera
	Player     *vecPlayer
	Blocks     []vecBlock
}

type vecCase struct {
	ID              string
	Label           string
	Bin             string
	BytesHex        string `json:"bytesHex"`
	Verdict         vecVerdict
	Decoded         *vecDecoded
	DecodedJSONText *string `json:"decodedJsonText"`
}

// verdictOf names a decode outcome the way the vectors do.
func verdictOf(f *Frame, err error) (unpack, reason string) {
	switch {
	case errors.Is(err, ErrWrongVersion):
		return "wrongVersion", "wrongVersion"
	case err != nil:
		return "truncated", "truncated"
	case f.Port != FramePort:
		return "ok", "wrongPort"
	}
	return "ok", "ok"
}

// checkDecoded compares a decoded frame with the vector's typed form.
func checkDecoded(t *testing.T, where string, s *Schema, f *Frame, want *vecDecoded) {
	t.Helper()
	if f.Port != want.Port || f.Seq != want.Seq || !sameF64(f.ServerTime, bits64(t, want.ServerTime)) {
		t.Errorf("%s: header port %d seq %d time %v, want %d %d %s", where, f.Port, f.Seq, f.ServerTime, want.Port, want.Seq, want.ServerTime)
	}
	if (want.Camera != nil) != f.HasCamera {
		t.Errorf("%s: hasCamera %v, want %v", where, f.HasCamera, want.Camera != nil)
	} else if c := want.Camera; c != nil {
		if !sameF32(f.Camera.X, bits32(t, c.X)) || !sameF32(f.Camera.Y, bits32(t, c.Y)) || f.Camera.ForceReset != c.ForceReset {
			t.Errorf("%s: camera %+v, want %+v", where, f.Camera, c)
		}
		if (c.Shake != nil) != f.Camera.HasShake || (c.Shake != nil && *c.Shake != f.Camera.ShakeText()) {
			t.Errorf("%s: shake %q (%v), want %v", where, f.Camera.ShakeText(), f.Camera.HasShake, c.Shake)
		}
	}
	if (want.Player != nil) != f.HasPlayer {
		t.Errorf("%s: hasPlayer %v, want %v", where, f.HasPlayer, want.Player != nil)
	} else if p := want.Player; p != nil {
		if f.Player.GameID != p.GameID || f.Player.LastInputSeq != p.InputSeq || f.Player.Centering != p.Centering {
			t.Errorf("%s: player %+v, want %+v", where, f.Player, p)
		}
		for i, sb := range p.State {
			if !sameF32(f.Player.State[i], bits32(t, sb)) {
				t.Errorf("%s: player state[%d] %v, want %s", where, i, f.Player.State[i], sb)
			}
		}
	}
	if len(f.Blocks) != len(want.Blocks) {
		t.Errorf("%s: %d blocks, want %d", where, len(f.Blocks), len(want.Blocks))
		return
	}
	for bi, wb := range want.Blocks {
		gb := &f.Blocks[bi]
		k := gb.Schema
		if k.Name != wb.Key || k.ID != wb.KeyID || k.Kind.String() != wb.Kind {
			t.Errorf("%s block %d: %s/%d/%s, want %s/%d/%s", where, bi, k.Name, k.ID, k.Kind, wb.Key, wb.KeyID, wb.Kind)
			continue
		}
		if len(gb.Rows) != len(wb.Rows) {
			t.Errorf("%s block %s: %d rows, want %d", where, k.Name, len(gb.Rows), len(wb.Rows))
			continue
		}
		for ri, raw := range wb.Rows {
			row := &gb.Rows[ri]
			at := where + " " + k.Name + " row " + RowIDString(k.Kind, row.ID)
			if k.Kind == snapschema.KindList16 {
				var fields []any
				if err := json.Unmarshal(raw, &fields); err != nil {
					t.Fatal(err)
				}
				checkFields(t, at, k, row, fields)
				continue
			}
			var pair []json.RawMessage
			if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
				t.Fatalf("%s: bad row %s", at, raw)
			}
			var id uint32
			if err := json.Unmarshal(pair[0], &id); err != nil {
				t.Fatal(err)
			}
			if row.ID != id {
				t.Errorf("%s: id %d, want %d", at, row.ID, id)
			}
			if string(pair[1]) == "null" {
				if !row.Null {
					t.Errorf("%s: row present, want null", at)
				}
				continue
			}
			if row.Null {
				t.Errorf("%s: null, want a row", at)
				continue
			}
			var fields []any
			if err := json.Unmarshal(pair[1], &fields); err != nil {
				t.Fatal(err)
			}
			checkFields(t, at, k, row, fields)
		}
	}
}

// checkCase decodes one vector and compares verdict, typed form and JSON text.
func checkCase(t *testing.T, s *Schema, dec *Decoder, f *Frame, where string, b []byte, c *vecCase) {
	t.Helper()
	err := dec.Decode(b, f)
	unpack, reason := verdictOf(f, err)
	if unpack != c.Verdict.Unpack || reason != c.Verdict.Reason {
		t.Errorf("%s (%s): verdict %s/%s (%v), want %s/%s", where, c.Label, unpack, reason, err, c.Verdict.Unpack, c.Verdict.Reason)
		return
	}
	if err != nil {
		return
	}
	if c.Decoded != nil {
		checkDecoded(t, where, s, f, c.Decoded)
	}
	if c.DecodedJSONText != nil && *c.DecodedJSONText != "null" {
		checkJSONText(t, where, f.AppendJSON(nil), *c.DecodedJSONText)
	}
}

func TestFramesConformance(t *testing.T) {
	conf := conformanceDir(t)
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		t.Run(name, func(t *testing.T) {
			var file struct {
				SchemaFile string
				Cases      []vecCase
			}
			readJSON(t, filepath.Join(conf, "frames", name+".json"), &file)
			s := loadSchema(t, conf, file.SchemaFile)
			dec := NewDecoder(s)
			var f Frame
			for i := range file.Cases {
				c := &file.Cases[i]
				b, err := os.ReadFile(filepath.Join(conf, c.Bin))
				if err != nil {
					t.Fatal(err)
				}
				checkCase(t, s, dec, &f, c.ID, b, c)
				conformanceCounts.frames.Add(1)
			}
		})
	}
}

func TestInvalidConformance(t *testing.T) {
	conf := conformanceDir(t)
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		t.Run(name, func(t *testing.T) {
			var file struct {
				Base            vecCase
				Cases           []vecCase
				TruncationSweep struct {
					Base     string
					Prefixes []struct {
						Len             int
						At              string
						Unpack          string
						PushFrame       string
						Reason          string
						Decoded         *vecDecoded
						DecodedJSONText *string `json:"decodedJsonText"`
					}
				}
			}
			readJSON(t, filepath.Join(conf, "invalid", name+".json"), &file)
			schemaFile := "schemas/" + name + ".json"
			s := loadSchema(t, conf, schemaFile)
			dec := NewDecoder(s)
			var f Frame
			for i := range file.Cases {
				c := &file.Cases[i]
				checkCase(t, s, dec, &f, c.ID, mustHex(t, c.BytesHex), c)
				conformanceCounts.invalid.Add(1)
			}
			base, err := os.ReadFile(filepath.Join(conf, file.TruncationSweep.Base))
			if err != nil {
				t.Fatal(err)
			}
			if len(file.TruncationSweep.Prefixes) != len(base)+1 {
				t.Fatalf("sweep has %d prefixes for a %d-byte base", len(file.TruncationSweep.Prefixes), len(base))
			}
			for _, p := range file.TruncationSweep.Prefixes {
				c := vecCase{Label: p.At, Verdict: vecVerdict{Unpack: p.Unpack, Reason: p.Reason}, Decoded: p.Decoded, DecodedJSONText: p.DecodedJSONText}
				checkCase(t, s, dec, &f, name+" prefix "+strings.TrimSpace(p.At), base[:p.Len], &c)
				conformanceCounts.prefixes.Add(1)
			}
		})
	}
}
