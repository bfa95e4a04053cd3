// Package partstest provides a texture store and a recording drawing surface
// for testing parts without a display.
package partstest

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/parts"
	"vimpclient/testkit/capturetest"
)

// Textures is an in-memory parts.Textures; assets listed in Loaded have a
// size, every other asset counts as missing.
type Textures struct {
	names  []string
	byName map[string]parts.Tex
	sizes  map[parts.Tex][2]int
	Loaded map[string][2]int
}

// NewTextures registers baked images.
func NewTextures(baked map[string]*image.RGBA) *Textures {
	t := &Textures{names: []string{""}, byName: map[string]parts.Tex{}, sizes: map[parts.Tex][2]int{}, Loaded: map[string][2]int{}}
	t.Bake(baked)
	return t
}

// Bake implements parts.Textures.
func (t *Textures) Bake(baked map[string]*image.RGBA) {
	for n, img := range baked {
		t.Register(n, img)
	}
}

func (t *Textures) handle(name string) parts.Tex {
	if h, ok := t.byName[name]; ok {
		return h
	}
	h := parts.Tex(len(t.names))
	t.names = append(t.names, name)
	t.byName[name] = h
	return h
}

// Baked implements parts.Textures.
func (t *Textures) Baked(name string) (parts.Tex, bool) {
	h, ok := t.byName[name]
	return h, ok
}

// Asset implements parts.Textures.
func (t *Textures) Asset(file string) parts.Tex {
	h := t.handle("asset:" + file)
	if s, ok := t.Loaded[file]; ok {
		t.sizes[h] = s
	}
	return h
}

// Register implements parts.Textures.
func (t *Textures) Register(name string, img *image.RGBA) parts.Tex {
	h := t.handle(name)
	t.sizes[h] = [2]int{img.Bounds().Dx(), img.Bounds().Dy()}
	return h
}

// Size implements parts.Textures.
func (t *Textures) Size(h parts.Tex) (int, int, bool) {
	s, ok := t.sizes[h]
	return s[0], s[1], ok
}

// Name returns a handle's name.
func (t *Textures) Name(h parts.Tex) string {
	if int(h) < len(t.names) {
		return t.names[h]
	}
	return "?"
}

// Op is one recorded drawing call.
type Op struct {
	Kind  string // image, quad, disc, ring, polyline, label
	Tex   parts.Tex
	Src   parts.Rect
	M     parts.Affine
	C     parts.Color
	X, Y  float64
	R     float64
	Label string
	// H is the height (levels) the call was drawn at.
	H float64
	// Mesh holds a mesh's vertices, Static a static layer.
	Mesh   []parts.MeshVertex
	Static *parts.StaticLayer
	// Layer is a decal layer drawn, Decals the marks it handed over to be
	// painted (copied), each with the alpha it shows at the draw.
	Layer  *parts.DecalLayer
	Decals []parts.Decal
}

// Gfx records drawing calls.
type Gfx struct {
	Ops  []Op
	Rect parts.Rect
	h    float64
}

func (g *Gfx) add(op Op) {
	op.H = g.h
	g.Ops = append(g.Ops, op)
}

// Elevate implements parts.Gfx.
func (g *Gfx) Elevate(h float64) { g.h = h }

// Mesh implements parts.Gfx: the vertices are copied.
func (g *Gfx) Mesh(tex parts.Tex, vs []parts.MeshVertex, is []uint16, c parts.Color) {
	op := Op{Kind: "mesh", Tex: tex, C: c, Mesh: append([]parts.MeshVertex(nil), vs...)}
	if len(vs) > 0 {
		op.X, op.Y = vs[0].X, vs[0].Y
	}
	g.add(op)
}

// Static implements parts.Gfx.
func (g *Gfx) Static(l *parts.StaticLayer) { g.add(Op{Kind: "static", Tex: l.Sheet, Static: l}) }

// Decals implements parts.Gfx: the layer's new marks are taken, as a
// backend paints them, and recorded with the alpha they show now.
func (g *Gfx) Decals(l *parts.DecalLayer) {
	op := Op{Kind: "decals", Layer: l}
	for _, d := range l.Take() {
		d.C.A = float32(l.Alpha(d))
		op.Decals = append(op.Decals, d)
	}
	g.add(op)
}

// Cell is one drawn cell of a static layer.
type Cell struct {
	Col, Row int
	parts.StaticCell
}

