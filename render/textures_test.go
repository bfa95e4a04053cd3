package render

import (
	"bytes"
	"context"
	"image"
	"image/png"
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
// once however often a part names it; a new downloader (a new game version)
// asks for it again and replaces it.
func TestAssetImagesFollowTheDownloader(t *testing.T) {
	var hitsA, hitsB atomic.Int64
	r := New(context.Background(), Options{Assets: testAssets(t, sheetHost(t, 8, &hitsA))})
	tex := r.Textures()
	h := tex.Asset("tiles.png")
	if tex.Asset("tiles.png") != h || h == parts.NoTex {
		t.Fatal("the same file got two handles")
	}
	if p, loading := r.Loading(); !loading || p.Total != 1 {
		t.Fatalf("right after the ask: %+v, loading %v", p, loading)
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
	if err := runUntil(t, texturesGame{r}, 600, nil, func() bool { return side() == 16 }); err != nil {
		t.Fatal(err)
	}
	if side() != 16 || hitsB.Load() != 1 || hitsA.Load() != 1 {
		t.Fatalf("second source: %d px, requests %d and %d", side(), hitsA.Load(), hitsB.Load())
	}
}
