package packer

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"vimpclient/snapschema"
	"vimpclient/testkit/capturetest"
)

// sharedDir finds the engine's test data: testdata/ at the module root,
// or $VIMP_SHARED when set.
func sharedDir(t testing.TB) string { return capturetest.SharedDir(t) }

type confFile struct {
	Cases []confCase `json:"cases"`
}

type confCase struct {
	ID   string          `json:"id"`
	Bin  string          `json:"bin"`
	Tags []string        `json:"tags"`
	Pack json.RawMessage `json:"pack"`
}

type confPack struct {
	Seq        uint32 `json:"seq"`
	ServerTime string `json:"serverTime"`
	Camera     *struct {
		X, Y       string
		ForceReset bool
		Shake      *string
	} `json:"camera"`
	Player *struct {
		GameID    uint8    `json:"gameId"`
		InputSeq  uint32   `json:"inputSeq"`
		State     []string `json:"state"`
		Centering bool     `json:"centering"`
	} `json:"player"`
	Blocks []struct {
		Key  string            `json:"key"`
		Rows []json.RawMessage `json:"rows"`
	} `json:"blocks"`
}

func hexBits(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		t.Fatalf("bits %q: %v", s, err)
	}
	return v
}

// values turns a conformance field list (f32 as hex bits, integers as
// numbers) into packer values.
func values(t *testing.T, raw []json.RawMessage) []Value {
	t.Helper()
	out := make([]Value, len(raw))
	for i, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out[i] = Value(hexBits(t, s))
			continue
		}
		var n uint64
		if err := json.Unmarshal(r, &n); err != nil {
			t.Fatalf("field %s: %v", r, err)
		}
		out[i] = Value(n)
	}
	return out
}

func packCase(t *testing.T, s *snapschema.Schema, raw json.RawMessage) ([]byte, error) {
	t.Helper()
	var p confPack
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	var cam *Camera
	if p.Camera != nil {
		cam = &Camera{X: f32bits(hexBits(t, p.Camera.X)), Y: f32bits(hexBits(t, p.Camera.Y)), ForceReset: p.Camera.ForceReset}
		if p.Camera.Shake != nil {
			cam.Shake, cam.HasShake = *p.Camera.Shake, true
		}
	}
	var pl *Player
	if p.Player != nil {
		pl = &Player{GameID: p.Player.GameID, InputSeq: p.Player.InputSeq, Centering: p.Player.Centering}
		for i, b := range p.Player.State {
			pl.State[i] = f32bits(hexBits(t, b))
		}
	}
	var f Frame
	f.Start(p.Seq, f64bits(hexBits(t, p.ServerTime)), cam, pl)
	for _, b := range p.Blocks {
		k := s.Key(b.Key)
		if k == nil {
			t.Fatalf("unknown key %q", b.Key)
		}
		f.Block(k)
		for _, r := range b.Rows {
			if k.Kind == snapschema.KindList16 {
				var fields []json.RawMessage
				if err := json.Unmarshal(r, &fields); err != nil {
					t.Fatal(err)
				}
				f.ListRow(values(t, fields))
				continue
			}
			var pair []json.RawMessage
			if err := json.Unmarshal(r, &pair); err != nil || len(pair) != 2 {
				t.Fatalf("row %s: %v", r, err)
			}
			var id uint32
			if err := json.Unmarshal(pair[0], &id); err != nil {
				t.Fatal(err)
			}
			if string(pair[1]) == "null" {
				f.NullRow(id)
				continue
			}
			var fields []json.RawMessage
			if err := json.Unmarshal(pair[1], &fields); err != nil {
				t.Fatal(err)
			}
			f.Row(id, values(t, fields))
		}
	}
	return f.Bytes()
}

// TestConformanceFrames packs the packer input of every conformance frame
// and compares with the engine's own bytes. Cases where the engine's
// packer wraps a count or the shake length must be refused instead.
func TestConformanceFrames(t *testing.T) {
	root := filepath.Join(sharedDir(t), "conformance")
	for _, name := range []string{"tanks", "snakes", "synthetic"} {
		t.Run(name, func(t *testing.T) {
			schemaRaw, err := os.ReadFile(filepath.Join(root, "schemas", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := snapschema.Parse(schemaRaw)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join(root, "frames", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var cf confFile
			if err := json.Unmarshal(raw, &cf); err != nil {
				t.Fatal(err)
			}
			matched, refused := 0, 0
			for _, c := range cf.Cases {
				want, err := os.ReadFile(filepath.Join(root, c.Bin))
				if err != nil {
					t.Fatal(err)
				}
				got, err := packCase(t, s, c.Pack)
				if hasTag(c.Tags, "packer-overflow") {
					if !errors.Is(err, ErrCountOverflow) && !errors.Is(err, ErrShakeTooLong) {
						t.Errorf("%s: overflow not refused: err=%v", c.ID, err)
					}
					refused++
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", c.ID, err)
					continue
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: bytes differ\n got %x\nwant %x", c.ID, got, want)
					continue
				}
				matched++
			}
			if matched == 0 {
				t.Fatal("no case matched")
			}
			t.Logf("%s: %d frames byte-identical, %d overflow cases refused", name, matched, refused)
		})
	}
}

func hasTag(tags []string, tag string) bool {
	for _, x := range tags {
		if x == tag {
			return true
		}
	}
	return false
}
