package tanks

import (
	"encoding/json"
	"math"
	"strconv"
	tankgame "vimpclient/games/tanks"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
)

// MapFactory is the Map part class: static tile layers from MAP_DATA and
// the crates moved by the map set's rows. On a layered map a crate's row
// carries its height (role z, world units above the ground) and level
// (role level), and maybe its state byte (role state: 1 damaged, 2
// destroyed); without those roles the crates are drawn flat.
type MapFactory struct{}

type mapBinding struct{ f tankgame.CrateRow }

// Bind implements parts.Factory.
func (MapFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	f, err := clientcore.BindLayout(k, tankgame.BindCrateRow) // the velocities are the prediction's
	return &mapBinding{f}, err
}

// New implements parts.Binding: crates exist only through MAP_DATA, so a
// row for an unknown crate creates nothing.
func (b *mapBinding) New(*parts.Ctx, uint32, []float32) parts.Part { return nil }

// BuildMap implements parts.MapBuilder.
func (b *mapBinding) BuildMap(c *parts.Ctx, m *gamemap.Map) ([]parts.Part, map[uint32]parts.Part) {
	static := tiles.Build(c, m)
	if p := buildLiving(c, m, static); p != nil {
		static = append(static, p)
	}
	roofs := buildRoofs(c, m, static) // after the living layers: a fan on a roof turns over it
	if roofs != nil {
		static = append(static, roofs)
	}
	if n := buildNight(c, m); n != nil {
		n.(*night).withRoofs(roofs, m)
		static = append(static, n)
	}
	if s := buildSigns(c, m, c.Sky.Night()); s != nil {
		static = append(static, s)
	}
	dyn := map[uint32]parts.Part{}
	layered := b.f.Layered()
	for i, body := range m.Dynamic {
		cr := &Crate{b: b, c: c, scale: m.Scale, body: body, X: body.X * m.Scale, Y: body.Y * m.Scale, Angle: body.AngleDeg * math.Pi / 180}
		if layered {
			cr.Level, cr.H = body.Level, float64(body.Level)
		}
		if body.Img != "" {
			cr.tex = c.Tex.Asset(body.Img)
		}
		cr.looks(body.Game)
		cr.h = c.Stage.Add(cr.z(), cr)
		dyn[uint32(i)] = cr
	}
	return static, dyn
}

// Crate states from the role-state byte.
const (
	crateDamaged   = 1
	crateDestroyed = 2
)

// Crate is one dynamic map body, drawn from its top-left origin at its
// height: a crate falling off a slab shrinks towards the level it lands on.
type Crate struct {
	b           *mapBinding
	c           *parts.Ctx
	scale       float64
	body        gamemap.Body
	X, Y, Angle float64
	Level       int     // the level it stands on
	H           float64 // its height above the ground in levels
	State       int
	tex         parts.Tex
	h           parts.Handle
	// the looks of its states: its own damaged and destroyed images (the
	// map's body game data names them), else a scorch where it stood; the
	// splinters of its breaking
	texDamaged, texDestroyed parts.Tex
	scorchTex                parts.Tex
	scorchRot                float64
	debrisTex                [debrisKinds]parts.Tex
	rowSeen                  bool
	Burst                    propBurst
}

// propGame is what the tanks game says of a prop in its map body's game
// data: the images of its damaged and destroyed states.
type propGame struct {
	ImgDamaged   string `json:"imgDamaged"`
	ImgDestroyed string `json:"imgDestroyed"`
}

// looks takes the prop's state images from its game data (data that does
// not parse names none) and the baked splinters.
func (cr *Crate) looks(game json.RawMessage) {
	var g propGame
	if len(game) > 0 && json.Unmarshal(game, &g) == nil {
		if g.ImgDamaged != "" {
			cr.texDamaged = cr.c.Tex.Asset(g.ImgDamaged)
		}
		if g.ImgDestroyed != "" {
			cr.texDestroyed = cr.c.Tex.Asset(g.ImgDestroyed)
		}
	}
	for i := range cr.debrisTex {
		cr.debrisTex[i], _ = cr.c.Tex.Baked("debris." + strconv.Itoa(i))
	}
}

// z is the crate's draw order: its layer on the level it is drawn on (a
// destroyed crate lies under the tanks).
func (cr *Crate) z() int {
	base := cr.body.Layer
	if cr.State >= crateDestroyed {
		base = 1
	}
	return parts.LevelZ(base, parts.RenderLevel(cr.Level, cr.H))
}

