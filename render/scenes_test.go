package render

import (
	"encoding/json"
	"testing"

	"vimpclient/clientcore"
)

// mustSchema parses the snapshot schema of a CONFIG_DATA.
func mustSchema(t testing.TB, cfg []byte) *clientcore.Schema {
	t.Helper()
	schema, err := clientcore.ParseSchema(mustSnapshot(t, cfg))
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// mustSnapshot is the snapshot schema inside a CONFIG_DATA.
func mustSnapshot(t testing.TB, cfg []byte) []byte {
	var doc struct {
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := json.Unmarshal(cfg, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Snapshot
}

// heavyScene is the benchmark scene: 32 tanks, 40 bombs, 20 tracers,
// 10 explosions, 64 crates, with smoke and tracks.
func heavyScene(t testing.TB) (*scene, *fakeCore) {
	cfg := tanksConfig(t)
	schema := mustSchema(t, cfg)
	m1, w1, w2, w2e, c1 := schema.Key("m1"), schema.Key("w1"), schema.Key("w2"), schema.Key("w2e"), schema.Key("c1")
	core := &fakeCore{my: 0}
	var tanksRows, bombs, tracers, blasts []clientcore.Row
	for i := range 32 {
		x, y := 250+float32(i%8)*20, 160+float32(i/8)*20
		cond := float32(i % 4) // all four conditions: smoke of every kind, wrecks
		tanksRows = append(tanksRows, clientcore.Row{ID: uint32(i), Fields: []float32{x, y, 0.1 * float32(i), 0.2, 30, 10, 1.5, cond, 2, float32(1 + i%2), 0}})
	}
	for i := range 40 {
		bombs = append(bombs, clientcore.Row{ID: uint32(1000 + i), Fields: []float32{240 + float32(i%10)*18, 150 + float32(i/10)*25, 0, 8, 300, 1}})
	}
	for i := range 20 {
		tracers = append(tracers, clientcore.Row{ID: uint32(i), Fields: []float32{260, 170 + float32(i), 420, 250 + float32(i), 260, 170, 1, 2}})
	}
	for i := range 10 {
		blasts = append(blasts, clientcore.Row{ID: uint32(i), Fields: []float32{260 + float32(i)*15, 230, 50}})
	}
	core.frames = []clientcore.EventFrame{{
		Blocks:    []clientcore.Block{{Schema: m1, Rows: tanksRows}, {Schema: w1, Rows: tracers}, {Schema: w2, Rows: bombs}, {Schema: w2e, Rows: blasts}},
		HasCamera: true, Camera: clientcore.FrameCamera{X: 320, Y: 200, ForceReset: true},
	}}
	core.hot.Flags = clientcore.HotGame | clientcore.HotCamera
	core.hot.Camera = [2]float32{320, 200}
	for i, r := range tanksRows {
		f := make([]float32, len(r.Fields))
		for k, v := range r.Fields {
			f[k] = float32(v)
		}
		f[0] += float32(i % 3) // moving tanks leave tracks
		core.hot.Actors = append(core.hot.Actors, clientcore.Record{Schema: m1, ID: r.ID, Fields: f})
	}
	for i := range 64 {
		core.hot.Dynamics = append(core.hot.Dynamics, clientcore.Record{Schema: c1, ID: uint32(i),
			Fields: []float32{float32(120 + (i%8)*54), float32(120 + (i/8)*54), 0.1, 0, 0, 0}})
	}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: testMap(64), core: core, gameID: "tanks", rand: func() float64 { return 0.37 }})
	sc.r.SetAsset("tiles.png", mustPNG(tileSheet()))
	return sc, core
}

// heavySceneNewer is the heavy scene with the newer rows of the looks
// scene (looksKeys): the same tanks, pitched and rolled by a little, first
// seen alive, then in every condition, so that the wrecks die in view; the
// same crates, a quarter of them destroyed (scorches). Its random source is
// a fixed sequence, so that particles spread as they do in play.
func heavySceneNewer(t testing.TB) (*scene, *fakeCore) {
	_, core := heavyScene(t)
	cfg := tanksConfigWith([]byte(looksKeys))
	schema := mustSchema(t, cfg)
	m1, w1, w2, w2e, c1 := schema.Key("m1"), schema.Key("w1"), schema.Key("w2"), schema.Key("w2e"), schema.Key("c1")
	// an old m1 row [x y angle gun vx vy load cond size team angvel] in the newer layout
	newer := func(f []float32, i int) []float32 {
		return []float32{f[0], f[1], f[2], 0, 0, f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], 0, 0.02 * float32(i%7), -0.03 * float32(i%5)}
	}
	fr := &core.frames[0]
	for bi := range fr.Blocks {
		blk := &fr.Blocks[bi]
		switch blk.Schema.Name {
		case "m1":
			blk.Schema = m1
			for i := range blk.Rows {
				blk.Rows[i].Fields = newer(blk.Rows[i].Fields, i)
				blk.Rows[i].Fields[9] = 3 // alive when first seen
			}
		case "w1":
			blk.Schema = w1
		case "w2":
			blk.Schema = w2
		case "w2e":
			blk.Schema = w2e
		}
	}
	for i := range core.hot.Actors {
		a := &core.hot.Actors[i]
		a.Schema, a.Fields = m1, newer(a.Fields, i)
	}
	for i := range core.hot.Dynamics {
		d := &core.hot.Dynamics[i]
		state := float32(0)
		if i%4 == 0 {
			state = 2
		}
		d.Schema, d.Fields = c1, []float32{d.Fields[0], d.Fields[1], d.Fields[2], 0, 0, state}
	}
	seed := uint64(99)
	rnd := func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / (1 << 53)
	}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: testMap(64), core: core, gameID: "tanks", rand: rnd})
	sc.r.SetAsset("tiles.png", mustPNG(tileSheet()))
	return sc, core
}
