package render

import (
	"context"
	"image"
	"sync"
	"sync/atomic"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/assets"
	"vimpclient/parts"
)

// maxTextures bounds the handle table.
const maxTextures = 4096

// textures implements parts.Textures over Ebiten images. Ebiten packs small
// images into shared atlases itself, so sprites drawn in a row batch into
// few draw calls.
//
// Host images come from the asset downloader: each file is asked for once,
// on a goroutine of its own (the downloader bounds how many fetch at once),
// and installed by poll on the game loop's goroutine.
type textures struct {
	ctx    context.Context
	src    *assets.Downloader // nil: no host assets (every image falls back)
	next   atomic.Pointer[assets.Downloader]
	names  []string
	imgs   []*ebiten.Image
	byName map[string]parts.Tex
	assets map[string]parts.Tex
	gen    uint64 // bumped whenever an image is replaced

	mu    sync.Mutex
	ready []loadedImage // finished downloads, for poll
	taken []loadedImage
}

// loadedImage is one finished download.
type loadedImage struct {
	src  *assets.Downloader
	file string
	img  image.Image // nil when the file failed
}

func newTextures(ctx context.Context, src *assets.Downloader) *textures {
	t := &textures{ctx: ctx, src: src, names: []string{""}, imgs: []*ebiten.Image{nil},
		byName: map[string]parts.Tex{}, assets: map[string]parts.Tex{}}
	t.next.Store(src)
	return t
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
	t.request(file)
	return h
}

// request starts the download of one image file from the current source.
func (t *textures) request(file string) {
	src := t.src
	if src == nil {
		return
	}
	src.Expect(t.ctx, assets.Image, assets.ImagePath(file)) // counted before the goroutine runs
	go func() {
		img, err := src.Image(t.ctx, file)
		if err != nil {
			img = nil // the part draws its fallback; the downloader said why
		}
		t.mu.Lock()
		t.ready = append(t.ready, loadedImage{src: src, file: file, img: img})
		t.mu.Unlock()
	}()
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

// setSource makes src the source of host images from the next poll on (a
// new game version); any goroutine may call it.
func (t *textures) setSource(src *assets.Downloader) { t.next.Store(src) }

// poll installs finished downloads; it runs on the game loop. After a
// change of source every asset already asked for is asked for again.
func (t *textures) poll() {
	if src := t.next.Load(); src != t.src {
		t.src = src
		for file := range t.assets {
			t.request(file)
		}
	}
	t.mu.Lock()
	t.ready, t.taken = t.taken[:0], t.ready
	t.mu.Unlock()
	for i, r := range t.taken {
		if r.img != nil && r.src == t.src {
			t.set(t.assets[r.file], r.img)
		}
		t.taken[i] = loadedImage{}
	}
}

// progress is the current source's download progress.
func (t *textures) progress() assets.Progress {
	if t.src == nil {
		return assets.Progress{}
	}
	return t.src.Progress()
}