// Update implements parts.Part: rows are in world units.
func (cr *Crate) Update(row []float32) {
	// a place that is not a number (a bad row) leaves the prop where it was
	if x, y, a := cr.b.f.X.Float64(row), cr.b.f.Y.Float64(row), cr.b.f.Angle.Float64(row); finite(x) && finite(y) && finite(a) {
		cr.X, cr.Y, cr.Angle = x, y, a
	}
	if cr.b.f.Level.Bound() {
		cr.Level = min(max(int(cr.b.f.Level.Get(row)), 0), gamemap.MaxLevels-1)
		cr.H = cr.b.f.Z.Float64(row) // in levels
	}
	prev, first := cr.State, !cr.rowSeen
	cr.rowSeen = true
	cr.State = max(0, min(crateDestroyed, int(cr.b.f.State.Get(row))))
	if cr.State == crateDestroyed && cr.scorchTex == parts.NoTex {
		// its scorch is chosen when it is first seen destroyed: a map's
		// props take nothing of the scene's random sequence until then
		cr.scorchTex, _ = cr.c.Tex.Baked("scorch." + strconv.Itoa(int(cr.c.Rand()*scorchKinds)%scorchKinds))
		cr.scorchRot = cr.c.Rand() * 2 * math.Pi
	}
	switch {
	case cr.State == crateDestroyed && prev != crateDestroyed && !first:
		cr.breakUp()
	case cr.State != crateDestroyed:
		cr.Burst.stop(cr.c) // restored for a new round
	}
	cr.h = cr.c.Stage.Move(cr.h, cr.z())
}

// centre is the prop's centre in world units (its rows carry its corner).
func (cr *Crate) centre() (float64, float64) {
	w, h := cr.body.Width*cr.scale, cr.body.Height*cr.scale
	c, s := math.Cos(cr.Angle), math.Sin(cr.Angle)
	return cr.X + c*w/2 - s*h/2, cr.Y + s*w/2 + c*h/2
}

// breakUp is the prop breaking in view: its splinters fly and it cracks.
func (cr *Crate) breakUp() {
	x, y := cr.centre()
	if cr.c.Sound != nil { // a one-shot: it ends by itself
		cr.c.Sound.Register("propBreak", parts.SoundData{X: x, Y: y})
	}
	size := math.Max(cr.body.Width, cr.body.Height) * cr.scale
	cr.Burst.start(cr.c, x, y, size, parts.Height{Level: cr.Level, H: cr.H}, &cr.debrisTex)
}

// Step implements parts.Part: the splinters fly.
func (cr *Crate) Step(dt float64) bool {
	cr.Burst.step(cr.c, dt)
	return true
}

// Destroy implements parts.Part.
func (cr *Crate) Destroy(parts.Removal) {
	cr.Burst.stop(cr.c)
	cr.c.Stage.Remove(cr.h)
}

var crateFallback = parts.RGB(0x8b6a3e)

// scorchProp is how much wider than the prop its scorch is, and how dark.
const (
	scorchProp      = 1.4
	scorchPropAlpha = 0.8
)

// Draw implements parts.Drawable: the prop as its state shows it. A
// destroyed prop with its own image lies as that image, one without it as
// a scorch; a damaged one shows its own image, or its image darkened. An
// image still loading shows as the prop's image, tinted as its state.
func (cr *Crate) Draw(g parts.Gfx) {
	g.Elevate(cr.H)
	w, h := cr.body.Width*cr.scale, cr.body.Height*cr.scale
	tex, tint := cr.tex, parts.White()
	switch {
	case cr.State >= crateDestroyed && cr.texDestroyed == parts.NoTex && cr.scorchTex != parts.NoTex:
		x, y := cr.centre()
		drawScorch(g, &scorchMark{x: x, y: y, rot: cr.scorchRot, size: math.Max(w, h) * scorchProp,
			at: parts.Height{Level: int(math.Round(cr.H)), H: cr.H}, tex: cr.scorchTex, age: scorchFadeMs}, scorchPropAlpha)
		return
	case cr.State >= crateDestroyed && cr.loaded(cr.texDestroyed):
		tex = cr.texDestroyed
	case cr.State >= crateDestroyed:
		tint = parts.Color{R: 0.3, G: 0.3, B: 0.3, A: 1}
	case cr.State == crateDamaged && cr.loaded(cr.texDamaged):
		tex = cr.texDamaged
	case cr.State == crateDamaged:
		tint = parts.Color{R: 0.75, G: 0.75, B: 0.75, A: 1}
	}
	if tw, th, ok := cr.c.Tex.Size(tex); ok && tw > 0 && th > 0 {
		m := parts.Identity().Scale(w/float64(tw), h/float64(th)).Rotate(cr.Angle).Translate(cr.X, cr.Y)
		g.Image(tex, parts.Rect{W: float64(tw), H: float64(th)}, m, tint)
		return
	}
	if tw, th, ok := cr.c.Tex.Size(cr.tex); ok && tw > 0 && th > 0 {
		m := parts.Identity().Scale(w/float64(tw), h/float64(th)).Rotate(cr.Angle).Translate(cr.X, cr.Y)
		g.Image(cr.tex, parts.Rect{W: float64(tw), H: float64(th)}, m, tint)
		return
	}
	g.Quad(parts.Identity().Scale(w, h).Rotate(cr.Angle).Translate(cr.X, cr.Y), mul(crateFallback, tint))
}

