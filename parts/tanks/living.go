package tanks

import (
	"encoding/json"
	"math"
	"strconv"

	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
)

// A living map (the tanks 0.22 maps' game data) moves: its animated tiles
// (water, conveyor belts, boost plates) cycle through their frames of the
// sheet, and its rotating decals (rooftop fans) turn. The baked tile layers
// keep showing a tile's first frame; the animation is drawn over them each
// frame, cell by cell for the cells in view.

// Limits on a map's animation data, which comes from the network.
const (
	maxAnimatedTiles = 64   // tiles with an animation
	maxTileFrames    = 32   // frames of one animation
	maxAnimatedCells = 8192 // cells drawn animated, over every level
	maxDecals        = 256
	maxAnimFps       = 30 // the game's render config's animations.maxFps
	maxRps           = 10 // turns a second of a rotating decal
)

// tileAnim is one animated tile: its frames (sheet rectangles, source
// pixels) and how many of them a second.
type tileAnim struct {
	frames []int
	fps    float64
}

// animCell is one cell drawn animated.
type animCell struct {
	col, row int
	anim     *tileAnim
}

// spinner is a rotating decal: a frame of the sheet turning at its cell.
type spinner struct {
	x, y  float64 // the cell's centre, world units
	frame int
	rps   float64
}

// animGame is the shape of the map game data's animations.
type animGame struct {
	AnimatedTiles map[string]json.RawMessage `json:"animatedTiles"`
	Decals        []json.RawMessage          `json:"decals"`
}

type tileAnimGame struct {
	Kind   string    `json:"kind"`
	Frames []float64 `json:"frames"`
	Fps    *float64  `json:"fps"`
	Speed  *float64  `json:"speed"`
}

type decalGame struct {
	Cell  []float64 `json:"cell"`
	Level float64   `json:"level"`
	Layer float64   `json:"layer"`
	Frame float64   `json:"frame"`
	Kind  string    `json:"kind"`
	Rps   float64   `json:"rps"`
}

// frameOK reports whether f is a frame of the map's sheet.
func frameOK(m *gamemap.Map, f float64) bool {
	return f >= 0 && f < float64(len(m.Frames)) && f == math.Trunc(f)
}

// parseAnims reads the animated tiles of map m's game data: a tile whose
// animation does not parse, names frames the sheet lacks or has no rate is
// left still. A conveyor's rate follows its belt: its chevrons move one
// frame's share of a cell at a time, speed world units a second.
func parseAnims(m *gamemap.Map, game animGame) map[int]*tileAnim {
	out := map[int]*tileAnim{}
	cell := m.CellWorld()
	for key, raw := range game.AnimatedTiles {
		if len(out) >= maxAnimatedTiles {
			break
		}
		tile, err := strconv.Atoi(key)
		if err != nil || tile < 0 || tile >= len(m.Frames) {
			continue
		}
		var a tileAnimGame
		if json.Unmarshal(raw, &a) != nil || a.Kind != "frames" || len(a.Frames) == 0 || len(a.Frames) > maxTileFrames {
			continue
		}
		ta := &tileAnim{}
		for _, f := range a.Frames {
			if !frameOK(m, f) {
				ta = nil
				break
			}
			ta.frames = append(ta.frames, int(f))
		}
		if ta == nil {
			continue
		}
		switch {
		case a.Speed != nil && cell > 0:
			ta.fps = math.Abs(*a.Speed) * float64(len(ta.frames)) / cell
		case a.Fps != nil:
			ta.fps = *a.Fps
		}
		if !(ta.fps > 0) {
			continue
		}
		ta.fps = min(ta.fps, maxAnimFps)
		out[tile] = ta
	}
	return out
}

// living draws one level layer's animated cells and the rotating decals on
// it, at the layer's draw order, over its baked picture.
type living struct {
	c      *parts.Ctx
	m      *gamemap.Map
	sheet  parts.Tex
	level  int
	cells  []animCell
	spin   []spinner
	clock  *float64 // shared by the map's living layers: ms since built
	h      parts.Handle
	staged bool // drawn by its own stage entry, not by its tile layer
}

// livingMap is the map part that owns the living layers and their clock.
type livingMap struct {
	c      *parts.Ctx
	layers []*living
	clock  float64
}

