package tanks

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/snapschema"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

// newerSchema is the tanks schema of a newer host, laid out as a tanks
// 0.22 host sends it: the m1 row's old eleven fields, then z, level (no
// roles), vz (discrete), pitch and roll; c1 with z, level and its state
// byte by their roles in its head.
func newerSchema(t testing.TB) *clientcore.Schema {
	b, err := os.ReadFile(partstest.Shared(t, "conformance/schemas/tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	keys := doc["keys"].(map[string]any)
	m1 := keys["m1"].(map[string]any)
	m1["fields"] = append(m1["fields"].([]any),
		map[string]any{"name": "z", "ty": "f32", "interp": "lerp"}, map[string]any{"name": "level", "ty": "u8"},
		map[string]any{"name": "vz", "ty": "f32", "interp": "discrete"},
		map[string]any{"name": "pitch", "ty": "f32", "interp": "lerp"}, map[string]any{"name": "roll", "ty": "f32", "interp": "lerp"})
	c1 := keys["c1"].(map[string]any)
	f := c1["fields"].([]any)
	head := append([]any{}, f[:3]...)
	head = append(head, map[string]any{"name": "z", "ty": "f32", "interp": "lerp", "role": "z"},
		map[string]any{"name": "level", "ty": "u8", "role": "level"}, map[string]any{"name": "state", "ty": "u8", "role": "state"})
	c1["fields"] = append(head, f[3:]...)
	c1["optionalFrom"] = 6
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Key("m1").Fields); n != 16 {
		t.Fatalf("newer m1 has %d fields, want 16", n)
	}
	return s
}

// newerTank is a newer m1 row of a size-3 tank on the ground.
func newerTank(t testing.TB, s *clientcore.Schema, x, y, angle float64, cond int, pitch, roll, vz float64) []float32 {
	t.Helper()
	return rowtest.Row(t, s.Key("m1"), map[string]float64{"x": x, "y": y, "angle": angle, "condition": float64(cond),
		"size": 3, "team": 1, "pitch": pitch, "roll": roll, "vz": vz})
}

// tankOf is the live Tank part of entity id.
func tankOf(t testing.TB, sc *parts.Scene, id uint32) *Tank {
	t.Helper()
	for _, p := range sc.Parts() {
		if tk, ok := p.(*Tank); ok && tk.ID == id {
			return tk
		}
	}
	t.Fatalf("no tank %d", id)
	return nil
}

// drawOps draws the main canvas into a recording Gfx.
func drawOps(sc *parts.Scene) []partstest.Op {
	var g partstest.Gfx
	g.Rect = parts.Rect{X: -500, Y: -500, W: 2000, H: 2000}
	sc.Stage("vimp").Draw(&g)
	return g.Ops
}

// hullMesh is the tilted hull's mesh among ops (nil: the hull is an image).
func hullMesh(f *fixture, ops []partstest.Op) []parts.MeshVertex {
	for _, op := range ops {
		if op.Kind == "mesh" && f.tex.Name(op.Tex) == "tank.body.1" {
			return op.Mesh
		}
	}
	return nil
}

func dist(a, b parts.MeshVertex) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

// The hull follows the row's pitch and roll: pitched nose up, its front
// edge is drawn wider than its back; rolled right side up, its right edge
// longer than its left; level, it is the flat hull's rectangle. A tanks
// 0.13 row (no pitch, no roll) draws the hull as the image it always was.
func TestTiltFollowsPitchAndRoll(t *testing.T) {
	s := newerSchema(t)
	f := newFixture(t, s)
	if len(f.scene.Fallbacks) != 0 {
		t.Fatalf("newer rows fell back: %v", f.scene.Fallbacks)
	}
	put := func(pitch, roll float64) []parts.MeshVertex {
		f.scene.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 1, Fields: newerTank(t, s, 100, 100, 0, 3, pitch, roll, 0)}}})
		vs := hullMesh(f, drawOps(f.scene))
		if len(vs) != 9 {
			t.Fatalf("pitch %v roll %v: hull mesh of %d vertices", pitch, roll, len(vs))
		}
		return vs
	}
	// grid: row j (across, −v to +v), column i (along, back to front): index j·3+i
	back := func(vs []parts.MeshVertex) float64 { return dist(vs[0], vs[6]) }
	front := func(vs []parts.MeshVertex) float64 { return dist(vs[2], vs[8]) }
	left := func(vs []parts.MeshVertex) float64 { return dist(vs[0], vs[2]) }
	right := func(vs []parts.MeshVertex) float64 { return dist(vs[6], vs[8]) }

	flat := put(0, 0)
	if math.Abs(front(flat)-9) > 1e-9 || math.Abs(back(flat)-9) > 1e-9 || math.Abs(left(flat)-12) > 1e-9 {
		t.Fatalf("level hull is not the 12×9 rectangle: %+v", flat)
	}
	up := put(0.3, 0)
	if front(up) <= back(up)+0.5 || left(up) >= 12 {
		t.Errorf("nose up: front %v back %v length %v: want a wider front, a foreshortened length", front(up), back(up), left(up))
	}
	down := put(-0.3, 0)
	if front(down) >= back(down)-0.5 {
		t.Errorf("nose down: front %v back %v", front(down), back(down))
	}
	rolled := put(0, 0.3)
	if right(rolled) <= left(rolled)+0.3 || math.Abs(front(rolled)-back(rolled)) > 1e-9 {
		t.Errorf("rolled: right %v left %v", right(rolled), left(rolled))
	}
	if bad := put(math.NaN(), math.Inf(1)); math.IsNaN(bad[0].X) || math.IsInf(bad[0].X, 0) {
		t.Errorf("a bad attitude drew %+v", bad[0])
	}

	old := loadSchema(t)
	fo := newFixture(t, old)
	fo.scene.ApplyFrame(frame(block(old, "m1", clientcore.Row{ID: 1, Fields: tankRow(t, old, 100, 100, 0, 0, 3, 1)})))
	ops := drawOps(fo.scene)
	if hullMesh(fo, ops) != nil || len(ops) != 2 || ops[0].Kind != "image" || fo.tex.Name(ops[0].Tex) != "tank.body.1" {
		t.Errorf("a 0.13 tank does not draw as it did: %+v", ops)
	}
}

