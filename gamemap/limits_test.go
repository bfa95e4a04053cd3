package gamemap

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// gridText writes a cols×rows grid of tile through JSON text.
func gridText(b *strings.Builder, cols, rows int, tile func(col, row int) int) {
	b.WriteByte('[')
	for y := 0; y < rows; y++ {
		if y > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for x := 0; x < cols; x++ {
			if x > 0 {
				b.WriteByte(',')
			}
			fmt.Fprint(b, tile(x, y))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
}

func flatGrid(cols, rows int) string {
	var b strings.Builder
	fmt.Fprint(&b, `{"step":10,"scale":1,"map":`)
	gridText(&b, cols, rows, func(int, int) int { return 0 })
	b.WriteByte('}')
	return b.String()
}

// TestLimitsRefuseWithFieldAndLimit runs one map beyond each limit of a
// tightened Limits and checks the error names the field and the limit.
func TestLimitsRefuseWithFieldAndLimit(t *testing.T) {
	tight := DefaultLimits()
	tight.Bytes = 4096
	tight.Cols, tight.Rows, tight.Cells, tight.TotalCells = 8, 8, 40, 60
	tight.Levels = 2
	tight.Layers, tight.TileList = 2, 3
	tight.Frames, tight.FrameSide = 2, 64
	tight.Bodies, tight.Ramps, tight.RampRuns, tight.StaticBlocks = 2, 1, 1, 2
	tight.Teams, tight.Spawns, tight.String = 1, 2, 8
	tight.MaxStep, tight.MaxScale, tight.Coord, tight.GameBytes = 64, 2, 1000, 16

	const base = `"step":10,"scale":1,"map":[[0,0,0],[0,0,0],[0,0,0]]`
	const layered = `"step":10,"scale":1,"map":[[4,0,0],[4,0,0],[0,0,0]],"levels":{"1":{"map":[[0,0,0],[0,0,0],[0,0,0]]}}`
	body := `{"position":[1,1],"width":4,"height":4}`
	cases := []struct {
		name, text, field, limit string
	}{
		{"bytes", `{` + base + `,"pad":"` + strings.Repeat("x", 5000) + `"}`, "MAP_DATA", "4096"},
		{"cols", flatGrid(9, 1), "map", "8"},
		{"rows", flatGrid(1, 9), "map", "8"},
		{"cells", flatGrid(8, 6), "map", "40"},
		{"total cells", `{"step":10,"scale":1,"map":` + gridOf(6, 6) + `,"levels":{"1":{"map":` + gridOf(6, 6) + `}}}`, "levels.1.map", "60"},
		{"levels", `{` + base + `,"levels":{"1":{"map":` + gridOf(3, 3) + `},"2":{"map":` + gridOf(3, 3) + `}}}`, "levels", "1"},
		{"layers", `{` + base + `,"layers":{"1":[0],"2":[0],"3":[0]}}`, "layers", "2"},
		{"layer tiles", `{` + base + `,"layers":{"1":[0,1,2,3]}}`, "layers.1", "3"},
		{"physicsStatic", `{` + base + `,"physicsStatic":[1,2,3,4]}`, "physicsStatic", "3"},
		{"frames", `{` + base + `,"spriteSheet":{"frames":[[0,0,1,1],[0,0,1,1],[0,0,1,1]]}}`, "spriteSheet.frames", "2"},
		{"frame side", `{` + base + `,"spriteSheet":{"frames":[[0,0,65,1]]}}`, "spriteSheet.frames[0]", "[0, 64]"},
		{"bodies", `{` + base + `,"physicsDynamic":[` + body + `,` + body + `,` + body + `]}`, "physicsDynamic", "2"},
		{"coord", `{` + base + `,"physicsDynamic":[{"position":[2000,1],"width":4,"height":4}]}`, "physicsDynamic[0]", "1000"},
		{"ramps", `{` + layered + `,"ramps":[{"tile":4,"dir":"east"},{"tile":4,"dir":"east"}]}`, "ramps", "1"},
		{"ramp runs", `{` + layered + `,"ramps":[{"tile":4,"dir":"east"}]}`, "ramps", "1"},
		{"static blocks", `{"step":10,"scale":1,"map":[[1,0,1,0,1]],"physicsStatic":[1]}`, "physicsStatic", "2"},
		{"teams", `{` + base + `,"respawns":{"a":[[1,1,0]],"b":[[1,1,0]]}}`, "respawns", "1"},
		{"spawns", `{` + base + `,"respawns":{"a":[[1,1,0],[1,1,0],[1,1,0]]}}`, "respawns.a", "2"},
		{"string", `{` + base + `,"setId":"ninechars"}`, "setId", "8"},
		{"long escaped string", `{` + base + `,"setId":"` + strings.Repeat(`\u0041`, 9) + `"}`, "setId", "8"},
		{"image name", `{` + base + `,"spriteSheet":{"img":"toolong.png"}}`, "spriteSheet.img", "8"},
		{"step", `{"step":65,"map":[[0]]}`, "step", "64"},
		{"scale", `{"step":10,"scale":3,"map":[[0]]}`, "scale", "2"},
		{"cell", `{"step":1,"scale":0.0001,"map":[[0]]}`, "step×scale", "0.001"},
		{"game data", `{` + base + `,"game":{"a":"0123456789abcdef"}}`, "game", "16"},
		{"body game data", `{` + base + `,"physicsDynamic":[{"position":[1,1],"width":4,"height":4,"game":{"a":"0123456789abcdef"}}]}`, "physicsDynamic[0].game", "16"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseLimits([]byte(c.text), tight)
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("want a limit error, got %v", err)
			}
			if le.Field != c.field || !strings.Contains(le.Limit, c.limit) {
				t.Fatalf("error %q names field %q limit %q, want %q and %q", err, le.Field, le.Limit, c.field, c.limit)
			}
			if !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), le.Limit) {
				t.Fatalf("message %q lacks the field or the limit", err)
			}
		})
	}
}

