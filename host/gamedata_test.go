package host

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vimpclient/host/match"
	"vimpclient/testkit/capturetest"
)

// The real tanks data of each version loads as a game: its config and auth
// verbatim, the maps by file name in name order.
func TestLoadGameDataReadsTheRealTanksLayout(t *testing.T) {
	for version, maps := range map[string]string{
		"real-tanks-0.13": "canopy,garden,pool-mini",
		"real-tanks-0.22": "canopy,downtown,garden,overpass,pool-mini,terraces",
	} {
		t.Run(version, func(t *testing.T) {
			dir := filepath.Join(capturetest.SharedDir(t), "captures", version)
			g, auth, err := LoadGameData(dir)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _ := os.ReadFile(filepath.Join(dir, "config-data.json"))
			if !bytes.Equal(g.Config, cfg) || !bytes.Contains(auth, []byte(`"separator"`)) {
				t.Fatalf("config %d bytes (want %d), auth %q", len(g.Config), len(cfg), auth)
			}
			var names []string
			for _, m := range g.Maps {
				names = append(names, m.Name)
			}
			if strings.Join(names, ",") != maps {
				t.Fatalf("maps %v, want %s", names, maps)
			}
		})
	}
}

// A directory without the config, with a config that is not JSON, or
// without maps is refused, naming what is wrong.
func TestLoadGameDataRefusesIncompleteData(t *testing.T) {
	write := func(dir, name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	empty := t.TempDir()
	bad := t.TempDir()
	write(bad, "config-data.json", "{")
	noMaps := t.TempDir()
	write(noMaps, "config-data.json", "{}")
	badAuth := t.TempDir()
	write(badAuth, "config-data.json", "{}")
	write(badAuth, "auth-data.json", "[")
	for dir, want := range map[string]string{empty: "config-data.json", bad: "not JSON", noMaps: "no maps", badAuth: "auth-data.json"} {
		if _, _, err := LoadGameData(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", dir, err, want)
		}
	}
}

// The images a game's maps name are drawn in their shapes: each sheet
// covers every frame its maps use, with pixels in each frame, and each
// body image is as large as the largest body using it.
func TestGameImagesCoverTheMapsFrames(t *testing.T) {
	g, _, err := LoadGameData(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.13"))
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := gameImages(g.Maps)
	if err != nil {
		t.Fatal(err)
	}
	sheet := func(name string) (w, h int) {
		t.Helper()
		img, err := png.Decode(bytes.NewReader(imgs[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return img.Bounds().Dx(), img.Bounds().Dy()
	}
	if w, h := sheet("tiles.png"); w != 512 || h != 256 {
		t.Errorf("tiles.png %d×%d, want 512×256 (pool mini's frames reach x 512, y 256)", w, h)
	}
	if w, h := sheet("tiles3.png"); w != 128 || h != 224 {
		t.Errorf("tiles3.png %d×%d, want 128×224 (garden's and canopy's frames)", w, h)
	}
	if w, h := sheet("b1.png"); w != 96 || h != 96 {
		t.Errorf("b1.png %d×%d, want 96×96 (canopy's largest body)", w, h)
	}
	if len(imgs) != 3 {
		t.Errorf("images %d, want 3", len(imgs))
	}
}

// The 0.22 maps' images are drawn in their shapes too: downtown's city
// sheet covers its 33 frames (16 columns of 32 px, three rows), the
// layered maps' frames widen nothing of tiles.png beyond pool mini's, and
// each prop image is as large as the largest body using it (a fence is 64
// wide, a crate 32, a barrel 24).
func TestGameImagesCoverThe022Maps(t *testing.T) {
	g, _, err := LoadGameData(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22"))
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := gameImages(g.Maps)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][2]int{
		"city.png": {512, 96}, "tiles.png": {512, 256}, "tiles3.png": {128, 224}, "b1.png": {96, 96},
		"prop_fence.png": {64, 64}, "prop_crate.png": {32, 32}, "prop_barrel.png": {24, 24},
	} {
		b, ok := imgs[name]
		if !ok {
			t.Errorf("%s: not drawn", name)
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != want[0] || h != want[1] {
			t.Errorf("%s %d×%d, want %d×%d", name, w, h, want[0], want[1])
		}
	}
}

// Map data that is not a map, or frames outside any sheet, is refused
// with an error, never a panic or a huge image.
func FuzzGameImages(f *testing.F) {
	f.Add([]byte(`{"spriteSheet":{"img":"t.png","frames":[[0,0,32,32],[32,0,32,32]]},"layers":{"1":[0],"4":[1]},"physicsStatic":[],"physicsDynamic":[{"img":"b.png","width":40,"height":20}]}`))
	f.Add([]byte(`{"spriteSheet":{"img":"t.png","frames":[[-1,0,32,32]]}}`))
	f.Add([]byte(`{"spriteSheet":{"img":"t.png","frames":[[0,0,99999,1]]},"physicsDynamic":[{"img":"b.png","width":-5}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, text []byte) {
		imgs, err := gameImages([]match.MapData{{Name: "fuzz", Text: text}})
		if err == nil && len(imgs) > 2 {
			t.Fatalf("%d images from one map", len(imgs))
		}
	})
}
