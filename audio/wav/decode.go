// Package wav reads and writes RIFF WAVE files: the decoder turns a sound file into float PCM
// for the mixer, the writer records the mix so a session's sound can be checked and shared.
package wav

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"vimpclient/audio/pcm"
)

// Format tags of the fmt chunk.
const (
	tagPCM        = 1
	tagFloat      = 3
	tagExtensible = 0xFFFE
)

// MaxFrames bounds a decoded file (10 minutes at 48 kHz) so a hostile header cannot make the
// client allocate without limit.
const MaxFrames = 10 * 60 * 48000

// Decode reads a whole WAV file: 8/16/24/32-bit integer or 32/64-bit float PCM, mono or stereo.
func Decode(data []byte) (pcm.Buffer, error) {
	f, err := parse(data)
	if err != nil {
		return pcm.Buffer{}, err
	}
	return decodeSamples(f)
}

// Info is what a WAV file's header says about the sound it holds.
type Info struct {
	Rate, Channels int
	Frames         int // the sample frames present (a truncated data chunk counts what is there)
}

// Probe reads a WAV file's chunks without decoding a sample: a loader reserves the memory the
// decoded sound takes (Frames × Channels float32 samples) before Decode allocates it.
func Probe(data []byte) (Info, error) {
	f, err := parse(data)
	if err != nil {
		return Info{}, err
	}
	if err := f.check(); err != nil {
		return Info{}, err
	}
	return Info{Rate: f.rate, Channels: f.ch, Frames: len(f.data) / f.align}, nil
}

// format is a file's fmt chunk and the bytes of its data chunk.
type format struct {
	tag, ch, bits, align, rate int
	data                       []byte
}

// parse finds the fmt and data chunks.
func parse(data []byte) (format, error) {
	if len(data) < 12 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return format{}, errors.New("wav: not a RIFF WAVE file")
	}
	var (
		f       format
		haveFmt bool
	)
	rest := data[12:]
	for len(rest) >= 8 {
		id := string(rest[0:4])
		size := int64(binary.LittleEndian.Uint32(rest[4:8]))
		body := rest[8:]
		if size > int64(len(body)) {
			if id != "data" {
				return format{}, fmt.Errorf("wav: chunk %q overruns the file", id)
			}
			size = int64(len(body)) // truncated recordings: take what is there
		}
		chunk := body[:size]
		next := size + size&1 // chunks are padded to even sizes
		if next > int64(len(body)) {
			next = int64(len(body))
		}
		rest = body[next:]
		switch id {
		case "fmt ":
			if len(chunk) < 16 {
				return format{}, errors.New("wav: fmt chunk too short")
			}
			f.tag = int(binary.LittleEndian.Uint16(chunk[0:2]))
			f.ch = int(binary.LittleEndian.Uint16(chunk[2:4]))
			f.rate = int(binary.LittleEndian.Uint32(chunk[4:8]))
			f.align = int(binary.LittleEndian.Uint16(chunk[12:14]))
			f.bits = int(binary.LittleEndian.Uint16(chunk[14:16]))
			if f.tag == tagExtensible {
				if len(chunk) < 26 {
					return format{}, errors.New("wav: extensible fmt chunk too short")
				}
				f.tag = int(binary.LittleEndian.Uint16(chunk[24:26])) // first bytes of the sub-format GUID
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return format{}, errors.New("wav: data chunk before fmt chunk")
			}
			f.data = chunk
			return f, nil
		}
	}
	return format{}, errors.New("wav: no data chunk")
}

// check refuses what the decoder does not read, and widens a short block alignment to the
// frame's size.
func (f *format) check() error {
	if f.ch != 1 && f.ch != 2 {
		return fmt.Errorf("wav: %d channels, want 1 or 2", f.ch)
	}
	if f.rate < 1000 || f.rate > 384000 {
		return fmt.Errorf("wav: sample rate %d out of range", f.rate)
	}
	switch {
	case f.tag == tagPCM && (f.bits == 8 || f.bits == 16 || f.bits == 24 || f.bits == 32):
	case f.tag == tagFloat && (f.bits == 32 || f.bits == 64):
	default:
		return fmt.Errorf("wav: unsupported format tag %d with %d bits", f.tag, f.bits)
	}
	if w := f.bits / 8 * f.ch; f.align < w {
		f.align = w
	}
	return nil
}

func decodeSamples(f format) (pcm.Buffer, error) {
	if err := f.check(); err != nil {
		return pcm.Buffer{}, err
	}
	d, tag, ch, rate, bits, align := f.data, f.tag, f.ch, f.rate, f.bits, f.align
	width := bits / 8
	frames := len(d) / align
	if frames > MaxFrames {
		return pcm.Buffer{}, fmt.Errorf("wav: %d frames exceed the limit of %d", frames, MaxFrames)
	}
	out := make([]float32, frames*ch)
	for f := 0; f < frames; f++ {
		for c := 0; c < ch; c++ {
			s := d[f*align+c*width:]
			var v float32
			switch {
			case tag == tagFloat && bits == 32:
				v = math.Float32frombits(binary.LittleEndian.Uint32(s))
			case tag == tagFloat:
				v = float32(math.Float64frombits(binary.LittleEndian.Uint64(s)))
			case bits == 8:
				v = (float32(s[0]) - 128) / 128
			case bits == 16:
				v = float32(int16(binary.LittleEndian.Uint16(s))) / 32768
			case bits == 24:
				x := int32(uint32(s[0])<<8|uint32(s[1])<<16|uint32(s[2])<<24) >> 8
				v = float32(x) / 8388608
			default:
				v = float32(int32(binary.LittleEndian.Uint32(s))) / 2147483648
			}
			if v != v || v > 1 || v < -1 { // NaN or out of range in a float file
				if v > 1 {
					v = 1
				} else if v < -1 {
					v = -1
				} else {
					v = 0
				}
			}
			out[f*ch+c] = v
		}
	}
	return pcm.Buffer{Rate: rate, Channels: ch, Data: out}, nil
}
