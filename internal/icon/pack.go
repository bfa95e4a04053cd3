package icon

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// ICOSizes are the images of the Windows icon, smallest first.
var ICOSizes = []int{16, 24, 32, 48, 64, 128, 256}

// ICO is a Windows icon file holding the icon at ICOSizes, each image
// stored as PNG (which Windows reads since Vista).
func ICO() ([]byte, error) { return packICO(PNG) }

// packICO packs the images pngOf makes (PNG-encoded, size×size).
func packICO(pngOf func(size int) ([]byte, error)) ([]byte, error) {
	imgs := make([][]byte, len(ICOSizes))
	for i, s := range ICOSizes {
		b, err := pngOf(s)
		if err != nil {
			return nil, err
		}
		imgs[i] = b
	}
	var out bytes.Buffer
	// ICONDIR: reserved, type 1 (icon), image count.
	_ = binary.Write(&out, binary.LittleEndian, [3]uint16{0, 1, uint16(len(imgs))})
	offset := 6 + 16*len(imgs)
	for i, s := range ICOSizes {
		dim := uint8(s)
		if s >= 256 {
			dim = 0 // 0 means 256
		}
		// ICONDIRENTRY: width, height, palette size, reserved, planes,
		// bits per pixel, data size, data offset.
		out.Write([]byte{dim, dim, 0, 0})
		_ = binary.Write(&out, binary.LittleEndian, [2]uint16{1, 32})
		_ = binary.Write(&out, binary.LittleEndian, [2]uint32{uint32(len(imgs[i])), uint32(offset)})
		offset += len(imgs[i])
	}
	for _, b := range imgs {
		out.Write(b)
	}
	return out.Bytes(), nil
}

// icnsTypes are the ICNS element types written, with their pixel sizes:
// ic07..ic10 are 128, 256, 512 and 1024 (512@2x); ic11..ic14 the @2x forms
// of 16, 32, 128 and 256.
var icnsTypes = []struct {
	kind string
	size int
}{
	{"ic11", 32}, {"ic12", 64}, {"ic07", 128}, {"ic13", 256}, {"ic08", 256},
	{"ic14", 512}, {"ic09", 512}, {"ic10", 1024},
}

// ICNS is a macOS icon file: the "icns" header and one PNG element per
// type, each element its four-byte type and big-endian length (header
// included) before the data.
func ICNS() ([]byte, error) { return packICNS(PNG) }

// packICNS packs the images pngOf makes (PNG-encoded, size×size).
func packICNS(pngOf func(size int) ([]byte, error)) ([]byte, error) {
	pngs := map[int][]byte{}
	var body bytes.Buffer
	for _, t := range icnsTypes {
		b, ok := pngs[t.size]
		if !ok {
			var err error
			if b, err = pngOf(t.size); err != nil {
				return nil, err
			}
			pngs[t.size] = b
		}
		body.WriteString(t.kind)
		_ = binary.Write(&body, binary.BigEndian, uint32(8+len(b)))
		body.Write(b)
	}
	if body.Len()+8 > 1<<31 {
		return nil, fmt.Errorf("icon: icns of %d bytes", body.Len())
	}
	var out bytes.Buffer
	out.WriteString("icns")
	_ = binary.Write(&out, binary.BigEndian, uint32(8+body.Len()))
	out.Write(body.Bytes())
	return out.Bytes(), nil
}
