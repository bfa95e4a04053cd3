package mp3

import (
	"math"
	"os"
	"testing"
)

func load(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func peak(data []float32, ch, c, from, to int) (at int, v float32) {
	for f := from; f < to && f*ch+c < len(data); f++ {
		if x := float32(math.Abs(float64(data[f*ch+c]))); x > v {
			at, v = f, x
		}
	}
	return at, v
}

// The LAME header's delay and padding are trimmed: the decoded file lines up with the encoder's
// input sample for sample and has its exact length, which is what makes loops gapless.
func TestGaplessTrimAlignsWithSource(t *testing.T) {
	b, info, err := Decode(load(t, "impulse-mono.mp3"))
	if err != nil {
		t.Fatal(err)
	}
	if !info.Mono || !info.HasInfo || !info.Gapless || info.Delay != 576 || info.Rate != 44100 {
		t.Fatalf("info %+v", info)
	}
	if b.Channels != 1 || b.Rate != 44100 {
		t.Fatalf("buffer %d ch %d Hz", b.Channels, b.Rate)
	}
	if b.Frames() != 13230 {
		t.Fatalf("%d frames, want the source's 13230", b.Frames())
	}
	for _, want := range []int{1000, 9000} {
		at, v := peak(b.Data, 1, 0, want-200, want+200)
		if at != want || v < 0.5 {
			t.Errorf("impulse at %d (%.2f), want %d", at, v, want)
		}
	}
}

func TestWithoutTagNothingIsTrimmed(t *testing.T) {
	b, info, err := Decode(load(t, "impulse-mono-notag.mp3"))
	if err != nil {
		t.Fatal(err)
	}
	if info.HasInfo || info.Gapless || !info.Mono {
		t.Fatalf("info %+v", info)
	}
	// encoder delay 576 + decoder delay 529 stay in front of the first impulse
	if at, _ := peak(b.Data, 1, 0, 0, 5000); at != 1000+576+decoderDelay {
		t.Fatalf("impulse at %d, want %d", at, 1000+576+decoderDelay)
	}
}

func TestStereoKeepsChannels(t *testing.T) {
	b, info, err := Decode(load(t, "left-tone-stereo.mp3"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mono || b.Channels != 2 || b.Rate != 48000 || b.Frames() != 14400 {
		t.Fatalf("info %+v, %d ch, %d frames", info, b.Channels, b.Frames())
	}
	_, l := peak(b.Data, 2, 0, 1000, 13000)
	_, r := peak(b.Data, 2, 1, 1000, 13000)
	if l < 0.45 || l > 0.55 || r > 0.02 {
		t.Fatalf("left peak %v right peak %v", l, r)
	}
}

func TestDecodeRejectsGarbage(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("ID3\x04\x00\x00\x7f\x7f\x7f\x7f"), []byte("not an mp3 at all"), {0xff, 0xfb, 0x90}} {
		if _, _, err := Decode(b); err == nil {
			t.Errorf("%q: no error", b)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, n := range []string{"impulse-mono.mp3", "impulse-mono-notag.mp3", "left-tone-stereo.mp3"} {
		b := load(f, n)
		f.Add(b[:min(len(b), 1500)]) // a few frames keep each run fast
	}
	f.Add([]byte("ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, _, err := Decode(data)
		if err != nil {
			return
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("invalid buffer: %v", err)
		}
	})
}
