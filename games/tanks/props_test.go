package tanks

import (
	"encoding/json"
	"testing"

	"vimpclient/gamemap"
)

// propMap is a map with three dynamic bodies: a crate, a plain body and a
// fence.
func propMap(t testing.TB) *gamemap.Map {
	t.Helper()
	body := func(game string) map[string]any {
		b := map[string]any{"position": []int{40, 40}, "width": 20, "height": 20, "angle": 0, "density": 40}
		if game != "" {
			b["game"] = json.RawMessage(game)
		}
		return b
	}
	raw, err := json.Marshal(map[string]any{"step": 10, "scale": 1, "map": [][]int{{0, 0, 0, 0, 0, 0, 0, 0}},
		"physicsDynamic": []any{body(`{"prop":"crate","imgDamaged":"x.png"}`), body(""), body(`{"prop":"fence"}`), body(`{"prop":"tree"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The real 0.22 crate: hp 120, damaged below 0.5·120 = 60, a shot of 40
// counts 40·0.5 = 20, a blast 1.5 times its damage. Shots leave 100, 80,
// 60 (not below 60: intact), 40 (damaged), 20, 0 (destroyed). The fence:
// hp 30, one shot of 40 breaks it.
func TestPropDamage(t *testing.T) {
	c := coreParams022(t)
	if len(c.Props) != 3 || c.Props[1].Name != "crate" || c.Props[1].HP != 120 || c.Props[1].DamagedAt != 0.5 {
		t.Fatalf("props %+v", c.Props)
	}
	p := NewProps(propMap(t), c.Props)
	want := []uint8{PropIntact, PropIntact, PropIntact, PropDamaged, PropDamaged, PropDestroyed, PropDestroyed}
	for i, w := range want {
		if got := p.Damage(0, 40, false); got != w {
			t.Fatalf("shot %d: state %d, want %d", i+1, got, w)
		}
	}
	if p.Damage(1, 1000, true) != PropIntact || p.State(1) != PropIntact || p.Destroyed(1) {
		t.Fatal("a body that is not a prop took damage")
	}
	if p.State(3) != PropIntact || p.Damage(3, 1000, false) != PropIntact {
		t.Fatal("a body of an unknown type is not a prop")
	}
	if p.Damage(2, 40, false) != PropDestroyed || !p.Destroyed(2) || !Debris(float32(p.State(2))) {
		t.Fatal("the fence took a shot of 40")
	}
	// A blast of 70 at 1.5: 105 of the crate's 120 leaves 15, damaged.
	q := NewProps(propMap(t), c.Props)
	if q.Damage(0, 70, true) != PropDamaged {
		t.Fatalf("a blast: %d", q.State(0))
	}
	if NewProps(propMap(t), nil) != nil || (*Props)(nil).State(0) != PropIntact {
		t.Fatal("no prop types: no props")
	}
	for _, bad := range []string{`{"props":{"x":{}}}`, `{"props":{"x":{"hp":-1}}}`, `{"props":{"x":{"hp":5,"damagedAt":2}}}`, `{"props":[]}`} {
		if _, err := ParseCoreParams(json.RawMessage(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func FuzzProps(f *testing.F) {
	f.Add([]byte(`{"step":10,"map":[[0,0]],"physicsDynamic":[{"position":[1,2],"width":20,"height":20,"game":{"prop":"crate"}},{"position":[1,2],"width":8,"height":8,"game":{"prop":7}}]}`))
	f.Add([]byte(`{"step":10,"map":[[0]],"physicsDynamic":[{"position":[0,0],"width":1,"height":1,"game":[]}]}`))
	types := coreParams022(f).Props
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := gamemap.Parse(raw)
		if err != nil {
			return
		}
		p := NewProps(m, types)
		for i := -1; i <= len(m.Dynamic); i++ {
			for j := 0; j < 8; j++ {
				if s := p.Damage(i, 40, j%2 == 0); s > PropDestroyed {
					t.Fatalf("state %d", s)
				}
			}
		}
	})
}
