package render

import (
	"context"
	"image"
	"log/slog"
	"strings"
	"testing"
)

// The host's images share a byte budget: an image past it is refused and
// counted, one replacing another gives back the old one's bytes first.
func TestTextureBudgetRefusesPastItsBound(t *testing.T) {
	b := newTextureBudget(1000)
	if err := b.install(1, 600); err != nil {
		t.Fatal(err)
	}
	if err := b.install(2, 401); err == nil || !strings.Contains(err.Error(), "over the limit of 1000") {
		t.Fatalf("1001 bytes held: %v", err)
	}
	if b.used != 600 || b.refused != 1 {
		t.Fatalf("after the refusal: %d bytes, %d refused", b.used, b.refused)
	}
	if err := b.install(2, 400); err != nil {
		t.Fatalf("exactly at the bound: %v", err)
	}
	if err := b.install(1, 500); err != nil { // a new version of image 1, smaller
		t.Fatalf("a replacement that fits once the old is gone: %v", err)
	}
	if b.used != 900 {
		t.Fatalf("after the replacement: %d bytes, want 900", b.used)
	}
	if err := b.install(1, 700); err == nil || b.used != 900 || b.held[1] != 500 {
		t.Fatalf("a replacement past the bound: %v, %d bytes, image 1 holds %d", err, b.used, b.held[1])
	}
}

// A host image is held as its texture and, when small enough to keep one,
// its CPU copy.
func TestImageBytes(t *testing.T) {
	if got := imageBytes(100); got != 800 {
		t.Errorf("a small image: %d bytes, want 800", got)
	}
	if got := imageBytes(maxCopyPixels + 1); got != 4*(maxCopyPixels+1) {
		t.Errorf("a large image: %d bytes, want %d", got, 4*(maxCopyPixels+1))
	}
}

// Through the textures: a host image past the budget is not installed (the
// part keeps drawing its fallback); a smaller replacement is.
func TestHostImagesPastTheBudgetAreRefused(t *testing.T) {
	tex := newTextures(context.Background(), nil, slog.New(slog.DiscardHandler))
	tex.budget = newTextureBudget(imageBytes(64*64) + imageBytes(16*16))
	tex.SetAsset("a.png", image.NewGray(image.Rect(0, 0, 64, 64)))
	tex.SetAsset("b.png", image.NewGray(image.Rect(0, 0, 32, 32)))
	if _, _, ok := tex.Size(tex.Asset("a.png")); !ok {
		t.Fatal("the first image, within the budget, is not installed")
	}
	if _, _, ok := tex.Size(tex.Asset("b.png")); ok || tex.budget.refused != 1 {
		t.Fatalf("the image past the budget: installed %v, %d refused", ok, tex.budget.refused)
	}
	tex.SetAsset("a.png", image.NewGray(image.Rect(0, 0, 16, 16)))
	tex.SetAsset("b.png", image.NewGray(image.Rect(0, 0, 64, 64)))
	if w, _, ok := tex.Size(tex.Asset("b.png")); !ok || w != 64 {
		t.Fatalf("b.png once a.png shrank: %d px, installed %v", w, ok)
	}
}
