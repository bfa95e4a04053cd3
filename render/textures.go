package render

import (
	"context"
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
	"vimpclient/render/assets"
)

// maxTextures bounds the handle table.
const maxTextures = 4096

// textures implements parts.Textures over Ebiten images. Ebiten packs small
// images into shared atlases itself, so sprites drawn in a row batch into
// few draw calls.
type textures struct {
	ctx    context.Context
	loader *assets.Loader // nil: no host assets (every image falls back)
	names  []string
	imgs   []*ebiten.Image
	byName map[string]parts.Tex
	assets map[string]parts.Tex
	done   []assets.Result
	gen    uint64 // bumped whenever an image is replaced
}

func newTextures(ctx context.Context, loader *assets.Loader) *textures {
	return &textures{ctx: ctx, loader: loader, names: []string{""}, imgs: []*ebiten.Image{nil},
		byName: map[string]parts.Tex{}, assets: map[string]parts.Tex{}}
}

func (t *textures) handle(name string) parts.Tex {
	if h, ok := t.byName[name]; ok {
		return h
	}
	if len(t.names) >= maxTextures {
		return parts.NoTex
	}
	h := parts.Tex(len(t.names))
	t.names = append(t.names, name)
	t.imgs = append(t.imgs, nil)
	t.byName[name] = h
	return h
}

func (t *textures) set(h parts.Tex, img image.Image) {
	if h == parts.NoTex || int(h) >= len(t.imgs) {
		return
	}
	if old := t.imgs[h]; old != nil {
		old.Deallocate()
		t.gen++ // sub-images cut from it are stale
	}
	t.imgs[h] = ebiten.NewImageFromImage(img)
}

// Bake implements parts.Textures: the game's procedural textures.
func (t *textures) Bake(imgs map[string]*image.RGBA) {
	for name, img := range imgs {
		t.set(t.handle("baked:"+name), img)
	}
}

// Baked implements parts.Textures.
func (t *textures) Baked(name string) (parts.Tex, bool) {
	h, ok := t.byName["baked:"+name]
	return h, ok
}

// Asset implements parts.Textures.
func (t *textures) Asset(file string) parts.Tex {
	if h, ok := t.assets[file]; ok {
		return h
	}
	h := t.handle("asset:" + file)
	t.assets[file] = h
	if t.loader != nil {
		t.loader.Request(t.ctx, file)
	}
	return h
}

// SetAsset installs an asset image directly (tests, embedded assets).
func (t *textures) SetAsset(file string, img image.Image) { t.set(t.Asset(file), img) }

// Register implements parts.Textures.
func (t *textures) Register(name string, img *image.RGBA) parts.Tex {
	h := t.handle("run:" + name)
	t.set(h, img)
	return h
}

// Size implements parts.Textures.
func (t *textures) Size(h parts.Tex) (int, int, bool) {
	img := t.image(h)
	if img == nil {
		return 0, 0, false
	}
	b := img.Bounds()
	return b.Dx(), b.Dy(), true
}

func (t *textures) image(h parts.Tex) *ebiten.Image {
	if int(h) < len(t.imgs) {
		return t.imgs[h]
	}
	return nil
}

// poll installs finished downloads; it runs on the game loop.
func (t *textures) poll() {
	if t.loader == nil {
		return
	}
	t.done = t.loader.Poll(t.done[:0])
	for _, r := range t.done {
		if r.Err == nil && r.Img != nil {
			t.set(t.assets[r.File], r.Img)
		}
	}
	clear(t.done)
}

// progress reports asset loading (1 when nothing is pending).
func (t *textures) progress() (float64, bool) {
	if t.loader == nil {
		return 1, false
	}
	done, total := t.loader.Progress()
	if total == 0 || done >= total {
		return 1, false
	}
	return float64(done) / float64(total), true
}
