// Package pcm holds decoded sound as float32 frames and converts it to the mixer's sample rate.
// Decoders produce a Buffer at the file's rate; the loader resamples it once, so the mixing loop
// only ever reads samples at its own rate.
package pcm

import (
	"errors"
	"fmt"
)

// Buffer is interleaved float32 PCM in [−1, 1]. Channels is 1 (mono) or 2 (stereo).
type Buffer struct {
	Rate     int
	Channels int
	Data     []float32
}

// Frames is the number of sample frames (samples per channel).
func (b *Buffer) Frames() int {
	if b.Channels <= 0 {
		return 0
	}
	return len(b.Data) / b.Channels
}

// Stereo reports whether the buffer has two channels.
func (b *Buffer) Stereo() bool { return b.Channels == 2 }

// Validate checks what the mixer relies on.
func (b *Buffer) Validate() error {
	switch {
	case b.Channels != 1 && b.Channels != 2:
		return fmt.Errorf("pcm: %d channels, want 1 or 2", b.Channels)
	case b.Rate <= 0:
		return fmt.Errorf("pcm: sample rate %d", b.Rate)
	case len(b.Data)%b.Channels != 0:
		return errors.New("pcm: data is not a whole number of frames")
	}
	return nil
}

// MaxRateRatio bounds resampling so a hostile header cannot ask for an enormous output.
const MaxRateRatio = 16

// Resample converts b to rate with cubic (Catmull-Rom) interpolation. It returns b unchanged when
// the rate already matches. The ends are clamped (no wrap-around), which keeps one-shots clean; a
// loop's seam is at most one cubic segment off, far below audibility.
func Resample(b Buffer, rate int) (Buffer, error) {
	if err := b.Validate(); err != nil {
		return Buffer{}, err
	}
	if rate <= 0 {
		return Buffer{}, fmt.Errorf("pcm: target rate %d", rate)
	}
	if b.Rate == rate {
		return b, nil
	}
	in := b.Frames()
	out, err := ResampledFrames(in, b.Rate, rate)
	if err != nil {
		return Buffer{}, err
	}
	if in == 0 {
		return Buffer{Rate: rate, Channels: b.Channels}, nil
	}
	ch := b.Channels
	data := make([]float32, out*ch)
	step := float64(b.Rate) / float64(rate)
	at := func(i, c int) float32 {
		if i < 0 {
			i = 0
		} else if i >= in {
			i = in - 1
		}
		return b.Data[i*ch+c]
	}
	for o := 0; o < out; o++ {
		pos := float64(o) * step
		i := int(pos)
		t := float32(pos - float64(i))
		for c := 0; c < ch; c++ {
			p0, p1, p2, p3 := at(i-1, c), at(i, c), at(i+1, c), at(i+2, c)
			data[o*ch+c] = catmullRom(p0, p1, p2, p3, t)
		}
	}
	return Buffer{Rate: rate, Channels: ch, Data: data}, nil
}

// ResampledFrames is how many frames Resample makes of in frames at rate from, converted to rate
// to: what a loader reserves before decoding a file whose header gives its length.
func ResampledFrames(in, from, to int) (int, error) {
	switch {
	case from <= 0 || to <= 0:
		return 0, fmt.Errorf("pcm: resampling %d Hz to %d Hz", from, to)
	case from == to:
		return in, nil
	case to > from*MaxRateRatio || from > to*MaxRateRatio:
		return 0, fmt.Errorf("pcm: resampling %d Hz to %d Hz is out of range", from, to)
	}
	return int((int64(in)*int64(to) + int64(from) - 1) / int64(from)), nil
}

func catmullRom(p0, p1, p2, p3, t float32) float32 {
	a := -0.5*p0 + 1.5*p1 - 1.5*p2 + 0.5*p3
	b := p0 - 2.5*p1 + 2*p2 - 0.5*p3
	c := -0.5*p0 + 0.5*p2
	return ((a*t+b)*t+c)*t + p1
}
