package wav

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// build makes a WAV file with an arbitrary fmt chunk around raw sample bytes.
func build(tag, ch, rate, bits int, samples []byte, extensible bool) []byte {
	fmtLen := 16
	if extensible {
		fmtLen = 40
	}
	b := []byte("RIFF\x00\x00\x00\x00WAVE")
	b = append(b, "LIST\x04\x00\x00\x00INFO"...) // an unrelated chunk first
	b = append(b, "fmt "...)
	b = binary.LittleEndian.AppendUint32(b, uint32(fmtLen))
	t := tag
	if extensible {
		t = tagExtensible
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(t))
	b = binary.LittleEndian.AppendUint16(b, uint16(ch))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate*ch*bits/8))
	b = binary.LittleEndian.AppendUint16(b, uint16(ch*bits/8))
	b = binary.LittleEndian.AppendUint16(b, uint16(bits))
	if extensible {
		b = binary.LittleEndian.AppendUint16(b, 22)
		b = binary.LittleEndian.AppendUint16(b, uint16(bits))
		b = binary.LittleEndian.AppendUint32(b, 3)
		b = binary.LittleEndian.AppendUint16(b, uint16(tag))
		b = append(b, make([]byte, 14)...)
	}
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(samples)))
	b = append(b, samples...)
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

func TestDecodeFormats(t *testing.T) {
	f32 := binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.5))
	f32 = binary.LittleEndian.AppendUint32(f32, math.Float32bits(-0.25))
	f64 := binary.LittleEndian.AppendUint64(nil, math.Float64bits(-0.75))
	cases := []struct {
		name string
		file []byte
		ch   int
		want []float32
	}{
		{"u8 mono", build(tagPCM, 1, 8000, 8, []byte{128, 192, 0}, false), 1, []float32{0, 0.5, -1}},
		{"s16 stereo", build(tagPCM, 2, 44100, 16, []byte{0x00, 0x40, 0x00, 0xC0}, false), 2, []float32{0.5, -0.5}},
		{"s24 mono", build(tagPCM, 1, 48000, 24, []byte{0x00, 0x00, 0x40, 0x00, 0x00, 0x80}, false), 1, []float32{0.5, -1}},
		{"s32 extensible", build(tagPCM, 1, 48000, 32, []byte{0, 0, 0, 0x40}, true), 1, []float32{0.5}},
		{"f32 stereo", build(tagFloat, 2, 48000, 32, f32, false), 2, []float32{0.5, -0.25}},
		{"f64 mono extensible", build(tagFloat, 1, 22050, 64, f64, true), 1, []float32{-0.75}},
	}
	for _, c := range cases {
		b, err := Decode(c.file)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if b.Channels != c.ch || len(b.Data) != len(c.want) {
			t.Errorf("%s: %d ch %v", c.name, b.Channels, b.Data)
			continue
		}
		for i := range c.want {
			if math.Abs(float64(b.Data[i]-c.want[i])) > 1e-6 {
				t.Errorf("%s: sample %d = %v, want %v", c.name, i, b.Data[i], c.want[i])
			}
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	bad := map[string][]byte{
		"empty":     nil,
		"not riff":  []byte("RIFX\x00\x00\x00\x00WAVE"),
		"no data":   build(tagPCM, 1, 8000, 16, nil, false)[:len(build(tagPCM, 1, 8000, 16, nil, false))-8],
		"3 ch":      build(tagPCM, 3, 8000, 16, make([]byte, 6), false),
		"12 bit":    build(tagPCM, 1, 8000, 12, make([]byte, 6), false),
		"alaw":      build(6, 1, 8000, 8, make([]byte, 6), false),
		"rate 0":    build(tagPCM, 1, 0, 16, make([]byte, 6), false),
		"fmt short": []byte("RIFF\x00\x00\x00\x00WAVEfmt \x04\x00\x00\x00\x01\x00\x01\x00"),
	}
	for name, b := range bad {
		if _, err := Decode(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	in := []float32{0, 0.5, -0.5, 1, -1, 2, 0.25, -0.125}
	b, err := Decode(Encode(in, 48000, 2))
	if err != nil {
		t.Fatal(err)
	}
	if b.Rate != 48000 || b.Channels != 2 || len(b.Data) != len(in) {
		t.Fatalf("%+v", b)
	}
	for i, s := range in {
		want := math.Max(-1, math.Min(1, float64(s)))
		if math.Abs(float64(b.Data[i])-want) > 1.0/32767 {
			t.Errorf("sample %d = %v, want %v", i, b.Data[i], want)
		}
	}
}

func TestWriterPatchesHeader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mix.wav")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(f, 48000, 2)
	if err != nil {
		t.Fatal(err)
	}
	block := make([]float32, 2*480)
	for i := range block {
		block[i] = 0.25
	}
	for k := 0; k < 10; k++ {
		if err := w.Write(block); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if b.Frames() != 4800 || w.Frames() != 4800 {
		t.Fatalf("frames %d / %d, want 4800", b.Frames(), w.Frames())
	}
	if got := binary.LittleEndian.Uint32(data[4:]); int(got) != len(data)-8 {
		t.Fatalf("RIFF size %d, file %d", got, len(data))
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode([]float32{0, 0.5, -0.5, 1}, 48000, 2))
	f.Add(build(tagPCM, 1, 8000, 8, []byte{1, 2, 3}, false))
	f.Add(build(tagFloat, 2, 44100, 32, make([]byte, 16), true))
	f.Add(build(tagPCM, 1, 48000, 24, make([]byte, 7), false))
	f.Add([]byte("RIFF\xff\xff\xff\xffWAVEdata\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Decode(data)
		info, perr := Probe(data)
		if err != nil {
			return
		}
		// A loader reserves memory from Probe: it must say what Decode makes.
		if perr != nil || info.Rate != b.Rate || info.Channels != b.Channels || info.Frames != b.Frames() {
			t.Fatalf("probe %+v %v, decoded %d Hz %d ch %d frames", info, perr, b.Rate, b.Channels, b.Frames())
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("decoded an invalid buffer: %v", err)
		}
		if len(b.Data) > len(data) {
			t.Fatalf("%d samples from %d bytes", len(b.Data), len(data))
		}
		for _, s := range b.Data {
			if !(s >= -1 && s <= 1) {
				t.Fatalf("sample %v out of range", s)
			}
		}
	})
}
