// Package mp3 decodes MPEG audio layer III files into float PCM on top of the pure-Go decoder
// github.com/hajimehoshi/go-mp3, adding what the mixer needs and that decoder leaves out: mono
// files stay one channel (the spatial rules differ for mono and stereo sources), and the encoder
// delay and padding recorded in a LAME/Xing header are trimmed so loops are gapless.
package mp3

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	gomp3 "github.com/hajimehoshi/go-mp3"

	"vimpclient/audio/pcm"
)

// MaxFrames bounds a decoded file (10 minutes at 48 kHz).
const MaxFrames = 10 * 60 * 48000

// decoderDelay is the fixed delay of the standard layer III synthesis filterbank in samples
// (528 + 1), measured for go-mp3 against a LAME-encoded impulse.
const decoderDelay = 529

// samplesPerFrame of an MPEG-1 layer III frame; MPEG-2/2.5 frames hold half as many.
const samplesPerFrame = 1152

// Info is what the first frame and the optional LAME header say about the file.
type Info struct {
	Mono       bool // channel mode 11 in the first frame header
	Rate       int
	HasInfo    bool // the first frame is a Xing/Info frame (decoded as silence by go-mp3)
	Gapless    bool // a LAME tag gave encoder delay and padding
	Delay      int  // encoder delay (samples)
	Padding    int  // encoder padding (samples)
	FrameWidth int  // samples per frame
}

// Decode reads a whole MP3 file. A panic inside the underlying decoder on corrupt input is
// turned into an error.
func Decode(data []byte) (pcm.Buffer, Info, error) { return DecodeWithin(data, nil) }

