// Package gamemap parses MAP_DATA (port 3) into the static render data the
// map parts draw: tile layers per level, the sprite sheet, wall tiles and the
// dynamic bodies. Every size is bounded so a hostile map cannot make the
// client allocate without limit.
package gamemap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits on what a map may declare.
const (
	MaxCells    = 1 << 20 // cols*rows per level
	MaxLevels   = 16
	MaxLayers   = 64
	MaxFrames   = 4096
	MaxDynamic  = 4096
	MaxTileList = 4096
	MaxBytes    = 32 << 20
)

// Layer is one render layer: the tiles it draws, at its z order.
type Layer struct {
	Key   string // the layers key, e.g. "1"
	Z     int    // numeric value of the key (0 when not a number)
	Tiles []int  // tile values drawn by this layer
}

// Level is one grid with its layers; level 0 is the ground.
type Level struct {
	Index      int
	Cols, Rows int
	Grid       []int // row-major, len Cols*Rows
	Layers     []Layer
	Solid      []int // wall tile values on this level
	Floor      []int // floor tile values (empty on level 0)
}

// Tile returns the tile value at (col, row).
func (l *Level) Tile(col, row int) int { return l.Grid[row*l.Cols+col] }

// Body is one dynamic map object (a crate), unscaled.
type Body struct {
	X, Y          float64 // top-left corner
	AngleDeg      float64
	Width, Height float64
	Img           string
	Layer         int // z order; 2 when absent
}

// Map is the parsed MAP_DATA.
type Map struct {
	SetID   string
	Scale   float64
	Step    float64
	Levels  []Level // Levels[0] is the ground grid
	Sheet   string  // sprite sheet image file ("" when none)
	Frames  [][4]float64
	Static  []int // physicsStatic
	Dynamic []Body
	// Raw is the MAP_DATA payload as received, for readers of fields this
	// model does not hold.
	Raw []byte
}

// CellWorld is the world size of one grid cell.
func (m *Map) CellWorld() float64 { return m.Step * m.Scale }

// WorldSize returns the ground grid's size in world units.
func (m *Map) WorldSize() (float64, float64) {
	l := &m.Levels[0]
	return float64(l.Cols) * m.CellWorld(), float64(l.Rows) * m.CellWorld()
}

type rawLevel struct {
	Map    json.RawMessage `json:"map"`
	Layers json.RawMessage `json:"layers"`
	Floor  []int           `json:"floor"`
	Walls  []int           `json:"walls"`
}

type rawMap struct {
	SetID       string          `json:"setId"`
	Scale       *float64        `json:"scale"`
	Step        float64         `json:"step"`
	Map         json.RawMessage `json:"map"`
	Layers      json.RawMessage `json:"layers"`
	SpriteSheet *struct {
		Img    string      `json:"img"`
		Frames [][]float64 `json:"frames"`
	} `json:"spriteSheet"`
	PhysicsStatic  []int `json:"physicsStatic"`
	PhysicsDynamic []struct {
		Position []float64 `json:"position"`
		Angle    float64   `json:"angle"`
		Width    float64   `json:"width"`
		Height   float64   `json:"height"`
		Img      string    `json:"img"`
		Layer    *int      `json:"layer"`
	} `json:"physicsDynamic"`
	Levels []rawLevel `json:"levels"`
}

