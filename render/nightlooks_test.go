package render

import (
	"encoding/json"
	"image"
	"image/color"
	"math"
	"testing"
)

// downtownShot draws downtown at night with the camera at rest at (cx, cy)
// and the given tanks (1 is the own), and returns its last frame.
func downtownShot(t *testing.T, name string, cx, cy float32, tanks map[uint32][]float32) *image.RGBA {
	sc, _ := downtownScene(t, cx, cy, tanks)
	return shoot(t, sc, name, nil)
}

// groundPx is where a ground point is drawn on the 1920×1080 main canvas
// (scale 5) of a camera at rest at (cx, cy) well inside downtown.
func groundPx(x, y, cx, cy float64) image.Point {
	return image.Pt(int(960+(x-cx)*5), int(540+(y-cy)*5))
}

// A tank's headlight stops at a wall: downtown's low wall along row 54
// (a wall cell row, 12.8 world units thick, over the canal) stands in
// front of a tank on the road at row 51 that faces it. The road between
// the tank and the wall is lit; the canal behind the wall is as dark as
// it is when the tank looks the other way, though the cone (90 world
// units) would reach it.
func TestHeadlightStopsAtWall(t *testing.T) {
	const cx, cy = 200, 690
	const x, y = 160, 659.2 // cell (12, 51)
	facing := downtownShot(t, "headlight-wall", cx, cy, map[uint32][]float32{
		1: nightTankRow(x, y, math.Pi/2, 1, 0, 0), // south, at the wall
	})
	away := downtownShot(t, "headlight-away", cx, cy, map[uint32][]float32{
		1: nightTankRow(x, y, -math.Pi/2, 1, 0, 0), // north
	})
	front, behind := groundPx(x, 684, cx, cy), groundPx(x, 722, cx, cy)
	lf, la := lum(facing.RGBAAt(front.X, front.Y)), lum(away.RGBAAt(front.X, front.Y))
	if lf < la+12 {
		t.Errorf("the road before the wall at %v: luminance %.1f facing it, %.1f looking away: want it lit", front, lf, la)
	}
	bf, ba := lum(facing.RGBAAt(behind.X, behind.Y)), lum(away.RGBAAt(behind.X, behind.Y))
	if math.Abs(bf-ba) > 2 {
		t.Errorf("the canal behind the wall at %v: luminance %.1f facing it, %.1f looking away: want it as dark", behind, bf, ba)
	}
}

// Where no wall is in a cone's way the cone is lit as before: the lit
// night scene, whose three cones meet no wall of their levels, is the
// picture the renderer drew before headlights stopped at walls (the fan's
// edges fall a pixel apart from the quad's here and there).
func TestNightLitAgainstBefore(t *testing.T) {
	ref := readReference(t, "night-lit-before-1920x1080")
	lit := nightShot(t, "night-lit", nil)
	if d := differing(lit, ref, ref.Bounds(), 3); d > 0.0005 {
		t.Errorf("%.4f%% of the pixels differ from the picture before, allowed 0.05%%", 100*d)
	}
}

// orientation is the direction, in radians clockwise on screen, of the
// long axis of the bright pixels (a channel over 180) in r: the line a
// sign's letters run along.
func orientation(img *image.RGBA, r image.Rectangle) (theta float64, n int) {
	var sx, sy, sxx, syy, sxy float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if max(c.R, c.G, c.B) <= 180 {
				continue
			}
			fx, fy := float64(x), float64(y)
			sx, sy, sxx, syy, sxy = sx+fx, sy+fy, sxx+fx*fx, syy+fy*fy, sxy+fx*fy
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	k := float64(n)
	cxx, cyy, cxy := sxx/k-sx*sx/k/k, syy/k-sy*sy/k/k, sxy/k-sx*sy/k/k
	return 0.5 * math.Atan2(2*cxy, cxx-cyy), n
}

