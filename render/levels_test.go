package render

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/clientcore"
	"vimpclient/host/art"
)

// layeredConfig is the tanks CONFIG_DATA with the layered host's rows: m1
// and the map dynamics c1 carry z (world units above the ground) and level
// by role, right after the pose.
func layeredConfig(t testing.TB) []byte {
	var keys map[string]any
	if err := json.Unmarshal(mustSnapshot(t, tanksConfig(t)), &keys); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"m1", "c1"} {
		k := keys[name].(map[string]any)
		f := k["fields"].([]any)
		head := append([]any{}, f[:3]...)
		head = append(head, map[string]any{"name": "z", "ty": "f32", "interp": "lerp", "role": "z"},
			map[string]any{"name": "level", "ty": "u8", "role": "level"})
		k["fields"] = append(head, f[3:]...)
		if from, ok := k["optionalFrom"].(float64); ok && from >= 3 {
			k["optionalFrom"] = from + 2
		}
	}
	keys["c1"].(map[string]any)["optionalFrom"] = 5
	b, err := json.Marshal(keys)
	if err != nil {
		t.Fatal(err)
	}
	return tanksConfigWith(b)
}

// levelTank is a layered m1 row: a healthy tank of team at (x, y), z world
// units up, on level.
func levelTank(x, y, angle, team, z, level float32) []float32 {
	return []float32{x, y, angle, z, level, 0, 0, 0, 0, 3, 2, team, 0}
}

// levelCrate is a layered c1 row.
func levelCrate(x, y, z, level float32) []float32 { return []float32{x, y, 0, z, level, 0, 0, 0} }

// bridgeHeight is the bridge map's level height: it has no levelHeight, so
// one level is one cell, 32 px × 0.6.
const bridgeHeight = 19.2

// oneLevel is a row's height of one level: the rows carry heights in levels.
const oneLevel = 1.0

// bridgeScene is the embedded host's layered map with the host's own tile
// art, the camera at (cx, cy), the given tanks (m1 rows by id) and crate
// rows (c1 by index).
func bridgeScene(t testing.TB, cx, cy float32, tanks map[uint32][]float32, crates map[uint32][]float32) (*scene, *fakeCore) {
	cfg := layeredConfig(t)
	schema := mustSchema(t, cfg)
	m1, c1 := schema.Key("m1"), schema.Key("c1")
	core := &fakeCore{my: 1}
	var rows []clientcore.Row
	for id, r := range tanks {
		rows = append(rows, clientcore.Row{ID: id, Fields: r})
		core.hot.Actors = append(core.hot.Actors, clientcore.Record{Schema: m1, ID: id, Fields: r})
	}
	for id, r := range crates {
		core.hot.Dynamics = append(core.hot.Dynamics, clientcore.Record{Schema: c1, ID: id, Fields: r})
	}
	core.frames = []clientcore.EventFrame{{Blocks: []clientcore.Block{{Schema: m1, Rows: rows}},
		HasCamera: true, Camera: clientcore.FrameCamera{X: cx, Y: cy, ForceReset: true}}}
	core.hot.Flags = clientcore.HotGame | clientcore.HotCamera
	core.hot.Camera = [2]float32{cx, cy}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: bridgeMap(t), core: core, gameID: "tanks", rand: func() float64 { return 0.37 }})
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

// shoot draws a scene at 1920×1080 for a few frames and returns the last
// picture, saved under RENDER_SHOT_DIR when that is set.
func shoot(t *testing.T, sc *scene, name string, each func(frame int)) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 1920, 1080))
	const frames = 16
	acts := make([]func(*ebiten.Image), frames)
	for i := range acts {
		acts[i] = func(screen *ebiten.Image) {
			if each != nil {
				each(i)
			}
			if i == frames-1 {
				screen.ReadPixels(img.Pix)
			}
		}
	}
	steps(t, sc, 1920, 1080, acts...)
	if d := os.Getenv("RENDER_SHOT_DIR"); d != "" {
		writeRGBA(t, img, filepath.Join(d, name+".png"))
	}
	return img
}

func at(img *image.RGBA, x, y int) color.RGBA { return img.RGBAAt(x, y) }

// The bridge map is 48×32 cells of 19.2 world units, and the 1920×1080
// main canvas at scale 5 shows 384×216 of it.
const (
	bridgeW, bridgeH = 48 * bridgeHeight, 32 * bridgeHeight
	bridgeViewW      = 1920 / 5
	bridgeViewH      = 1080 / 5
)

