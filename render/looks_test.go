package render

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"testing"

	"vimpclient/clientcore"
)

// The looks scene: a tanks host of the newer dialect (the m1 row with its
// height, level, vertical speed, pitch and roll; the c1 row with its state
// byte), seen by a player who joins mid-round: some props are already
// damaged or destroyed, one tank is already a wreck, two tanks stand
// tilted on the ground.

// looksKeys is the snapshot schema of the newer dialect: m1 with 16 fields
// (z and level by their roles at indices 3 and 4, then vz, pitch and roll
// after the fields of the old row), c1 with its state byte.
const looksKeys = `{"version":5,"port":5,"keys":{
 "m1":{"id":1,"kind":"indexed8","class":"hot","fields":[
  {"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"angle","ty":"f32","interp":"lerpAngle"},
  {"name":"z","ty":"f32","interp":"lerp","role":"z"},{"name":"level","ty":"u8","role":"level"},
  {"name":"gunRotation","ty":"f32","interp":"lerpAngle"},{"name":"vx","ty":"f32","interp":"lerp"},{"name":"vy","ty":"f32","interp":"lerp"},
  {"name":"engineLoad","ty":"f32","interp":"lerp"},{"name":"condition","ty":"u8"},{"name":"size","ty":"u8"},{"name":"team","ty":"u8"},
  {"name":"angvel","ty":"f32","interp":"lerp"},{"name":"vz","ty":"f32"},{"name":"pitch","ty":"f32","interp":"lerp"},{"name":"roll","ty":"f32","interp":"lerp"}]},
 "w1":{"id":2,"kind":"list16","class":"event","fields":[{"name":"startX","ty":"f32"},{"name":"startY","ty":"f32"},{"name":"endX","ty":"f32"},{"name":"endY","ty":"f32"},{"name":"bodyX","ty":"f32"},{"name":"bodyY","ty":"f32"},{"name":"wasHit","ty":"u8"},{"name":"shooterId","ty":"u8"}]},
 "w2":{"id":3,"kind":"indexed32","class":"event","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"angle","ty":"f32"},{"name":"size","ty":"u8"},{"name":"time","ty":"u16"},{"name":"ownerId","ty":"u8"}]},
 "w2e":{"id":4,"kind":"list16","class":"event","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"radius","ty":"f32"}]},
 "c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":6,"fields":[
  {"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"angle","ty":"f32","interp":"lerpAngle"},
  {"name":"z","ty":"f32","interp":"lerp","role":"z"},{"name":"level","ty":"u8","role":"level"},{"name":"state","ty":"u8","role":"state"},
  {"name":"vx","ty":"f32","interp":"lerp"},{"name":"vy","ty":"f32","interp":"lerp"},{"name":"angvel","ty":"f32","interp":"lerp"}]}}}`

// looksTank is an m1 row of the newer dialect on the ground.
func looksTank(x, y, angle, gun, load, cond, team, pitch, roll float32) []float32 {
	return []float32{x, y, angle, 0, 0, gun, 0, 0, load, cond, 3, team, 0, 0, pitch, roll}
}

// looksProp is one prop of the looks map: where it lies (source pixels)
// and whether it has its own damaged and destroyed images.
type looksProp struct {
	x, y, angle int
	images      bool
}

// looksProps are the props of the looks map, in row order.
var looksProps = []looksProp{
	{x: 420, y: 300}, {x: 490, y: 300, images: true}, {x: 560, y: 300, angle: 30},
	{x: 630, y: 300, images: true, angle: 15}, {x: 420, y: 380}, {x: 490, y: 380, images: true},
}

// looksStates are the props' state bytes on the first frame the player
// sees: intact, damaged, destroyed, with and without their own images.
var looksStates = []float32{0, 1, 2, 2, 1, 0}

