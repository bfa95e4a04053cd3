package tanks

import (
	"math"
	"testing"
)

func TestParseGeometry(t *testing.T) {
	raw := `{"scale":0.5,"step":32,"map":[[1,1,1],[1,0,1],[1,1,1]],"physicsStatic":[1],
	"physicsDynamic":[{"position":[40,40],"angle":90,"width":20,"height":10,"density":4,"linearDamping":8}]}`
	g, err := ParseGeometry([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if g.Cell != 16 || len(g.Walls.Blocks) != 4 || len(g.Crates) != 1 {
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
	if c.LinearDamping != 8 || c.AngularDamping != CrateAngularDamping {
		t.Fatalf("damping %v/%v", c.LinearDamping, c.AngularDamping)
	}
	for _, bad := range []string{`[]`, `{"step":0}`, `{"step":32,"scale":-1}`, `{"step":32,"physicsDynamic":[{"width":0,"height":1}]}`} {
		if _, err := ParseGeometry([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func FuzzParseGeometry(f *testing.F) {
	f.Add([]byte(`{"scale":0.6,"step":32,"map":[[1,1],[1,0]],"physicsStatic":[1],"physicsDynamic":[{"position":[1,2],"angle":15,"width":48,"height":48,"density":8}]}`))
	f.Add([]byte(`{"step":32,"map":[[0,0,0],[2]],"physicsStatic":[2,0]}`))
	f.Add([]byte(`{"step":1e308,"scale":1e308}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		g, err := ParseGeometry(raw)
		if err != nil {
			return
		}
		var s Solver
		body := &Body{X: 10, Y: 10, HalfW: 4, HalfH: 3, VX: 30}
		body.SetMass(200)
		bodies := []*Body{body}
		for i := range g.Crates {
			bodies = append(bodies, &g.Crates[i].Body)
		}
		s.Resolve(bodies, g.Walls)
		_ = g.Walls.Ray(1, 1, 1, 0, 100)
	})
}
