package parts_test

import (
	"testing"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/parts/generic"
)

// witness records how each of its parts was removed, and what its Ctx said
// about the local player when it was built.
type witness struct {
	removed map[uint32]parts.Removal
	local   map[uint32]bool
	steps   int // an effect's Step calls before it ends
}

func (w *witness) Bind(*clientcore.KeySchema) (parts.Binding, error) { return w, nil }

func (w *witness) New(c *parts.Ctx, id uint32, _ []float32) parts.Part {
	w.local[id] = c.Local.Is(id)
	return &witnessPart{w: w, id: id, steps: w.steps}
}

type witnessPart struct {
	w     *witness
	id    uint32
	steps int
}

func (p *witnessPart) Update([]float32) {}
func (p *witnessPart) Step(float64) bool {
	p.steps--
	return p.steps >= 0
}
func (p *witnessPart) Destroy(why parts.Removal) { p.w.removed[p.id] = why }

// The scene tells a part why it goes: a null row kills it, a CLEAR sweeps
// it, an effect that played out finishes; and the Ctx a part is built with
// reads the local player the scene was last told of.
func TestRemovalReasons(t *testing.T) {
	schema, err := clientcore.ParseSchema([]byte(`{"version":5,"port":5,"keys":{
	  "m1":{"id":1,"kind":"indexed8","class":"event","fields":[{"name":"x","ty":"f32"}]},
	  "e1":{"id":2,"kind":"list16","class":"event","fields":[{"name":"x","ty":"f32"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	w := &witness{removed: map[uint32]parts.Removal{}, local: map[uint32]bool{}, steps: 1}
	game := &parts.Game{ID: "witness", Parts: map[string]parts.Factory{"W": w}}
	pc := parts.PartsConfig{GameSets: map[string][]string{"m1": {"W"}, "e1": {"W"}}, EntitiesOnCanvas: map[string]string{"W": "vimp"}}
	sc, err := parts.NewScene(parts.SceneOptions{Game: game, Generic: generic.Factory{}, Canvases: []string{"vimp"}}, schema, pc)
	if err != nil {
		t.Fatal(err)
	}
	m1, e1 := schema.Key("m1"), schema.Key("e1")
	rows := func(k *clientcore.KeySchema, r ...clientcore.Row) {
		sc.ApplyFrame(&clientcore.EventFrame{Blocks: []clientcore.Block{{Schema: k, Rows: r}}})
	}
	rows(m1, clientcore.Row{ID: 1, Fields: []float32{0}}) // before the scene knows the player
	sc.SetLocal(2, true)
	rows(m1, clientcore.Row{ID: 2, Fields: []float32{0}}, clientcore.Row{ID: 3, Fields: []float32{0}})
	if w.local[1] || !w.local[2] || w.local[3] {
		t.Fatalf("local as built: %v, want only 2", w.local)
	}
	rows(m1, clientcore.Row{ID: 2, Null: true})
	sc.Clear([]string{"m1"}, false)
	rows(e1, clientcore.Row{ID: 9, Fields: []float32{0}})
	sc.Step(16) // the effect's one step
	sc.Step(16) // it has played out
	want := map[uint32]parts.Removal{1: parts.Swept, 2: parts.Killed, 3: parts.Swept, 9: parts.Finished}
	for id, why := range want {
		if got, ok := w.removed[id]; !ok || got != why {
			t.Errorf("part %d removed %v (%v), want %v", id, got, ok, why)
		}
	}
	if len(w.removed) != len(want) {
		t.Errorf("removed %v, want %v", w.removed, want)
	}
}
