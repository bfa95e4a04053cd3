package gamemap

import (
	"math"
	"testing"
)

// FuzzParse feeds arbitrary MAP_DATA to the parser: it must never panic,
// never allocate out of proportion to its input, and a map it accepts must
// hold together (grids of the declared size within the limits, queries
// answering anywhere, guards and blocks inside the map).
func FuzzParse(f *testing.F) {
	f.Add([]byte(poolMini))
	f.Add(encode(f, bridgeMap(f)))
	f.Add([]byte(`{"setId":"c1","scale":1,"step":128,"layers":{"1":[1]},"map":[[1,1],[1]]}`))
	f.Add([]byte(`{"step":32,"map":[[0]],"levels":{"1":{"map":[[1]],"floor":[1],"layers":{"x":[1]}}}}`))
	f.Add([]byte(`{"step":1e9}`))
	// a layered map's game data with downtown's roofs and an angled sign
	// (read by the game's parts, carried here as opaque data)
	f.Add([]byte(`{"step":32,"map":[[0,0]],"levels":{"1":{"map":[[13,13]],"floor":[13],"layers":{"2":[13]}}},` +
		`"game":{"roofs":{"1":[13]},"signs":[{"cell":[1,0],"level":1,"layer":2,"text":"CLUB","angle":-8}]}}`))
	f.Add([]byte(`{"step":32,"map":[[0]],"game":{"roofs":{"1":[1e300,"x"],"0":null},"signs":[{"angle":1e309}]}}`))
	lim := DefaultLimits()
	f.Fuzz(func(t *testing.T, b []byte) {
		var m *Map
		var err error
		n := allocated(func() { m, err = Parse(b) })
		if bound := 32*uint64(len(b)) + 1<<20; n > bound {
			t.Fatalf("%d bytes of input allocated %d bytes (bound %d)", len(b), n, bound)
		}
		if err != nil {
			return
		}
		g := &m.Levels[0]
		total := 0
		for i, lv := range m.Levels {
			if lv.Index != i || lv.Cols != g.Cols || lv.Rows != g.Rows || len(lv.Grid) != lv.Cols*lv.Rows {
				t.Fatalf("level %d: %d×%d, grid %d", i, lv.Cols, lv.Rows, len(lv.Grid))
			}
			total += len(lv.Grid)
		}
		if len(m.Levels) > MaxLevels || g.Cols > lim.Cols || g.Rows > lim.Rows || len(g.Grid) > lim.Cells || total > lim.TotalCells {
			t.Fatalf("accepted %d levels of %d×%d", len(m.Levels), g.Cols, g.Rows)
		}
		if !(m.Scale > 0) || !(m.Step > 0) || !(m.LevelHeight > 0) || math.IsInf(m.LevelHeight, 0) {
			t.Fatalf("bad scale/step/level height accepted: %v %v %v", m.Scale, m.Step, m.LevelHeight)
		}
		l := m.MapLevels()
		w, h := float32(g.Cols)*l.TileSize(), float32(g.Rows)*l.TileSize()
		for _, p := range [][2]float32{{0, 0}, {w / 2, h / 2}, {w - 0.01, h - 0.01}, {-1, 5}, {w + 1, h}, {float32(math.NaN()), 0}, {float32(math.Inf(1)), 1}} {
			lv := l.LevelAt(p[0], p[1])
			if lv < 0 || lv >= l.LevelCount() || l.LandingLevel(lv, p[0], p[1]) > lv {
				t.Fatalf("level %d at %v", lv, p)
			}
			if s, ok := l.RampAt(p[0], p[1]); ok && (s.Progress < 0 || s.Progress > 1 || s.Run >= len(l.Runs())) {
				t.Fatalf("ramp sample %+v", s)
			}
		}
		for _, gd := range RampGuards(l) {
			if gd.X < -1 || gd.Y < -1 || gd.X > w+1 || gd.Y > h+1 || gd.HalfW < 0 || gd.HalfH < 0 {
				t.Fatalf("guard %+v outside the %v×%v map", gd, w, h)
			}
		}
		for lv := range m.Levels {
			for i, bl := range l.StaticBlocks(lv) {
				if bl.Col0 < 0 || bl.Row0 < 0 || bl.Col1 > g.Cols || bl.Row1 > g.Rows || l.BlockAt(lv, bl.Col0, bl.Row0) != i {
					t.Fatalf("block %d of level %d: %+v", i, lv, bl)
				}
			}
		}
		for _, team := range m.Respawns {
			for _, s := range team.Spawns {
				if lv := m.SpawnLevel(s); lv < 0 || lv >= len(m.Levels) {
					t.Fatalf("spawn %+v on level %d", s, lv)
				}
			}
		}
	})
}