// The hull is lit from the north-west whatever its heading: the bevel
// facing the light is drawn lightened, the one facing away darkened, and
// turning the tank round swaps them.
func TestBevelsLitFromOneSide(t *testing.T) {
	s := newerSchema(t)
	f := newFixture(t, s)
	tints := func(angle float64) map[string]parts.Color {
		f.scene.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 1, Fields: newerTank(t, s, 0, 0, angle, 3, 0, 0, 0)}}})
		out := map[string]parts.Color{}
		for _, op := range drawOps(f.scene) {
			if n := f.tex.Name(op.Tex); strings.HasPrefix(n, "tank.bevel.") {
				out[n] = op.C
			}
		}
		return out
	}
	// heading 0: the front faces east, the back west (lit from the north-west)
	east := tints(0)
	if b, ok := east["tank.bevel.2"]; !ok || b.R != 1 || b.A <= 0 {
		t.Errorf("heading east: the back (west) bevel is not lit: %+v", east)
	}
	if b, ok := east["tank.bevel.0"]; !ok || b.R != 0 || b.A <= 0 {
		t.Errorf("heading east: the front (east) bevel is not in shadow: %+v", east)
	}
	west := tints(math.Pi)
	if b := west["tank.bevel.0"]; b.R != 1 || b.A <= 0 {
		t.Errorf("heading west: the front bevel is not lit: %+v", west)
	}
}

// dieAndBurn kills tank 1 in view: a live row, then a wreck's.
func dieAndBurn(t *testing.T, f *fixture, s *clientcore.Schema) {
	t.Helper()
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 1, Fields: tankRow(t, s, 50, 60, 0.4, 0, 3, 1)})))
	f.scene.Step(16)
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 1, Fields: tankRow(t, s, 50, 60, 0.4, 0, 0, 1)})))
}

// flames counts the wreck's fire particles of each kind.
func flames(w *wreckFire) (fire, smoke int) {
	for _, p := range w.fire[:w.nFire] {
		if p.kind == kindFlame {
			fire++
		}
	}
	return fire, w.nSmoke
}

