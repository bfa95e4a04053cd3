package render

import (
	"fmt"

	"vimpclient/assets"
	"vimpclient/parts"
)

// hostTextureBytes bounds the host's images the renderer holds: their
// textures (4 bytes a pixel) and the CPU copies kept of the small ones.
// The downloader bounds what it decodes by the same number, but a new game
// version brings a new downloader while the old one's images are still
// installed; this bound holds over the whole session.
const hostTextureBytes = assets.TextureBytes

// textureBudget counts the bytes held for each host image against a limit.
// An image that does not fit is refused: the part keeps what it had (its
// fallback, or the image it replaces).
type textureBudget struct {
	limit   int64
	used    int64
	held    map[parts.Tex]int64
	refused int // images refused so far
}

func newTextureBudget(limit int64) *textureBudget {
	return &textureBudget{limit: limit, held: map[parts.Tex]int64{}}
}

// install makes n the bytes held for h, replacing what h held, and reports
// whether they fit; when they do not, h keeps what it held and the error
// says why.
func (b *textureBudget) install(h parts.Tex, n int64) error {
	if n < 0 {
		n = 0
	}
	after := b.used - b.held[h] + n
	if after > b.limit {
		b.refused++
		return fmt.Errorf("%d texture bytes would bring the host's images to %d, over the limit of %d", n, after, b.limit)
	}
	b.used, b.held[h] = after, n
	return nil
}

// imageBytes is what installing an image of px pixels holds: its texture,
// and its CPU copy when one is kept.
func imageBytes(px int64) int64 {
	n := 4 * px
	if px <= maxCopyPixels {
		n *= 2
	}
	return n
}
