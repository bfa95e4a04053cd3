package window

import (
	"image"
	"math"
	"path/filepath"
	"testing"

	"vimpclient/host"
	"vimpclient/testkit/capturetest"
)

// The window against a host that sends what a real tanks 0.13 host sends,
// on its pool mini map: the real config's parts draw the map's tiles (from
// the images the host drew in the shapes the map asks for), both tanks
// and the radar with the map and both tanks on it, and the sounds load
// (as mp3) through the one downloader with every image.
func TestWindowDrawsTheRealTanksData(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if !inOwnProcess(t) {
		return
	}
	game, auth, err := host.LoadGameData(filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.13"))
	if err != nil {
		t.Fatal(err)
	}
	run := playAndScreenshot(t, host.Config{Bots: 1, Seed: 3, Map: "pool-mini", Data: game, AuthData: auth})
	w := run.loop.World()
	tanks := 0
	for _, a := range w.Actors(nil) {
		if a.Key == "m1" {
			tanks++
		}
	}
	if tanks < 2 {
		t.Errorf("%d tanks in the world, want both", tanks)
	}
	vimp, radar := w.Stage("vimp"), w.Stage("radar")
	if vimp == nil || radar == nil {
		t.Fatal("the real config's canvases vimp and radar are not staged")
	}
	// The radar stages the map and a dot per tank; the main canvas the
	// map's layers and each tank with its smoke and tracks.
	t.Logf("staged: vimp %d, radar %d", vimp.Len(), radar.Len())
	if radar.Len() < 3 || vimp.Len() < 4 {
		t.Errorf("staged: vimp %d, radar %d", vimp.Len(), radar.Len())
	}
	var radarRect, mainRect image.Rectangle
	for _, c := range w.Canvases() {
		r := c.Rect
		rect := image.Rect(int(math.Ceil(r.Left)), int(math.Ceil(r.Top)), int(r.Left+r.W), int(r.Top+r.H))
		switch c.Spec.ID {
		case "radar":
			radarRect = rect
		case "vimp":
			mainRect = rect
		}
	}
	// Textured tiles: the floor's and walls' shades, not one flat colour;
	// the radar draws on its canvas.
	if n := colours(run.shot, mainRect, 5); n < 20 {
		t.Errorf("the main canvas %v has %d colours: no textured tiles", mainRect, n)
	}
	if radarRect.Empty() || colours(run.shot, radarRect, 2) < 4 {
		t.Errorf("the radar %v is not drawn", radarRect)
	}
	if _, ok := run.sounds.SoundConfig("tankEngine"); !ok {
		t.Error("the engine sound did not load")
	}
}
