package gamemap

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/capturetest"
)

// The arena a real snakes 0.15 host sends parses, and the parsed map holds
// what the bytes say (read with encoding/json alone): a square grid of one
// tile value with its step and scale, one render layer, no solid tiles, the
// c1 set, and the one team's respawn points in order. The points lie
// inside the disc the grid inscribes, no farther out than 0.72 of its
// radius, and no two coincide.
func TestRealSnakes015ArenaParses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "captures", "real-snakes-0.15", "maps", "arena.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw rawMap
	var set struct {
		SetID string `json:"setId"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	m, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.SetID != set.SetID || m.Scale != raw.Scale || m.Step != raw.Step || len(m.Levels) != 1 || len(m.Static) != 0 {
		t.Fatalf("set %q scale %v step %v levels %d static %v", m.SetID, m.Scale, m.Step, len(m.Levels), m.Static)
	}
	l := &m.Levels[0]
	if l.Rows != len(raw.Grid) || l.Cols != len(raw.Grid[0]) || l.Cols != l.Rows || len(l.Layers) != len(raw.Layers) {
		t.Fatalf("grid %d×%d, layers %d; the bytes say %d×%d, %d", l.Cols, l.Rows, len(l.Layers), len(raw.Grid[0]), len(raw.Grid), len(raw.Layers))
	}
	for i, row := range raw.Grid {
		for j, v := range row {
			if l.Grid[i*l.Cols+j] != int32(v) {
				t.Fatalf("cell %d,%d = %d, the bytes say %d", j, i, l.Grid[i*l.Cols+j], v)
			}
		}
	}
	want := raw.Respawns["players"]
	got := m.Spawns("players")
	if len(got) != len(want) || len(got) != 64 {
		t.Fatalf("spawns %d, the bytes hold %d", len(got), len(want))
	}
	r := float64(l.Cols) * m.CellWorld() / 2
	seen := map[[2]float64]bool{}
	for i, s := range got {
		if s.X != want[i][0] || s.Y != want[i][1] || s.AngleDeg != want[i][2] {
			t.Errorf("spawn %d = %+v, the bytes say %v", i, s, want[i])
		}
		if d := math.Hypot(s.X-r, s.Y-r); d > 0.72*r+1 {
			t.Errorf("spawn %d lies %.0f from the centre of a %.0f disc", i, d, r)
		}
		if seen[[2]float64{s.X, s.Y}] {
			t.Errorf("spawn %d repeats a point", i)
		}
		seen[[2]float64{s.X, s.Y}] = true
	}
}
