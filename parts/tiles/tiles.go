// Package tiles draws MAP_DATA's tile layers from the host's sprite sheet,
// level by level: level 0 from the map's layers over its grid, level n from
// levels[n].layers over levels[n].map. Every layer is a static layer, which
// the drawing backend renders once and draws in baked pieces; it shows
// procedural tiles while the sheet is missing.
//
// Levels above the ground are drawn by the height projection (parts.Project):
// a layer of level n stands n levels up. A layer with a volume (the map's
// volumes) stands that many levels taller still: its sides are drawn as a
// skirt down to its level and its tiles on top, above the bodies of its
// level, so what stands behind a wall goes behind it. Ramps are drawn by
// the layer that draws their tiles, as wedges rising from the level they
// leave to the level they reach, with skirts along the stretch the ramp's
// rails hold (gamemap.RampRailSpan) and across their upper end.
package tiles

import (
	"math"

	"vimpclient/gamemap"
	"vimpclient/parts"
)

// Build creates the static layer parts of every level; the parts are
// numbered s0..sN across all levels, in level order.
func Build(c *parts.Ctx, m *gamemap.Map) []parts.Part {
	var static []parts.Part
	sheet := parts.NoTex
	if m.Sheet != "" {
		sheet = c.Tex.Asset(m.Sheet)
	}
	for li := range m.Levels {
		lv := &m.Levels[li]
		for _, layer := range lv.Layers {
			static = append(static, newTileLayer(c, m, lv, layer, sheet, len(static)))
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

// In reports whether tile value v is in a Lookup table.
func In(tab []bool, v int) bool { return v >= 0 && v < len(tab) && tab[v] }

// TileLayer draws one render layer of one level.
type TileLayer struct {
	c      *parts.Ctx
	m      *gamemap.Map
	lv     *gamemap.Level
	ID     int // the instance number, s<ID>
	sheet  parts.Tex
	draw   []bool
	solid  []bool
	Level  int
	Volume float64 // visual height in levels (0: flat)
	layer  parts.StaticLayer
	h      parts.Handle
	top    *volumeTop // the raised sides and top of a layer with a volume
	ramps  []wedge
	mesh   []parts.MeshVertex
	idx    []uint16
	// Over draws over the layer's tiles and under its ramps (a game's
	// animated cells: a ramp rising over them hides them); nil: nothing.
	Over parts.Drawable
}

func newTileLayer(c *parts.Ctx, m *gamemap.Map, lv *gamemap.Level, layer gamemap.Layer, sheet parts.Tex, id int) *TileLayer {
	t := &TileLayer{c: c, m: m, lv: lv, ID: id, sheet: sheet, draw: Lookup(layer.Tiles), solid: Lookup(lv.Solid),
		Level: lv.Index, Volume: math.Min(max(layer.Volume, 0), parts.MaxHeight)}
	detail := 0.0
	for _, tile := range layer.Tiles {
		if tile >= 0 && tile < len(m.Frames) {
			f := m.Frames[tile]
			detail = math.Max(detail, math.Max(f[2], f[3]))
		}
	}
	t.layer = parts.StaticLayer{Cols: lv.Cols, Rows: lv.Rows, Cell: m.CellWorld(), Sheet: sheet, DetailPx: math.Max(detail, 1), At: t.at}
	t.ramps = buildWedges(m, lv.Index, t.draw)
	t.h = c.Stage.Add(parts.LevelZ(layer.Z, lv.Index), t)
	if t.Volume > 0 {
		t.top = &volumeTop{t: t}
		t.top.h = c.Stage.Add(parts.LevelZ(parts.OccluderZ, lv.Index), t.top)
	}
	return t
}

// Update implements parts.Part.
func (t *TileLayer) Update([]float32) {}

// Step implements parts.Part.
func (t *TileLayer) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (t *TileLayer) Destroy(parts.Removal) {
	t.c.Stage.Remove(t.h)
	if t.top != nil {
		t.c.Stage.Remove(t.top.h)
	}
}

// Static is the layer as the backend bakes it.
func (t *TileLayer) Static() *parts.StaticLayer { return &t.layer }

// Procedural tile colours when the sprite sheet is missing or refused.
var (
	fallbackWall  = parts.RGB(0x5a5a5a)
	fallbackFloor = [4]parts.Color{parts.RGB(0x3d4a32), parts.RGB(0x44523a), parts.RGB(0x394530), parts.RGB(0x2f5a6e)}
)

// sideTint darkens the sides of volumes and ramps.
var sideTint = parts.RGB(0x9aa0aa)

// frame returns a tile's frame when the sheet is loaded and holds it.
func (t *TileLayer) frame(tile int) (parts.Rect, bool) {
	sw, sh, ok := t.c.Tex.Size(t.sheet)
	if !ok || tile < 0 || tile >= len(t.m.Frames) {
		return parts.Rect{}, false
	}
	f := t.m.Frames[tile]
	if f[0] >= 0 && f[1] >= 0 && f[0]+f[2] <= float64(sw) && f[1]+f[3] <= float64(sh) && f[2] > 0 && f[3] > 0 {
		return parts.Rect{X: f[0], Y: f[1], W: f[2], H: f[3]}, true
	}
	return parts.Rect{}, false
}

func (t *TileLayer) fallback(tile int) parts.Color {
	if In(t.solid, tile) {
		return fallbackWall
	}
	return fallbackFloor[tile&3]
}

// at is the layer's StaticLayer.At.
func (t *TileLayer) at(col, row int, sheet bool) (parts.StaticCell, bool) {
	tile := t.lv.Tile(col, row)
	if !In(t.draw, tile) {
		return parts.StaticCell{}, false
	}
	if sheet {
		if f, ok := t.frame(tile); ok {
			return parts.StaticCell{Src: f}, true
		}
	}
	return parts.StaticCell{Fill: t.fallback(tile)}, true
}

// has reports whether the layer draws cell (col, row).
func (t *TileLayer) has(col, row int) bool {
	return col >= 0 && row >= 0 && col < t.lv.Cols && row < t.lv.Rows && In(t.draw, t.lv.Tile(col, row))
}

// Draw implements parts.Drawable: the layer at its level (a layer with a
// volume is drawn by its top instead), then the ramps it draws.
func (t *TileLayer) Draw(g parts.Gfx) {
	g.Elevate(float64(t.Level))
	if t.top == nil {
		g.Static(&t.layer)
	}
	if t.Over != nil {
		t.Over.Draw(g)
		g.Elevate(float64(t.Level))
	}
	t.drawWedges(g)
}
