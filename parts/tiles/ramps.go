package tiles

import (
	"math"

	"vimpclient/gamemap"
	"vimpclient/parts"
)

// wedgeSegments is how many strips a ramp's slope has per cell: the height
// projection grows along the run, and four straight strips per cell look
// like the curve it makes.
const wedgeSegments = 4

// wedge is one ramp run as drawn: a slope from the level it leaves to the
// level it reaches, with skirts.
type wedge struct {
	run              gamemap.RampRun
	tile             int
	from, to         float64 // heights in levels at progress 0 and 1
	low, high        float64
	sideMin, sideMax bool // the run's cross edges that are its block's outer sides
	rails            bool
	railLo, railHi   float64 // the stretch the side rails hold, along the axis
	cell             float64
	x0, y0, x1, y1   float64 // the run's world rectangle
}

// buildWedges returns the ramp runs a layer of level draws: those whose
// ramp tile lies in level's grid and in the layer's tiles.
func buildWedges(m *gamemap.Map, level int, draw []bool) []wedge {
	ml := m.MapLevels()
	if ml == nil || len(m.Ramps) == 0 {
		return nil
	}
	runs := ml.Runs()
	type extent struct{ lo, hi float32 }
	blocks := map[int]extent{}
	for _, r := range runs {
		e, ok := blocks[r.Block]
		if !ok {
			e = extent{r.CrossMin, r.CrossMax}
		}
		blocks[r.Block] = extent{min(e.lo, r.CrossMin), max(e.hi, r.CrossMax)}
	}
	tile := ml.TileSize()
	var out []wedge
	for _, r := range runs {
		if r.Ramp < 0 || r.Ramp >= len(m.Ramps) || r.From != level {
			continue
		}
		rt := m.Ramps[r.Ramp].Tile
		if !In(draw, rt) {
			continue
		}
		e := blocks[r.Block]
		w := wedge{run: r, tile: rt, from: float64(r.From), to: float64(r.To),
			low: float64(min(r.From, r.To)), high: float64(max(r.From, r.To)),
			sideMin: r.CrossMin == e.lo, sideMax: r.CrossMax == e.hi, cell: float64(tile)}
		if lo, hi, ok := gamemap.RampRailSpan(r, tile); ok {
			w.rails, w.railLo, w.railHi = true, float64(lo), float64(hi)
		}
		w.x0, w.y0 = w.point(float64(r.Min), float64(r.CrossMin))
		w.x1, w.y1 = w.point(float64(r.Max), float64(r.CrossMax))
		out = append(out, w)
	}
	return out
}

// point turns (along, across) the run's axis into world x, y.
func (w *wedge) point(along, cross float64) (float64, float64) {
	if w.run.Axis == 0 {
		return along, cross
	}
	return cross, along
}

// height is the slope's height at a point along the axis, as a body
// climbing the run has it: from + (to - from)·progress.
func (w *wedge) height(along float64) float64 {
	span := float64(w.run.Max - w.run.Min)
	p := 0.0
	if span > 0 {
		p = math.Min(1, math.Max(0, (along-float64(w.run.Min))/span))
	}
	if w.run.Sign < 0 {
		p = 1 - p
	}
	return w.from + (w.to-w.from)*p
}

// uv is the texture point of a frame at a share along the cell and a share
// across the run.
func (w *wedge) uv(f parts.Rect, along, across float64) (float64, float64) {
	if w.run.Axis == 0 {
		return f.X + along*f.W, f.Y + across*f.H
	}
	return f.X + across*f.W, f.Y + along*f.H
}

func (t *TileLayer) vertex(w *wedge, f parts.Rect, along, cross, h, ua, uc float64) {
	x, y := w.point(along, cross)
	u, v := w.uv(f, ua, uc)
	t.mesh = append(t.mesh, parts.MeshVertex{X: x, Y: y, H: h, U: u, V: v})
}

func (t *TileLayer) quad() {
	n := uint16(len(t.mesh) - 4)
	t.idx = append(t.idx, n, n+1, n+2, n, n+2, n+3)
}

