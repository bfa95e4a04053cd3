package icon

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func TestDrawShape(t *testing.T) {
	for _, size := range []int{16, 48, 256} {
		img := Draw(size)
		if b := img.Bounds(); b.Dx() != size || b.Dy() != size {
			t.Fatalf("size %d: bounds %v", size, b)
		}
		if a := img.NRGBAAt(0, 0).A; a != 0 {
			t.Errorf("size %d: corner alpha %d, want transparent (rounded)", size, a)
		}
		if a := img.NRGBAAt(size/2, size/2).A; a != 0xff {
			t.Errorf("size %d: centre alpha %d, want opaque", size, a)
		}
	}
	// The crosshair's top tick is orange on the centre line.
	img := Draw(256)
	want := color.NRGBA{0xf0, 0x5a, 0x28, 0xff}
	if c := img.NRGBAAt(128, 20); c != want {
		t.Errorf("top tick %v, want %v", c, want)
	}
}

func TestPNGIsDeterministic(t *testing.T) {
	a, err := PNG(64)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PNG(64)
	if !bytes.Equal(a, b) {
		t.Fatal("two encodings of the same size differ")
	}
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil || img.Bounds().Dx() != 64 {
		t.Fatalf("decode: %v %v", err, img)
	}
}

// plainPNG is a cheap stand-in for the drawn icon: the packers are tested
// on it, the drawing at the sizes above.
func plainPNG(size int) ([]byte, error) {
	var b bytes.Buffer
	err := png.Encode(&b, image.NewGray(image.Rect(0, 0, size, size)))
	return b.Bytes(), err
}

func TestICO(t *testing.T) {
	b, err := packICO(plainPNG)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if le.Uint16(b[0:]) != 0 || le.Uint16(b[2:]) != 1 || int(le.Uint16(b[4:])) != len(ICOSizes) {
		t.Fatalf("header % x", b[:6])
	}
	for i, want := range ICOSizes {
		e := b[6+16*i:]
		w := int(e[0])
		if w == 0 {
			w = 256
		}
		size, off := le.Uint32(e[8:]), le.Uint32(e[12:])
		if int(off+size) > len(b) {
			t.Fatalf("entry %d past the end", i)
		}
		img, err := png.Decode(bytes.NewReader(b[off : off+size]))
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if w != want || img.Bounds().Dx() != want || le.Uint16(e[6:]) != 32 {
			t.Errorf("entry %d: dir says %d, image %d, want %d", i, w, img.Bounds().Dx(), want)
		}
	}
}

func TestICNS(t *testing.T) {
	b, err := packICNS(plainPNG)
	if err != nil {
		t.Fatal(err)
	}
	be := binary.BigEndian
	if string(b[:4]) != "icns" || int(be.Uint32(b[4:])) != len(b) {
		t.Fatalf("header %q %d, file %d", b[:4], be.Uint32(b[4:]), len(b))
	}
	want := map[string]int{"ic07": 128, "ic08": 256, "ic09": 512, "ic10": 1024, "ic11": 32, "ic12": 64, "ic13": 256, "ic14": 512}
	got := map[string]int{}
	for rest := b[8:]; len(rest) > 0; {
		if len(rest) < 8 {
			t.Fatalf("%d stray bytes", len(rest))
		}
		kind, n := string(rest[:4]), int(be.Uint32(rest[4:]))
		if n < 8 || n > len(rest) {
			t.Fatalf("%s: length %d of %d", kind, n, len(rest))
		}
		img, err := png.Decode(bytes.NewReader(rest[8:n]))
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		got[kind] = img.Bounds().Dx()
		rest = rest[n:]
	}
	if len(got) != len(want) {
		t.Fatalf("elements %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s is %d px, want %d", k, got[k], v)
		}
	}
}
