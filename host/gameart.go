package host

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"

	"vimpclient/host/art"
	"vimpclient/host/match"
)

// gameImages draws the images the maps of a game's own data name, since
// the host has none of that game's art: each sprite sheet just large enough
// for the frames its maps use, each frame the tile of the terrain its map gives
// it (a wall for the physics tiles, a canopy in a layer above the tanks, a
// floor or grass below them), and a crate for each image of a dynamic body,
// as large as the largest body that uses it.
func gameImages(list []match.MapData) (map[string][]byte, error) {
	sheets := map[string]*art.SheetSpec{}
	boxes := map[string]int{}
	for _, md := range list {
		var m struct {
			SpriteSheet struct {
				Img    string   `json:"img"`
				Frames [][4]int `json:"frames"`
			} `json:"spriteSheet"`
			Layers         map[string][]int `json:"layers"`
			PhysicsStatic  []int            `json:"physicsStatic"`
			PhysicsDynamic []struct {
				Img    string  `json:"img"`
				Width  float64 `json:"width"`
				Height float64 `json:"height"`
			} `json:"physicsDynamic"`
		}
		if err := json.Unmarshal(md.Text, &m); err != nil {
			return nil, fmt.Errorf("map %s: %w", md.Name, err)
		}
		if m.SpriteSheet.Img != "" {
			spec := sheets[m.SpriteSheet.Img]
			if spec == nil {
				spec = &art.SheetSpec{}
				sheets[m.SpriteSheet.Img] = spec
			}
			for tile, f := range m.SpriteSheet.Frames {
				spec.Frames = append(spec.Frames, f)
				spec.Terrains = append(spec.Terrains, tileTerrain(tile, m.Layers, m.PhysicsStatic))
			}
		}
		for _, b := range m.PhysicsDynamic {
			boxes[b.Img] = max(boxes[b.Img], int(max(b.Width, b.Height)))
		}
	}
	out := map[string][]byte{}
	for name, spec := range sheets {
		img, err := art.Sheet(*spec)
		if err != nil {
			return nil, fmt.Errorf("image %s: %w", name, err)
		}
		if out[path.Base(name)], err = art.Encode(img); err != nil {
			return nil, fmt.Errorf("image %s: %w", name, err)
		}
	}
	for name, side := range boxes {
		img, err := art.Box(side)
		if err != nil {
			return nil, fmt.Errorf("image %s: %w", name, err)
		}
		if out[path.Base(name)], err = art.Encode(img); err != nil {
			return nil, fmt.Errorf("image %s: %w", name, err)
		}
	}
	return out, nil
}

// tileTerrain is what a map's tile draws: a wall when it is solid, a canopy
// in a layer drawn above the tanks (4 and up), the floor when it is the
// first tile of its ground layer, grass after that.
func tileTerrain(tile int, layers map[string][]int, static []int) art.Terrain {
	for _, t := range static {
		if t == tile {
			return art.Wall
		}
	}
	names := slices.Sorted(maps.Keys(layers))
	for _, name := range names {
		n, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		for i, t := range layers[name] {
			switch {
			case t != tile:
			case n >= 4:
				return art.Canopy
			case i == 0:
				return art.Floor
			default:
				return art.Grass
			}
		}
	}
	return art.Floor
}