// DecodeWithin is Decode that first tells reserve the most frames the file decodes to (from its
// frame headers, before the trim of a LAME header), its channels and rate, and decodes nothing
// when reserve returns an error: a loader keeps a budget for decoded sound this way. The decoder's
// 16-bit output is converted as it is read, a few frames at a time, so the only large allocation
// is the float result.
func DecodeWithin(data []byte, reserve func(frames, channels, rate int) error) (buf pcm.Buffer, info Info, err error) {
	info, err = Probe(data)
	if err != nil {
		return pcm.Buffer{}, info, err
	}
	defer func() {
		if r := recover(); r != nil {
			buf, err = pcm.Buffer{}, fmt.Errorf("mp3: corrupt stream: %v", r)
		}
	}()
	d, err := gomp3.NewDecoder(bytes.NewReader(data))
	if err != nil {
		return pcm.Buffer{}, info, fmt.Errorf("mp3: open stream: %w", err)
	}
	if d.SampleRate() != info.Rate || info.Rate <= 0 {
		return pcm.Buffer{}, info, fmt.Errorf("mp3: sample rate %d does not match the first header's %d", d.SampleRate(), info.Rate)
	}
	// go-mp3 always yields 16-bit little-endian stereo; its length is known from the frame
	// headers (it read them all on opening a seekable stream).
	frames := int(min(d.Length()/4, int64(MaxFrames)+1))
	if frames < 0 {
		return pcm.Buffer{}, info, errors.New("mp3: stream length unknown")
	}
	if frames > MaxFrames {
		return pcm.Buffer{}, info, fmt.Errorf("mp3: longer than %d frames", MaxFrames)
	}
	start, end := 0, frames
	if info.HasInfo {
		start = info.FrameWidth
	}
	if info.Gapless {
		total := frames - start - info.Delay - info.Padding // the encoder's input length
		start += info.Delay + decoderDelay
		if total >= 0 && start+total <= frames {
			end = start + total
		}
	}
	if start > end {
		start = end
	}
	ch := 2
	if info.Mono {
		ch = 1
	}
	if reserve != nil {
		if err := reserve(end-start, ch, info.Rate); err != nil {
			return pcm.Buffer{}, info, err
		}
	}
	out := make([]float32, 0, (end-start)*ch)
	var chunk [4 * samplesPerFrame * 4]byte // four MPEG-1 frames of 16-bit stereo
	for f := 0; f < end; {
		n, err := io.ReadFull(d, chunk[:min(len(chunk), (end-f)*4)])
		for i := 0; i+4 <= n; i, f = i+4, f+1 {
			if f < start {
				continue
			}
			out = append(out, float32(int16(binary.LittleEndian.Uint16(chunk[i:])))/32768)
			if ch == 2 {
				out = append(out, float32(int16(binary.LittleEndian.Uint16(chunk[i+2:])))/32768)
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break // shorter than its headers said: keep what decoded
		}
		if err != nil {
			return pcm.Buffer{}, info, fmt.Errorf("mp3: decode: %w", err)
		}
	}
	return pcm.Buffer{Rate: info.Rate, Channels: ch, Data: out}, info, nil
}

var rates = [4][3]int{
	{11025, 12000, 8000},  // MPEG 2.5
	{},                    // reserved
	{22050, 24000, 16000}, // MPEG 2
	{44100, 48000, 32000}, // MPEG 1
}

// Probe reads the first layer III frame header (after an ID3v2 tag) and a Xing/Info/LAME header
// in that frame, without decoding audio.
func Probe(data []byte) (Info, error) {
	var info Info
	pos := 0
	if len(data) >= 10 && string(data[:3]) == "ID3" {
		size := int(data[6]&0x7f)<<21 | int(data[7]&0x7f)<<14 | int(data[8]&0x7f)<<7 | int(data[9]&0x7f)
		pos = 10 + size
		if data[5]&0x10 != 0 { // footer present
			pos += 10
		}
	}
	for ; pos+4 <= len(data); pos++ {
		h := data[pos:]
		if h[0] != 0xff || h[1]&0xe0 != 0xe0 {
			continue
		}
		version := int(h[1]>>3) & 3
		layer := int(h[1]>>1) & 3
		rateIdx := int(h[2]>>2) & 3
		bitrate := int(h[2] >> 4)
		if version == 1 || layer != 1 || rateIdx == 3 || bitrate == 0 || bitrate == 15 {
			continue // not a layer III header
		}
		info.Rate = rates[version][rateIdx]
		info.Mono = h[3]>>6 == 3
		info.FrameWidth = samplesPerFrame
		sideInfo := 32
		if version != 3 {
			info.FrameWidth = samplesPerFrame / 2
			sideInfo = 17
			if info.Mono {
				sideInfo = 9
			}
		} else if info.Mono {
			sideInfo = 17
		}
		if 4+sideInfo < len(h) {
			readXing(h[4+sideInfo:], &info)
		}
		return info, nil
	}
	return info, errors.New("mp3: no layer III frame header found")
}

// readXing parses a Xing/Info header and the LAME extension that follows it.
func readXing(b []byte, info *Info) {
	if len(b) < 8 || (string(b[:4]) != "Xing" && string(b[:4]) != "Info") {
		return
	}
	info.HasInfo = true
	flags := binary.BigEndian.Uint32(b[4:8])
	off := 8
	if flags&1 != 0 {
		off += 4 // frame count
	}
	if flags&2 != 0 {
		off += 4 // byte count
	}
	if flags&4 != 0 {
		off += 100 // seek table
	}
	if flags&8 != 0 {
		off += 4 // quality
	}
	// LAME extension: 9-byte encoder string, then delay and padding packed as 12+12 bits at +21.
	if off+24 > len(b) {
		return
	}
	enc := string(b[off : off+4])
	if enc != "LAME" && enc != "Lavf" && enc != "Lavc" && enc != "L3.9" {
		return
	}
	p := b[off+21:]
	info.Delay = int(p[0])<<4 | int(p[1])>>4
	info.Padding = int(p[1]&0x0f)<<8 | int(p[2])
	info.Gapless = true
}
