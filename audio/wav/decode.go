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
	if len(data) < 12 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return pcm.Buffer{}, errors.New("wav: not a RIFF WAVE file")
	}
	var (
		haveFmt              bool
		tag, ch, bits, align int
		rate                 int
	)
	rest := data[12:]
	for len(rest) >= 8 {
		id := string(rest[0:4])
		size := int64(binary.LittleEndian.Uint32(rest[4:8]))
		body := rest[8:]
		if size > int64(len(body)) {
			if id != "data" {
				return pcm.Buffer{}, fmt.Errorf("wav: chunk %q overruns the file", id)
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
				return pcm.Buffer{}, errors.New("wav: fmt chunk too short")
			}
			tag = int(binary.LittleEndian.Uint16(chunk[0:2]))
			ch = int(binary.LittleEndian.Uint16(chunk[2:4]))
			rate = int(binary.LittleEndian.Uint32(chunk[4:8]))
			align = int(binary.LittleEndian.Uint16(chunk[12:14]))
			bits = int(binary.LittleEndian.Uint16(chunk[14:16]))
			if tag == tagExtensible {
				if len(chunk) < 26 {
					return pcm.Buffer{}, errors.New("wav: extensible fmt chunk too short")
				}
				tag = int(binary.LittleEndian.Uint16(chunk[24:26])) // first bytes of the sub-format GUID
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return pcm.Buffer{}, errors.New("wav: data chunk before fmt chunk")
			}
			return decodeSamples(chunk, tag, ch, rate, bits, align)
		}
	}
	return pcm.Buffer{}, errors.New("wav: no data chunk")
}

func decodeSamples(d []byte, tag, ch, rate, bits, align int) (pcm.Buffer, error) {
	if ch != 1 && ch != 2 {
		return pcm.Buffer{}, fmt.Errorf("wav: %d channels, want 1 or 2", ch)
	}
	if rate < 1000 || rate > 384000 {
		return pcm.Buffer{}, fmt.Errorf("wav: sample rate %d out of range", rate)
	}
	width := bits / 8
	switch {
	case tag == tagPCM && (bits == 8 || bits == 16 || bits == 24 || bits == 32):
	case tag == tagFloat && (bits == 32 || bits == 64):
	default:
		return pcm.Buffer{}, fmt.Errorf("wav: unsupported format tag %d with %d bits", tag, bits)
	}
	if align < width*ch {
		align = width * ch
	}
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