// drawWedges draws the layer's ramps: the skirts first (the side that faces
// away from the viewer is then covered by the slope), then the slopes.
func (t *TileLayer) drawWedges(g parts.Gfx) {
	if len(t.ramps) == 0 {
		return
	}
	g.Elevate(0)
	view := g.View()
	for i := range t.ramps {
		w := &t.ramps[i]
		if w.x1 < view.X || w.y1 < view.Y || w.x0 > view.X+view.W || w.y0 > view.Y+view.H {
			continue
		}
		f, textured := t.frame(w.tile)
		tex, tint, side := t.sheet, parts.White(), sideTint
		if !textured {
			f = parts.Rect{}
			tex, tint = parts.NoTex, fallbackFloor[w.tile&3]
			side = mul(tint, sideTint)
		}
		t.mesh, t.idx = t.mesh[:0], t.idx[:0]
		t.skirts(w, f)
		g.Mesh(tex, t.mesh, t.idx, side)
		t.mesh, t.idx = t.mesh[:0], t.idx[:0]
		t.slope(w, f)
		g.Mesh(tex, t.mesh, t.idx, tint)
	}
}

// slope adds the run's surface, wedgeSegments strips per cell.
func (t *TileLayer) slope(w *wedge, f parts.Rect) {
	r := &w.run
	c0, c1 := float64(r.CrossMin), float64(r.CrossMax)
	step := w.cell / wedgeSegments
	for cell := r.Cell0; cell < r.Cell1; cell++ {
		start := float64(cell) * w.cell
		for s := range wedgeSegments {
			a0, a1 := start+float64(s)*step, start+float64(s+1)*step
			f0, f1 := float64(s)/wedgeSegments, float64(s+1)/wedgeSegments
			h0, h1 := w.height(a0), w.height(a1)
			t.vertex(w, f, a0, c0, h0, f0, 0)
			t.vertex(w, f, a1, c0, h1, f1, 0)
			t.vertex(w, f, a1, c1, h1, f1, 1)
			t.vertex(w, f, a0, c1, h0, f0, 1)
			t.quad()
		}
	}
}

// skirts adds the run's sides where its rails stand, and the wall across
// its upper end: the slope is an embankment, closed wherever the physics
// closes it, open at its foot.
func (t *TileLayer) skirts(w *wedge, f parts.Rect) {
	r := &w.run
	// The frame's texels one pixel inside its edge, stretched down the face.
	inMin, inMax := 0.0, 1.0
	if w.run.Axis == 0 && f.H > 2 {
		inMin, inMax = 1/f.H, 1-1/f.H
	} else if w.run.Axis == 1 && f.W > 2 {
		inMin, inMax = 1/f.W, 1-1/f.W
	}
	if w.rails {
		step := w.cell / wedgeSegments
		for _, side := range [2]struct {
			on    bool
			cross float64
			uc    float64
		}{{w.sideMin, float64(r.CrossMin), inMin}, {w.sideMax, float64(r.CrossMax), inMax}} {
			if !side.on {
				continue
			}
			for a0 := w.railLo; a0 < w.railHi-step/2; a0 += step {
				a1 := math.Min(a0+step, w.railHi)
				s0 := math.Mod(a0, w.cell) / w.cell
				s1 := s0 + (a1-a0)/w.cell
				t.vertex(w, f, a0, side.cross, w.height(a0), s0, side.uc)
				t.vertex(w, f, a1, side.cross, w.height(a1), s1, side.uc)
				t.vertex(w, f, a1, side.cross, w.low, s1, side.uc)
				t.vertex(w, f, a0, side.cross, w.low, s0, side.uc)
				t.quad()
			}
		}
	}
	// The upper end: where the slope is highest.
	end, ua := float64(r.Max), inMax
	if (w.to > w.from) != (r.Sign > 0) {
		end, ua = float64(r.Min), inMin
	}
	if w.high > w.low {
		c0, c1 := float64(r.CrossMin), float64(r.CrossMax)
		t.vertex(w, f, end, c0, w.high, ua, 0)
		t.vertex(w, f, end, c1, w.high, ua, 1)
		t.vertex(w, f, end, c1, w.low, ua, 1)
		t.vertex(w, f, end, c0, w.low, ua, 0)
		t.quad()
	}
}
