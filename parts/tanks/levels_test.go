package tanks

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/snapschema"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

// layeredSchema is the tanks schema of a layered host: m1 gains z (world
// units above the ground) and level by name, the map dynamics c1 carry z
// and level by role in their head.
func layeredSchema(t testing.TB) *clientcore.Schema {
	b, err := os.ReadFile(partstest.Shared(t, "conformance/schemas/tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	keys := doc["keys"].(map[string]any)
	// z and level by their roles after x, y and angle, on the tanks and
	// the crates; the crates also carry a state byte.
	layered := func(key string, extra ...any) {
		k := keys[key].(map[string]any)
		f := k["fields"].([]any)
		head := append([]any{}, f[:3]...)
		head = append(head, map[string]any{"name": "z", "ty": "f32", "interp": "lerp", "role": "z"},
			map[string]any{"name": "level", "ty": "u8", "role": "level"})
		k["fields"] = append(append(head, extra...), f[3:]...)
	}
	layered("m1")
	layered("c1", map[string]any{"name": "state", "ty": "u8", "role": "state"})
	c1 := keys["c1"].(map[string]any)
	c1["optionalFrom"] = 6
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func bridgeMap(t testing.TB) *gamemap.Map {
	b, err := os.ReadFile(filepath.Join("..", "..", "host", "match", "maps", "bridge.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const oneLevel = 1.0 // a row's height of one level: the rows carry heights in levels

// A tank's z (world units) and level place it: drawn at its height in
// levels, on its level's draw orders (above the slab it stands on), moved
// when it drives down; and the bombs and tracers it causes start there.
func TestTankAtItsLevelAndHeight(t *testing.T) {
	s := layeredSchema(t)
	f := newFixture(t, s)
	if len(f.scene.Fallbacks) != 0 {
		t.Fatalf("layered schema fell back: %v", f.scene.Fallbacks)
	}
	f.scene.SetMap(bridgeMap(t))
	m1 := s.Key("m1")
	row := func(x, y, z, level float64) []float32 {
		return rowtest.Row(t, m1, map[string]float64{"x": x, "y": y, "condition": 3, "size": 2, "team": 1, rowtest.RoleZ: z, rowtest.RoleLevel: level})
	}
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 4, Fields: row(440, 300, oneLevel, 1)})))
	var tank *Tank
	for _, p := range allParts(f.scene) {
		if tk, ok := p.(*Tank); ok {
			tank = tk
		}
	}
	if tank == nil {
		t.Fatal("no tank")
	}
	if tank.At.Level != 1 || math.Abs(tank.At.H-1) > 1e-6 || tank.h.Z() != parts.LevelZ(3, 1) {
		t.Fatalf("tank on the bridge at %+v, draw order %d", tank.At, tank.h.Z())
	}
	var g partstest.Gfx
	g.Rect = parts.Rect{X: 0, Y: 0, W: 1000, H: 1000}
	tank.Draw(&g)
	if len(g.Ops) == 0 || math.Abs(g.Ops[0].H-1) > 1e-6 {
		t.Fatalf("tank drawn at height %v", g.Ops)
	}
	// A bomb it plants and a shot it fires start at its height.
	f.scene.ApplyFrame(frame(block(s, "w2", clientcore.Row{ID: 9, Fields: bombRow(t, s, 440, 300, 4)}),
		block(s, "w1", clientcore.Row{Fields: tracerRow(t, s, 440, 300, 500, 300, 440, 300, 1, 4)})))
	var bomb *Bomb
	var shot *ShotEffect
	for _, p := range allParts(f.scene) {
		switch v := p.(type) {
		case *Bomb:
			bomb = v
		case *ShotEffect:
			shot = v
		}
	}
	if bomb == nil || shot == nil || bomb.At != tank.At || shot.At != tank.At || bomb.h.Z() != parts.LevelZ(2, 1) {
		t.Fatalf("bomb %+v shot %+v", bomb, shot)
	}
	// Down a ramp to the ground: the tank moves to the ground's orders; half
	// way down it is still drawn among the bridge's bodies.
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 4, Fields: row(200, 300, oneLevel*0.6, 1)})))
	if math.Abs(tank.At.H-0.6) > 1e-6 || tank.h.Z() != parts.LevelZ(3, 1) {
		t.Fatalf("on the ramp: %+v order %d", tank.At, tank.h.Z())
	}
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 4, Fields: row(100, 300, 0, 0)})))
	if tank.At != (parts.Height{}) || tank.h.Z() != 3 {
		t.Fatalf("on the ground: %+v order %d", tank.At, tank.h.Z())
	}
}

