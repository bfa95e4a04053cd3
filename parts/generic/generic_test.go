package generic

import (
	"testing"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

const schemaJSON = `{"a1":{"id":1,"kind":"indexed8","class":"hot","fields":[{"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"angle","ty":"f32","interp":"lerpAngle"},{"name":"team","ty":"u8"}]},
 "e1":{"id":2,"kind":"list16","class":"event","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"}]},
 "s1":{"id":3,"kind":"indexed8","class":"hot","fields":[{"name":"score","ty":"u16"}]}}`

func TestGenericEntitiesAndMarkers(t *testing.T) {
	s, err := clientcore.ParseSchema([]byte(schemaJSON))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := parts.NewScene(parts.SceneOptions{Generic: Factory{}, Tex: partstest.NewTextures(nil), Canvases: []string{"vimp"}}, s, parts.PartsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{
		{Schema: s.Key("a1"), Rows: []clientcore.Row{{ID: 4, Fields: rowtest.Row(t, s.Key("a1"), map[string]float64{"x": 10, "y": 20, "team": 1})}}},
		{Schema: s.Key("e1"), Rows: []clientcore.Row{{Fields: rowtest.Row(t, s.Key("e1"), map[string]float64{"x": 5, "y": 6})}}},
		{Schema: s.Key("s1"), Rows: []clientcore.Row{{ID: 4, Fields: rowtest.Row(t, s.Key("s1"), map[string]float64{"score": 99})}}}, // nothing positional: not drawn
	}})
	counts, effects := sc.Counts()
	if counts["generic"] != 1 || effects != 1 {
		t.Fatalf("counts %v effects %d", counts, effects)
	}
	g := &partstest.Gfx{Rect: parts.Rect{W: 320, H: 180}}
	sc.Stage("vimp").Draw(g)
	var disc, ring, label *partstest.Op
	for i := range g.Ops {
		switch g.Ops[i].Kind {
		case "disc":
			disc = &g.Ops[i]
		case "ring":
			ring = &g.Ops[i]
		case "label":
			label = &g.Ops[i]
		}
	}
	if disc == nil || disc.X != 10 || disc.Y != 20 || disc.C != palette[1] || disc.R != 2 {
		t.Fatalf("entity disc %+v", disc)
	}
	if label == nil || label.Label != "a1:4" {
		t.Fatalf("label %+v", label)
	}
	if ring == nil || ring.X != 5 || ring.Y != 6 {
		t.Fatalf("event marker %+v", ring)
	}
	sc.Step(999)
	if _, effects = sc.Counts(); effects != 1 {
		t.Fatal("marker ended early")
	}
	sc.Step(2)
	if _, effects = sc.Counts(); effects != 0 {
		t.Fatal("marker outlived its second")
	}
}
