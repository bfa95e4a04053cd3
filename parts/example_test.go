package parts_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/testkit/partstest"
)

// beaconFactory is a part class for any key whose rows carry a position:
// it draws each entity as a disc. Bind runs once per schema key the game's
// gameSets give the class, so a layout that lacks x or y is refused there
// (and drawn by the generic renderer) instead of being drawn wrongly.
type beaconFactory struct{}

func (beaconFactory) Bind(k *clientcore.KeySchema) (parts.Binding, error) {
	b := clientcore.NewBinder(k)
	x, y := b.Require("x"), b.Require("y")
	if err := b.Err(); err != nil {
		return nil, err
	}
	return beaconBinding{x: x, y: y}, nil
}

// beaconBinding makes one beacon per entity id the key's rows name.
type beaconBinding struct{ x, y clientcore.BoundField }

func (b beaconBinding) New(c *parts.Ctx, id uint32, row []float32) parts.Part {
	p := &beacon{b: b, stage: c.Stage}
	p.Update(row)
	p.h = c.Stage.Add(10, p) // z 10: above the map, below the HUD canvases
	return p
}

// beacon is one live entity: Update takes its row, Draw draws it.
type beacon struct {
	b     beaconBinding
	stage *parts.Stage
	h     parts.Handle
	x, y  float64
}

func (p *beacon) Update(row []float32)  { p.x, p.y = p.b.x.Float64(row), p.b.y.Float64(row) }
func (p *beacon) Step(float64) bool     { return true } // lives until its entity goes
func (p *beacon) Destroy(parts.Removal) { p.stage.Remove(p.h) }
func (p *beacon) Draw(g parts.Gfx)      { g.Disc(p.x, p.y, 8, parts.RGB(0xffcc00)) }

// beaconFrame packs a v5 snapshot frame with one m1 row (id, has data, x, y).
func beaconFrame(seq uint32, at float64, id uint8, x, y float32) []byte {
	b := []byte{5, 5}
	b = binary.BigEndian.AppendUint32(b, seq)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(at))
	b = append(b, 0, 1, 1, id, 1)
	b = binary.BigEndian.AppendUint32(b, math.Float32bits(x))
	return binary.BigEndian.AppendUint32(b, math.Float32bits(y))
}

// A game's part class: the scene binds it to the keys CONFIG_DATA's gameSets
// name, creates a part for every entity the core's sample holds, and the
// canvas's stage draws them in order.
func ExampleFactory() {
	schema, err := clientcore.ParseSchema([]byte(`{"version":5,"port":5,"keys":{
	  "m1":{"id":1,"kind":"indexed8","class":"hot","fields":[
	    {"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"}]}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	game := &parts.Game{ID: "beacons", Parts: map[string]parts.Factory{"Beacon": beaconFactory{}}}
	pc := parts.PartsConfig{
		GameSets:         map[string][]string{"m1": {"Beacon"}},
		EntitiesOnCanvas: map[string]string{"Beacon": "vimp"},
	}
	scene, err := parts.NewScene(parts.SceneOptions{
		Game: game, Generic: generic.Factory{}, Tex: parts.NoTextures{}, Canvases: []string{"vimp"},
	}, schema, pc)
	if err != nil {
		fmt.Println(err)
		return
	}
	core := clientcore.New(schema, clientcore.Options{Delay: 100})
	core.PushFrame(beaconFrame(1, 1000, 7, 40, 60), 0)
	core.PushFrame(beaconFrame(2, 1100, 7, 60, 80), 100)
	scene.ApplyHot(core.Sample(150))

	var g partstest.Gfx
	scene.Stage("vimp").Draw(&g)
	for _, op := range g.Ops {
		fmt.Printf("%s at %.0f, %.0f radius %.0f\n", op.Kind, op.X, op.Y, op.R)
	}
	fmt.Println("fallbacks:", len(scene.Fallbacks))
	// Output:
	// disc at 50, 70 radius 8
	// fallbacks: 0
}
