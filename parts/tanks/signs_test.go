package tanks

import (
	"image"
	"math"
	"testing"

	"vimpclient/parts"
	"vimpclient/testkit/partstest"
)

// Downtown's six signs as its game data declares them, the first HOTEL
// over cell (40, 30) of the elevated level in 0xff3ad0, 18 units tall.
func TestParseSignsDowntown(t *testing.T) {
	s := parseSigns(downtownMap(t))
	if len(s) != 6 {
		t.Fatalf("%d signs, want 6", len(s))
	}
	h := s[0]
	if h.text != "HOTEL" || h.level != 1 || h.layer != 2 || math.Abs(h.x-40.5*12.8) > 1e-9 || math.Abs(h.y-30.5*12.8) > 1e-9 ||
		h.colour != parts.RGB(0xff3ad0) || h.size != 18 || h.pulse != 0.15 || h.dropouts != 0.1 || h.radius != 80 || h.intensity != 0.7 {
		t.Errorf("HOTEL %+v", h)
	}
	if c := s[2]; c.text != "CLUB" || math.Abs(c.angle-(-8*math.Pi/180)) > 1e-12 {
		t.Errorf("CLUB %q hangs at %v rad, want its -8°", c.text, c.angle)
	}
	if h.angle != 0 {
		t.Errorf("HOTEL hangs at %v rad, want level", h.angle)
	}
	if s[5].text != "GUNS" {
		t.Errorf("last sign %q", s[5].text)
	}
}

// Sign data is from the network: a sign without text, off the map, on a
// level the map lacks or above the darkness's draw order is left out, and
// its numbers and text are bounded.
func TestParseSignsTolerates(t *testing.T) {
	s := parseSigns(tinyMap(`{"signs":[{"cell":[1,1],"text":"  "},{"cell":[5,1],"text":"A"},{"cell":[1,1],"level":2,"text":"A"},
		{"cell":[1,1],"layer":40,"text":"A"},{"cell":[1],"text":"A"},7,
		{"cell":[1,1],"text":"ABCDEFGHIJKLMNOPQRSTUVWXYZ","size":1e9,"color":-1,"flicker":{"pulse":5,"dropouts":-1},"light":{"radius":1e9,"intensity":1e9}}]}`))
	if len(s) != 1 {
		t.Fatalf("kept %d signs, want 1: %+v", len(s), s)
	}
	g := s[0]
	if len([]rune(g.text)) != maxSignRunes || g.size != maxSignSize || g.pulse != 1 || g.dropouts != 0 || g.radius != maxSignRadius || g.intensity != 4 {
		t.Errorf("bounded sign %+v", g)
	}
}

// A sign's pulse keeps it between 1 − pulse and 1; its dropouts take
// about dropouts × 0.09 / 0.6 of the time, when its tube is nearly dark
// and its glow dimmed.
func TestSignFlicker(t *testing.T) {
	s := sign{pulse: 0.3, dropouts: 0.3, seed: mix64(42)}
	out := 0
	const n = 200000
	for i := range n {
		tm := float64(i) * 0.001
		core, glow := s.brightness(tm)
		if core > 1 || glow > 1 || glow < 0.7*dropoutGlow-1e-9 {
			t.Fatalf("at %.3f s: core %.3f glow %.3f", tm, core, glow)
		}
		if core < 0.7-1e-9 {
			out++
			if core > dropoutCore+1e-9 || glow < core {
				t.Fatalf("dropout at %.3f s: core %.3f glow %.3f", tm, core, glow)
			}
		}
	}
	want := 0.3 * dropoutS / dropoutWindow
	if got := float64(out) / n; math.Abs(got-want) > 0.4*want {
		t.Errorf("dark %.4f of the time, want about %.4f", got, want)
	}
	steady := sign{seed: 7}
	if c, g := steady.brightness(12.3); c != 1 || g != 1 {
		t.Errorf("a sign without flicker burns at %.2f, %.2f", c, g)
	}
}

// At night the signs are drawn above the darkness of their level and their
// light is in its light map; by day at their layer, and no light.
func TestSignsGlowAtNight(t *testing.T) {
	game := `{"lighting":{"night":true},"signs":[{"cell":[1,1],"level":1,"layer":2,"text":"BAR","light":{"radius":30,"intensity":0.6}}]}`
	m := tinyMap(game)
	c := &parts.Ctx{Stage: parts.NewStage("vimp"), Sky: &parts.Sky{}, Tex: partstest.NewTextures(map[string]*image.RGBA{})}
	n := buildNight(c, m)
	b := buildSigns(c, m, c.Sky.Night())
	if n == nil || b == nil {
		t.Fatal("no night or no signs")
	}
	g := &lighter{lit: true}
	g.Rect = parts.Rect{W: 40, H: 40}
	c.Stage.Draw(g)
	if k := g.Kinds()["label"]; k != 2 {
		t.Errorf("%d labels, want the sign's glow and letters", k)
	}
	found := false
	for _, l := range g.before[1] {
		found = found || (l.Radius == 30 && l.Level == 1)
	}
	if !found {
		t.Errorf("the sign's light is not in its level's light map: %+v", g.before[1])
	}
	for _, e := range b.(*signBoard).draws {
		if z := e.h.Z(); z != parts.LevelZ(parts.EmissiveZ, 1) {
			t.Errorf("at night a sign draws at %d, want %d: above its level's light map", z, parts.LevelZ(parts.EmissiveZ, 1))
		}
	}
	b.Destroy(parts.Swept)
	day := parseSigns(m)
	c2 := &parts.Ctx{Stage: parts.NewStage("vimp")}
	d := buildSigns(c2, m, false)
	if d == nil || len(day) != 1 {
		t.Fatal("no signs by day")
	}
	for _, e := range d.(*signBoard).draws {
		if z := e.h.Z(); z != parts.LevelZ(2, 1) {
			t.Errorf("by day a sign draws at %d, want its layer's %d", z, parts.LevelZ(2, 1))
		}
	}
}

