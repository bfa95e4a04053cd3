package render

import (
	"image"
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