// looksMap is the layers map's ground and walls with the looks props (all
// of them with the crate image; the ones marked with their own damaged and
// destroyed images in their game data).
func looksMap() []byte {
	var grid [40][60]int
	for y := range 40 {
		for x := range 60 {
			switch {
			case x == 0 || y == 0 || x == 59 || y == 39:
				grid[y][x] = 1
			case (x*3+y*5)%11 == 0:
				grid[y][x] = 2
			}
		}
	}
	g, _ := json.Marshal(grid)
	dyn := "["
	for i, p := range looksProps {
		if i > 0 {
			dyn += ","
		}
		game := ""
		if p.images {
			game = `,"game":{"imgDamaged":"b1d.png","imgDestroyed":"b1x.png"}`
		}
		dyn += fmt.Sprintf(`{"position":[%d,%d],"angle":%d,"width":32,"height":32,"img":"b1.png","layer":3,"level":0%s}`, p.x, p.y, p.angle, game)
	}
	dyn += "]"
	return []byte(`{"setId":"c1","scale":0.6,"step":32,"map":` + string(g) + `,"layers":{"1":[0,2],"2":[1]},
	 "spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32]]},
	 "physicsStatic":[1],"physicsDynamic":` + dyn + `}`)
}

// looksCrateDamaged and looksCrateDestroyed are the own images of a prop
// that has them: the crate cracked (a red diagonal cross) and its broken
// boards (three loose planks).
func looksCrateDamaged() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for y := range 32 {
		for x := range 32 {
			c := color.RGBA{0x90, 0x64, 0x2a, 255}
			if x < 3 || y < 3 || x > 28 || y > 28 || x == y || x == 31-y {
				c = color.RGBA{0x40, 0x20, 0x08, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func looksCrateDestroyed() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for y := range 32 {
		for x := range 32 {
			if (y >= 4 && y < 9 && x > 2 && x < 26) || (y >= 14 && y < 19 && x > 6 && x < 30) || (y >= 24 && y < 29 && x > 1 && x < 20) {
				img.SetRGBA(x, y, color.RGBA{0x6a, 0x48, 0x20, 255})
			}
		}
	}
	return img
}

// looksCam is the looks scene's camera centre (world units).
const looksCamX, looksCamY = 300, 200

// looksScene is the looks map as a late joiner first sees it: the props
// in looksStates, tank 1 alive and level, tank 2 alive pitched nose up and
// rolled, tank 3 already a wreck.
func looksScene(t testing.TB) *scene {
	cfg := tanksConfigWith([]byte(looksKeys))
	schema := mustSchema(t, cfg)
	m1, c1 := schema.Key("m1"), schema.Key("c1")
	core := &fakeCore{my: 1}
	const cx, cy = looksCamX, looksCamY
	core.frames = []clientcore.EventFrame{{HasCamera: true, Camera: clientcore.FrameCamera{X: cx, Y: cy, ForceReset: true}}}
	core.hot.Flags = clientcore.HotGame | clientcore.HotCamera
	core.hot.Camera = [2]float32{cx, cy}
	core.hot.Actors = []clientcore.Record{
		{Schema: m1, ID: 1, Fields: looksTank(cx-70, cy+70, 0.3, 0.4, 0, 3, 1, 0, 0)},
		{Schema: m1, ID: 2, Fields: looksTank(cx-20, cy+70, -0.5, 0, 0, 3, 2, 0.25, -0.2)},
		{Schema: m1, ID: 3, Fields: looksTank(cx+30, cy+70, 1.2, 0.6, 0, 0, 1, 0, 0)},
	}
	for i, p := range looksProps {
		core.hot.Dynamics = append(core.hot.Dynamics, clientcore.Record{Schema: c1, ID: uint32(i),
			Fields: []float32{float32(p.x) * 0.6, float32(p.y) * 0.6, float32(p.angle) * 3.14159265 / 180, 0, 0, looksStates[i]}})
	}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: looksMap(), core: core, gameID: "tanks", rand: func() float64 { return 0.37 }})
	sc.r.SetAsset("tiles.png", refSheet())
	sc.r.SetAsset("b1.png", refCrate())
	sc.r.SetAsset("b1d.png", looksCrateDamaged())
	sc.r.SetAsset("b1x.png", looksCrateDestroyed())
	return sc
}

// looksReferenceNames are the looks scenes drawn as reference pictures.
var looksReferenceNames = []string{"looks-1280x720"}
