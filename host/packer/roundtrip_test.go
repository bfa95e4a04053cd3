package packer

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/snapschema"
)

// TestRoundTripClientcore packs random tanks frames with this packer and
// decodes them with the client core: every value must come back exactly
// as the client rounds it (two decimals on every f32), every id, null and tail.
func TestRoundTripClientcore(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(sharedDir(t), "conformance", "schemas", "tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := snapschema.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := clientcore.ParseSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	dec := clientcore.NewDecoder(cs)
	rng := rand.New(rand.NewPCG(1, 2))
	f32 := func() float32 { return float32(rng.Float64()*4000 - 2000) }
	var fr Frame
	var out clientcore.Frame
	for iter := 0; iter < 300; iter++ {
		cam := &Camera{X: f32(), Y: f32(), ForceReset: rng.IntN(2) == 0}
		if rng.IntN(3) == 0 {
			cam.Shake = "20:200"
		}
		pl := &Player{GameID: uint8(rng.IntN(256)), InputSeq: rng.Uint32(), Centering: rng.IntN(2) == 0}
		for i := range pl.State {
			pl.State[i] = f32()
		}
		if rng.IntN(4) == 0 {
			cam, pl = nil, nil
		}
		seq, st := rng.Uint32(), float64(1.7e12)+rng.Float64()*1e9
		fr.Start(seq, st, cam, pl)
		type want struct {
			key  string
			id   uint32
			null bool
			vals []Value
		}
		var wants []want
		m1 := ps.Key("m1")
		fr.Block(m1)
		for id := 1; id <= 1+rng.IntN(16); id++ {
			if rng.IntN(8) == 0 {
				fr.NullRow(uint32(id))
				wants = append(wants, want{"m1", uint32(id), true, nil})
				continue
			}
			v := make([]Value, 11)
			for i := range v {
				v[i] = F(f32())
			}
			v[7], v[8], v[9] = I(uint32(rng.IntN(4))), I(2), I(uint32(1+rng.IntN(2)))
			fr.Row(uint32(id), v)
			wants = append(wants, want{"m1", uint32(id), false, v})
		}
		w2 := ps.Key("w2")
		fr.Block(w2)
		id32 := rng.Uint32()
		v := []Value{F(f32()), F(f32()), F(0), I(8), I(300), I(3)}
		fr.Row(id32, v)
		wants = append(wants, want{"w2", id32, false, v})
		c1 := ps.Key("c1")
		fr.Block(c1)
		for i := 0; i < 5; i++ {
			n := 3
			if rng.IntN(2) == 0 {
				n = 6
			}
			v := make([]Value, n)
			for j := range v {
				v[j] = F(f32())
			}
			fr.Row(uint32(i), v)
			wants = append(wants, want{"c1", uint32(i), false, v})
		}
		b, err := fr.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if err := dec.Decode(b, &out); err != nil {
			t.Fatalf("iteration %d: decode: %v", iter, err)
		}
		if out.Seq != seq || out.ServerTime != st || out.HasCamera != (cam != nil) || out.HasPlayer != (pl != nil) {
			t.Fatalf("header differs: %+v", out)
		}
		if cam != nil && (out.Camera.X != Round2(cam.X) || out.Camera.Y != Round2(cam.Y) || out.Camera.ForceReset != cam.ForceReset || out.Camera.ShakeText() != cam.Shake) {
			t.Fatalf("camera %+v, want %+v", out.Camera, cam)
		}
		if pl != nil && (out.Player.GameID != pl.GameID || out.Player.LastInputSeq != pl.InputSeq || out.Player.State != pl.State || out.Player.Centering != pl.Centering) {
			t.Fatalf("player %+v, want %+v", out.Player, pl)
		}
		k := 0
		for _, blk := range out.Blocks {
			for _, row := range blk.Rows {
				if k >= len(wants) {
					t.Fatal("more rows decoded than packed")
				}
				w := wants[k]
				k++
				if blk.Key() != w.key || row.ID != w.id || row.Null != w.null {
					t.Fatalf("row %d: %s/%d null=%v, want %s/%d null=%v", k, blk.Key(), row.ID, row.Null, w.key, w.id, w.null)
				}
				if w.null {
					continue
				}
				fields := ps.Key(w.key).Fields
				for i, got := range row.Fields {
					var exp float32 // the integers here are small: exact in float32
					switch {
					case i >= len(w.vals):
						exp = 0
					case fields[i].Type == snapschema.TypeF32:
						exp = Round2(math.Float32frombits(uint32(w.vals[i])))
					default:
						exp = float32(w.vals[i])
					}
					if got != exp {
						t.Fatalf("%s/%d field %d = %v, want %v", w.key, w.id, i, got, exp)
					}
				}
			}
		}
		if k != len(wants) {
			t.Fatalf("decoded %d rows, packed %d", k, len(wants))
		}
	}
}