// screenOf is where a world point h levels up is drawn on the 1920×1080
// main canvas (scale 5) of a camera at rest at (cx, cy). The view centre
// is the camera point held half a view in from the map's edges, as the
// world keeps the main view on the map; heights project from that centre.
func screenOf(x, y, h, cx, cy float64) (int, int) {
	cx = min(max(cx, bridgeViewW/2), bridgeW-bridgeViewW/2)
	cy = min(max(cy, bridgeViewH/2), bridgeH-bridgeViewH/2)
	k := 1 + 0.22*h
	return int(960 + (cx+(x-cx)*k-cx)*5), int(540 + (cy+(y-cy)*k-cy)*5)
}

// nearColour reports whether a pixel within r of (x, y) is within tol of c.
func nearColour(img *image.RGBA, x, y, r int, c color.RGBA, tol int) bool {
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if near(at(img, x+dx, y+dy), c.R, c.G, c.B, tol) {
				return true
			}
		}
	}
	return false
}

var (
	team1Turret = color.RGBA{0x55, 0x22, 0x22, 255}
	team2Turret = color.RGBA{0x22, 0x55, 0x22, 255}
)

// A tank on the bridge stands a level up: it is drawn where the height
// projection puts the slab under it (displaced away from the camera centre
// and 1.22 times as large), above the slab and the road, not where a tank
// on the road would be.
func TestLayeredTankOnTheBridge(t *testing.T) {
	const cx, cy = 460, 380
	sc, _ := bridgeScene(t, cx, cy, map[uint32][]float32{
		1: levelTank(cx, cy+60, 0, 1, 0, 0),       // on the road, south of the bridge, for comparison
		2: levelTank(440, 300, 0, 2, oneLevel, 1), // on the slab
	}, nil)
	img := shoot(t, sc, "layered-tank-on-bridge", nil)
	ux, uy := screenOf(440, 300, 0, cx, cy)
	px, py := screenOf(440, 300, 1, cx, cy)
	if !nearColour(img, px, py, 4, team2Turret, 14) {
		t.Errorf("no turret at the projected point %d,%d: %v", px, py, at(img, px, py))
	}
	if nearColour(img, ux, uy, 2, team2Turret, 14) {
		t.Errorf("the tank is drawn at its ground point %d,%d too", ux, uy)
	}
	// The road tank is drawn flat at its point.
	gx, gy := screenOf(cx, cy+60, 0, cx, cy)
	if !nearColour(img, gx, gy, 4, team1Turret, 14) {
		t.Errorf("road tank missing at %d,%d: %v", gx, gy, at(img, gx, gy))
	}
	// The raised hull is 1.22 times as long as the flat one: its light
	// inner part (36 of the texture's 40 px, 1 px per texture pixel at this
	// scale) measured along a row 9 px below the centre.
	if w := hullWidth(img, gx, gy+9); w < 34 || w > 38 {
		t.Errorf("road tank's hull %d px long, want 36", w)
	}
	if w := hullWidth(img, px, py+9); w < 42 || w > 46 {
		t.Errorf("raised tank's hull %d px long, want 44 (36 × 1.22)", w)
	}
}

// hullWidth is the extent of the light hull pixels along a row of a tank
// facing along x.
func hullWidth(img *image.RGBA, x, y int) int {
	light := func(c color.RGBA) bool { return c.R > 0xb0 && c.R == c.G && c.G == c.B }
	x0, x1 := x, x
	for d := 60; d > 0; d-- {
		if light(at(img, x-d, y)) {
			x0 = x - d
			break
		}
	}
	for d := 60; d > 0; d-- {
		if light(at(img, x+d, y)) {
			x1 = x + d
			break
		}
	}
	return x1 - x0 + 1
}

// A tank on the road under the bridge is covered by the slab: where it is,
// the slab is drawn; the same tank south of the bridge shows.
func TestLayeredTankUnderTheBridgeIsHidden(t *testing.T) {
	const cx, cy = 460, 380
	sc, _ := bridgeScene(t, cx, cy, map[uint32][]float32{
		1: levelTank(460, 310, 1.57, 1, 0, 0), // under the slab, on the north-south road
		2: levelTank(460, 420, 1.57, 2, 0, 0), // on the same road, south of the bridge
	}, nil)
	img := shoot(t, sc, "layered-tank-under-bridge", nil)
	hx, hy := screenOf(460, 310, 0, cx, cy)
	if nearColour(img, hx, hy, 6, team1Turret, 16) {
		t.Errorf("the tank under the bridge shows at %d,%d: %v", hx, hy, at(img, hx, hy))
	}
	vx, vy := screenOf(460, 420, 0, cx, cy)
	if !nearColour(img, vx, vy, 4, team2Turret, 14) {
		t.Errorf("the tank beside the bridge is missing at %d,%d: %v", vx, vy, at(img, vx, vy))
	}
	// The radar shows both: its dot for the tank under the bridge.
	rx, ry := 1825, 35+75
	if !nearColour(img, rx, ry-9, 3, team1Turret, 40) {
		t.Errorf("radar dot of the hidden tank missing near %d,%d: %v", rx, ry-9, at(img, rx, ry-9))
	}
}

