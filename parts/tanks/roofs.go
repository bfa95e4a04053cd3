package tanks

import (
	"encoding/json"
	"math"
	"strconv"

	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
)

// Roofs: a map's game data names, level by level, the tiles that are roofs
// ({"1": [13]}: tile 13 of level 1). The cells of the level that show one,
// joined where they touch side by side, are the roofs, each a building's.
// A roof is drawn as its layer draws it, over everything of the levels
// below; while the own tank stands under one (on a lower level, inside its
// cells) that roof fades to see-through, so that the player sees the tank,
// and comes back when the tank leaves. The other roofs stay opaque.

// Limits on a map's roofs, which come from the network.
const (
	maxRoofTiles = 64   // roof tiles named for one level
	maxRoofCells = 8192 // over every level
	maxRoofs     = 256
)

// The fade of a roof over the own tank.
const (
	roofSeeThrough = 0.3 // its alpha while the tank is under it
	roofFadeMs     = 200 // from opaque to see-through, or back
)

// roof is one roof on its level.
type roof struct {
	level int
	runs  []parts.Rect // its cells as world rectangles, runs of a row each
	alpha float64      // 1 opaque .. roofSeeThrough
}

// roofCell is a cell a tile layer leaves to a roof.
type roofCell struct {
	col, row int
	roof     int // index into the board's roofs
}

// roofBoard is the map part that owns a map's roofs: it fades the roof
// over the own tank, and draws each roof's cells in place of its layer.
type roofBoard struct {
	c     *parts.Ctx
	roofs []roof
	// owner is, per level with roofs, the roof each cell belongs to (its
	// index + 1; 0: none).
	owner map[int][]int16
	cols  map[int]int
	cell  float64 // world units
	// layers are the drawers of the roofs' cells, one per tile layer
	layers []*roofLayer
	// at night a roof that is not opaque leaves its level's light map,
	// which would darken what shows through it twice, and is drawn in the
	// ambient colour instead
	night   bool
	ambient parts.Color
}

// roofLayer draws the roof cells of one tile layer, over the layer's
// tiles (which leave them out) and under whatever the layer drew over
// them before (a turning fan on a roof).
type roofLayer struct {
	b     *roofBoard
	layer *tiles.TileLayer
	at    func(col, row int, sheet bool) (parts.StaticCell, bool) // the layer's own cells
	cells []roofCell
	next  parts.Drawable
}

// parseRoofTiles reads the roofs of map m's game data: for each level
// above the ground the map has, a lookup of its roof tiles (nil when it
// has none). A level key or tile that is not one is left out.
func parseRoofTiles(m *gamemap.Map) map[int][]bool {
	var game struct {
		Roofs map[string][]json.RawMessage `json:"roofs"`
	}
	if m == nil || len(m.Game) == 0 || len(m.Levels) < 2 || json.Unmarshal(m.Game, &game) != nil {
		return nil
	}
	out := map[int][]bool{}
	for key, list := range game.Roofs {
		lv, err := strconv.Atoi(key)
		if err != nil || lv < 1 || lv >= len(m.Levels) {
			continue
		}
		var ids []int
		for _, raw := range list {
			var t float64
			if len(ids) >= maxRoofTiles || json.Unmarshal(raw, &t) != nil || t != math.Trunc(t) || !(t > 0 && t < 1<<15) {
				continue
			}
			ids = append(ids, int(t))
		}
		if len(ids) > 0 {
			out[lv] = tiles.Lookup(ids)
		}
	}
	return out
}

// buildRoofs returns the roofs part of map m, or nil when it has none.
// static are the map's tile layers (tiles.Build), in level and layer
// order: each flat layer that draws roof cells leaves them to the roofs.
// A roof tile in a layer with a volume stays that layer's, opaque.
func buildRoofs(c *parts.Ctx, m *gamemap.Map, static []parts.Part) *roofBoard {
	roofTiles := parseRoofTiles(m)
	if len(roofTiles) == 0 {
		return nil
	}
	cell := m.CellWorld()
	b := &roofBoard{c: c, owner: map[int][]int16{}, cols: map[int]int{}, cell: cell}
	budget := maxRoofCells
	k := 0
	for li := range m.Levels {
		lv := &m.Levels[li]
		isRoof := roofTiles[li]
		for _, layer := range lv.Layers {
			var tl *tiles.TileLayer
			if k < len(static) {
				tl, _ = static[k].(*tiles.TileLayer)
			}
			k++
			if isRoof == nil || tl == nil || tl.Level != li || layer.Volume > 0 {
				continue
			}
			draw := tiles.Lookup(layer.Tiles)
			owner := b.owner[li]
			rl := &roofLayer{b: b, layer: tl}
			for row := range lv.Rows {
				for col := range lv.Cols {
					t := lv.Tile(col, row)
					if !tiles.In(isRoof, t) || !tiles.In(draw, t) {
						continue
					}
					if owner == nil {
						owner = make([]int16, lv.Cols*lv.Rows)
						b.owner[li], b.cols[li] = owner, lv.Cols
					}
					if owner[row*lv.Cols+col] == 0 {
						if budget == 0 || len(b.roofs) >= maxRoofs {
							continue
						}
						budget -= b.flood(lv, owner, col, row, isRoof, budget)
					}
					i := int(owner[row*lv.Cols+col]) - 1
					rl.cells = append(rl.cells, roofCell{col: col, row: row, roof: i})
					b.roofs[i].addCell(col, row, cell)
				}
			}
			if len(rl.cells) == 0 {
				continue
			}
			// the layer bakes its tiles without the roof cells, and draws
			// the roofs over them
			st := tl.Static()
			rl.at = st.At
			st.At = func(col, row int, sheet bool) (parts.StaticCell, bool) {
				if col >= 0 && row >= 0 && col < lv.Cols && row < lv.Rows && owner[row*lv.Cols+col] > 0 {
					return parts.StaticCell{}, false
				}
				return rl.at(col, row, sheet)
			}
			rl.next, tl.Over = tl.Over, rl
			b.layers = append(b.layers, rl)
		}
	}
	if len(b.roofs) == 0 {
		return nil
	}
	return b
}

