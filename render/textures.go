package render

import (
	"context"
	"image"
	"image/draw"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/assets"
	"vimpclient/parts"
)

// maxTextures bounds the handle table.
const maxTextures = 4096

// textures implements parts.Textures over Ebiten images. The game's baked
// textures live in one atlas with the shapes and the labels' text (see
// atlas), so the sprites of a canvas are drawn in few triangle batches;
// host images and images registered at run time are images of their own.
//
// Host images come from the asset downloader: each file is asked for once,
// on a goroutine of its own (the downloader bounds how many fetch at once),
// and installed by poll on the game loop's goroutine.
type textures struct {
	ctx   context.Context
	src   *assets.Downloader // nil: no host assets (every image falls back)
	next  atomic.Pointer[assets.Downloader]
	names []string
	imgs  []*ebiten.Image
	ver   []uint32 // per handle, bumped whenever its image is installed
	// pixels keeps a CPU copy of each image of at most maxCopyPixels
	// pixels, premultiplied, so static layers can be baked from it away
	// from the drawing goroutine (nil for larger ones and the atlas's).
	pixels []*image.RGBA
	atl    *atlas
	// inAtlas is where each baked texture sits in the atlas, by handle
	// (an empty rectangle: not in it). A slice, not a map: every sprite a
	// frame draws looks its handle up here.
	inAtlas []image.Rectangle
	byName  map[string]parts.Tex
	assets  map[string]parts.Tex
	// asked holds the asset files asked of the current source: a new source
	// (another game, or a new version) is asked only for the files the new
	// world's parts name, not for every file a previous game named.
	asked map[string]bool
	gen   uint64 // bumped whenever an image is replaced or a bake installed
	// bakedSrc is every procedural texture baked so far, by name: the
	// atlas is packed anew from all of them at each bake.
	bakedSrc map[string]*image.RGBA

	// up uploads the images, the atlas and the chunks.
	up uploader

	// budget bounds the bytes of the host's images installed.
	budget *textureBudget
	log    *slog.Logger

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

// atlasSide is the side past which an image is not put on Ebiten's atlas.
const atlasSide = 1024

func newTextures(ctx context.Context, src *assets.Downloader, log *slog.Logger) *textures {
	t := &textures{ctx: ctx, src: src, log: log, budget: newTextureBudget(hostTextureBytes), names: []string{""}, imgs: []*ebiten.Image{nil}, ver: []uint32{0}, pixels: []*image.RGBA{nil},
		byName: map[string]parts.Tex{}, assets: map[string]parts.Tex{}, asked: map[string]bool{}, inAtlas: []image.Rectangle{{}}}
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
	t.ver = append(t.ver, 0)
	t.pixels = append(t.pixels, nil)
	t.inAtlas = append(t.inAtlas, image.Rectangle{})
	t.byName[name] = h
	return h
}

func (t *textures) set(h parts.Tex, img image.Image) {
	if h == parts.NoTex || int(h) >= len(t.imgs) {
		return
	}
	b := img.Bounds()
	if strings.HasPrefix(t.names[h], "asset:") {
		if err := t.budget.install(h, imageBytes(int64(b.Dx())*int64(b.Dy()))); err != nil {
			t.log.Warn("host image refused", "file", strings.TrimPrefix(t.names[h], "asset:"), "err", err)
			return
		}
	}
	if old := t.imgs[h]; old != nil {
		old.Deallocate()
		t.gen++ // sub-images cut from it are stale
	}
	// A large image gets a texture of its own size: on Ebiten's atlas it
	// would sit in a page of the next powers of two, up to four times its
	// bytes.
	large := b.Dx() > atlasSide || b.Dy() > atlasSide
	t.imgs[h] = t.up.imageFrom(img, large)
	t.ver[h]++
	t.pixels[h] = cpuCopy(img)
}

// maxCopyPixels bounds the images a CPU copy is kept of (a tile sheet is a
// few hundred thousand pixels): 4 MiB each at most; the layers of a larger
// sheet are baked on the GPU.
const maxCopyPixels = 1 << 20

// cpuCopy returns img as premultiplied RGBA, never sharing its pixels, or
// nil when it is too large to keep.
func cpuCopy(img image.Image) *image.RGBA {
	b := img.Bounds()
	if b.Empty() || b.Dx()*b.Dy() > maxCopyPixels {
		return nil
	}
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	return out
}

// cpu returns the CPU copy of a texture (nil when none is kept).
func (t *textures) cpu(h parts.Tex) *image.RGBA {
	if _, inAtlas := t.atlasRect(h); inAtlas || int(h) >= len(t.pixels) {
		return nil
	}
	return t.pixels[h]
}

// Bake implements parts.Textures: the game's procedural textures, added
// to those baked before (a name baked again is replaced: a palette's team
// colours over the game's own) and packed with them into a new atlas; the
// previous atlas is released, the handles kept for the same names.
//
// A bake of the very images already baked (the same game again, after a
// reconnect: the world keeps its bakes) keeps the atlas as it is, instead
// of uploading another of the same pixels.
func (t *textures) Bake(imgs map[string]*image.RGBA) {
	if t.bakedSrc == nil {
		t.bakedSrc = map[string]*image.RGBA{}
	}
	same := t.atl != nil
	for name, img := range imgs {
		if old, ok := t.bakedSrc[name]; !ok || old != img {
			same = false
		}
		t.bakedSrc[name] = img
	}
	if same {
		return
	}
	a := newAtlas(t.bakedSrc, &t.up)
	t.atl.release()
	t.atl = a
	clear(t.inAtlas) // every rectangle empty
	for name, img := range t.bakedSrc {
		h := t.handle("baked:" + name)
		if h == parts.NoTex {
			continue
		}
		if r, ok := a.byName[name]; ok {
			if old := t.imgs[h]; old != nil {
				old.Deallocate()
				t.imgs[h] = nil
			}
			t.pixels[h] = nil
			t.inAtlas[h] = r
			t.ver[h]++
			continue
		}
		if _, fresh := imgs[name]; fresh || t.imgs[h] == nil {
			t.set(h, img) // too large for the atlas: an image of its own
		}
	}
	t.gen++
}

// shapes returns the atlas, building an empty one (shapes and labels only)
// when the game baked nothing.
func (t *textures) shapes() *atlas {
	if t.atl == nil {
		t.atl = newAtlas(nil, &t.up)
	}
	return t.atl
}

// dropShapes releases an atlas of shapes and labels only (nothing baked
// into it); the next shapes builds it again.
func (t *textures) dropShapes() {
	if t.atl == nil || len(t.bakedSrc) > 0 {
		return
	}
	t.atl.release()
	t.atl = nil
	t.gen++
}

// source returns the image a texture is drawn from and its rectangle in
// that image; ok is false while it is not loaded.
func (t *textures) source(h parts.Tex) (img *ebiten.Image, r image.Rectangle, ok bool) {
	if r, ok := t.atlasRect(h); ok {
		return t.atl.img, r, true
	}
	if int(h) < len(t.imgs) && t.imgs[h] != nil {
		return t.imgs[h], t.imgs[h].Bounds(), true
	}
	return nil, image.Rectangle{}, false
}

// atlasRect is where a baked texture sits in the atlas; ok is false for
// a texture that is not in it.
func (t *textures) atlasRect(h parts.Tex) (r image.Rectangle, ok bool) {
	if int(h) < len(t.inAtlas) {
		r = t.inAtlas[h]
	}
	return r, !r.Empty()
}

// version tells an image's installations apart (0: never installed).
func (t *textures) version(h parts.Tex) uint32 {
	if int(h) < len(t.ver) {
		return t.ver[h]
	}
	return 0
}

// Baked implements parts.Textures. A name not baked yet gets its handle
// all the same, with ok false: the world draws the game's textures in the
// background, and a part built before they are in (a tank of the first
// snapshot) keeps a handle that draws nothing until Bake installs its
// image, then draws that.
func (t *textures) Baked(name string) (parts.Tex, bool) {
	h := t.handle("baked:" + name)
	_, _, ok := t.source(h)
	return h, ok
}

// Asset implements parts.Textures.
func (t *textures) Asset(file string) parts.Tex {
	t.adopt() // a world built before the next poll asks the new source
	h, ok := t.assets[file]
	if !ok {
		h = t.handle("asset:" + file)
		t.assets[file] = h
	}
	if !t.asked[file] {
		t.asked[file] = true
		t.request(file)
	}
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
	_, r, ok := t.source(h)
	return r.Dx(), r.Dy(), ok
}

// setSource makes src the source of host images from the next poll on (a
// new game version); any goroutine may call it.
func (t *textures) setSource(src *assets.Downloader) { t.next.Store(src) }

// adopt makes the source setSource named the current one; nothing has
// been asked of it yet.
func (t *textures) adopt() {
	if src := t.next.Load(); src != t.src {
		t.src = src
		clear(t.asked)
	}
}

// poll installs finished downloads; it runs on the game loop. After a
// change of source an asset is asked for again when a part names it again:
// the parts of the new world do, while a file only the previous game named
// is never asked of a host that does not have it.
func (t *textures) poll() {
	t.adopt()
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

// imagesLoading reports whether an image is still to come.
func (t *textures) imagesLoading() bool {
	return t.src != nil && t.src.ProgressOf(assets.Image).Loading()
}