// A crate falling off the slab's open edge shrinks towards the ground as it
// falls: three phases of one fall drawn at once (on the slab's edge, half
// way down, nearly landed), seen from north of the bridge, are drawn ever
// nearer their ground points and ever smaller, and the one that has passed
// half way is drawn among the ground's bodies, the others above the slab.
func TestLayeredCrateFallsOffTheSlab(t *testing.T) {
	const cx, cy = 410, 200
	// The slab's north edge is open over columns 20-22 (x 384-441.6, from
	// y 249.6); a crate (48 px = 28.8 u, drawn from its top-left corner)
	// falls north off it.
	phases := []struct {
		id    uint32
		y, z  float64
		level float32
	}{
		{4, 252, oneLevel, 1},
		{5, 222, oneLevel / 2, 1},
		{0, 192, 1.5 / bridgeHeight, 1},
	}
	crates := map[uint32][]float32{}
	for _, p := range phases {
		crates[p.id] = levelCrate(395, float32(p.y), float32(p.z), p.level)
	}
	sc, _ := bridgeScene(t, cx, cy, nil, crates)
	img := shoot(t, sc, "layered-crate-falling", nil)
	wood := func(c color.RGBA) bool { return c.R > c.B+40 && c.R > 0x60 }
	last := 1 << 30
	for _, p := range phases {
		h := p.z // the rows carry heights in levels
		mx, my := screenOf(395+14.4, p.y+14.4, h, cx, cy)
		if !wood(at(img, mx, my)) {
			t.Errorf("crate at height %.2f levels: pixel %d,%d is %v, not the crate's wood", h, mx, my, at(img, mx, my))
			continue
		}
		// Its drawn width along the row through its centre.
		x0, x1 := mx, mx
		for x := mx - 200; x < mx; x++ {
			if wood(at(img, x, my)) {
				x0 = x
				break
			}
		}
		for x := mx + 200; x > mx; x-- {
			if wood(at(img, x, my)) {
				x1 = x
				break
			}
		}
		w := x1 - x0 + 1
		want := 28.8 * 5 * (1 + 0.22*h)
		t.Logf("crate at height %.2f levels: %d px wide (projection: %.0f)", h, w, want)
		if float64(w) < want-12 || float64(w) > want+4 { // the crate's dark frame is not wood
			t.Errorf("crate at height %.2f levels drawn %d px wide, want about %.0f", h, w, want)
		}
		if w >= last {
			t.Errorf("crate at height %.2f levels is not smaller than the one above it", h)
		}
		last = w
	}
}

// A ramp is drawn as a wedge: a tank half way up it is drawn at its height
// over the slope, and the slope's upper end is raised like the slab it
// reaches (displaced away from the camera centre), with a skirt beneath.
func TestLayeredRampWedge(t *testing.T) {
	const cx, cy = 180, 380
	// The west ramp climbs east over columns 6-11 (x 115.2-230.4) of rows
	// 14-17; a tank half way up, at x 172.8, is half a level up.
	sc, _ := bridgeScene(t, cx, cy, map[uint32][]float32{
		1: levelTank(172.8, 300, 0, 1, oneLevel/2, 0),
	}, nil)
	img := shoot(t, sc, "layered-ramp", nil)
	px, py := screenOf(172.8, 300, 0.5, cx, cy)
	if !nearColour(img, px, py, 4, team1Turret, 14) {
		t.Errorf("climbing tank missing at %d,%d: %v", px, py, at(img, px, py))
	}
	// The ramp's surface at its top end, on its south edge, stands a level
	// up: the skirt fills the strip between where that edge is drawn and
	// where it would be on the ground, darker than the slope (side tint).
	_, ground := screenOf(225, 345.6, 0, cx, cy)
	_, raised := screenOf(225, 345.6, 1, cx, cy)
	sx, _ := screenOf(225, 345.6, 1, cx, cy)
	if raised >= ground {
		t.Fatalf("the top end is not raised: %d vs %d", raised, ground)
	}
	mid := (raised + ground) / 2
	skirt, slope := at(img, sx, mid), at(img, sx, raised-20)
	if int(skirt.R)+int(skirt.G)+int(skirt.B) >= int(slope.R)+int(slope.G)+int(slope.B) {
		t.Errorf("skirt %v at %d,%d not darker than the slope %v", skirt, sx, mid, slope)
	}
}
