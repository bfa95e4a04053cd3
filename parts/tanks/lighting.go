package tanks

import (
	"encoding/json"
	"math"

	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
)

// A night map (its game data's lighting says night) is drawn dark: each
// level's drawing is multiplied by a light map of the ambient colour plus
// the lights of that level (its lamps, the tanks' glows and headlights, the
// flashes of shots and blasts). The backend renders the light map; the
// parts here say what is in it.

// Limits on a map's lighting data, which comes from the network.
const (
	maxLamps      = 256
	maxLampRadius = 2000 // world units
	maxFlashes    = 16   // blasts remembered at once
)

// The tanks' own lights and the flashes, as the game's render config gives
// them by default (parts.lighting in CONFIG_DATA).
const (
	glowRadius     = 26
	glowIntensity  = 0.35
	headLength     = 90
	headSpread     = 0.55
	headIntensity  = 0.9
	headOffset     = 0.5 // of the hull's half length, ahead of its centre
	blastRadius    = 140
	blastIntensity = 1
	blastMs        = 260
	shotRadius     = 90
	shotIntensity  = 0.9
	shotMs         = 120
	// lampHeadRadius is a lamp head's radius in world units: a fitting set
	// in the road, lit by its own pool.
	lampHeadRadius = 2.2
)

var (
	glowColour  = parts.RGB(0xbfd0ff)
	headColour  = parts.RGB(0xfff0c4)
	blastColour = parts.RGB(0xffb060)
	shotColour  = parts.RGB(0xfff0a0)
	headCore    = parts.RGB(0xfffbe8)
)

// lamp is one street lamp: a pool of light on its level and maybe a head
// drawn in the road.
type lamp struct {
	x, y      float64
	level     int
	radius    float64
	colour    parts.Color
	intensity float64
	head      bool
	flicker   float64 // 0..1: how deep its light wavers
	seed      float64
}

// nightData is a map's lighting, parsed tolerantly: a lamp that does not
// parse or lies off the map is left out, and numbers are bounded.
type nightData struct {
	night   bool
	ambient parts.Color
	lamps   []lamp
}

// lightingGame is the shape of the map game data's lighting.
type lightingGame struct {
	Lighting *struct {
		Night   bool              `json:"night"`
		Ambient *float64          `json:"ambient"`
		Lamps   []json.RawMessage `json:"lamps"`
	} `json:"lighting"`
}

type lampGame struct {
	Cell      []float64 `json:"cell"`
	Level     float64   `json:"level"`
	Radius    *float64  `json:"radius"`
	Color     *float64  `json:"color"`
	Intensity *float64  `json:"intensity"`
	Head      bool      `json:"head"`
	Flicker   float64   `json:"flicker"`
}

// parseNight reads the lighting of map m's game data; ok is false for a
// map that is not a night map (no lighting, night false, data that does
// not parse).
func parseNight(m *gamemap.Map) (nightData, bool) {
	var d nightData
	if m == nil || len(m.Game) == 0 || len(m.Levels) == 0 {
		return d, false
	}
	var g lightingGame
	if json.Unmarshal(m.Game, &g) != nil || g.Lighting == nil || !g.Lighting.Night {
		return d, false
	}
	d.night = true
	d.ambient = parts.RGB(0x3a4260) // the game's night when none is given
	if a := g.Lighting.Ambient; a != nil {
		d.ambient = colourOf(*a, d.ambient)
	}
	cell := m.CellWorld()
	ground := &m.Levels[0]
	for i, raw := range g.Lighting.Lamps {
		if len(d.lamps) >= maxLamps {
			break
		}
		var l lampGame
		if json.Unmarshal(raw, &l) != nil || len(l.Cell) != 2 {
			continue
		}
		col, row, lv := l.Cell[0], l.Cell[1], l.Level
		if !(col >= 0 && col < float64(ground.Cols) && row >= 0 && row < float64(ground.Rows)) ||
			!(lv >= 0 && lv < float64(len(m.Levels))) || lv != math.Trunc(lv) {
			continue
		}
		lp := lamp{
			x: (math.Floor(col) + 0.5) * cell, y: (math.Floor(row) + 0.5) * cell, level: int(lv),
			radius: 110, colour: parts.RGB(0xffc070), intensity: 0.9, head: l.Head,
			flicker: min(1, max(0, finiteOr0(l.Flicker))), seed: float64(i%97) * 0.61803,
		}
		if l.Radius != nil {
			lp.radius = min(maxLampRadius, max(0, finiteOr0(*l.Radius)))
		}
		if l.Color != nil {
			lp.colour = colourOf(*l.Color, lp.colour)
		}
		if l.Intensity != nil {
			lp.intensity = parts.ClampIntensity(*l.Intensity)
		}
		if lp.radius > 0 && lp.intensity > 0 {
			d.lamps = append(d.lamps, lp)
		}
	}
	return d, true
}

