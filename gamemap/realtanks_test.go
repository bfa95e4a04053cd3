package gamemap

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"vimpclient/testkit/capturetest"
)

// rawMap is a real MAP_DATA read with encoding/json alone, as the golden
// side of the comparison: what the parser must make of the same bytes.
type rawMap struct {
	Scale    float64            `json:"scale"`
	Step     float64            `json:"step"`
	Grid     [][]int            `json:"map"`
	Layers   map[string][]int   `json:"layers"`
	Volumes  map[string]float64 `json:"volumes"`
	Static   []int              `json:"physicsStatic"`
	Respawns map[string][][]float64
	Dynamic  []struct {
		Level *int            `json:"level"`
		Game  json.RawMessage `json:"game"`
	} `json:"physicsDynamic"`
	Levels map[string]struct {
		Grid    [][]int            `json:"map"`
		Floor   []int              `json:"floor"`
		Walls   []int              `json:"walls"`
		Layers  map[string][]int   `json:"layers"`
		Volumes map[string]float64 `json:"volumes"`
	} `json:"levels"`
	Ramps []struct {
		Tile     int    `json:"tile"`
		Dir      string `json:"dir"`
		From, To int
	} `json:"ramps"`
	Game json.RawMessage `json:"game"`
}

// Every map a real tanks 0.22 host sends parses, and the parsed map holds
// what the bytes say: each level's grid, floor, solid tiles and render
// layers with their volumes, the ramps, the respawn points with the level
// a 4-element point declares, each body's level and game data, and the
// map's game data (surfaces, lighting, wall heights, ...) kept whole. The
// three layered maps have their levels (downtown 2, overpass 2, terraces
// 3) and the geometry answers from them: every floor tile of an upper
// level is floor there, and every tile of a ramp's cells lies on a run.
func TestRealTanks022MapsParse(t *testing.T) {
	dir := filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22", "maps")
	wantLevels := map[string]int{"canopy": 1, "downtown": 2, "garden": 1, "overpass": 2, "pool-mini": 1, "terraces": 3}
	for name, levels := range wantLevels {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var raw rawMap
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			m, err := Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Levels) != levels || len(raw.Levels)+1 != levels {
				t.Fatalf("levels %d (data %d), want %d", len(m.Levels), len(raw.Levels)+1, levels)
			}
			if m.Scale != raw.Scale || m.Step != raw.Step {
				t.Errorf("scale %v step %v, want %v %v", m.Scale, m.Step, raw.Scale, raw.Step)
			}
			checkLevel(t, &m.Levels[0], raw.Grid, nil, raw.Static, raw.Layers, raw.Volumes)
			geo := m.MapLevels()
			for key, lv := range raw.Levels {
				n, _ := strconv.Atoi(key)
				checkLevel(t, &m.Levels[n], lv.Grid, lv.Floor, lv.Walls, lv.Layers, lv.Volumes)
				for row, cells := range lv.Grid {
					for col, tile := range cells {
						if slices.Contains(lv.Floor, tile) && !geo.HasFloorCell(n, col, row) {
							t.Errorf("level %d cell %d,%d: tile %d is floor, the geometry says none", n, col, row, tile)
						}
					}
				}
			}
			checkRamps(t, m, &raw)
			checkSpawns(t, m, &raw)
			if len(m.Dynamic) != len(raw.Dynamic) {
				t.Fatalf("%d bodies, want %d", len(m.Dynamic), len(raw.Dynamic))
			}
			for i, d := range raw.Dynamic {
				lv := 0
				if d.Level != nil {
					lv = *d.Level
				}
				if m.Dynamic[i].Level != lv || !sameJSON(m.Dynamic[i].Game, d.Game) {
					t.Errorf("body %d: level %d game %s, want %d %s", i, m.Dynamic[i].Level, m.Dynamic[i].Game, lv, d.Game)
				}
			}
			if !sameJSON(m.Game, raw.Game) {
				t.Errorf("game data %.80s, want %.80s", m.Game, raw.Game)
			}
		})
	}
}

