package gamemap

import (
	"math"
	"testing"
)

const poolMini = `{"setId":"c1","scale":0.6,"step":32,
 "map":[[0,1,2],[3,4,1]],
 "layers":{"1":[0,2,4],"2":[1],"4":[3]},
 "spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32],[96,0,32,32],[128,0,32,32]]},
 "physicsStatic":[1],
 "physicsDynamic":[{"position":[10,20],"angle":90,"width":96,"height":96,"density":20,"img":"b1.png","layer":3},
                   {"position":[0,0],"angle":0,"width":32,"height":32,"img":"b1.png"}],
 "respawns":{"team1":[[1,2,0]]},"extra":true}`

func TestParsePoolMiniShape(t *testing.T) {
	m, err := Parse([]byte(poolMini))
	if err != nil {
		t.Fatal(err)
	}
	if m.SetID != "c1" || m.Scale != 0.6 || m.Step != 32 || m.Sheet != "tiles.png" || len(m.Frames) != 5 {
		t.Fatalf("header: %+v", m)
	}
	g := m.Levels[0]
	if g.Cols != 3 || g.Rows != 2 || g.Tile(1, 0) != 1 || g.Tile(0, 1) != 3 {
		t.Fatalf("grid: %+v", g)
	}
	if len(g.Layers) != 3 || g.Layers[0].Key != "1" || g.Layers[1].Z != 2 || g.Layers[2].Z != 4 {
		t.Fatalf("layers: %+v", g.Layers)
	}
	if !Contains(g.Solid, 1) || Contains(g.Solid, 0) {
		t.Fatalf("solid: %v", g.Solid)
	}
	if len(m.Dynamic) != 2 || m.Dynamic[0].Layer != 3 || m.Dynamic[1].Layer != 2 || m.Dynamic[0].AngleDeg != 90 {
		t.Fatalf("dynamic: %+v", m.Dynamic)
	}
	if w, h := m.WorldSize(); math.Abs(w-57.6) > 1e-9 || math.Abs(h-38.4) > 1e-9 {
		t.Fatalf("world size %v x %v", w, h)
	}
}

func TestLayeredLevels(t *testing.T) {
	m, err := Parse([]byte(`{"setId":"c1","step":32,"map":[[0,0],[0,0]],"layers":{"1":[0]},
		"levels":[{"map":[[5,6],[6,5]],"layers":{"5":[5],"6":[6]},"walls":[6],"floor":[5]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Scale != 0.3 {
		t.Fatalf("default scale %v", m.Scale)
	}
	if len(m.Levels) != 2 || m.Levels[1].Index != 1 || len(m.Levels[1].Layers) != 2 ||
		!Contains(m.Levels[1].Solid, 6) || !Contains(m.Levels[1].Floor, 5) || len(m.Levels[0].Floor) != 0 {
		t.Fatalf("levels: %+v", m.Levels)
	}
}

func TestSnakesArena(t *testing.T) {
	m, err := Parse([]byte(`{"setId":"c1","scale":1,"step":128,"physicsStatic":[],"physicsDynamic":[],"layers":{"1":[1]},"map":[[1,1],[1,1]]}`))
	if err != nil || m.Sheet != "" || m.Levels[0].Cols != 2 {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestRejects(t *testing.T) {
	for _, in := range []string{
		`[]`, `{"step":0,"map":[]}`, `{"step":32,"scale":-1}`,
		`{"step":32,"layers":[1]}`,
		`{"step":32,"spriteSheet":{"img":"../etc/passwd","frames":[]}}`,
		`{"step":32,"spriteSheet":{"img":"http://x/y.png","frames":[]}}`,
		`{"step":32,"spriteSheet":{"img":"a.png","frames":[[1,2,3]]}}`,
		`{"step":32,"physicsDynamic":[{"position":[1],"width":1,"height":1}]}`,
		`{"step":32,"physicsDynamic":[{"position":[1,2],"width":1,"height":1,"img":"/abs.png"}]}`,
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("accepted %s", in)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(poolMini))
	f.Add([]byte(`{"setId":"c1","scale":1,"step":128,"layers":{"1":[1]},"map":[[1,1],[1]]}`))
	f.Add([]byte(`{"step":32,"map":[[0]],"levels":[{"map":[[1]],"layers":{"x":[1]}}]}`))
	f.Add([]byte(`{"step":1e9}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			return
		}
		for _, lv := range m.Levels {
			if len(lv.Grid) != lv.Cols*lv.Rows || lv.Cols*lv.Rows > MaxCells {
				t.Fatalf("grid size mismatch %d vs %dx%d", len(lv.Grid), lv.Cols, lv.Rows)
			}
		}
		if !(m.Scale > 0) || !(m.Step > 0) {
			t.Fatalf("bad scale/step accepted: %v %v", m.Scale, m.Step)
		}
	})
}
