package parts

import (
	"testing"

	"vimpclient/clientcore"
	"vimpclient/testkit/rowtest"
)

const testSchema = `{"m1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"hp","ty":"u8"}]},
 "w2":{"id":3,"kind":"indexed32","class":"event","fields":[{"name":"x","ty":"f32"}]},
 "c1":{"id":5,"kind":"indexedNoNull8","class":"hot","fields":[{"name":"x","ty":"f32","interp":"lerp"}]}}`

func TestParseFirstShot(t *testing.T) {
	s, err := clientcore.ParseSchema([]byte(testSchema))
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseFirstShot(s, []byte(`[{"m1":{"3":[10.123,20],"4":null},"w2":{"rs":[5]},"c1":{"d2":[7]},"zz":{"1":[1]}},0,1755826868114.0,0]`))
	if err != nil {
		t.Fatal(err)
	}
	if f.HasCamera || len(f.Blocks) != 3 {
		t.Fatalf("frame %+v", f)
	}
	got := map[string]map[uint32]clientcore.Row{}
	for _, b := range f.Blocks {
		got[b.Key()] = map[uint32]clientcore.Row{}
		for _, r := range b.Rows {
			got[b.Key()][r.ID] = r
		}
	}
	m1, c1 := s.Key("m1"), s.Key("c1")
	if r := got["m1"][3]; len(r.Fields) != 3 || rowtest.Get(t, m1, r.Fields, "x") != 10.123 || rowtest.Get(t, m1, r.Fields, "hp") != 0 {
		t.Fatalf("narrow m1 row %+v", r)
	}
	if !got["m1"][4].Null {
		t.Fatal("null row lost")
	}
	if _, ok := got["w2"][1000]; !ok { // "rs" base 36 = 1000
		t.Fatalf("base-36 id: %+v", got["w2"])
	}
	if r, ok := got["c1"][2]; !ok || rowtest.Get(t, c1, r.Fields, "x") != 7 {
		t.Fatalf("d2 row %+v", got["c1"])
	}
	for _, other := range []string{`[[],0,1,0]`, `[[{"id":0,"x":100}],0,1,0]`, `[null,0,1,0]`, `[{"m1":[1,2]},0,1,0]`} {
		f, err := ParseFirstShot(s, []byte(other))
		if err != nil || len(f.Blocks) != 0 {
			t.Errorf("%s: %+v %v", other, f, err)
		}
	}
	if f, _ := ParseFirstShot(s, []byte(`[{},[1.5,2,true,"20:200"],1,0]`)); !f.HasCamera || !f.Camera.ForceReset || f.Camera.ShakeText() != "20:200" {
		t.Fatalf("camera %+v", f.Camera)
	}
	if _, err := ParseFirstShot(s, []byte(`{}`)); err == nil {
		t.Fatal("object accepted")
	}
}

func FuzzParseFirstShot(f *testing.F) {
	s, err := clientcore.ParseSchema([]byte(testSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`[{"m1":{"3":[10.123,20],"4":null},"w2":{"rs":[5]},"c1":{"d2":[7]}},0,1,0]`))
	f.Add([]byte(`[[],0,1,0]`))
	f.Add([]byte(`[{},[1,2,null,"1:1"],1,0]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := ParseFirstShot(s, b)
		if err != nil {
			return
		}
		for _, blk := range fr.Blocks {
			for _, r := range blk.Rows {
				if !r.Null && len(r.Fields) != len(blk.Schema.Fields) {
					t.Fatalf("row width %d", len(r.Fields))
				}
			}
		}
	})
}
