package tanks

import (
	"fmt"
	"image"
	"math"

	"vimpclient/parts/bake"
)

// Team colours of the tank and radar bakers: the game's own dark red and
// green, and for the colour-blind-safe palette a dark orange and a dark
// blue, told apart with any common colour blindness (and by lightness).
const (
	team1Colour = 0x552222
	team2Colour = 0x225522

	team1Safe = 0x8a4f00
	team2Safe = 0x1f4f8a
)

// PaletteColorBlind names the colour-blind-safe team palette.
const PaletteColorBlind = "colorblind"

// teamColours are the team colours of palette (the game's own unless it is
// PaletteColorBlind).
func teamColours(palette string) map[int]uint32 {
	if palette == PaletteColorBlind {
		return map[int]uint32{1: team1Safe, 2: team2Safe}
	}
	return map[int]uint32{1: team1Colour, 2: team2Colour}
}

// BakeTeams draws the team-coloured textures (guns and radar dots) in
// palette's colours.
func BakeTeams(palette string) map[string]*image.RGBA {
	out := map[string]*image.RGBA{}
	for team, col := range teamColours(palette) {
		out[fmt.Sprintf("tank.gun.%d", team)] = bakeGun(col)
		out[fmt.Sprintf("radar.%d", team)] = bakeRadarDot(col)
	}
	return out
}

// Texture origins: where the drawing origin (hull centre) sits inside the
// cropped images, in texture pixels.
const (
	hullW, hullH       = 40, 30
	gunOX, gunOY       = 15, 11 // gun image 40×22, origin at (15, 11)
	gunW, gunH         = 40, 22
	wreckW, wreckH     = 48, 38 // wreck image, anchored at its centre
	radarDotSide       = 16
	bombSide           = 20
	funnelSide         = 90
	funnelContent      = 66
	funnelVariants     = 5
	explosionContent   = 100
	smokeContent       = 6
	impactContent      = 8
	trackMarkW, trackH = 5, 4
)

// Bake draws every tanks texture, as the game's own bakers do. rnd drives the
// funnel irregularity.
func Bake(rnd func() float64) map[string]*image.RGBA {
	out := BakeTeams("")
	for team := range teamColours("") {
		out[fmt.Sprintf("tank.body.%d", team)] = bakeHull()
	}
	out["tank.destroyed"] = bakeWreck()
	out["radar.destroyed"] = bakeRadarCross()
	out["bomb"] = bakeBomb()
	out["explosion"] = bake.BlurredCircle(50, 2, 0xffffff)
	out["impact"] = bake.BlurredCircle(4, 1, 0xffffff)
	out["smoke"] = bake.BlurredCircle(3, 1, 0xffffff)
	for i := range funnelVariants {
		out[fmt.Sprintf("funnel.%d", i)] = bakeFunnel(rnd)
	}
	bakeLooks(out, rnd)
	tm := bake.New(trackMarkW, trackH)
	tm.Rect(0, 0, trackMarkW, trackH, 0x1a1a12, 1)
	out["trackMark"] = tm.Img
	return out
}

func bakeHull() *image.RGBA {
	c := bake.New(hullW, hullH)
	for i, col := range []uint32{0x555555, 0x999999, 0xcccccc, 0xeeeeee} {
		w, h := float64(hullW-2*i), float64(hullH-2*i)
		c.Rect((hullW-w)/2, (hullH-h)/2, w, h, col, 1)
	}
	return c.Img
}

func off(pts []bake.P, dx, dy float64) []bake.P {
	out := make([]bake.P, len(pts))
	for i, p := range pts {
		out[i] = bake.P{X: p.X + dx, Y: p.Y + dy}
	}
	return out
}

func bakeGun(team uint32) *image.RGBA {
	c := bake.New(gunW, gunH)
	oct := off(bake.Pts(13.3, -4.2, 4.2, -10, -4.2, -10, -13.3, -4.2, -13.3, 4.2, -4.2, 10, 4.2, 10, 13.3, 4.2), gunOX, gunOY)
	c.Polygon(oct, team, 1)
	c.Stroke(oct, 1.7, 0xaaaaaa, 1, true)
	barrel := off(bake.Pts(2.5, -2.5, 23.3, -2.5, 23.3, 2.5, 2.5, 2.5), gunOX, gunOY)
	c.Stroke(barrel, 1.7, 0xaaaaaa, 1, true)
	c.Polygon(barrel, team, 1)
	return c.Img
}

func bakeWreck() *image.RGBA {
	const dark, darker, gun, damage, edge = 0x3a3a3a, 0x252525, 0x303030, 0x181818, 0x505050
	c := bake.New(wreckW, wreckH)
	ox, oy := 23.0, 18.0 // drawing origin inside the image
	q1 := off(bake.Pts(-21, -13, 22, -16, 19, 18, -17, 13), ox, oy)
	c.Polygon(q1, dark, 1)
	c.Stroke(q1, 2, edge, 1, true)
	c.Polygon(off(bake.Pts(-16, -10, 17, -13, 16, 14, -18, 11), ox, oy), darker, 1)
	c.Disc(6+ox, 3+oy, 12, damage, 1)
	c.Disc(-12+ox, -7.5+oy, 5, damage, 1)
	tur := off(bake.Pts(11, -7, 2, -10, -6, -9, -13, -2, -11, 6, -2, 10, 7, 8, 13, 1), ox+3, oy-2)
	c.Stroke(tur, 3, edge, 1, true)
	c.Polygon(tur, gun, 1)
	br := off(bake.Pts(8, -2.5, 15, -4, 14, 1.5, 7, 0.5), ox+3, oy-2)
	c.Stroke(br, 2, edge, 1, true)
	c.Polygon(br, gun, 1)
	c.Disc(1+ox+3, -2+oy-2, 4, damage, 1)
	return c.Img
}

func bakeRadarDot(team uint32) *image.RGBA {
	c := bake.New(radarDotSide, radarDotSide)
	c.Disc(8, 8, 6, 0xeeeeee, 1)
	c.Disc(8, 8, 4, team, 1)
	return c.Img
}

func bakeRadarCross() *image.RGBA {
	c := bake.New(radarDotSide, radarDotSide)
	c.Line(bake.P{X: 3.5, Y: 3.5}, bake.P{X: 12.5, Y: 12.5}, 1.5, 0x333333, 1)
	c.Line(bake.P{X: 12.5, Y: 3.5}, bake.P{X: 3.5, Y: 12.5}, 1.5, 0x333333, 1)
	return c.Img
}

func bakeBomb() *image.RGBA {
	c := bake.New(bombSide, bombSide)
	c.Rect(0, 0, bombSide, bombSide, 0xffffff, 1)
	c.Rect(1, 1, bombSide-2, bombSide-2, 0x0f0f0f, 1)
	return c.Img
}

func bakeFunnel(rnd func() float64) *image.RGBA {
	c := bake.New(funnelSide, funnelSide)
	pts := make([]bake.P, 20)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / 20
		r := 25 + (rnd()*8 - 4)
		pts[i] = bake.P{X: 45 + r*math.Cos(a), Y: 45 + r*math.Sin(a)}
	}
	c.Polygon(pts, 0x1c1c1c, 1)
	c.Stroke(pts, 4, 0xb0b0b0, 1, true)
	c.Blur(3 * 1.29)
	return c.Img
}
