// Package art draws the embedded host's own tile art: the sprite sheet of
// the generated maps and the crate image, and sheets and boxes in the
// shapes another game's maps ask for, encoded as PNG at startup. The
// drawings are procedural (value noise and simple shapes), so the project
// ships no image files.
package art

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
)

// Tile is the side of a sprite-sheet frame in pixels.
const Tile = 32

// Images returns every served image by file name (tiles.png, crate.png).
func Images() (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, img := range map[string]image.Image{"tiles.png": tiles(), "crate.png": crate(48)} {
		b, err := Encode(img)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", name, err)
		}
		out[name] = b
	}
	return out, nil
}

func shade(c color.NRGBA, d int) color.NRGBA {
	f := func(v uint8) uint8 { return uint8(min(255, max(0, int(v)+d))) }
	return color.NRGBA{f(c.R), f(c.G), f(c.B), c.A}
}

// tiles draws frames 0 floor, 1 wall, 2 grass, 3 canopy (translucent).
func tiles() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 4*Tile, Tile))
	rng := rand.New(rand.NewPCG(7, 11))
	floor := color.NRGBA{92, 88, 76, 255}
	wall := color.NRGBA{120, 118, 126, 255}
	grass := color.NRGBA{78, 104, 62, 255}
	canopy := color.NRGBA{40, 86, 44, 200}
	for y := 0; y < Tile; y++ {
		for x := 0; x < Tile; x++ {
			img.SetNRGBA(x, y, shade(floor, rng.IntN(13)-6))
			// Wall: bricks with mortar lines and a bevel.
			c := shade(wall, rng.IntN(11)-5)
			row := y / 8
			off := (row % 2) * 8
			if y%8 == 0 || (x+off)%16 == 0 {
				c = shade(wall, -45)
			}
			if x == 0 || y == 0 {
				c = shade(c, 30)
			}
			if x == Tile-1 || y == Tile-1 {
				c = shade(c, -40)
			}
			img.SetNRGBA(Tile+x, y, c)
			g := shade(grass, rng.IntN(21)-10)
			if rng.IntN(9) == 0 {
				g = shade(grass, 25)
			}
			img.SetNRGBA(2*Tile+x, y, g)
			k := shade(canopy, rng.IntN(31)-15)
			if (x/4+y/4)%3 == 0 {
				k = shade(k, 18)
			}
			img.SetNRGBA(3*Tile+x, y, k)
		}
	}
	return img
}

// crate draws a wooden box with a frame and a diagonal brace.
func crate(side int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	rng := rand.New(rand.NewPCG(3, 5))
	wood := color.NRGBA{150, 108, 60, 255}
	edge := side / 8
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			c := shade(wood, rng.IntN(15)-7+((y/6)%2)*8)
			frame := x < edge || y < edge || x >= side-edge || y >= side-edge
			brace := abs(x-y) < edge/2+1
			if frame || brace {
				c = shade(wood, -35+rng.IntN(9))
			}
			if x == 0 || y == 0 || x == side-1 || y == side-1 {
				c = color.NRGBA{50, 34, 20, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Terrain is what a tile of a map draws: the frames of the generated maps'
// sheet, by index.
type Terrain int

// The terrains of a tile.
const (
	Floor Terrain = iota
	Wall
	Grass
	Canopy
)

// SheetSpec is a sprite sheet a map names: each tile's frame rectangle
// (x, y, w, h in the sheet) and terrain.
type SheetSpec struct {
	Frames   [][4]int
	Terrains []Terrain
}

// maxSheetSide bounds a drawn sheet (pixels per side).
const maxSheetSide = 2048

// Sheet draws a sheet for a map whose tiles index frames anywhere in it:
// just large enough to hold every frame, each frame the generated sheet's
// tile of its terrain (scaled to the frame); a frame two tiles share is drawn
// for the first of them. Transparent elsewhere.
func Sheet(spec SheetSpec) (image.Image, error) {
	w, h := 1, 1
	for _, f := range spec.Frames {
		if f[0] < 0 || f[1] < 0 || f[2] <= 0 || f[3] <= 0 || f[0]+f[2] > maxSheetSide || f[1]+f[3] > maxSheetSide {
			return nil, fmt.Errorf("sheet frame %v outside 0..%d", f, maxSheetSide)
		}
		w, h = max(w, f[0]+f[2]), max(h, f[1]+f[3])
	}
	src := tiles()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	drawn := map[[4]int]bool{}
	for i, f := range spec.Frames {
		if drawn[f] {
			continue
		}
		drawn[f] = true
		k := Floor
		if i < len(spec.Terrains) {
			k = spec.Terrains[i]
		}
		for y := 0; y < f[3]; y++ {
			for x := 0; x < f[2]; x++ {
				img.SetNRGBA(f[0]+x, f[1]+y, src.NRGBAAt(int(k)*Tile+x*Tile/f[2], y*Tile/f[3]))
			}
		}
	}
	return img, nil
}

// Box draws the crate image for bodies up to side pixels.
func Box(side int) (image.Image, error) {
	if side <= 0 || side > maxSheetSide {
		return nil, fmt.Errorf("box side %d outside 1..%d", side, maxSheetSide)
	}
	return crate(side), nil
}

// Encode is an image as PNG.
func Encode(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