// addCell adds cell (col, row) to the roof's runs: to the last run when it
// continues it along its row. Cells come row by row, left to right.
func (r *roof) addCell(col, row int, cell float64) {
	x, y := float64(col)*cell, float64(row)*cell
	if n := len(r.runs); n > 0 && r.runs[n-1].Y == y && r.runs[n-1].X+r.runs[n-1].W == x {
		r.runs[n-1].W += cell
		return
	}
	r.runs = append(r.runs, parts.Rect{X: x, Y: y, W: cell, H: cell})
}

// flood makes the roof whose cells touch (col, row) on level lv, marking
// them in owner; it returns how many cells it marked (at most budget).
func (b *roofBoard) flood(lv *gamemap.Level, owner []int16, col, row int, isRoof []bool, budget int) int {
	b.roofs = append(b.roofs, roof{level: lv.Index, alpha: 1})
	id := int16(len(b.roofs))
	stack := [][2]int{{col, row}}
	owner[row*lv.Cols+col] = id
	n := 1
	for len(stack) > 0 && n < budget {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			x, y := p[0]+d[0], p[1]+d[1]
			if x < 0 || y < 0 || x >= lv.Cols || y >= lv.Rows || owner[y*lv.Cols+x] != 0 || !tiles.In(isRoof, lv.Tile(x, y)) || n >= budget {
				continue
			}
			owner[y*lv.Cols+x] = id
			n++
			stack = append(stack, [2]int{x, y})
		}
	}
	return n
}

// over reports which roof covers world point (x, y) on level lv (its
// index; false: none).
func (b *roofBoard) over(lv int, x, y float64) (int, bool) {
	owner, cols := b.owner[lv], b.cols[lv]
	if owner == nil || !(x >= 0 && y >= 0 && x < 1e9 && y < 1e9) || !(b.cell > 0) {
		return 0, false
	}
	col, row := int(x/b.cell), int(y/b.cell)
	if col >= cols || row*cols+col >= len(owner) {
		return 0, false
	}
	if i := owner[row*cols+col]; i > 0 {
		return int(i) - 1, true
	}
	return 0, false
}

// Update implements parts.Part.
func (b *roofBoard) Update([]float32) {}

// Step implements parts.Part: the roof over the own tank fades towards
// see-through, every other roof towards opaque.
func (b *roofBoard) Step(dt float64) bool {
	if !(dt > 0) {
		return true
	}
	under, found := -1, false
	if l := b.c.Local; l != nil && l.Known && b.c.Levels != nil {
		if x, y, ok := b.c.Levels.Where(l.ID); ok {
			at := b.c.Levels.Actor(l.ID)
			for lv := parts.RenderLevel(at.Level, at.H) + 1; lv < gamemap.MaxLevels && !found; lv++ {
				under, found = b.over(lv, x, y)
			}
		}
	}
	step := min(1, dt/roofFadeMs) * (1 - roofSeeThrough)
	for i := range b.roofs {
		r := &b.roofs[i]
		if found && i == under {
			r.alpha = max(roofSeeThrough, r.alpha-step)
		} else {
			r.alpha = min(1, r.alpha+step)
		}
	}
	return true
}

// Destroy implements parts.Part (the roofs' drawing goes with their tile
// layers).
func (b *roofBoard) Destroy(parts.Removal) {}

// opaque reports whether roof i is wholly opaque now.
func (b *roofBoard) opaque(i int) bool { return b.roofs[i].alpha >= 1 }

// Draw implements parts.Drawable: the roof cells in view, each at its
// roof's alpha, then what the layer drew over them before.
func (rl *roofLayer) Draw(g parts.Gfx) {
	b, tl := rl.b, rl.layer
	st := tl.Static()
	v := g.View()
	_, _, sheet := b.c.Tex.Size(st.Sheet)
	tintLit := false
	if lt, ok := g.(parts.Lighter); ok && b.night && lt.Lit() {
		tintLit = true
	}
	for _, cl := range rl.cells {
		r := &b.roofs[cl.roof]
		x, y := float64(cl.col)*st.Cell, float64(cl.row)*st.Cell
		if x+st.Cell < v.X || x > v.X+v.W || y+st.Cell < v.Y || y > v.Y+v.H {
			continue
		}
		c, ok := rl.at(cl.col, cl.row, sheet)
		if !ok {
			continue
		}
		tint := parts.White()
		if tintLit && r.alpha < 1 {
			tint = b.ambient
		}
		tint.A = float32(r.alpha)
		cr := st.CellRect(cl.col, cl.row, c)
		if c.Src.W > 0 && sheet {
			g.Image(st.Sheet, c.Src, parts.Affine{A: cr.W / c.Src.W, D: cr.H / c.Src.H, TX: cr.X, TY: cr.Y}, tint)
			continue
		}
		f := c.Fill
		f.R, f.G, f.B, f.A = f.R*tint.R, f.G*tint.G, f.B*tint.B, f.A*tint.A
		g.Quad(parts.Affine{A: cr.W, D: cr.H, TX: cr.X, TY: cr.Y}, f)
	}
	if rl.next != nil {
		rl.next.Draw(g)
	}
}
