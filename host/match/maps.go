package match

import (
	"embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"vimpclient/gamemap"
	"vimpclient/games/tanks"
)

// Tile values of the generated maps; the sprite sheet frames follow the
// same order (see host/art).
const (
	TileFloor  = 0
	TileWall   = 1
	TileGrass  = 2
	TileCanopy = 3
)

// Map geometry shared by every generated map.
const (
	mapCols   = 54
	mapRows   = 40
	mapStep   = 32
	mapScale  = 0.6
	crateSide = 48 // source pixels
)

// crateSpec is one dynamic map body in MAP_DATA form (unscaled, top-left).
type crateSpec struct {
	Position       [2]float64 `json:"position"`
	Angle          float64    `json:"angle"`
	Width          float64    `json:"width"`
	Height         float64    `json:"height"`
	Density        float64    `json:"density"`
	Img            string     `json:"img"`
	Layer          int        `json:"layer"`
	LinearDamping  float64    `json:"linearDamping"`
	AngularDamping float64    `json:"angularDamping"`
}

// mapSpec is a generated map in the MAP_DATA shape tanks uses, before it
// becomes the text the match sends.
type mapSpec struct {
	SetID          string                  `json:"setId"`
	Scale          float64                 `json:"scale"`
	Step           int                     `json:"step"`
	SpriteSheet    spriteSheet             `json:"spriteSheet"`
	Layers         map[string][]int        `json:"layers"`
	PhysicsStatic  []int                   `json:"physicsStatic"`
	PhysicsDynamic []crateSpec             `json:"physicsDynamic"`
	Respawns       map[string][][3]float64 `json:"respawns"`
	Grid           [][]int                 `json:"map"`
}

// Map is one map of the catalog: the MAP_DATA text the match sends, the map
// parsed back from that text exactly as a client parses it, and the
// simulation geometry built from the parsed map, so host and client read one
// geometry.
type Map struct {
	Name string
	Text []byte
	Data *gamemap.Map
	geom *tanks.Geometry
}

// newMap parses a map's MAP_DATA text.
func newMap(name string, text []byte) (*Map, error) {
	data, err := gamemap.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", name, err)
	}
	return &Map{Name: name, Text: text, Data: data, geom: tanks.NewGeometry(data)}, nil
}

// layered reports whether the map has levels above the ground (a map the
// match plays in the 2.5D dialect only).
func (mp *Map) layered() bool { return len(mp.Data.Levels) > 1 }

// flatNames lists the flat maps of a catalog, in its order.
func flatNames(maps map[string]*Map, catalog []string) []string {
	var names []string
	for _, n := range catalog {
		if !maps[n].layered() {
			names = append(names, n)
		}
	}
	return names
}

// gameMaps parses a game's own maps: the catalog and its order.
func gameMaps(list []MapData) (map[string]*Map, []string, error) {
	if len(list) == 0 {
		return nil, nil, fmt.Errorf("match: a game without maps")
	}
	maps := map[string]*Map{}
	var names []string
	for _, md := range list {
		if maps[md.Name] != nil {
			return nil, nil, fmt.Errorf("match: map %q twice", md.Name)
		}
		mp, err := newMap(md.Name, md.Text)
		if err != nil {
			return nil, nil, err
		}
		maps[md.Name] = mp
		names = append(names, md.Name)
	}
	return maps, names, nil
}

// bundled holds the maps kept as data rather than generated: bridge, a road
// under a bridge with a ramp at each end, crates and spawn points on both
// levels.
//
//go:embed maps/*.json
var bundled embed.FS

// bundledMap reads one of the bundled maps.
func bundledMap(name string) (*Map, error) {
	text, err := bundled.ReadFile("maps/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", name, err)
	}
	return newMap(name, text)
}

type spriteSheet struct {
	Img    string   `json:"img"`
	Frames [][4]int `json:"frames"`
}

// MapNames lists the catalog in rotation order: the generated maps, then
// the bundled ones.
func MapNames() []string { return []string{"yard", "crossing", "maze", "bridge"} }

// rotation022 is the catalog in today's tanks' order: the maze first. Its
// walls give cover where the yard's open ground gives none: against today's
// bots, which aim well once settled, a round on the yard is over in 20–30
// seconds, one in the maze lasts a minute and more, long enough for a new
// player to find the fight.
func rotation022() []string { return []string{"maze", "crossing", "yard", "bridge"} }

// generatedMaps are the catalog's generated maps, by variant.
var generatedMaps = [...]string{"yard", "crossing", "maze"}

