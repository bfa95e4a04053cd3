package gamemap

import (
	"encoding/json"
	"testing"
)

// Tiles of the test maps, drawn as characters.
const (
	tGround    = 0
	tWall      = 1
	tSlab      = 2
	tRailing   = 3
	tRampEast  = 4
	tRampWest  = 5
	tRampNorth = 6
	tRampSouth = 7
)

var legend = map[rune]int{'.': tGround, '#': tWall, '=': tSlab, '|': tRailing,
	'>': tRampEast, '<': tRampWest, '^': tRampNorth, 'v': tRampSouth}

// rows turns drawn rows into a grid.
func rows(t testing.TB, lines ...string) [][]int {
	t.Helper()
	g := make([][]int, len(lines))
	for y, l := range lines {
		for _, c := range l {
			v, ok := legend[c]
			if !ok {
				t.Fatalf("no tile for %q", c)
			}
			g[y] = append(g[y], v)
		}
	}
	return g
}

// obj is a JSON object under construction.
type obj = map[string]any

func encode(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Bridge test map, 10×7 cells of 10 units (step 10, scale 1): a two-lane
// ramp at columns 2–3, rows 2–3, climbs east onto a slab at columns 4–6
// railed on its other three sides.
var (
	bridgeGround = []string{
		"##########",
		"#........#",
		"#.>>.....#",
		"#.>>.....#",
		"#........#",
		"#........#",
		"##########",
	}
	bridgeLevel1 = []string{
		"..........",
		"....||||..",
		"....===|..",
		"....===|..",
		"....||||..",
		"..........",
		"..........",
	}
)

func level(t testing.TB, lines ...string) obj {
	return obj{"map": rows(t, lines...), "floor": []int{tSlab, tRailing}, "walls": []int{tRailing},
		"layers": obj{"1": []int{tSlab}, "4": []int{tRailing}}, "volumes": obj{"4": 0.35}}
}

// bridgeMap returns the fields of the bridge test map; tests edit them.
func bridgeMap(t testing.TB) obj {
	return obj{
		"setId": "c1", "scale": 1, "step": 10,
		"map":           rows(t, bridgeGround...),
		"physicsStatic": []int{tWall},
		"layers":        obj{"1": []int{tGround, tRampEast}, "2": []int{tWall}},
		"volumes":       obj{"2": 1.0},
		"levels":        obj{"1": level(t, bridgeLevel1...)},
		"ramps":         []obj{{"tile": tRampEast, "dir": "east"}},
		"physicsDynamic": []obj{
			{"position": []float64{10, 45}, "width": 8, "height": 8, "density": 4},
			{"position": []float64{42, 22}, "width": 8, "height": 8, "density": 4, "level": 1, "game": obj{"prop": "crate"}},
		},
		"respawns": obj{"team1": [][]float64{{15, 15, 0}, {55, 25, 90, 1}, {55, 25, 0, 0}, {55, 25, 0}}},
		"game":     obj{"surfaces": obj{"0": obj{"2": "oil"}}},
	}
}

func parseObj(t testing.TB, fields obj) (*Map, error) {
	t.Helper()
	return Parse(encode(t, fields))
}

func mustParse(t testing.TB, fields obj) *Map {
	t.Helper()
	m, err := parseObj(t, fields)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