// Cells lists what every cell of a static layer shows, with the sheet
// loaded or not, row by row.
func Cells(l *parts.StaticLayer, sheet bool) []Cell {
	var out []Cell
	for row := range l.Rows {
		for col := range l.Cols {
			if c, ok := l.At(col, row, sheet); ok {
				out = append(out, Cell{Col: col, Row: row, StaticCell: c})
			}
		}
	}
	return out
}

// Kinds counts the recorded calls by kind.
func (g *Gfx) Kinds() map[string]int {
	n := map[string]int{}
	for _, op := range g.Ops {
		n[op.Kind]++
	}
	return n
}

// Image implements parts.Gfx.
func (g *Gfx) Image(tex parts.Tex, src parts.Rect, m parts.Affine, c parts.Color) {
	x, y := m.Apply(src.W/2, src.H/2)
	g.add(Op{Kind: "image", Tex: tex, Src: src, M: m, C: c, X: x, Y: y})
}

// Quad implements parts.Gfx.
func (g *Gfx) Quad(m parts.Affine, c parts.Color) {
	x, y := m.Apply(0.5, 0.5)
	g.add(Op{Kind: "quad", M: m, C: c, X: x, Y: y})
}

// Disc implements parts.Gfx.
func (g *Gfx) Disc(x, y, r float64, c parts.Color) {
	g.add(Op{Kind: "disc", X: x, Y: y, R: r, C: c})
}

// Ring implements parts.Gfx.
func (g *Gfx) Ring(x, y, r, w float64, c parts.Color) {
	g.add(Op{Kind: "ring", X: x, Y: y, R: r, C: c})
}

// Polyline implements parts.Gfx.
func (g *Gfx) Polyline(pts []parts.Vec, width float64, c parts.Color) {
	op := Op{Kind: "polyline", R: width, C: c}
	if len(pts) > 0 {
		op.X, op.Y = pts[0].X, pts[0].Y
	}
	g.add(op)
}

// Label implements parts.Gfx.
func (g *Gfx) Label(s string, x, y, h float64, c parts.Color) {
	g.add(Op{Kind: "label", Label: s, X: x, Y: y, R: h, C: c})
}

// View implements parts.Gfx.
func (g *Gfx) View() parts.Rect { return g.Rect }

// Shared returns the path of a file under the repository's test data
// (testdata/ at the module root, or $VIMP_SHARED), failing the test when it
// is absent.
func Shared(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(capturetest.SharedDir(t), rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("test data %s: %v", rel, err)
	}
	return p
}

// Seq returns a deterministic [0,1) source.
func Seq(seed uint64) func() float64 {
	s := seed | 1
	return func() float64 {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		return float64(s>>11) / (1 << 53)
	}
}

// SoundCall is one recorded sound manager call.
type SoundCall struct {
	Op   string // register, update, unregister, release
	Name string
	ID   parts.SoundID
	D    parts.SoundData
}

// Sounds records calls; every name is known. With Quiet set it records
// nothing (benchmarks).
type Sounds struct {
	Quiet bool
	Calls []SoundCall
	next  parts.SoundID
	live  map[parts.SoundID]bool
}

// Register implements parts.Sounds.
func (s *Sounds) Register(name string, d parts.SoundData) (parts.SoundID, bool) {
	if s.live == nil {
		s.live = map[parts.SoundID]bool{}
	}
	s.next++
	s.live[s.next] = true
	s.Calls = append(s.Calls, SoundCall{Op: "register", Name: name, ID: s.next, D: d})
	return s.next, true
}

// Update implements parts.Sounds.
func (s *Sounds) Update(id parts.SoundID, d parts.SoundData) bool {
	if !s.Quiet {
		s.Calls = append(s.Calls, SoundCall{Op: "update", ID: id, D: d})
	}
	return s.live[id]
}

// Unregister implements parts.Sounds.
func (s *Sounds) Unregister(id parts.SoundID) {
	delete(s.live, id)
	s.Calls = append(s.Calls, SoundCall{Op: "unregister", ID: id})
}

// Release implements parts.Sounds.
func (s *Sounds) Release(id parts.SoundID) {
	delete(s.live, id)
	s.Calls = append(s.Calls, SoundCall{Op: "release", ID: id})
}

// Live reports how many registrations are live.
func (s *Sounds) Live() int { return len(s.live) }