// checkLevel compares one parsed level with its declaration.
func checkLevel(t *testing.T, l *Level, grid [][]int, floor, solid []int, layers map[string][]int, volumes map[string]float64) {
	t.Helper()
	if l.Rows != len(grid) || l.Cols != len(grid[0]) {
		t.Fatalf("level %d: %d×%d, want %d×%d", l.Index, l.Cols, l.Rows, len(grid[0]), len(grid))
	}
	for row, cells := range grid {
		for col, tile := range cells {
			if l.Tile(col, row) != tile {
				t.Fatalf("level %d cell %d,%d: tile %d, want %d", l.Index, col, row, l.Tile(col, row), tile)
			}
		}
	}
	if !sameSet(l.Floor, floor) || !sameSet(l.Solid, solid) {
		t.Errorf("level %d: floor %v solid %v, want %v %v", l.Index, l.Floor, l.Solid, floor, solid)
	}
	if len(l.Layers) != len(layers) {
		t.Errorf("level %d: %d layers, want %d", l.Index, len(l.Layers), len(layers))
	}
	for _, ly := range l.Layers {
		if !slices.Equal(ly.Tiles, layers[ly.Key]) || ly.Volume != volumes[ly.Key] {
			t.Errorf("level %d layer %s: tiles %v volume %v, want %v %v", l.Index, ly.Key, ly.Tiles, ly.Volume, layers[ly.Key], volumes[ly.Key])
		}
	}
}

// checkRamps compares the ramps and finds every ramp cell on a run.
func checkRamps(t *testing.T, m *Map, raw *rawMap) {
	t.Helper()
	if len(m.Ramps) != len(raw.Ramps) {
		t.Fatalf("%d ramps, want %d", len(m.Ramps), len(raw.Ramps))
	}
	for i, r := range raw.Ramps {
		got := m.Ramps[i]
		if got.Tile != r.Tile || got.Dir.String() != r.Dir || got.From != r.From || got.To != r.To {
			t.Errorf("ramp %d: %+v, want %+v", i, got, r)
		}
		grid := raw.Grid
		if r.From > 0 {
			grid = raw.Levels[strconv.Itoa(r.From)].Grid
		}
		cell := m.CellWorld()
		for row, cells := range grid {
			for col, tile := range cells {
				if tile != r.Tile {
					continue
				}
				x, y := float32((float64(col)+0.5)*cell), float32((float64(row)+0.5)*cell)
				if s, ok := m.MapLevels().RampAt(x, y); !ok || s.From != r.From || s.To != r.To {
					t.Errorf("ramp %d cell %d,%d: on a run %v (%+v)", i, col, row, ok, s)
				}
			}
		}
	}
}

// checkSpawns compares the respawn points: a 4-element point declares its
// level, a 3-element one leaves it to the geometry.
func checkSpawns(t *testing.T, m *Map, raw *rawMap) {
	t.Helper()
	if len(m.Respawns) != len(raw.Respawns) {
		t.Fatalf("%d teams, want %d", len(m.Respawns), len(raw.Respawns))
	}
	for team, points := range raw.Respawns {
		got := m.Spawns(team)
		if len(got) != len(points) {
			t.Fatalf("%s: %d points, want %d", team, len(got), len(points))
		}
		for i, p := range points {
			s := got[i]
			if s.X != p[0] || s.Y != p[1] || s.AngleDeg != p[2] || s.HasLevel != (len(p) == 4) {
				t.Errorf("%s[%d]: %+v, want %v", team, i, s, p)
			}
			if len(p) == 4 && (s.Level != int(p[3]) || m.SpawnLevel(s) != int(p[3])) {
				t.Errorf("%s[%d]: level %d (spawn level %d), want %v", team, i, s.Level, m.SpawnLevel(s), p[3])
			}
		}
	}
}

func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// sameJSON compares two JSON texts by value; two absent values are equal.
func sameJSON(a, b json.RawMessage) bool {
	if len(bytes.TrimSpace(a)) == 0 || len(bytes.TrimSpace(b)) == 0 {
		return len(bytes.TrimSpace(a)) == len(bytes.TrimSpace(b))
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
