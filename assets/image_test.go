package assets

import (
	"errors"
	"testing"
)

// Whatever the bytes, an image comes back only within the limits, and a
// refusal for its size is a LimitError naming the file.
func FuzzDecodeImage(f *testing.F) {
	f.Add(pngBytes(f, 3, 2))
	f.Add(pngHeader(100000, 100000))
	f.Add(pngHeader(0, 5))
	f.Add([]byte("GIF89a\x10\x00\x10\x00\x00\x00\x00;"))
	f.Add([]byte("\xff\xd8\xff\xc0\x00\x11\x08\x7f\xff\x7f\xff\x03"))
	lim := Limits{ImageSide: 64, ImagePixels: 1024}.withDefaults()
	f.Fuzz(func(t *testing.T, b []byte) {
		img, err := decodeImage("img/f.png", b, lim, nil)
		if err != nil {
			var le *LimitError
			if errors.As(err, &le) && le.File != "img/f.png" {
				t.Fatalf("limit error names %q", le.File)
			}
			return
		}
		r := img.Bounds()
		if r.Dx() <= 0 || r.Dy() <= 0 || r.Dx() > lim.ImageSide || r.Dy() > lim.ImageSide || r.Dx()*r.Dy() > int(lim.ImagePixels) {
			t.Fatalf("decoded %v past the limits", r)
		}
	})
}
