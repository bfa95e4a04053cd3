package tanks

import (
	"math"
	"os"
	"testing"

	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/testkit/partstest"
)

// downtownMap is the real tanks 0.22 night map.
func downtownMap(t testing.TB) *gamemap.Map {
	b, err := os.ReadFile(partstest.Shared(t, "captures/real-tanks-0.22/maps/downtown.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Downtown's lighting as its game data declares it: night, the ambient
// 0x3a4260, 51 lamps (42 on the ground, 9 on the elevated roads), the
// first at cell (12, 19), 110 world units of 0xffc070 at 0.9.
func TestParseNightDowntown(t *testing.T) {
	d, ok := parseNight(downtownMap(t))
	if !ok || !d.night {
		t.Fatal("downtown is not a night map")
	}
	if d.ambient != parts.RGB(0x3a4260) {
		t.Errorf("ambient %v", d.ambient)
	}
	per := [2]int{}
	for _, l := range d.lamps {
		per[l.level]++
	}
	if len(d.lamps) != 51 || per != [2]int{42, 9} {
		t.Fatalf("%d lamps, per level %v; want 51: 42, 9", len(d.lamps), per)
	}
	l := d.lamps[0]
	if math.Abs(l.x-160) > 1e-9 || math.Abs(l.y-249.6) > 1e-9 || l.radius != 110 || l.colour != parts.RGB(0xffc070) || l.intensity != 0.9 || !l.head || l.flicker != 0 {
		t.Errorf("first lamp %+v", l)
	}
}

// tinyMap is a 4×4 map of 10-unit cells with a level above the ground
// whose floor is the top row, and the given game data.
func tinyMap(game string) *gamemap.Map {
	lv := func(i int) gamemap.Level {
		l := gamemap.Level{Index: i, Cols: 4, Rows: 4, Grid: make([]int32, 16)}
		if i == 1 {
			copy(l.Grid, []int32{0, 5, 5, 0})
			l.Layers = []gamemap.Layer{{Key: "1", Z: 1, Tiles: []int{5}, Volume: 0.5}}
		}
		return l
	}
	return &gamemap.Map{Scale: 1, Step: 10, Levels: []gamemap.Level{lv(0), lv(1)}, Game: []byte(game)}
}

// Lighting data is from the network: a lamp that does not parse or lies
// off the map is left out, numbers are bounded, and data that is not a
// night map's makes no night.
func TestParseNightTolerates(t *testing.T) {
	for _, game := range []string{``, `{}`, `{"lighting":null}`, `{"lighting":{"night":false,"lamps":[{"cell":[1,1]}]}}`,
		`{"lighting":[1]}`, `{"lighting":{"night":"yes"}}`, `[]`} {
		if _, ok := parseNight(tinyMap(game)); ok {
			t.Errorf("%s: a night map", game)
		}
	}
	d, ok := parseNight(tinyMap(`{"lighting":{"night":true,"ambient":"dark","lamps":[
		{"cell":[1,1],"level":0,"radius":1e300,"intensity":99,"color":-5,"flicker":7},
		{"cell":[4,1]}, {"cell":[-1,0]}, {"cell":[1]}, {"cell":[1,1],"level":2}, {"cell":[1,1],"level":0.5},
		{"cell":"x"}, 7, {"cell":[2,3],"level":1,"radius":-3}, {"cell":[2,3],"level":1,"intensity":0},
		{"cell":[3.7,0.2],"level":1}]}}`))
	if ok {
		t.Fatal("an ambient that is not a number refuses the whole lighting")
	}
	d, ok = parseNight(tinyMap(`{"lighting":{"night":true,"ambient":1e12,"lamps":[
		{"cell":[1,1],"level":0,"radius":1e300,"intensity":99,"color":-5,"flicker":7},
		{"cell":[4,1]}, {"cell":[-1,0]}, {"cell":[1]}, {"cell":[1,1],"level":2}, {"cell":[1,1],"level":0.5},
		{"cell":"x"}, 7, {"cell":[2,3],"level":1,"radius":-3}, {"cell":[2,3],"level":1,"intensity":0},
		{"cell":[3.7,0.2],"level":1}]}}`))
	if !ok {
		t.Fatal("not a night map")
	}
	if d.ambient != parts.RGB(0x3a4260) {
		t.Errorf("an ambient out of range gives %v, want the game's night", d.ambient)
	}
	if len(d.lamps) != 2 {
		t.Fatalf("kept %d lamps, want 2: %+v", len(d.lamps), d.lamps)
	}
	a, b := d.lamps[0], d.lamps[1]
	if a.radius != maxLampRadius || a.intensity != 4 || a.colour != parts.RGB(0xffc070) || a.flicker != 1 {
		t.Errorf("bounded lamp %+v", a)
	}
	if b.x != 35 || b.y != 5 || b.level != 1 {
		t.Errorf("a fractional cell is the cell it lies in: %+v", b)
	}
	many := `{"lighting":{"night":true,"lamps":[`
	for i := range maxLamps + 40 {
		if i > 0 {
			many += ","
		}
		many += `{"cell":[1,1]}`
	}
	if d, _ := parseNight(tinyMap(many + `]}}`)); len(d.lamps) != maxLamps {
		t.Errorf("kept %d lamps, want at most %d", len(d.lamps), maxLamps)
	}
}

func FuzzParseNight(f *testing.F) {
	f.Add([]byte(`{"lighting":{"night":true,"ambient":3818080,"lamps":[{"cell":[1,1],"level":0,"radius":110,"color":16760944,"intensity":0.9,"head":true,"flicker":0.2}]}}`))
	f.Add([]byte(`{"lighting":{"night":true,"lamps":[{"cell":[3,0],"level":1},{"cell":[9e99,1]}]}}`))
	f.Fuzz(func(t *testing.T, game []byte) {
		d, ok := parseNight(tinyMap(string(game)))
		if !ok {
			return
		}
		if len(d.lamps) > maxLamps {
			t.Fatalf("%d lamps", len(d.lamps))
		}
		for _, l := range d.lamps {
			if !(l.x >= 0 && l.x < 40 && l.y >= 0 && l.y < 40) || l.level < 0 || l.level > 1 ||
				!(l.radius > 0 && l.radius <= maxLampRadius) || !(l.intensity > 0 && l.intensity <= 4) ||
				!(l.flicker >= 0 && l.flicker <= 1) {
				t.Fatalf("lamp out of bounds: %+v", l)
			}
		}
	})
}

// lighter records what the parts hand a lighting backend.
type lighter struct {
	partstest.Gfx
	lit    bool
	lights []parts.Light
	maps   []parts.LightMap
	before [][]parts.Light // the lights added before each map
}

func (g *lighter) AddLight(l parts.Light) { g.lights = append(g.lights, l) }
func (g *lighter) DrawLightMap(m *parts.LightMap) {
	g.maps = append(g.maps, *m)
	g.before = append(g.before, append([]parts.Light(nil), g.lights...))
}
func (g *lighter) Lit() bool { return g.lit }

// A night map's part draws one light map per level, above that level's
// parts: each with its own level's lamps in view (a lamp under the bridge
// stays out of the bridge's map); the level above the ground covers only
// its floor, and its raised layer's top stays dark at its height. The
// lamp heads are drawn when the backend lights the scene, not otherwise;
// a blast flashes on its level and fades out.
func TestNightLightMapsPerLevel(t *testing.T) {
	m := tinyMap(`{"lighting":{"night":true,"ambient":3818080,"lamps":[
		{"cell":[1,1],"level":0,"radius":20,"head":true},{"cell":[2,0],"level":1,"radius":15,"head":true}]}}`)
	c := &parts.Ctx{Stage: parts.NewStage("vimp"), Sky: &parts.Sky{}, Events: &parts.Events{}}
	p := buildNight(c, m)
	if p == nil || !c.Sky.Night() {
		t.Fatal("no night")
	}
	g := &lighter{lit: true}
	g.Rect = parts.Rect{W: 40, H: 40}
	c.Stage.Draw(g)
	if len(g.maps) != 2 || g.maps[0].Level != 0 || g.maps[1].Level != 1 {
		t.Fatalf("light maps %+v", g.maps)
	}
	if g.maps[0].Ambient != parts.RGB(0x3a4260) || len(g.maps[0].Floor) != 0 {
		t.Errorf("the ground's map %+v", g.maps[0])
	}
	if f := g.maps[1].Floor; len(f) != 1 || f[0] != (parts.Rect{X: 10, Y: 0, W: 20, H: 10}) {
		t.Errorf("the level's floor %+v, want the run of cells 1..2 of row 0", f)
	}
	if tp := g.maps[1].Tops; len(tp) != 1 || tp[0].H != 1.5 || tp[0].Rect != (parts.Rect{X: 10, Y: 0, W: 20, H: 10}) {
		t.Errorf("the raised layer's tops %+v", tp)
	}
	levelsOf := func(ls []parts.Light) (n [2]int) {
		for _, l := range ls {
			n[l.Level]++
		}
		return n
	}
	if n := levelsOf(g.before[0]); n != [2]int{1, 0} {
		t.Errorf("before the ground's map: lights per level %v, want its own lamp only", n)
	}
	if n := levelsOf(g.before[1]); n != [2]int{1, 1} {
		t.Errorf("before the level's map: lights per level %v", n)
	}
	if d := g.Kinds()["disc"]; d != 4 {
		t.Errorf("%d discs, want two lamp heads of two discs", d)
	}
	dark := &lighter{}
	dark.Rect = g.Rect
	c.Stage.Draw(dark)
	if d := dark.Kinds()["disc"]; d != 0 {
		t.Errorf("unlit: %d discs drawn, want no lamp heads", d)
	}

	c.Events.Add(parts.Event{Kind: parts.EventBlast, X: 20, Y: 20, R: 10, Level: 1})
	p.Step(16)
	flashes := func() (n int, k float64) {
		g := &lighter{lit: true}
		g.Rect = parts.Rect{W: 40, H: 40}
		c.Stage.Draw(g)
		for _, l := range g.lights {
			if l.Radius == blastRadius && l.Level == 1 {
				n++
				k = l.Intensity
			}
		}
		return n, k
	}
	if n, k := flashes(); n != 1 || !(k > 0.8 && k <= 1) {
		t.Errorf("after a blast: %d flashes at %.2f, want one, bright", n, k)
	}
	for range 20 {
		p.Step(16)
	}
	if n, _ := flashes(); n != 0 {
		t.Errorf("%d flashes after 336 ms, want none (they last %d)", n, blastMs)
	}
	p.Destroy(parts.Swept)
	if l := c.Stage.Len(); l != 0 {
		t.Errorf("%d entries left on the stage", l)
	}
}

// A lamp's flicker stays within its depth, and a lamp without one burns
// steadily; a flash fades from full to nothing.
func TestFlickerAndFade(t *testing.T) {
	for ms := 0.0; ms < 5000; ms += 37 {
		if k := flickerOf(0.3, ms, 0.4); k < 0.6-1e-9 || k > 1 {
			t.Fatalf("flicker %.3f at %v ms", k, ms)
		}
		if flickerOf(0.3, ms, 0) != 1 {
			t.Fatal("a steady lamp flickers")
		}
	}
	if fade(0, 100) != 1 || fade(100, 100) != 0 || fade(50, 100) != 0.25 || fade(10, 0) != 0 || fade(math.NaN(), 100) != 0 {
		t.Error("fade")
	}
}

// At night a live tank adds its glow and its headlight, on the level it is
// drawn on, the cone pointing where the hull faces; a wreck adds none, and
// by day no tank does. A shot's tracer draws above the darkness at night.
func TestTankLightsAndTracersAtNight(t *testing.T) {
	sky := &parts.Sky{}
	c := &parts.Ctx{Sky: sky}
	tk := &Tank{c: c, Pose: tankPose{x: 100, y: 50, angle: math.Pi / 2, cond: 3, size: 10}, At: parts.Height{Level: 1, H: 1}}
	g := &lighter{lit: true}
	tk.addLights(g)
	if len(g.lights) != 0 || shotZ(c) != 2 {
		t.Fatalf("by day: %d lights, shots at %d", len(g.lights), shotZ(c))
	}
	sky.SetNight(true)
	tk.addLights(g)
	if len(g.lights) != 2 {
		t.Fatalf("%d lights, want a glow and a headlight", len(g.lights))
	}
	glow, head := g.lights[0], g.lights[1]
	if glow.Radius != glowRadius || glow.Level != 1 || glow.X != 100 || glow.Y != 50 {
		t.Errorf("glow %+v", glow)
	}
	if head.Length != headLength || head.Angle != math.Pi/2 || head.Level != 1 || math.Abs(head.X-100) > 1e-9 || !(head.Y > 50) {
		t.Errorf("headlight %+v: want it ahead of the hull, facing down", head)
	}
	if shotZ(c) != parts.EmissiveZ {
		t.Errorf("at night shots draw at %d, want %d", shotZ(c), parts.EmissiveZ)
	}
	g.lights = nil
	tk.Pose.cond = 0
	tk.addLights(g)
	if len(g.lights) != 0 {
		t.Errorf("a wreck adds %d lights", len(g.lights))
	}
}