// generateMap builds the named map from a seed derived from its name, so
// every run (and every client cache) sees the same layout.
func generateMap(variant int) *mapSpec {
	rng := rand.New(rand.NewPCG(uint64(variant)+1, 0x7a6b73))
	g := make([][]int, mapRows)
	for y := range g {
		g[y] = make([]int, mapCols)
		for x := range g[y] {
			switch {
			case x == 0 || y == 0 || x == mapCols-1 || y == mapRows-1:
				g[y][x] = TileWall
			case rng.IntN(9) == 0:
				g[y][x] = TileGrass
			}
		}
	}
	spawnZone := func(x, y int) bool { return x < 8 || x >= mapCols-8 }
	// Wall segments: count and length grow with the variant.
	segments := 10 + variant*6
	for i := 0; i < segments; i++ {
		horizontal := rng.IntN(2) == 0
		length := 3 + rng.IntN(6+variant*2)
		x0, y0 := 9+rng.IntN(mapCols-18), 3+rng.IntN(mapRows-6)
		for k := 0; k < length; k++ {
			x, y := x0, y0
			if horizontal {
				x += k
			} else {
				y += k
			}
			if x <= 0 || y <= 0 || x >= mapCols-1 || y >= mapRows-1 || spawnZone(x, y) {
				break
			}
			g[y][x] = TileWall
			if variant > 0 && k%4 == 0 {
				// thick joints
				if horizontal && y+1 < mapRows-1 {
					g[y+1][x] = TileWall
				} else if !horizontal && x+1 < mapCols-1 {
					g[y][x+1] = TileWall
				}
			}
		}
	}
	// Canopy patches drawn above tanks (not solid).
	for i := 0; i < 4; i++ {
		cx, cy := 10+rng.IntN(mapCols-20), 4+rng.IntN(mapRows-8)
		for y := cy; y < cy+3; y++ {
			for x := cx; x < cx+4; x++ {
				if g[y][x] != TileWall {
					g[y][x] = TileCanopy
				}
			}
		}
	}
	m := &mapSpec{
		SetID: "c1", Scale: mapScale, Step: mapStep,
		SpriteSheet:   spriteSheet{Img: "tiles.png", Frames: [][4]int{{0, 0, 32, 32}, {32, 0, 32, 32}, {64, 0, 32, 32}, {96, 0, 32, 32}}},
		Layers:        map[string][]int{"1": {TileFloor, TileGrass}, "2": {TileWall}, "4": {TileCanopy}},
		PhysicsStatic: []int{TileWall},
		Respawns:      map[string][][3]float64{},
		Grid:          g,
	}
	// Respawns: two columns of five per team, facing each other.
	for t, team := range []string{"team1", "team2"} {
		for i := 0; i < 10; i++ {
			col := 3 + i/5*2
			angle := 0.0
			if t == 1 {
				col = mapCols - 4 - i/5*2
				angle = 180
			}
			row := 6 + (i%5)*7
			m.Respawns[team] = append(m.Respawns[team], [3]float64{float64(col*mapStep + mapStep/2), float64(row*mapStep + mapStep/2), angle})
		}
	}
	// Crates on open 2×2 cell areas in the middle.
	for n, tries := 0, 0; n < 8+variant*2 && tries < 500; tries++ {
		x, y := 10+rng.IntN(mapCols-22), 3+rng.IntN(mapRows-7)
		if !openArea(g, x-1, y-1, 4, 4) {
			continue
		}
		for yy := y; yy < y+2; yy++ {
			for xx := x; xx < x+2; xx++ {
				g[yy][xx] = TileFloor
			}
		}
		m.PhysicsDynamic = append(m.PhysicsDynamic, crateSpec{
			Position: [2]float64{float64(x*mapStep + 8), float64(y*mapStep + 8)},
			Angle:    float64(rng.IntN(4) * 15), Width: crateSide, Height: crateSide,
			Density: 8, Img: "crate.png", Layer: 3, LinearDamping: 8, AngularDamping: 16,
		})
		// Mark the area so the next crate keeps its distance.
		for yy := y; yy < y+2; yy++ {
			for xx := x; xx < x+2; xx++ {
				g[yy][xx] = -1
			}
		}
		n++
	}
	for y := range g {
		for x := range g[y] {
			if g[y][x] < 0 {
				g[y][x] = TileFloor
			}
		}
	}
	return m
}

func openArea(g [][]int, x0, y0, w, h int) bool {
	for y := y0; y < y0+h; y++ {
		for x := x0; x < x0+w; x++ {
			if y <= 0 || x <= 0 || y >= len(g)-1 || x >= len(g[0])-1 {
				return false
			}
			if v := g[y][x]; v == TileWall || v < 0 {
				return false
			}
		}
	}
	return true
}

// catalogMaps builds every catalog map from its MAP_DATA text: the
// generated ones and the bundled ones.
func catalogMaps() (map[string]*Map, error) {
	maps := map[string]*Map{}
	for i, name := range generatedMaps {
		text, err := json.Marshal(generateMap(i))
		if err != nil {
			return nil, fmt.Errorf("map %s: %w", name, err)
		}
		if maps[name], err = newMap(name, text); err != nil {
			return nil, err
		}
	}
	for _, name := range MapNames() {
		if maps[name] != nil {
			continue
		}
		mp, err := bundledMap(name)
		if err != nil {
			return nil, err
		}
		maps[name] = mp
	}
	return maps, nil
}