func gridOf(cols, rows int) string {
	var b strings.Builder
	gridText(&b, cols, rows, func(int, int) int { return 0 })
	return b.String()
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// A grid of 10,000 × 10,000 cells described in a few KB of ragged rows
// (one long row, then short ones) is refused without materialising it: the
// parser allocates almost nothing.
func TestRaggedGridRefusedCheaply(t *testing.T) {
	long := strings.TrimSuffix(strings.Repeat("0,", 10000), ",")
	texts := map[string]string{
		"10000 columns then 9999 one-cell rows": `{"step":32,"map":[[` + long[:2*4097] + `0]` + strings.Repeat(`,[0]`, 9999) + `]}`,
		"one-cell rows, 10000 of them":          `{"step":32,"map":[[0]` + strings.Repeat(`,[0]`, 9999) + `]}`,
		"a long row after short ones":           `{"step":32,"map":[[0],[0],[` + long + `]]}`,
		"full first row, then ragged":           `{"step":32,"map":[[` + long[:2*4095] + `0]` + strings.Repeat(`,[0]`, 4000) + `]}`,
		"a level grid larger than the ground":   `{"step":32,"map":[[0]],"levels":{"1":{"map":[[` + long + `]` + strings.Repeat(`,[0]`, 3000) + `]}}}`,
	}
	for name, text := range texts {
		if len(text) > 64<<10 {
			t.Fatalf("%s: %d bytes, not a few KB", name, len(text))
		}
		raw := []byte(text)
		var err error
		n := allocated(func() { _, err = Parse(raw) })
		if err == nil {
			t.Fatalf("%s: accepted", name)
		}
		if n > 16<<10 {
			t.Errorf("%s: refusing it allocated %d bytes", name, n)
		}
		t.Logf("%s: %d bytes of text, %d bytes allocated: %v", name, len(text), n, err)
	}
}

// largestMap builds a map at the size limits can accept inside the 4 MiB
// text cap: two levels of 960×960 cells with perimeter walls, a railed
// slab with a ten-lane ramp onto it, the most bodies the wire addresses,
// 4096 sprite frames and 1024 spawn points for each of two teams.
func largestMap() string {
	const n = 960
	var b strings.Builder
	fmt.Fprint(&b, `{"setId":"c1","scale":0.3,"step":32,"physicsStatic":[1],"layers":{"1":[0,4],"2":[1]},"map":`)
	gridText(&b, n, n, func(x, y int) int {
		switch {
		case x == 0 || y == 0 || x == n-1 || y == n-1:
			return 1
		case y >= 400 && y < 410 && x >= 90 && x < 99:
			return 4
		}
		return 0
	})
	fmt.Fprint(&b, `,"levels":{"1":{"floor":[2,3],"walls":[3],"layers":{"1":[2],"4":[3]},"map":`)
	gridText(&b, n, n, func(x, y int) int {
		switch {
		case y < 399 || y > 410 || x < 99 || x > 860:
			return 0
		case y == 399 || y == 410 || x == 860:
			return 3
		}
		return 2
	})
	fmt.Fprint(&b, `}},"ramps":[{"tile":4,"dir":"east"}],"spriteSheet":{"img":"tiles.png","frames":[`)
	for i := 0; i < 4096; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "[%d,%d,32,32]", i%64*32, i/64*32)
	}
	fmt.Fprint(&b, `]},"physicsDynamic":[`)
	for i := 0; i < 256; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"position":[%d,6408],"width":16,"height":16,"density":8,"img":"crate.png","layer":3}`, (100+3*i)*32+8)
	}
	fmt.Fprint(&b, `],"respawns":{`)
	for t, team := range []string{"team1", "team2"} {
		if t > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `%q:[`, team)
		for i := 0; i < 1024; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "[%d,%d,%d]", (2+i%900)*32+16, (20+t*500+i/900)*32+16, t*180)
		}
		b.WriteByte(']')
	}
	b.WriteString("}}")
	return b.String()
}

// The largest accepted map costs what its grids cost: 4 bytes a cell for
// the tiles and 4 for the wall-block index of each level, 2 a ground cell
// for the ramp index, and a little besides; nothing grows with the text.
func TestLargestMapAllocation(t *testing.T) {
	text := []byte(largestMap())
	if len(text) > DefaultLimits().Bytes {
		t.Fatalf("%d bytes is beyond the text limit", len(text))
	}
	var m *Map
	var err error
	n := allocated(func() { m, err = Parse(text) })
	if err != nil {
		t.Fatal(err)
	}
	cells := uint64(m.Levels[0].Cols * m.Levels[0].Rows)
	bound := cells*(2*4+2*4+2) + 2<<20
	t.Logf("%d bytes of text, %d cells a level: %d bytes allocated (bound %d)", len(text), cells, n, bound)
	if n > bound {
		t.Fatalf("parsing allocated %d bytes, more than %d", n, bound)
	}
	if len(m.Dynamic) != 256 || len(m.Frames) != 4096 || len(m.Spawns("team2")) != 1024 || len(m.MapLevels().Runs()) != 10 {
		t.Fatalf("parsed %d bodies, %d frames, %d spawns, %d runs", len(m.Dynamic), len(m.Frames), len(m.Spawns("team2")), len(m.MapLevels().Runs()))
	}
}

func BenchmarkParseLargest(b *testing.B) {
	text := []byte(largestMap())
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseRaggedRefused(b *testing.B) {
	text := []byte(`{"step":32,"map":[[0]` + strings.Repeat(`,[0]`, 9999) + `]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text); err == nil {
			b.Fatal("accepted")
		}
	}
}
