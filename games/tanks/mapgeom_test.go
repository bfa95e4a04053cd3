package tanks

import (
	"encoding/json"
	"math"
	"testing"

	"vimpclient/gamemap"
)

// wallsOf parses a map of the given grid (cells of side cell) and returns
// its ground walls, as the host and the predictor get them.
func wallsOf(t testing.TB, grid [][]int, static []int, cell float32) *Walls {
	return terrainOf(t, grid, static, cell).Walls(0)
}

// terrainOf is wallsOf's map as the solver reads it.
func terrainOf(t testing.TB, grid [][]int, static []int, cell float32) *Terrain {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"step": cell, "scale": 1, "map": grid, "physicsStatic": static})
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return NewGeometry(m).Terrain
}

func TestNewGeometry(t *testing.T) {
	raw := `{"scale":0.5,"step":32,"map":[[1,1,1],[1,0,1],[1,1,1]],"physicsStatic":[1],
	"physicsDynamic":[{"position":[40,40],"angle":90,"width":20,"height":10,"density":4,"linearDamping":8},
	                  {"position":[0,0],"width":2,"height":2,"density":0,"angularDamping":3}]}`
	m, err := gamemap.Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	g := NewGeometry(m)
	if g.Cell != 16 || len(g.Walls.Blocks) != 4 || len(g.Crates) != 2 || g.Levels != m.MapLevels() {
		t.Fatalf("geometry %+v blocks %v", g, g.Walls.Blocks)
	}
	c := g.Crates[0]
	// Corner (20,20) world, 10×5 box rotated 90°: centre = corner + R·(5, 2.5) = (17.5, 25).
	if math.Abs(float64(c.Body.X-17.5)) > 1e-4 || math.Abs(float64(c.Body.Y-25)) > 1e-4 {
		t.Fatalf("crate centre (%v,%v), want (17.5,25)", c.Body.X, c.Body.Y)
	}
	if x, y := c.Body.Corner(); math.Abs(float64(x-20)) > 1e-4 || math.Abs(float64(y-20)) > 1e-4 {
		t.Fatalf("corner (%v,%v), want (20,20)", x, y)
	}
	if c.LinearDamping != 8 || c.AngularDamping != gamemap.DefaultAngularDamping {
		t.Fatalf("damping %v/%v", c.LinearDamping, c.AngularDamping)
	}
	// A body without density weighs as density 1.
	d := g.Crates[1]
	if want := float32(1 / (1 * 1.0 * 1.0)); math.Abs(float64(d.Body.InvMass-want)) > 1e-6 || d.AngularDamping != 3 || d.LinearDamping != 0 {
		t.Fatalf("second crate %+v", d)
	}
	if !g.Walls.Solid(0, 0) || g.Walls.Solid(1, 1) || !g.Walls.Solid(-1, 1) || !g.Walls.Solid(3, 1) {
		t.Fatal("Solid disagrees with the grid")
	}
}

func FuzzGeometry(f *testing.F) {
	f.Add([]byte(`{"scale":0.6,"step":32,"map":[[1,1],[1,0]],"physicsStatic":[1],"physicsDynamic":[{"position":[1,2],"angle":15,"width":48,"height":48,"density":8}]}`))
	f.Add([]byte(`{"step":32,"map":[[0,0,0],[2,2,2]],"physicsStatic":[2,0]}`))
	f.Add([]byte(`{"step":1e308,"scale":1e308}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := gamemap.Parse(raw)
		if err != nil {
			return
		}
		g := NewGeometry(m)
		var s Solver
		body := &Body{X: 10, Y: 10, HalfW: 4, HalfH: 3, VX: 30}
		body.SetMass(200)
		bodies := []*Body{body}
		for i := range g.Crates {
			bodies = append(bodies, &g.Crates[i].Body)
		}
		s.Resolve(bodies, g.Terrain)
		_ = g.Walls.Ray(1, 1, 1, 0, 100)
		for lv := 0; lv < g.Levels.LevelCount(); lv++ {
			_ = g.Terrain.Ray(lv, 1, 1, 1, 0, 100)
		}
	})
}