// A tank seen dying explodes (its sound where it died, a fireball and
// sparks), burns for about 14 s (9 s at full strength, 5 dying out) and
// smokes on until the smoke is gone, then nothing of the fire is drawn;
// the scorch under it stays.
func TestWreckBurnsAbout14sThenStops(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	dieAndBurn(t, f, s)
	tk := tankOf(t, f.scene, 1)
	w := tk.Wreck
	if w == nil || !w.active() {
		t.Fatal("no fire after a death in view")
	}
	if !slicesHave(f.snd.Calls, "tankExplosion") {
		t.Errorf("no explosion sound: %+v", f.snd.Calls)
	}
	balls, sparks := 0, 0
	for _, p := range w.fire[:w.nFire] {
		switch p.kind {
		case kindFireball:
			balls++
		case kindSpark:
			sparks++
		}
	}
	if balls != 14 || sparks != 12 || w.nSmoke != 12 {
		t.Errorf("explosion: %d fireballs, %d sparks, %d puffs; want 14, 12, 12", balls, sparks, w.nSmoke)
	}
	elapsed := 0.0
	run := func(until float64) {
		for elapsed < until {
			f.scene.Step(16)
			elapsed += 16
			if w.nFire > wreckMaxFire || w.nSmoke > wreckMaxSmoke {
				t.Fatalf("pool over its bound: %d, %d", w.nFire, w.nSmoke)
			}
		}
	}
	run(8000)
	if fl, sm := flames(w); fl == 0 || sm == 0 {
		t.Fatalf("at 8 s: %d flames, %d puffs", fl, sm)
	}
	run(13000)
	if fl, _ := flames(w); fl == 0 {
		t.Fatal("at 13 s the fire is out already")
	}
	run(14800) // 14 s and the last flame's life
	if fl, sm := flames(w); fl != 0 || sm == 0 {
		t.Fatalf("at 14.8 s: %d flames (want none), %d puffs (want smoke)", fl, sm)
	}
	run(34000) // the tail's 15 s and the last puff's 4.2 s
	if w.active() {
		t.Fatalf("still burning at 34 s: %d particles", w.nFire+w.nSmoke)
	}
	ops := drawOps(f.scene)
	scorch, fire := 0, 0
	for _, op := range ops {
		switch n := f.tex.Name(op.Tex); {
		case strings.HasPrefix(n, "scorch."):
			scorch++
			if op.C.A < 0.5 {
				t.Errorf("scorch alpha %v", op.C.A)
			}
		case n == "explosion", n == "smoke":
			fire++
		}
	}
	if scorch != 1 || fire != 0 {
		t.Errorf("after the fire: %d scorches (want 1), %d fire or smoke sprites (want 0)", scorch, fire)
	}
}

func slicesHave(calls []partstest.SoundCall, name string) bool {
	for _, c := range calls {
		if c.Name == name && c.Op == "register" {
			return true
		}
	}
	return false
}

func scorches(f *fixture) int {
	n := 0
	for _, op := range drawOps(f.scene) {
		if strings.HasPrefix(f.tex.Name(op.Tex), "scorch.") {
			n++
		}
	}
	return n
}

// The scorch stays until the round ends: the tank alive again (a new
// round) takes it and the fire away at once, and so does a new map.
func TestScorchClearsOnANewRound(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	dieAndBurn(t, f, s)
	f.scene.Step(500)
	if n := scorches(f); n != 1 {
		t.Fatalf("%d scorches after the death", n)
	}
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 1, Fields: tankRow(t, s, 10, 10, 0, 0, 3, 1)})))
	if n := scorches(f); n != 0 {
		t.Errorf("%d scorches after the respawn", n)
	}
	if w := tankOf(t, f.scene, 1).Wreck; w.active() {
		t.Error("the fire burns on after the respawn")
	}

	g := newFixture(t, s)
	dieAndBurn(t, g, s)
	g.scene.SetMap(bridgeMap(t))
	g.scene.Clear(nil, true)
	if n := scorches(g); n != 0 {
		t.Errorf("%d scorches after a new map", n)
	}
}

// A player who joins when a tank is already a wreck sees the wreck: no
// explosion, no fire, no scorch, and the wreck smoulders as it always did.
func TestWreckOnTheFirstRowDoesNotExplode(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 1, Fields: tankRow(t, s, 50, 60, 0.4, 0, 0, 1)})))
	f.scene.Step(16)
	if tankOf(t, f.scene, 1).Wreck != nil || slicesHave(f.snd.Calls, "tankExplosion") || scorches(f) != 0 {
		t.Fatalf("a wreck seen first exploded: %+v", f.snd.Calls)
	}
	smoke := 0
	for range 60 {
		f.scene.Step(16)
	}
	for _, op := range drawOps(f.scene) {
		if f.tex.Name(op.Tex) == "smoke" {
			smoke++
		}
	}
	if smoke == 0 {
		t.Error("the wreck does not smoulder")
	}
}