// A sign's angle is in degrees, as the map's bodies' are; one turned past
// a whole turn either way (not a sign's angle) hangs level.
func TestParseSignAngle(t *testing.T) {
	s := parseSigns(tinyMap(`{"signs":[{"cell":[1,1],"text":"A","angle":90},{"cell":[1,1],"text":"B","angle":-360},
		{"cell":[1,1],"text":"C","angle":361},{"cell":[1,1],"text":"D","angle":-1e300},{"cell":[1,1],"text":"E"}]}`))
	want := []float64{math.Pi / 2, -2 * math.Pi, 0, 0, 0}
	if len(s) != len(want) {
		t.Fatalf("%d signs, want %d", len(s), len(want))
	}
	for i, w := range want {
		if math.Abs(s[i].angle-w) > 1e-12 {
			t.Errorf("sign %s: angle %v, want %v", s[i].text, s[i].angle, w)
		}
	}
}

// turner records the labels a Gfx that turns them is asked for.
type turner struct {
	partstest.Gfx
	angles []float64
}

func (g *turner) LabelTurned(_ string, _, _, _, angle float64, _ parts.Color) {
	g.angles = append(g.angles, angle)
}

// A sign with an angle is drawn turned by it (its glow and its letters),
// where the backend turns labels; a level sign, and every sign where the
// backend cannot turn them, as a plain label.
func TestSignDrawnTurned(t *testing.T) {
	m := tinyMap(`{"signs":[{"cell":[1,1],"level":1,"layer":2,"text":"CLUB","angle":-8},{"cell":[2,2],"level":1,"layer":2,"text":"BAR"}]}`)
	c := &parts.Ctx{Stage: parts.NewStage("vimp"), Sky: &parts.Sky{}}
	if buildSigns(c, m, false) == nil {
		t.Fatal("no signs")
	}
	g := &turner{}
	g.Rect = parts.Rect{W: 40, H: 40}
	c.Stage.Draw(g)
	if len(g.angles) != 2 || math.Abs(g.angles[0]+8*math.Pi/180) > 1e-12 || g.angles[1] != g.angles[0] {
		t.Errorf("turned labels at %v, want CLUB's glow and letters at -8°", g.angles)
	}
	if k := g.Kinds()["label"]; k != 2 {
		t.Errorf("%d plain labels, want BAR's two", k)
	}
	plain := &partstest.Gfx{Rect: parts.Rect{W: 40, H: 40}}
	c.Stage.Draw(plain)
	if k := plain.Kinds()["label"]; k != 4 {
		t.Errorf("a backend that cannot turn labels drew %d labels, want all four level", k)
	}
}

func FuzzParseSigns(f *testing.F) {
	f.Add([]byte(`{"signs":[{"cell":[1,1],"level":1,"layer":2,"text":"HOTEL","color":16726736,"size":18,"angle":-8,"flicker":{"pulse":0.15,"dropouts":0.1},"light":{"radius":80,"intensity":0.7}}]}`))
	f.Add([]byte(`{"signs":[{"cell":[3.99,0],"text":"\u00e9\u00e9","size":-1,"flicker":null},{"cell":[1e300,1]}]}`))
	f.Add([]byte(`{"signs":[{"cell":[1,1],"text":"A","angle":360},{"cell":[2,2],"text":"B","angle":-1e308},{"cell":[2,2],"text":"C","angle":"x"}]}`))
	f.Fuzz(func(t *testing.T, game []byte) {
		for _, s := range parseSigns(tinyMap(string(game))) {
			if s.text == "" || len([]rune(s.text)) > maxSignRunes || !(s.size > 0 && s.size <= maxSignSize) ||
				s.pulse < 0 || s.pulse > 1 || s.dropouts < 0 || s.dropouts > 1 || s.radius < 0 || s.radius > maxSignRadius ||
				s.level < 0 || s.level > 1 || !(s.x >= 0 && s.x < 40 && s.y >= 0 && s.y < 40) || !(math.Abs(s.angle) <= 2*math.Pi) {
				t.Fatalf("sign out of bounds: %+v", s)
			}
			if c, g := s.brightness(1.234); !(c >= 0 && c <= 1 && g >= 0 && g <= 1) {
				t.Fatalf("brightness %v %v", c, g)
			}
		}
	})
}