// buildLiving returns the living part of map m, or nil when nothing on it
// moves.
//
// static are the map's tile layers (tiles.Build), in level and layer
// order: a flat layer draws its animated cells itself, over its tiles and
// under its ramps.
func buildLiving(c *parts.Ctx, m *gamemap.Map, static []parts.Part) parts.Part {
	if m == nil || len(m.Game) == 0 || len(m.Levels) == 0 || m.Sheet == "" {
		return nil
	}
	var game animGame
	if json.Unmarshal(m.Game, &game) != nil {
		return nil
	}
	anims := parseAnims(m, game)
	lm := &livingMap{c: c}
	sheet := c.Tex.Asset(m.Sheet)
	cell := m.CellWorld()
	budget := maxAnimatedCells
	k := 0 // the index of the layer's part in static
	for li := range m.Levels {
		lv := &m.Levels[li]
		for _, layer := range lv.Layers {
			var tl *tiles.TileLayer
			if k < len(static) {
				tl, _ = static[k].(*tiles.TileLayer)
			}
			k++
			l := &living{c: c, m: m, sheet: sheet, level: li, clock: &lm.clock}
			draw := tiles.Lookup(layer.Tiles)
			if len(anims) > 0 && layer.Volume == 0 {
				for row := range lv.Rows {
					for col := range lv.Cols {
						t := lv.Tile(col, row)
						if a := anims[t]; a != nil && tiles.In(draw, t) && budget > 0 {
							l.cells = append(l.cells, animCell{col: col, row: row, anim: a})
							budget--
						}
					}
				}
			}
			for i, raw := range game.Decals {
				if i >= maxDecals {
					break
				}
				var d decalGame
				if json.Unmarshal(raw, &d) != nil || d.Kind != "rotate" || len(d.Cell) != 2 || d.Level != float64(li) ||
					d.Layer != float64(layer.Z) || !frameOK(m, d.Frame) ||
					!(d.Cell[0] >= 0 && d.Cell[0] < float64(lv.Cols) && d.Cell[1] >= 0 && d.Cell[1] < float64(lv.Rows)) {
					continue
				}
				l.spin = append(l.spin, spinner{x: (math.Floor(d.Cell[0]) + 0.5) * cell, y: (math.Floor(d.Cell[1]) + 0.5) * cell,
					frame: int(d.Frame), rps: max(-maxRps, min(maxRps, finiteOr0(d.Rps)))})
			}
			if len(l.cells) == 0 && len(l.spin) == 0 {
				continue
			}
			lm.layers = append(lm.layers, l)
			if tl != nil && tl.Volume == 0 && tl.Level == li {
				tl.Over = l
				continue
			}
			z := parts.LevelZ(layer.Z, li)
			if layer.Volume > 0 {
				z = parts.LevelZ(parts.OccluderZ, li) // over the layer's raised top
			}
			l.h = c.Stage.Add(z, l)
			l.staged = true
		}
	}
	if len(lm.layers) == 0 {
		return nil
	}
	return lm
}

// Update implements parts.Part.
func (lm *livingMap) Update([]float32) {}

// Step implements parts.Part: the animations' clock runs on.
func (lm *livingMap) Step(dt float64) bool {
	if dt > 0 && dt < 1e6 {
		lm.clock = math.Mod(lm.clock+dt, 3.6e6) // an hour: every rate here repeats within it
	}
	return true
}

// Destroy implements parts.Part.
func (lm *livingMap) Destroy(parts.Removal) {
	for _, l := range lm.layers {
		if l.staged {
			lm.c.Stage.Remove(l.h)
		}
	}
}

// frameAt is an animation's frame at time ms.
func (a *tileAnim) frameAt(ms float64) int {
	return a.frames[int(math.Floor(ms/1000*a.fps))%len(a.frames)]
}

// src is a sheet frame's rectangle, false when the sheet is not loaded or
// does not hold it.
func (l *living) src(frame int) (parts.Rect, bool) {
	sw, sh, ok := l.c.Tex.Size(l.sheet)
	if !ok || frame < 0 || frame >= len(l.m.Frames) {
		return parts.Rect{}, false
	}
	f := l.m.Frames[frame]
	if f[0] < 0 || f[1] < 0 || f[0]+f[2] > float64(sw) || f[1]+f[3] > float64(sh) || !(f[2] > 0) || !(f[3] > 0) {
		return parts.Rect{}, false
	}
	return parts.Rect{X: f[0], Y: f[1], W: f[2], H: f[3]}, true
}

// Draw implements parts.Drawable: each animated cell in view at its
// current frame, then the decals turning.
func (l *living) Draw(g parts.Gfx) {
	g.Elevate(float64(l.level))
	v := g.View()
	cell := l.m.CellWorld()
	ms := *l.clock
	c0, r0 := int(math.Floor(v.X/cell))-1, int(math.Floor(v.Y/cell))-1
	c1, r1 := int(math.Ceil((v.X+v.W)/cell))+1, int(math.Ceil((v.Y+v.H)/cell))+1
	for i := range l.cells {
		ac := &l.cells[i]
		if ac.col < c0 || ac.col > c1 || ac.row < r0 || ac.row > r1 {
			continue
		}
		src, ok := l.src(ac.anim.frameAt(ms))
		if !ok {
			continue
		}
		m := parts.Affine{A: cell / src.W, D: cell / src.H, TX: float64(ac.col) * cell, TY: float64(ac.row) * cell}
		g.Image(l.sheet, src, m, parts.White())
	}
	for i := range l.spin {
		s := &l.spin[i]
		if s.x < v.X-cell || s.x > v.X+v.W+cell || s.y < v.Y-cell || s.y > v.Y+v.H+cell {
			continue
		}
		src, ok := l.src(s.frame)
		if !ok {
			continue
		}
		turn := math.Mod(ms/1000*s.rps, 1) * 2 * math.Pi
		m := parts.Identity().Translate(-src.W/2, -src.H/2).Scale(cell/src.W, cell/src.H).Rotate(turn).Translate(s.x, s.y)
		g.Image(l.sheet, src, m, parts.White())
	}
}