// propsMap is a flat map with three props: one plain, one with its own
// damaged and destroyed images, one whose game data does not parse.
func propsMap(t testing.TB) *gamemap.Map {
	m, err := gamemap.Parse([]byte(`{"setId":"c1","scale":1,"step":32,"map":[[0,0,0,0],[0,0,0,0]],"layers":{"1":[0]},
	 "spriteSheet":{"img":"t.png","frames":[[0,0,32,32]]},"physicsStatic":[],"physicsDynamic":[
	  {"position":[10,10],"angle":0,"width":20,"height":20,"img":"b.png","layer":3},
	  {"position":[60,10],"angle":0,"width":20,"height":20,"img":"b.png","layer":3,"game":{"imgDamaged":"bd.png","imgDestroyed":"bx.png"}},
	  {"position":[110,10],"angle":0,"width":20,"height":20,"img":"b.png","layer":3,"game":{"imgDamaged":7,"imgDestroyed":[1]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func propRow(t testing.TB, s *clientcore.Schema, x, y float64, state int) []float32 {
	c1 := s.Key("c1")
	row := rowtest.Row(t, c1, map[string]float64{"x": x, "y": y})
	clientcore.NewBinder(c1).Role(snapschema.RoleState).Set(row, float32(state))
	return row
}

func crates(sc *parts.Scene) map[float64]*Crate {
	out := map[float64]*Crate{}
	for _, p := range sc.Parts() {
		if cr, ok := p.(*Crate); ok {
			out[cr.body.X] = cr
		}
	}
	return out
}

// A prop's state byte shows: destroyed in view it bursts into splinters
// with the propBreak sound and lies as its own destroyed image, or as a
// scorch without one; damaged it shows its damaged image; a new round
// (state 0) restores it. Destroyed on the first row the player sees, it
// lies broken without a burst or a sound.
func TestPropsBreak(t *testing.T) {
	s := newerSchema(t)
	f := newFixture(t, s)
	for _, n := range []string{"b.png", "bd.png", "bx.png"} { // the images have loaded
		f.tex.Loaded[n] = [2]int{32, 32}
	}
	f.scene.SetMap(propsMap(t))
	cs := crates(f.scene)
	plain, imaged, bad := cs[10], cs[60], cs[110]
	if plain == nil || imaged == nil || bad == nil {
		t.Fatalf("crates %v", cs)
	}
	c1 := s.Key("c1")
	hot := func(states [3]int) {
		f.scene.ApplyHot(&clientcore.Hot{Dynamics: []clientcore.Record{
			{Schema: c1, ID: 0, Fields: propRow(t, s, 10, 10, states[0])},
			{Schema: c1, ID: 1, Fields: propRow(t, s, 60, 10, states[1])},
			{Schema: c1, ID: 2, Fields: propRow(t, s, 110, 10, states[2])},
		}})
	}
	hot([3]int{0, 1, 0})
	texOf := func(cr *Crate) string {
		var g partstest.Gfx
		cr.Draw(&g)
		if len(g.Ops) == 0 {
			return ""
		}
		return f.tex.Name(g.Ops[0].Tex)
	}
	if got := texOf(imaged); got != "asset:bd.png" {
		t.Errorf("damaged prop with its image draws %q", got)
	}
	f.snd.Calls = nil
	hot([3]int{2, 2, 2})
	if plain.Burst.Flying() < 6 || imaged.Burst.Flying() < 6 || bad.Burst.Flying() < 6 {
		t.Errorf("splinters: %d, %d, %d; want 6 to 10 each", plain.Burst.Flying(), imaged.Burst.Flying(), bad.Burst.Flying())
	}
	n := 0
	for _, c := range f.snd.Calls {
		if c.Name == "propBreak" {
			n++
			if c.D.X != 20 && c.D.X != 70 && c.D.X != 120 {
				t.Errorf("propBreak at %v, not a prop's centre", c.D.X)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d propBreak sounds, want 3", n)
	}
	if got := texOf(imaged); got != "asset:bx.png" {
		t.Errorf("destroyed prop with its image draws %q", got)
	}
	if got := texOf(plain); !strings.HasPrefix(got, "scorch.") {
		t.Errorf("destroyed prop without an image draws %q, want a scorch", got)
	}
	if got := texOf(bad); !strings.HasPrefix(got, "scorch.") {
		t.Errorf("destroyed prop with bad game data draws %q, want a scorch", got)
	}
	hot([3]int{2, 2, 2}) // the same state again: no second burst
	for range 200 {
		f.scene.Step(16)
	}
	if plain.Burst.Flying() != 0 {
		t.Errorf("%d splinters still fly after 3.2 s", plain.Burst.Flying())
	}
	hot([3]int{0, 0, 0}) // a new round
	if got := texOf(imaged); got != "asset:b.png" {
		t.Errorf("restored prop draws %q", got)
	}

	late := newFixture(t, s)
	late.scene.SetMap(propsMap(t))
	late.scene.ApplyHot(&clientcore.Hot{Dynamics: []clientcore.Record{{Schema: c1, ID: 0, Fields: propRow(t, s, 10, 10, 2)}}})
	lc := crates(late.scene)[10]
	if lc.Burst.Flying() != 0 || slicesHave(late.snd.Calls, "propBreak") {
		t.Errorf("a prop destroyed before the player came burst: %d splinters, %+v", lc.Burst.Flying(), late.snd.Calls)
	}
	var g partstest.Gfx
	lc.Draw(&g)
	if len(g.Ops) != 1 || !strings.HasPrefix(late.tex.Name(g.Ops[0].Tex), "scorch.") {
		t.Errorf("a late joiner does not see the debris: %+v", g.Ops)
	}
}

// A newer tank kicks back when its own shot is seen, rocks when a blast
// goes off beside it on its level (not one on another level), squashes and
// thuds (tankLanding, as loud as the landing was hard) on a hard landing,
// and settles back level.
func TestRecoilJoltAndLanding(t *testing.T) {
	s := newerSchema(t)
	f := newFixture(t, s)
	m1 := s.Key("m1")
	put := func(vz float64) {
		f.scene.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: m1, ID: 1, Fields: newerTank(t, s, 100, 100, 0, 3, 0, 0, vz)}}})
	}
	put(0)
	tk := tankOf(t, f.scene, 1)
	level := tk.drawnPose()
	f.scene.ApplyFrame(frame(block(s, "w1", clientcore.Row{Fields: tracerRow(t, s, 100, 100, 200, 100, 100, 100, 0, 1)})))
	f.scene.Step(40)
	if p := tk.drawnPose(); p.gunX >= -0.5 || p.x >= level.x {
		t.Errorf("no recoil after its shot: turret %v, hull x %v", p.gunX, p.x)
	}
	for range 30 {
		f.scene.Step(16)
	}
	if p := tk.drawnPose(); p.gunX != 0 || p.x != level.x {
		t.Errorf("recoil does not settle: %+v", p)
	}
	f.scene.ApplyFrame(frame(block(s, "w2e", clientcore.Row{Fields: blastRow(t, s, 120, 100, 50)})))
	f.scene.Step(16)
	if p := tk.drawnPose(); p.pitch <= 0.01 {
		t.Errorf("a blast in front does not lift the nose: pitch %v", p.pitch)
	}
	for range 120 {
		f.scene.Step(16)
	}
	if p := tk.drawnPose(); p.pitch != 0 || p.roll != 0 {
		t.Errorf("the jolt does not settle: %+v", p)
	}
	f.scene.Levels().SetLevelHeight(20)
	tk.Pose.level = 1 // on a slab above: the blast on the ground does not reach it
	f.scene.Events().Add(parts.Event{Kind: parts.EventBlast, X: 120, Y: 100, R: 50})
	f.scene.Step(16)
	if p := tk.drawnPose(); p.pitch != 0 {
		t.Errorf("a blast a level below rocks the tank: %v", p.pitch)
	}
	f.snd.Calls = nil
	put(-5)
	put(0)
	f.scene.Step(100)
	if p := tk.drawnPose(); p.sqL >= 1 {
		t.Errorf("no squash on a hard landing: %+v", p)
	}
	var thuds []partstest.SoundCall
	for _, c := range f.snd.Calls {
		if c.Op == "register" {
			thuds = append(thuds, c)
		}
	}
	if len(thuds) != 1 || thuds[0].Name != "tankLanding" || math.Abs(thuds[0].D.VolumeScale-5.0/6) > 1e-9 {
		t.Errorf("a hard landing's sound: %+v", f.snd.Calls)
	}
	f.snd.Calls = nil
	put(-1)
	f.scene.Step(500)
	put(0)
	if p := tk.drawnPose(); p.sqL != 1 || slicesHave(f.snd.Calls, "tankLanding") {
		t.Errorf("a soft landing squashes or thuds: %+v, %+v", p, f.snd.Calls)
	}
}

// A burning wreck, a breaking prop and a tilted, rocking newer tank step
// and draw without allocating.
func TestLooksDrawWithoutAllocating(t *testing.T) {
	s := newerSchema(t)
	f := newFixture(t, s)
	f.scene.SetMap(propsMap(t))
	m1, c1 := s.Key("m1"), s.Key("c1")
	f.scene.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{
		{Schema: m1, ID: 1, Fields: newerTank(t, s, 100, 100, 0.3, 3, 0.2, -0.1, 0)},
		{Schema: m1, ID: 2, Fields: newerTank(t, s, 140, 100, 0.3, 3, 0, 0, 0)},
	}, Dynamics: []clientcore.Record{{Schema: c1, ID: 0, Fields: propRow(t, s, 10, 10, 0)}}})
	hot := &clientcore.Hot{Actors: []clientcore.Record{
		{Schema: m1, ID: 1, Fields: newerTank(t, s, 100, 100, 0.3, 3, 0.2, -0.1, 0)},
		{Schema: m1, ID: 2, Fields: newerTank(t, s, 140, 100, 0.3, 0, 0, 0, 0)},
	}, Dynamics: []clientcore.Record{{Schema: c1, ID: 0, Fields: propRow(t, s, 10, 10, 2)}}}
	f.scene.ApplyHot(hot)
	for range 60 { // the fire and the smoke reach their pools' steady state
		f.scene.Step(16)
	}
	g := &countGfx{view: parts.Rect{X: -500, Y: -500, W: 2000, H: 2000}}
	st := f.scene.Stage("vimp")
	st.Draw(g)
	allocs := testing.AllocsPerRun(50, func() {
		f.scene.Events().Add(parts.Event{Kind: parts.EventBlast, X: 110, Y: 100, R: 40})
		f.scene.ApplyHot(hot)
		f.scene.Step(16)
		st.Draw(g)
	})
	if allocs != 0 {
		t.Errorf("%v allocations a frame", allocs)
	}
}

// smokeOf is the live Smoke part of entity id.
func smokeOf(t testing.TB, sc *parts.Scene, id uint32) *Smoke {
	t.Helper()
	for _, p := range sc.Parts() {
		if s, ok := p.(*Smoke); ok && s.Pose.x == float64(id) {
			return s
		}
	}
	t.Fatalf("no smoke for tank at x %d", id)
	return nil
}

// A newer live tank blows exhaust out of its back, thicker at full
// throttle than idling; a wreck blows none, and a tanks 0.13 row none at
// all (it draws as it always did).
func TestExhaustFollowsTheThrottle(t *testing.T) {
	s := newerSchema(t)
	f := newFixture(t, s)
	m1 := s.Key("m1")
	idle := newerTank(t, s, 100, 100, 0, 3, 0, 0, 0)
	full := newerTank(t, s, 200, 100, 0, 3, 0, 0, 0)
	rowtest.Set(t, m1, full, "engineLoad", 1)
	dead := newerTank(t, s, 300, 100, 0, 0, 0, 0, 0)
	f.scene.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: m1, ID: 1, Fields: idle}, {Schema: m1, ID: 2, Fields: full}, {Schema: m1, ID: 3, Fields: dead}}})
	for range 30 {
		f.scene.Step(16)
	}
	ni, nf, nd := len(smokeOf(t, f.scene, 100).Exhaust), len(smokeOf(t, f.scene, 200).Exhaust), len(smokeOf(t, f.scene, 300).Exhaust)
	if ni == 0 || nf < 3*ni || nd != 0 {
		t.Errorf("exhaust puffs: idle %d, full throttle %d, wreck %d", ni, nf, nd)
	}
	for _, q := range smokeOf(t, f.scene, 200).Exhaust {
		if q.x >= 200 {
			t.Fatalf("a puff ahead of the tank's centre heading east: %+v", q)
		}
	}
	old := loadSchema(t)
	fo := newFixture(t, old)
	row := tankRow(t, old, 100, 100, 0, 0, 3, 1)
	rowtest.Set(t, old.Key("m1"), row, "engineLoad", 1)
	fo.scene.ApplyFrame(frame(block(old, "m1", clientcore.Row{ID: 1, Fields: row})))
	for range 30 {
		fo.scene.Step(16)
	}
	if n := len(smokeOf(t, fo.scene, 100).Exhaust); n != 0 {
		t.Errorf("a 0.13 tank blows %d exhaust puffs", n)
	}
}

// Rows that are not numbers, or absurd, neither panic nor put a wreck's
// fire, a tilted hull or a prop's splinters anywhere that is not a number.
func TestLooksSurviveBadRows(t *testing.T) {
	s := newerSchema(t)
	f := newFixture(t, s)
	f.scene.SetMap(propsMap(t))
	m1, c1 := s.Key("m1"), s.Key("c1")
	nan, inf := math.NaN(), math.Inf(1)
	good := newerTank(t, s, 100, 100, 0, 3, 0, 0, 0)
	bad := newerTank(t, s, nan, inf, nan, 0, inf, nan, nan)
	rowtest.Set(t, m1, bad, "size", 255)
	rowtest.Set(t, m1, bad, "engineLoad", inf)
	f.scene.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: m1, ID: 1, Fields: good}}, Dynamics: []clientcore.Record{{Schema: c1, ID: 0, Fields: propRow(t, s, 10, 10, 0)}}})
	prop := propRow(t, s, nan, inf, 200)
	f.scene.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: m1, ID: 1, Fields: bad}}, Dynamics: []clientcore.Record{{Schema: c1, ID: 0, Fields: prop}}})
	f.scene.Events().Add(parts.Event{Kind: parts.EventBlast, X: nan, Y: 1, R: inf})
	for range 100 {
		f.scene.Step(16)
	}
	w := tankOf(t, f.scene, 1).Wreck
	if w == nil || !w.active() {
		t.Fatal("a death on a bad row did not burn")
	}
	for _, p := range w.fire[:w.nFire] {
		if !finite(p.x) || !finite(p.y) {
			t.Fatalf("a flame at %v, %v", p.x, p.y)
		}
	}
	for _, op := range drawOps(f.scene) {
		if n := f.tex.Name(op.Tex); (n == "explosion" || strings.HasPrefix(n, "scorch.")) && (!finite(op.M.TX) || !finite(op.M.TY)) {
			t.Fatalf("%s drawn at %v, %v", n, op.M.TX, op.M.TY)
		}
	}
}

// A newer host lists WreckFire for m1: the game draws it (through the
// tank's part), each tank has one place for it, made once.
func TestWreckFireClassIsTheGames(t *testing.T) {
	s := newerSchema(t)
	rnd := partstest.Seq(7)
	pc, err := parts.ParsePartsConfig(json.RawMessage(`{"gameSets":{"m1":["Tank","Smoke","WreckFire"]},
	 "entitiesOnCanvas":{"Tank":"vimp","Smoke":"vimp","WreckFire":"vimp"}}`))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := parts.NewScene(parts.SceneOptions{Game: Game(rnd), Generic: generic.Factory{}, Tex: partstest.NewTextures(baked()),
		Rand: rnd, Canvases: []string{"vimp"}}, s, pc)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Drawers["WreckFire"] != "tanks" || len(sc.Fallbacks) != 0 {
		t.Fatalf("drawers %v, fallbacks %v", sc.Drawers, sc.Fallbacks)
	}
	hot := &clientcore.Hot{Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 1, Fields: newerTank(t, s, 1, 2, 0, 3, 0, 0, 0)}}}
	for range 3 {
		sc.ApplyHot(hot)
	}
	if counts, _ := sc.Counts(); counts["WreckFire"] != 1 || sc.Refused().Rows != 0 {
		t.Errorf("counts %v, refused %+v", counts, sc.Refused())
	}
}
