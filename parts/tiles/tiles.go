// Package tiles draws MAP_DATA tile layers from the host's sprite sheet: one
// part per layer per level, culled to the view, with procedural tiles while
// the sheet is missing. Level n > 0 layers draw above the ground (z + 10·n).
package tiles

import (
	"math"

	"vimpclient/gamemap"
	"vimpclient/parts"
)

// Build creates the static layer parts of every level.
func Build(c *parts.Ctx, m *gamemap.Map) []parts.Part {
	var static []parts.Part
	sheet := parts.NoTex
	if m.Sheet != "" {
		sheet = c.Tex.Asset(m.Sheet)
	}
	for li := range m.Levels {
		lv := &m.Levels[li]
		for _, layer := range lv.Layers {
			tl := &TileLayer{c: c, m: m, lv: lv, sheet: sheet, draw: Lookup(layer.Tiles), solid: Lookup(lv.Solid)}
			tl.h = c.Stage.Add(layer.Z+10*lv.Index, tl)
			static = append(static, tl)
		}
	}
	return static
}

// MapBuilder is the map builder for games without their own map part.
type MapBuilder struct{}

// BuildMap implements parts.MapBuilder.
func (MapBuilder) BuildMap(c *parts.Ctx, m *gamemap.Map) ([]parts.Part, map[uint32]parts.Part) {
	return Build(c, m), nil
}

// Lookup turns a tile list into a membership table indexed by tile value.
func Lookup(tiles []int) []bool {
	n := 0
	for _, t := range tiles {
		if t >= 0 && t < 1<<16 && t+1 > n {
			n = t + 1
		}
	}
	out := make([]bool, n)
	for _, t := range tiles {
		if t >= 0 && t < n {
			out[t] = true
		}
	}
	return out
}

func In(tab []bool, v int) bool { return v >= 0 && v < len(tab) && tab[v] }

// TileLayer draws one render layer of one level, culled to the view.
type TileLayer struct {
	c     *parts.Ctx
	m     *gamemap.Map
	lv    *gamemap.Level
	sheet parts.Tex
	draw  []bool
	solid []bool
	h     parts.Handle
}

// Update implements parts.Part.
func (t *TileLayer) Update([]float32) {}

// Step implements parts.Part.
func (t *TileLayer) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (t *TileLayer) Destroy() { t.c.Stage.Remove(t.h) }

// Procedural tile colours when the sprite sheet is missing or refused.
var (
	fallbackWall  = parts.RGB(0x5a5a5a)
	fallbackFloor = [4]parts.Color{parts.RGB(0x3d4a32), parts.RGB(0x44523a), parts.RGB(0x394530), parts.RGB(0x2f5a6e)}
)

// Draw implements parts.Drawable.
func (t *TileLayer) Draw(g parts.Gfx) {
	cell := t.m.CellWorld()
	v := g.View()
	c0 := max(0, int(math.Floor(v.X/cell)))
	r0 := max(0, int(math.Floor(v.Y/cell)))
	c1 := min(t.lv.Cols, int(math.Ceil((v.X+v.W)/cell))+1)
	r1 := min(t.lv.Rows, int(math.Ceil((v.Y+v.H)/cell))+1)
	sw, sh, ok := t.c.Tex.Size(t.sheet)
	for row := r0; row < r1; row++ {
		for col := c0; col < c1; col++ {
			tile := t.lv.Tile(col, row)
			if !In(t.draw, tile) {
				continue
			}
			x, y := float64(col)*cell, float64(row)*cell
			if ok && tile < len(t.m.Frames) {
				f := t.m.Frames[tile]
				if f[0] >= 0 && f[1] >= 0 && f[0]+f[2] <= float64(sw) && f[1]+f[3] <= float64(sh) && f[2] > 0 && f[3] > 0 {
					m := parts.Identity().Scale(t.m.Step/f[2]*t.m.Scale, t.m.Step/f[3]*t.m.Scale).Translate(x, y)
					g.Image(t.sheet, parts.Rect{X: f[0], Y: f[1], W: f[2], H: f[3]}, m, parts.White())
					continue
				}
			}
			col := fallbackFloor[tile&3]
			if In(t.solid, tile) {
				col = fallbackWall
			}
			g.Quad(parts.Identity().Scale(cell, cell).Translate(x, y), col)
		}
	}
}