// A schema without z and level keeps the flat drawing: tanks on the ground
// orders at height 0.
func TestFlatSchemaDrawsFlat(t *testing.T) {
	s := loadSchema(t)
	f := newFixture(t, s)
	f.scene.SetMap(bridgeMap(t))
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 1, Fields: tankRow(t, s, 440, 300, 0, 0, 3, 1)})))
	for _, p := range allParts(f.scene) {
		if tk, ok := p.(*Tank); ok && (tk.At != (parts.Height{}) || tk.h.Z() != 3) {
			t.Fatalf("flat tank at %+v order %d", tk.At, tk.h.Z())
		}
	}
}

// A crate reads z, level and state by role: resting on the bridge it is
// drawn a level up above the slab; falling off the edge its height drops
// (it shrinks towards the ground) and from half way down it is drawn among
// the ground's bodies, under the slab; a destroyed one lies under tanks.
func TestCrateFallsOffTheSlab(t *testing.T) {
	s := layeredSchema(t)
	f := newFixture(t, s)
	m := bridgeMap(t)
	f.scene.SetMap(m)
	c1 := s.Key("c1")
	var crate *Crate
	for _, p := range allParts(f.scene) {
		if cr, ok := p.(*Crate); ok && cr.body.Level == 1 {
			crate = cr
			break
		}
	}
	if crate == nil || crate.H != 1 || crate.h.Z() != parts.LevelZ(3, 1) { // from MAP_DATA's level
		t.Fatalf("crate on the bridge: %+v", crate)
	}
	idx := -1
	for i, b := range m.Dynamic {
		if b.X == crate.body.X && b.Y == crate.body.Y {
			idx = i
		}
	}
	b := clientcore.NewBinder(c1)
	zf, lf, sf := b.Role(snapschema.RoleZ), b.Role(snapschema.RoleLevel), b.Role(snapschema.RoleState)
	fall := func(z float64, state float64) {
		row := rowtest.Row(t, c1, map[string]float64{"x": 400, "y": 240})
		zf.Set(row, float32(z))
		lf.Set(row, 1)
		sf.Set(row, float32(state))
		f.scene.ApplyHot(&clientcore.Hot{Dynamics: []clientcore.Record{{Schema: c1, ID: uint32(idx), Fields: row}}})
	}
	var last = math.Inf(1)
	for _, z := range []float64{oneLevel, 0.7 * oneLevel, 0.45 * oneLevel, 0.1 * oneLevel} {
		fall(z, 0)
		var g partstest.Gfx
		g.Rect = parts.Rect{X: 0, Y: 0, W: 1000, H: 1000}
		crate.Draw(&g)
		if h := g.Ops[0].H; h >= last || math.Abs(h-z/oneLevel) > 1e-5 {
			t.Fatalf("at z %v drawn at height %v after %v", z, h, last)
		}
		last = g.Ops[0].H
		wantZ := parts.LevelZ(3, 1)
		if z/oneLevel < 0.5 {
			wantZ = 3
		}
		if crate.h.Z() != wantZ {
			t.Errorf("at z %v draw order %d, want %d", z, crate.h.Z(), wantZ)
		}
	}
	fall(0, crateDestroyed)
	if crate.h.Z() != 1 {
		t.Errorf("destroyed crate at order %d, want 1 (under the tanks)", crate.h.Z())
	}
}

// The radar shows both levels: a static layer per level, the bridge's slab
// and railings on the upper one.
func TestRadarShowsBothLevels(t *testing.T) {
	s := layeredSchema(t)
	f := newFixture(t, s)
	f.scene.SetMap(bridgeMap(t))
	var g partstest.Gfx
	g.Rect = parts.Rect{X: -1e4, Y: -1e4, W: 2e4, H: 2e4}
	f.scene.Stage("radar").Draw(&g)
	var layers []*parts.StaticLayer
	for _, op := range g.Ops {
		if op.Kind == "static" {
			layers = append(layers, op.Static)
		}
	}
	if len(layers) != 2 {
		t.Fatalf("radar draws %d static layers, want one per level", len(layers))
	}
	walls, slab := 0, 0
	for _, c := range partstest.Cells(layers[1], false) {
		if c.Part.W == 0.5 {
			walls++
		} else {
			slab++
		}
	}
	if walls == 0 || slab != 24*4+3 {
		t.Errorf("the upper level on the radar: %d railing and %d slab cells", walls, slab)
	}
}

// allParts lists the scene's live parts (instances and effects).
func allParts(sc *parts.Scene) []parts.Part { return sc.Parts() }
