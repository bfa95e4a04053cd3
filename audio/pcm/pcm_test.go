package pcm

import (
	"math"
	"testing"
)

func TestResampleKeepsToneAndLevel(t *testing.T) {
	const in, out, hz = 44100, 48000, 1000.0
	b := Buffer{Rate: in, Channels: 2, Data: make([]float32, 2*in)}
	for i := 0; i < in; i++ {
		s := float32(0.5 * math.Sin(2*math.Pi*hz*float64(i)/in))
		b.Data[2*i], b.Data[2*i+1] = s, -s
	}
	r, err := Resample(b, out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Rate != out || r.Channels != 2 || r.Frames() != out {
		t.Fatalf("resampled to %d Hz, %d ch, %d frames", r.Rate, r.Channels, r.Frames())
	}
	var maxErr float64
	for i := 10; i < r.Frames()-10; i++ {
		want := 0.5 * math.Sin(2*math.Pi*hz*float64(i)/out)
		maxErr = math.Max(maxErr, math.Abs(float64(r.Data[2*i])-want))
		if r.Data[2*i] != -r.Data[2*i+1] {
			t.Fatalf("channels mixed up at %d", i)
		}
	}
	if maxErr > 2e-3 {
		t.Fatalf("cubic resampling error %v", maxErr)
	}
}

func TestResampleRejectsNonsense(t *testing.T) {
	for _, b := range []Buffer{{Rate: 0, Channels: 1}, {Rate: 8000, Channels: 3}, {Rate: 8000, Channels: 2, Data: make([]float32, 3)}} {
		if _, err := Resample(b, 48000); err == nil {
			t.Errorf("%+v: no error", b)
		}
	}
	if _, err := Resample(Buffer{Rate: 1, Channels: 1, Data: []float32{1}}, 48000); err == nil {
		t.Error("1 Hz → 48 kHz accepted")
	}
}