// colourOf reads a 0xRRGGBB number; anything else is def.
func colourOf(v float64, def parts.Color) parts.Color {
	if !(v >= 0 && v <= 0xffffff) || v != math.Trunc(v) {
		return def
	}
	return parts.RGB(uint32(v))
}

// finiteOr0 is v, or 0 when v is NaN or infinite.
func finiteOr0(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// flash is a blast's light, fading over its duration.
type flash struct {
	x, y  float64
	level int
	age   float64 // ms
}

// night is the lighting of one night map: a light map per level drawn
// above that level's parts, the lamp heads in the roads, and the blasts'
// flashes it reads from the scene's events. It is a map part: the scene
// steps it and destroys it with the map.
type night struct {
	c       *parts.Ctx
	data    nightData
	signs   []sign // their light, as bright as their glow
	maps    []levelLight
	heads   []lampHeads
	flashes [maxFlashes]flash
	nFlash  int
	nextEv  uint64
	clock   float64 // ms since the map was built, for the lamps' flicker
	roofs   *roofBoard
}

// levelLight is one level's light map, drawn at parts.LightZ on its level.
type levelLight struct {
	n     *night
	m     parts.LightMap
	h     parts.Handle
	lamps []int // indices of the level's lamps
	// a level with roofs: its floor but for the roofs, and the roofs on
	// it, whose cells join the floor while they are opaque
	floor []parts.Rect
	roofs []int
}

// lampHeads draws the heads of one level's lamps just above its road.
type lampHeads struct {
	n     *night
	level int
	h     parts.Handle
}

// buildNight returns the lighting part of map m, or nil for a map that
// is not a night map. It also tells the scene's sky whether it is night.
func buildNight(c *parts.Ctx, m *gamemap.Map) parts.Part {
	d, ok := parseNight(m)
	c.Sky.SetNight(ok)
	if !ok {
		return nil
	}
	n := &night{c: c, data: d, signs: parseSigns(m)}
	if c.Events != nil {
		n.nextEv = c.Events.Next()
	}
	n.maps = make([]levelLight, len(m.Levels))
	n.heads = make([]lampHeads, len(m.Levels))
	cell := m.CellWorld()
	for lv := range m.Levels {
		ll := &n.maps[lv]
		ll.n = n
		ll.m = parts.LightMap{Level: lv, Ambient: d.ambient}
		level := &m.Levels[lv]
		ll.m.Walls = wallGrid(level, cell)
		if lv > 0 {
			ll.m.Floor = floorRuns(level, cell, nil, nil)
		}
		for _, layer := range level.Layers {
			if !(layer.Volume > 0) {
				continue
			}
			h := float64(lv) + min(layer.Volume, parts.MaxHeight)
			for _, r := range floorRuns(level, cell, tiles.Lookup(layer.Tiles), nil) {
				ll.m.Tops = append(ll.m.Tops, parts.Top{Rect: r, H: h})
			}
		}
		for i := range d.lamps {
			if d.lamps[i].level == lv {
				ll.lamps = append(ll.lamps, i)
			}
		}
		ll.h = c.Stage.Add(parts.LevelZ(parts.LightZ, lv), ll)
		n.heads[lv] = lampHeads{n: n, level: lv}
		n.heads[lv].h = c.Stage.Add(parts.LevelZ(1, lv), &n.heads[lv])
	}
	return n
}

// wallGrid is a level's walls, which its headlights stop at: the cells
// whose tile is solid (nil for a level without walls).
func wallGrid(l *gamemap.Level, cell float64) *parts.WallGrid {
	solid := tiles.Lookup(l.Solid)
	w := &parts.WallGrid{Cols: l.Cols, Rows: l.Rows, Cell: cell, Solid: make([]bool, l.Cols*l.Rows)}
	found := false
	for i, t := range l.Grid {
		if tiles.In(solid, int(t)) {
			w.Solid[i] = true
			found = true
		}
	}
	if !found {
		return nil
	}
	return w
}

// floorRuns is the floor of a level above the ground as world rectangles:
// each row's runs of cells that draw a tile (of the tiles in only, when it
// is not nil: a tiles.Lookup table), but for the cells marked in except
// (when it is not nil: a roof's cells, by the level's grid).
func floorRuns(l *gamemap.Level, cell float64, only []bool, except []int16) []parts.Rect {
	var out []parts.Rect
	for row := range l.Rows {
		start := -1
		for col := 0; col <= l.Cols; col++ {
			on := col < l.Cols && l.Tile(col, row) != 0 && (only == nil || tiles.In(only, l.Tile(col, row))) &&
				(except == nil || except[row*l.Cols+col] == 0)
			switch {
			case on && start < 0:
				start = col
			case !on && start >= 0:
				out = append(out, parts.Rect{X: float64(start) * cell, Y: float64(row) * cell, W: float64(col-start) * cell, H: cell})
				start = -1
			}
		}
	}
	return out
}

// withRoofs lets the map's roofs out of their levels' light maps while
// they are not opaque: what shows through a fading roof was darkened by
// its own level's light map already. The roofs are then drawn in the
// ambient colour.
func (n *night) withRoofs(b *roofBoard, m *gamemap.Map) {
	if b == nil {
		return
	}
	b.night, b.ambient = true, n.data.ambient
	cell := m.CellWorld()
	for lv, owner := range b.owner {
		if lv <= 0 || lv >= len(n.maps) {
			continue
		}
		ll := &n.maps[lv]
		ll.floor = floorRuns(&m.Levels[lv], cell, nil, owner)
		size := len(ll.floor)
		for i := range b.roofs {
			if b.roofs[i].level == lv {
				ll.roofs = append(ll.roofs, i)
				size += len(b.roofs[i].runs)
			}
		}
		ll.m.Floor = make([]parts.Rect, 0, size)
	}
	n.roofs = b
}

// floorNow is the level's floor this frame: its roofs' cells in it while
// they are opaque. It reuses the light map's slice.
func (ll *levelLight) floorNow() {
	if ll.roofs == nil {
		return
	}
	f := append(ll.m.Floor[:0], ll.floor...)
	for _, i := range ll.roofs {
		if ll.n.roofs.opaque(i) {
			f = append(f, ll.n.roofs.roofs[i].runs...)
		}
	}
	ll.m.Floor = f
}

// Update implements parts.Part (the map's lighting gets no rows).
func (n *night) Update([]float32) {}

// Step implements parts.Part: the lamps' flicker runs on, the flashes age,
// and the blasts since the last step start theirs.
func (n *night) Step(dt float64) bool {
	if dt > 0 && dt < 1e6 {
		n.clock = math.Mod(n.clock+dt, 1e9)
	}
	k := 0
	for i := range n.nFlash {
		f := n.flashes[i]
		f.age += dt
		if f.age < blastMs {
			n.flashes[k] = f
			k++
		}
	}
	n.nFlash = k
	if ev := n.c.Events; ev != nil {
		for seq := max(n.nextEv, ev.Oldest()); seq < ev.Next(); seq++ {
			e, ok := ev.At(seq)
			if !ok || e.Kind != parts.EventBlast {
				continue
			}
			f := flash{x: e.X, y: e.Y, level: e.Level}
			if n.nFlash < maxFlashes {
				n.flashes[n.nFlash] = f
				n.nFlash++
			} else {
				n.flashes[0] = f // the oldest gives way
			}
		}
		n.nextEv = ev.Next()
	}
	return true
}

// Destroy implements parts.Part.
func (n *night) Destroy(parts.Removal) {
	for i := range n.maps {
		n.c.Stage.Remove(n.maps[i].h)
		n.c.Stage.Remove(n.heads[i].h)
	}
}

// flickerOf is a lamp's brightness factor at time ms, in [1 − depth, 1]:
// a sum of unrelated sines, phased by the lamp's seed so that neighbours do
// not waver together.
func flickerOf(seed, ms, depth float64) float64 {
	if depth <= 0 {
		return 1
	}
	t := ms / 1000
	w := 0.5*math.Sin(t*7.3+seed*12.9898) + 0.3*math.Sin(t*13.1+seed*78.233) + 0.2*math.Sin(t*23.7+seed*3.7)
	return 1 - depth*(w+1)/2
}

// fade is how much of a flash is left after elapsed of duration ms: 1 at
// its start, falling fast, 0 at its end.
func fade(elapsed, duration float64) float64 {
	if !(duration > 0) || !(elapsed < duration) {
		return 0
	}
	t := 1 - max(0, elapsed)/duration
	return t * t
}

// Draw implements parts.Drawable: the level's lamps and flashes join the
// lights the parts below added, and the light map darkens the level.
func (ll *levelLight) Draw(g parts.Gfx) {
	lt, ok := g.(parts.Lighter)
	if !ok {
		return
	}
	n := ll.n
	lv := float64(ll.m.Level)
	g.Elevate(lv)
	v := g.View()
	for _, i := range ll.lamps {
		l := &n.data.lamps[i]
		if l.x+l.radius < v.X || l.x-l.radius > v.X+v.W || l.y+l.radius < v.Y || l.y-l.radius > v.Y+v.H {
			continue
		}
		lt.AddLight(parts.Light{X: l.x, Y: l.y, Level: l.level, H: lv, Radius: l.radius, Colour: l.colour,
			Intensity: l.intensity * flickerOf(l.seed, n.clock, l.flicker)})
	}
	for i := range n.signs {
		s := &n.signs[i]
		if s.level != ll.m.Level || !(s.radius > 0 && s.intensity > 0) ||
			s.x+s.radius < v.X || s.x-s.radius > v.X+v.W || s.y+s.radius < v.Y || s.y-s.radius > v.Y+v.H {
			continue
		}
		_, glow := s.brightness(n.clock / 1000)
		lt.AddLight(parts.Light{X: s.x, Y: s.y, Level: s.level, H: lv, Radius: s.radius, Colour: s.colour, Intensity: s.intensity * glow})
	}
	for i := range n.nFlash {
		f := &n.flashes[i]
		if f.level == ll.m.Level {
			lt.AddLight(parts.Light{X: f.x, Y: f.y, Level: f.level, H: lv, Radius: blastRadius, Colour: blastColour,
				Intensity: blastIntensity * fade(f.age, blastMs)})
		}
	}
	ll.floorNow()
	lt.DrawLightMap(&ll.m)
}

// Draw implements parts.Drawable: a bright fitting at each lamp of the
// level that has a head; a tank driving over it covers it.
func (lh *lampHeads) Draw(g parts.Gfx) {
	if lt, ok := g.(parts.Lighter); !ok || !lt.Lit() {
		return // by day a lamp is dark, and its head not drawn
	}
	n := lh.n
	g.Elevate(float64(lh.level))
	v := g.View()
	for i := range n.data.lamps {
		l := &n.data.lamps[i]
		if !l.head || l.level != lh.level || l.x < v.X-4 || l.x > v.X+v.W+4 || l.y < v.Y-4 || l.y > v.Y+v.H+4 {
			continue
		}
		g.Disc(l.x, l.y, lampHeadRadius*1.6, l.colour.WithAlpha(0.55))
		g.Disc(l.x, l.y, lampHeadRadius, headCore)
	}
}

// addLights adds a live tank's glow and headlight on a night map: its glow
// keeps it readable however dark the street.
func (t *Tank) addLights(g parts.Gfx) {
	if !t.c.Sky.Night() || t.Pose.cond == 0 {
		return
	}
	lt, ok := g.(parts.Lighter)
	if !ok {
		return
	}
	p := &t.Pose
	lv := parts.RenderLevel(t.At.Level, t.At.H)
	lt.AddLight(parts.Light{X: p.x, Y: p.y, Level: lv, H: t.At.H, Radius: glowRadius, Colour: glowColour, Intensity: glowIntensity})
	k := float64(p.size) / 10
	s, c := math.Sincos(p.angle)
	ahead := headOffset * hullW / 2 * k
	lt.AddLight(parts.Light{X: p.x + c*ahead, Y: p.y + s*ahead, Level: lv, H: t.At.H, Colour: headColour,
		Intensity: headIntensity, Angle: p.angle, Spread: headSpread, Length: headLength})
}

// light adds a shot's muzzle flash on a night map, fading over shotMs.
func (s *ShotEffect) light(g parts.Gfx) {
	if !s.c.Sky.Night() {
		return
	}
	lt, ok := g.(parts.Lighter)
	if !ok {
		return
	}
	if a := fade(s.elapsed, shotMs); a > 0 {
		lt.AddLight(parts.Light{X: s.sx, Y: s.sy, Level: parts.RenderLevel(s.At.Level, s.At.H), H: s.At.H,
			Radius: shotRadius, Colour: shotColour, Intensity: shotIntensity * a})
	}
}

// shotZ is a shot's base draw order: at night its tracer glows above the
// darkness.
func shotZ(c *parts.Ctx) int {
	if c.Sky.Night() {
		return parts.EmissiveZ
	}
	return 2
}