// loaded reports whether tex is an image that has arrived.
func (cr *Crate) loaded(tex parts.Tex) bool {
	if tex == parts.NoTex {
		return false
	}
	w, h, ok := cr.c.Tex.Size(tex)
	return ok && w > 0 && h > 0
}

func mul(a, b parts.Color) parts.Color {
	return parts.Color{R: a.R * b.R, G: a.G * b.G, B: a.B * b.B, A: a.A * b.A}
}

// MapRadarFactory is the MapRadar part class: the map on the radar.
type MapRadarFactory struct{}

type mapRadarBinding struct{}

// Bind implements parts.Factory; MapRadar reads no row fields.
func (MapRadarFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	_, err := clientcore.BindLayout(k, tankgame.BindCrateRow)
	return mapRadarBinding{}, err
}

// New implements parts.Binding: dynamic instances draw nothing on the radar.
func (mapRadarBinding) New(*parts.Ctx, uint32, []float32) parts.Part { return nil }

// Radar map colours: a wall is the top-left quarter of its cell in white,
// an overhead level's floor a faint square over the whole cell.
var (
	radarWall  = parts.White()
	radarFloor = parts.Color{R: 1, G: 1, B: 1, A: 0.3}
)

// BuildMap implements parts.MapBuilder: every level's walls, and the floor
// of every level above the ground, as static layers of 2 px per cell.
func (mapRadarBinding) BuildMap(c *parts.Ctx, m *gamemap.Map) ([]parts.Part, map[uint32]parts.Part) {
	if len(m.Levels) == 0 || m.Levels[0].Cols == 0 || m.Levels[0].Rows == 0 {
		return nil, nil
	}
	r := &MapRadar{c: c}
	for i := range m.Levels {
		lv := &m.Levels[i]
		walls, floor := tiles.Lookup(lv.Solid), tiles.Lookup(lv.Floor)
		r.layers = append(r.layers, parts.StaticLayer{Cols: lv.Cols, Rows: lv.Rows, Cell: m.CellWorld(), DetailPx: 2, Smooth: true,
			At: func(col, row int, _ bool) (parts.StaticCell, bool) {
				t := lv.Tile(col, row)
				switch {
				case tiles.In(walls, t):
					return parts.StaticCell{Fill: radarWall, Part: parts.Rect{W: 0.5, H: 0.5}}, true
				case lv.Index > 0 && tiles.In(floor, t):
					return parts.StaticCell{Fill: radarFloor}, true
				}
				return parts.StaticCell{}, false
			}})
	}
	r.hd = c.Stage.Add(2, r)
	return []parts.Part{r}, nil
}

// MapRadar draws the map on the radar: the walls of every level and the
// slabs above the ground, flat (the radar has no height projection).
type MapRadar struct {
	c      *parts.Ctx
	layers []parts.StaticLayer
	hd     parts.Handle
}

// Update implements parts.Part.
func (r *MapRadar) Update([]float32) {}

// Step implements parts.Part.
func (r *MapRadar) Step(float64) bool { return true }

// Destroy implements parts.Part.
func (r *MapRadar) Destroy(parts.Removal) { r.c.Stage.Remove(r.hd) }

// Draw implements parts.Drawable.
func (r *MapRadar) Draw(g parts.Gfx) {
	for i := range r.layers {
		g.Static(&r.layers[i])
	}
}
