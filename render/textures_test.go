package render

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
)

// sheetHost serves img/tiles.png at side×side pixels and counts requests.
func sheetHost(t *testing.T, side int, hits *atomic.Int64) string {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, side, side))); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/games/tanks/img/tiles.png" {
			http.NotFound(w, r)
			return
		}
		w.Write(b.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/games/tanks/"
}

// texturesGame polls a renderer once a frame, as the window does.
type texturesGame struct{ r *Renderer }

func (g texturesGame) Update() error                           { g.r.Poll(); return nil }
func (g texturesGame) Draw(*ebiten.Image)                      {}
func (g texturesGame) LayoutF(w, h float64) (float64, float64) { return w, h }

// An asset image arrives through the downloader on a later frame, asked for
// once however often a part names it; a new downloader (another game, a new
// game version) is asked for it only once a part names it again, and the
// answer replaces it.
func TestAssetImagesFollowTheDownloader(t *testing.T) {
	var hitsA, hitsB atomic.Int64
	r := New(context.Background(), Options{Assets: testAssets(t, sheetHost(t, 8, &hitsA))})
	tex := r.Textures()
	h := tex.Asset("tiles.png")
	if tex.Asset("tiles.png") != h || h == parts.NoTex {
		t.Fatal("the same file got two handles")
	}
	// Counted at once (it may even have arrived already on loopback).
	if p, _ := r.Loading(); p.Total != 1 {
		t.Fatalf("right after the ask: %+v", p)
	}
	side := func() int { w, _, _ := tex.Size(h); return w }
	if err := runUntil(t, texturesGame{r}, 600, nil, func() bool { return side() == 8 }); err != nil {
		t.Fatal(err)
	}
	if side() != 8 || hitsA.Load() != 1 {
		t.Fatalf("first source: %d px, %d requests", side(), hitsA.Load())
	}
	if _, loading := r.Loading(); loading {
		t.Fatal("still loading after the image arrived")
	}
	r.SetAssets(testAssets(t, sheetHost(t, 16, &hitsB)))
	if err := runUntil(t, texturesGame{r}, 3, nil, nil); err != nil {
		t.Fatal(err)
	}
	// The request is counted when it is made, so none counted is none made.
	if p, _ := r.Loading(); p.Total != 0 {
		t.Fatalf("the new source asked for a file no part named since: %+v", p)
	}
	if tex.Asset("tiles.png") != h {
		t.Fatal("the file got another handle from the new source")
	}
	if err := runUntil(t, texturesGame{r}, 600, nil, func() bool { return side() == 16 }); err != nil {
		t.Fatal(err)
	}
	if side() != 16 || hitsB.Load() != 1 || hitsA.Load() != 1 {
		t.Fatalf("second source: %d px, requests %d and %d", side(), hitsA.Load(), hitsB.Load())
	}
}

// A part asks for a baked texture before the bake is in (the world draws
// the game's textures in the background): its handle draws nothing until
// the bake installs that name, then draws it, the same handle a later
// asker gets.
func TestBakedBeforeTheBake(t *testing.T) {
	tex := newTextures(context.Background(), nil, slog.Default())
	early, ok := tex.Baked("body")
	if ok || early == parts.NoTex {
		t.Fatalf("before the bake: handle %d, ok %v; want a handle, not ok", early, ok)
	}
	if _, _, ok := tex.source(early); ok {
		t.Fatal("a handle drawable before its bake")
	}
	tex.Bake(map[string]*image.RGBA{"body": image.NewRGBA(image.Rect(0, 0, 8, 6))})
	late, ok := tex.Baked("body")
	if !ok || late != early {
		t.Fatalf("after the bake: handle %d (ok %v), want %d", late, ok, early)
	}
	if _, r, ok := tex.source(early); !ok || r.Dx() != 8 || r.Dy() != 6 {
		t.Fatalf("the early handle after the bake: ok %v, %v", ok, r)
	}
}

// A second bake adds to the first: a palette's team colours baked after
// the game's textures replace the names they bake and leave the others
// drawable, from the new atlas.
func TestBakeAddsToEarlierBakes(t *testing.T) {
	tex := newTextures(context.Background(), nil, slog.Default())
	solid := func(side int, v uint8) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, side, side))
		for i := range img.Pix {
			img.Pix[i] = v
		}
		return img
	}
	tex.Bake(map[string]*image.RGBA{"body": solid(8, 10), "gun.1": solid(4, 20)})
	body, _ := tex.Baked("body")
	gun, _ := tex.Baked("gun.1")
	gunVersion := tex.version(gun)
	tex.Bake(map[string]*image.RGBA{"gun.1": solid(6, 30)})
	if h, _ := tex.Baked("body"); h != body {
		t.Fatalf("body's handle changed: %d → %d", body, h)
	}
	img, r, ok := tex.source(body)
	if !ok || img == nil || r.Dx() != 8 || r.Dy() != 8 {
		t.Fatalf("body after the second bake: ok %v, %v", ok, r)
	}
	if _, r, ok := tex.source(gun); !ok || r.Dx() != 6 {
		t.Fatalf("gun.1 after the second bake: ok %v, %v, want the 6 px one", ok, r)
	}
	if tex.version(gun) == gunVersion {
		t.Fatal("gun.1's version did not change when it was baked again")
	}
}
