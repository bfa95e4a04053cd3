package render

import (
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
	"vimpclient/world/canvas"
)

// matchesGame plays matches of the tanks scene one after the other, as a
// reconnect does: each match configures the world anew with its map,
// leaves marks on a decal layer of its own over ground of many chunks,
// and draws for a few frames.
type matchesGame struct {
	sc      *scene
	frames  int // frames a match
	frame   int
	match   int
	layer   *parts.DecalLayer
	mark    parts.Tex
	atlases map[*atlas]bool // the atlases the matches drew with
	// after each match's last frame: the decal chunks and bytes held.
	chunks, bytes []int
}

func (g *matchesGame) Update() error {
	if g.frame%g.frames == 0 {
		// A new match: the world configured again, a map again (the
		// client parses each MAP_DATA anew), and a new scene's marks.
		g.sc.mapJSON = testMap(0)
		if err := g.sc.configure(); err != nil {
			return err
		}
		g.layer = &parts.DecalLayer{FadeRate: 0.1 / 60000}
		g.match++
	}
	g.sc.r.Poll()
	g.sc.now += g.sc.step
	g.sc.w.Tick(g.sc.now, g.sc.step)
	return nil
}

func (g *matchesGame) Draw(screen *ebiten.Image) {
	screen.Fill(color.Black)
	g.sc.r.Draw(screen, g.sc.w, 1)
	g.atlases[g.sc.r.tex.atl] = true
	// Marks over the ground, a few chunks apart, drawn into the screen as
	// a canvas of the match draws its decal layer.
	for i := range 12 {
		x, y := float64(i%4)*300+20, float64(i/4)*200+20
		g.layer.Paint(g.mark, parts.Rect{W: 4, H: 4}, parts.Identity().Scale(5, 5).Translate(x, y), parts.White())
	}
	g.sc.r.gfx.begin(screen, canvas.Stage{S: 1}, 1, winW, winH)
	g.layer.Draw(g.sc.r.gfx)
	g.sc.r.gfx.end()
	g.frame++
	if g.frame%g.frames == 0 {
		c, b, _ := g.sc.r.DecalStats()
		g.chunks, g.bytes = append(g.chunks, c), append(g.bytes, b)
	}
}

func (g *matchesGame) LayoutF(w, h float64) (float64, float64) { return g.sc.LayoutF(w, h) }

// What a match leaves on the GPU goes with it: when the world is
// configured for the next match, the marks the last one left on the ground
// are freed at once (not after their layer has gone undrawn for ten
// seconds, by when a reconnect has made pages of its own), so the decal
// pages after each match hold only that match's marks; and the same game's
// bake coming back keeps the atlas it made rather than uploading another.
func TestMatchEndReleasesItsImages(t *testing.T) {
	const matches, frames = 6, 4
	sc := newScene(t, sceneOptions{config: tanksConfig(t), gameID: "tanks", core: &fakeCore{my: 1}})
	g := &matchesGame{sc: sc, frames: frames, atlases: map[*atlas]bool{},
		mark: sc.r.Textures().Register("mark", solid(4, 4, color.RGBA{200, 40, 40, 255}))}
	if err := run(t, g, matches*frames, nil); err != nil {
		t.Fatal(err)
	}
	if g.match != matches || len(g.chunks) != matches {
		t.Fatalf("%d matches played, %d measured, want %d", g.match, len(g.chunks), matches)
	}
	t.Logf("decal chunks after each match %v, bytes %v; %d atlases", g.chunks, g.bytes, len(g.atlases))
	for i := 1; i < matches; i++ {
		if g.chunks[i] > g.chunks[0] || g.bytes[i] > g.bytes[0] {
			t.Errorf("after match %d the decal pages hold %d chunks in %d bytes, the first match's own were %d in %d",
				i+1, g.chunks[i], g.bytes[i], g.chunks[0], g.bytes[0])
		}
	}
	if g.chunks[0] == 0 {
		t.Error("no marks were left on the ground")
	}
	if len(g.atlases) != 1 {
		t.Errorf("the matches drew with %d atlases, want the first one kept", len(g.atlases))
	}
}
