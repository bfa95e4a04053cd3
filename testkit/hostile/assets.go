package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"sync"
)

// soundCatalog names the most sounds a catalog may hold, each a trap:
// files at the sound size limit, files that never end, and files that
// claim more data than they carry.
var soundCatalog = func() string {
	var b strings.Builder
	b.WriteString(`{"codecList":["wav"],"sounds":{`)
	for i := range 256 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"s%d":{"file":"%s%d"}`, i, [3]string{"big", "endless", "liar"}[i%3], i)
	}
	b.WriteString("}}")
	return b.String()
}()

// The map of the Assets scenario draws from these images: a tile sheet of
// the most pixels an image may have (what a window holds at worst for one
// image), and bodies naming a decompression bomb and seven more images at
// that limit (past the budget of all images together).
var trapMap = func() string {
	var b strings.Builder
	b.WriteString(`{"setId":"m","step":32,"scale":1,"spriteSheet":{"img":"big0.png","frames":[[0,0,32,32]]},` +
		`"layers":{"1":[0],"2":[0]},"map":[[0,0],[0,0]],"physicsDynamic":[`)
	for i := range 8 {
		if i > 0 {
			b.WriteString(",")
		}
		img := fmt.Sprintf("big%d.png", i)
		if i == 0 {
			img = "bomb.png"
		}
		fmt.Fprintf(&b, `{"position":[%d,0],"width":32,"height":32,"angle":0,"img":%q,"layer":2}`, i*40, img)
	}
	b.WriteString("]}")
	return b.String()
}()

func (h *Host) assetRoutes() {
	h.mux.HandleFunc("/games/manifest.json", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`[{"id":"hostile","engineApi":3,"assetsBase":"/assets/"}]`))
	})
	h.mux.HandleFunc("/assets/sounds/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/assets/sounds/")
		switch {
		case strings.HasPrefix(name, "big"):
			const n = 4<<20 - 44
			_, _ = w.Write(wavHeader(n))
			writeZeros(w, n)
		case strings.HasPrefix(name, "endless"):
			_, _ = w.Write(wavHeader(1 << 30))
			writeZeros(w, 1<<40) // until the client hangs up
		default:
			_, _ = w.Write(wavHeader(1 << 30)) // claims a GiB, carries a KiB
			writeZeros(w, 1024)
		}
	})
	h.mux.HandleFunc("/assets/img/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		if strings.HasPrefix(r.URL.Path, "/assets/img/big") {
			_, _ = w.Write(bigPNG())
			return
		}
		_, _ = w.Write(bombPNG())
	})
}

// wavHeader is a 16-bit mono 44.1 kHz PCM header for n data bytes.
func wavHeader(n uint32) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, n+36)
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(44100), uint32(88200), uint16(2), uint16(16)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, n)
	return b.Bytes()
}

func writeZeros(w http.ResponseWriter, n int64) {
	buf := make([]byte, 32<<10)
	for n > 0 {
		k := min(n, int64(len(buf)))
		if _, err := w.Write(buf[:k]); err != nil {
			return
		}
		n -= k
	}
}

// bigPNG is a PNG of 2048×2048 px, the one-image pixel limit: 16 MiB as a
// texture, so the eight of them are twice and more the budget of all images.
var bigPNG = sync.OnceValue(func() []byte { return grayPNG(2048, 2048) })

// bombPNG is a PNG of 8192×4096 px, the most a side may have, a few
// hundred KiB on the wire and 128 MiB decoded: refused from its header.
var bombPNG = sync.OnceValue(func() []byte { return grayPNG(8192, 4096) })

func grayPNG(w, h int) []byte {
	img := image.NewGray(image.Rect(0, 0, w, h))
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
		panic(err) // an in-memory image
	}
	return b.Bytes()
}