// Downtown's CLUB sign carries an angle of -8 (degrees) and is drawn
// turned by it: its letters run 8° up to the right of the level MOTEL
// sign's beside it on the same row of roofs.
func TestSignDrawnAtItsAngle(t *testing.T) {
	const cx, cy = 614.4, 531.2 // between them, level with them
	img := downtownShot(t, "signs-angle", cx, cy, map[uint32][]float32{1: nightTankRow(614.4, 600, 0, 1, 0, 0)})
	// the signs hang a level up: drawn 1.22 times as far from the centre
	up := func(x, y float64) image.Point {
		return image.Pt(int(960+(x-cx)*1.22*5), int(540+(y-cy)*1.22*5))
	}
	club, motel := up(40.5*12.8, 41.5*12.8), up(55.5*12.8, 41.5*12.8)
	box := image.Rect(-260, -160, 260, 160)
	tc, nc := orientation(img, box.Add(club))
	tm, nm := orientation(img, box.Add(motel))
	if nc < 500 || nm < 500 {
		t.Fatalf("the signs are not where they hang: %d bright pixels at CLUB %v, %d at MOTEL %v", nc, club, nm, motel)
	}
	deg := func(r float64) float64 { return r * 180 / math.Pi }
	if d := deg(tc - tm); math.Abs(d-(-8)) > 2 {
		t.Errorf("CLUB runs at %.1f°, MOTEL at %.1f°: turned by %.1f°, want -8°", deg(tc), deg(tm), d)
	}
	if math.Abs(deg(tm)) > 3 {
		t.Errorf("the level MOTEL sign runs at %.1f°, want about 0°", deg(tm))
	}
}

// roofedBridge is the embedded host's bridge map with its deck (tile 4 of
// level 1) declared a roof and cut in two at column 28: two roofs side by
// side over the road under the bridge.
func roofedBridge(t *testing.T) []byte {
	var m map[string]any
	if err := json.Unmarshal(bridgeMap(t), &m); err != nil {
		t.Fatal(err)
	}
	grid := m["levels"].(map[string]any)["1"].(map[string]any)["map"].([]any)
	for row := 13; row <= 18; row++ {
		grid[row].([]any)[28] = 0
	}
	m["game"] = map[string]any{"roofs": map[string]any{"1": []any{4}}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roofShot draws the roofed bridge with the camera at rest at (cx, cy) and
// the given tanks (1 is the own).
func roofShot(t *testing.T, name string, cx, cy float32, tanks map[uint32][]float32) *image.RGBA {
	sc, _ := bridgeScene(t, cx, cy, tanks, nil)
	sc.mapJSON = roofedBridge(t)
	return shoot(t, sc, name, nil)
}

// dist is how far apart two colours are (the largest channel's difference).
func dist(a, b color.RGBA) int {
	return max(absDiff(a.R, b.R), absDiff(a.G, b.G), absDiff(a.B, b.B))
}

// A roof over the own tank turns see-through, and only that roof: the own
// tank on the road under the west half of the roofed bridge shows through
// its deck (its turret's pixel near its own colour, where with the tank
// south of the bridge the deck is drawn whole), while the enemy under the
// east half stays covered: its pixel is the same as with the own tank
// away.
func TestRoofOverOwnTankIsSeeThrough(t *testing.T) {
	const cx, cy = 530, 330
	enemy := levelTank(600, 310, 1.57, 2, 0, 0) // under the east roof
	under := roofShot(t, "roof-under", cx, cy, map[uint32][]float32{
		1: levelTank(460, 310, 1.57, 1, 0, 0), // under the west roof
		2: enemy,
	})
	away := roofShot(t, "roof-away", cx, cy, map[uint32][]float32{
		1: levelTank(460, 420, 1.57, 1, 0, 0), // south of the bridge
		2: enemy,
	})
	ox, oy := screenOf(460, 310, 0, cx, cy)
	seen, covered := at(under, ox, oy), at(away, ox, oy)
	if d, was := dist(seen, team1Turret), dist(covered, team1Turret); d > was/2 {
		t.Errorf("the own tank under its roof at %d,%d: %v, %d from its turret's colour; the roof whole there is %v, %d from it: want it seen through",
			ox, oy, seen, d, covered, was)
	}
	if dist(seen, covered) < 30 {
		t.Errorf("the roof over the own tank at %d,%d is %v, whole it is %v: want it see-through", ox, oy, seen, covered)
	}
	ex, ey := screenOf(600, 310, 0, cx, cy)
	if a, b := at(under, ex, ey), at(away, ex, ey); dist(a, b) > 2 {
		t.Errorf("the other roof over the enemy at %d,%d: %v with the own tank under the first roof, %v with it away: want it as opaque", ex, ey, a, b)
	}
	if nearColour(under, ex, ey, 6, team2Turret, 16) {
		t.Errorf("the enemy under the other roof shows at %d,%d", ex, ey)
	}
}
