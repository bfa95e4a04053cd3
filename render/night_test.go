package render

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/host/art"
	"vimpclient/internal/capturetest"
)

// The night scene is the real tanks 0.22 game on its night map, downtown,
// drawn at 1920×1080: the camera over the elevated road (level 1) and the
// street lamps beside it, the own tank on the ground south of it, an enemy
// tank on the ground north of it and one on the bridge.
const (
	nightCX, nightCY = 467.2, 300.8 // cell (36, 23) of 12.8 world units
	nightW, nightH   = 1920, 1080
)

// nightTankRow is a 0.22 m1 row (sixteen fields): a healthy tank of team
// at (x, y) facing angle, on level at height z (levels).
func nightTankRow(x, y, angle, team, z, level float32) []float32 {
	return []float32{x, y, angle, 0, 0, 0, 0, 3, 2, team, 0, z, level, 0, 0, 0}
}

// nightTanks are the night scene's tanks by id: 1 is the own.
func nightTanks() map[uint32][]float32 {
	return map[uint32][]float32{
		1: nightTankRow(384, 384, -1.2, 1, 0, 0),
		2: nightTankRow(576, 217.6, 2.6, 2, 0, 0),
		3: nightTankRow(512, 300.8, 3.1, 2, 1, 1),
	}
}

// downtownScene is the night scene's world: the real CONFIG_DATA and
// MAP_DATA of tanks 0.22 with the embedded host's art (the city sheet), the
// camera at rest at (cx, cy) and the given m1 rows.
func downtownScene(t testing.TB, cx, cy float32, tanks map[uint32][]float32) (*scene, *fakeCore) {
	dir := filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22")
	cfg, err := os.ReadFile(filepath.Join(dir, "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	mapJSON, err := os.ReadFile(filepath.Join(dir, "maps", "downtown.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema := mustSchema(t, cfg)
	m1 := schema.Key("m1")
	core := &fakeCore{my: 1}
	var rows []clientcore.Row
	for id := uint32(1); id <= uint32(len(tanks)); id++ {
		r, ok := tanks[id]
		if !ok {
			continue
		}
		rows = append(rows, clientcore.Row{ID: id, Fields: r})
		core.hot.Actors = append(core.hot.Actors, clientcore.Record{Schema: m1, ID: id, Fields: r})
	}
	core.frames = []clientcore.EventFrame{{Blocks: []clientcore.Block{{Schema: m1, Rows: rows}},
		HasCamera: true, Camera: clientcore.FrameCamera{X: cx, Y: cy, ForceReset: true}}}
	core.hot.Flags = clientcore.HotGame | clientcore.HotCamera
	core.hot.Camera = [2]float32{cx, cy}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: mapJSON, core: core, gameID: "tanks", rand: func() float64 { return 0.37 }})
	sc.r.gfx.cache.whole = true // every layer baked before it is drawn: the same picture every run
	imgs, err := art.Images()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range imgs {
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		sc.r.SetAsset(name, img)
	}
	return sc, core
}

// nightShot draws the night scene and returns its last frame.
func nightShot(t *testing.T, name string, each func(frame int)) *image.RGBA {
	sc, _ := downtownScene(t, nightCX, nightCY, nightTanks())
	return shoot(t, sc, name, each)
}

// TestWriteNightReference writes the night scene's reference picture when
// RENDER_WRITE_NIGHT_REF is set. The reference was drawn so by the
// renderer as it was before the night maps were lit: the picture of what
// the lighting must leave alone (the radar) and what it must change.
func TestWriteNightReference(t *testing.T) {
	if os.Getenv("RENDER_WRITE_NIGHT_REF") == "" {
		t.Skip("RENDER_WRITE_NIGHT_REF not set")
	}
	img := nightShot(t, "night-before", nil)
	writeRGBA(t, img, filepath.Join("testdata", "reference", "night-before-1920x1080.png"))
}