// Parse reads MAP_DATA. It returns an error for anything it cannot draw
// safely; unknown keys are ignored.
func Parse(b []byte) (*Map, error) {
	if len(b) > MaxBytes {
		return nil, fmt.Errorf("map data: %d bytes exceeds %d", len(b), MaxBytes)
	}
	var r rawMap
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("map data: %w", err)
	}
	m := &Map{SetID: r.SetID, Scale: 0.3, Step: r.Step, Raw: b}
	if r.Scale != nil {
		m.Scale = *r.Scale
	}
	if !(m.Scale > 0) || m.Scale > 1e3 {
		return nil, fmt.Errorf("map data: bad scale %v", m.Scale)
	}
	if !(m.Step > 0) || m.Step > 4096 {
		return nil, fmt.Errorf("map data: bad step %v", m.Step)
	}
	if len(r.PhysicsStatic) > MaxTileList {
		return nil, errors.New("map data: physicsStatic too long")
	}
	m.Static = r.PhysicsStatic
	ground, err := parseLevel(0, r.Map, r.Layers)
	if err != nil {
		return nil, err
	}
	ground.Solid = m.Static
	m.Levels = append(m.Levels, ground)
	if len(r.Levels) > MaxLevels {
		return nil, fmt.Errorf("map data: %d levels exceeds %d", len(r.Levels), MaxLevels)
	}
	for i, rl := range r.Levels {
		lv, err := parseLevel(i+1, rl.Map, rl.Layers)
		if err != nil {
			return nil, err
		}
		if len(rl.Walls) > MaxTileList || len(rl.Floor) > MaxTileList {
			return nil, fmt.Errorf("map data: level %d: tile list too long", i+1)
		}
		lv.Solid, lv.Floor = rl.Walls, rl.Floor
		m.Levels = append(m.Levels, lv)
	}
	if ss := r.SpriteSheet; ss != nil {
		if len(ss.Frames) > MaxFrames {
			return nil, errors.New("map data: too many sprite frames")
		}
		if ss.Img != "" && !SafeName(ss.Img) {
			return nil, fmt.Errorf("map data: bad sprite sheet name %q", ss.Img)
		}
		m.Sheet = ss.Img
		for i, f := range ss.Frames {
			if len(f) != 4 || !finite(f...) || f[2] < 0 || f[3] < 0 {
				return nil, fmt.Errorf("map data: sprite frame %d is not [x,y,w,h]", i)
			}
			m.Frames = append(m.Frames, [4]float64{f[0], f[1], f[2], f[3]})
		}
	}
	if len(r.PhysicsDynamic) > MaxDynamic {
		return nil, errors.New("map data: too many dynamic bodies")
	}
	for i, d := range r.PhysicsDynamic {
		if len(d.Position) != 2 || !finite(d.Position[0], d.Position[1], d.Angle, d.Width, d.Height) || d.Width < 0 || d.Height < 0 {
			return nil, fmt.Errorf("map data: dynamic body %d malformed", i)
		}
		if d.Img != "" && !SafeName(d.Img) {
			return nil, fmt.Errorf("map data: dynamic body %d: bad image name %q", i, d.Img)
		}
		b := Body{X: d.Position[0], Y: d.Position[1], AngleDeg: d.Angle, Width: d.Width, Height: d.Height, Img: d.Img, Layer: 2}
		if d.Layer != nil {
			b.Layer = *d.Layer
		}
		m.Dynamic = append(m.Dynamic, b)
	}
	return m, nil
}

func parseLevel(idx int, rawGrid, rawLayers json.RawMessage) (Level, error) {
	lv := Level{Index: idx}
	var grid [][]int
	if len(rawGrid) > 0 && string(rawGrid) != "null" {
		if err := json.Unmarshal(rawGrid, &grid); err != nil {
			return lv, fmt.Errorf("map data: level %d grid: %w", idx, err)
		}
	}
	lv.Rows = len(grid)
	for _, row := range grid {
		if len(row) > lv.Cols {
			lv.Cols = len(row)
		}
	}
	if lv.Rows > 0 && lv.Cols > MaxCells/lv.Rows {
		return lv, fmt.Errorf("map data: level %d grid %dx%d too large", idx, lv.Cols, lv.Rows)
	}
	lv.Grid = make([]int, lv.Cols*lv.Rows)
	for y, row := range grid {
		for x := range lv.Cols {
			v := -1 // short rows are padded with "no tile"
			if x < len(row) {
				v = row[x]
			}
			lv.Grid[y*lv.Cols+x] = v
		}
	}
	layers, err := parseLayers(rawLayers)
	if err != nil {
		return lv, fmt.Errorf("map data: level %d: %w", idx, err)
	}
	lv.Layers = layers
	return lv, nil
}

// parseLayers reads the layers object keeping its key order.
func parseLayers(raw json.RawMessage) ([]Layer, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("layers: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("layers: not an object")
	}
	var out []Layer
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("layers: %w", err)
		}
		key, _ := kt.(string)
		var tiles []int
		if err := dec.Decode(&tiles); err != nil {
			return nil, fmt.Errorf("layer %q: %w", key, err)
		}
		if len(out) >= MaxLayers || len(tiles) > MaxTileList {
			return nil, errors.New("layers: too many")
		}
		z, err := strconv.Atoi(key)
		if err != nil {
			z = 0
		}
		out = append(out, Layer{Key: key, Z: z, Tiles: tiles})
	}
	return out, nil
}

// SafeName reports whether s is a plain relative file name that may be
// appended to the asset base: no scheme, no parent references, no
// absolute path, no query.
func SafeName(s string) bool {
	if s == "" || len(s) > 200 || strings.HasPrefix(s, "/") || strings.Contains(s, "..") ||
		strings.ContainsAny(s, "\\?#:%\x00") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Contains reports whether v is in list.
func Contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
