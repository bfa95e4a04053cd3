package wav

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

const headerSize = 44

// maxDataBytes keeps the RIFF sizes within 32 bits.
const maxDataBytes = math.MaxUint32 - headerSize

// ErrFull is returned once a recording reaches the largest size a WAV file can describe.
var ErrFull = errors.New("wav: file size limit reached")

// header returns a 16-bit PCM header for dataBytes bytes of samples.
func header(rate, ch int, dataBytes uint32) [headerSize]byte {
	var h [headerSize]byte
	copy(h[0:], "RIFF")
	binary.LittleEndian.PutUint32(h[4:], 36+dataBytes)
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], tagPCM)
	binary.LittleEndian.PutUint16(h[22:], uint16(ch))
	binary.LittleEndian.PutUint32(h[24:], uint32(rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(rate*ch*2))
	binary.LittleEndian.PutUint16(h[32:], uint16(ch*2))
	binary.LittleEndian.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], dataBytes)
	return h
}

func toInt16(s float32) int16 {
	if s >= 1 {
		return math.MaxInt16
	}
	if s <= -1 {
		return -math.MaxInt16
	}
	if s != s {
		return 0
	}
	return int16(math.Round(float64(s) * math.MaxInt16))
}

// Encode returns a complete 16-bit PCM WAV file of interleaved samples.
func Encode(samples []float32, rate, channels int) []byte {
	n := len(samples) - len(samples)%channels
	if n*2 > maxDataBytes {
		n = maxDataBytes / 2 / channels * channels
	}
	h := header(rate, channels, uint32(n*2))
	out := make([]byte, headerSize+n*2)
	copy(out, h[:])
	for i, s := range samples[:n] {
		binary.LittleEndian.PutUint16(out[headerSize+2*i:], uint16(toInt16(s)))
	}
	return out
}

// Writer streams interleaved float samples into a 16-bit PCM WAV file. The sizes in the header
// are written as 0 first and patched by Close, which is why it needs a seekable destination.
type Writer struct {
	w        io.WriteSeeker
	rate, ch int
	written  uint64
	buf      []byte
	err      error
}

// NewWriter writes a header for rate and channels to w and returns a Writer appending to it.
func NewWriter(w io.WriteSeeker, rate, channels int) (*Writer, error) {
	if channels != 1 && channels != 2 {
		return nil, fmt.Errorf("wav: %d channels, want 1 or 2", channels)
	}
	if rate <= 0 {
		return nil, fmt.Errorf("wav: sample rate %d", rate)
	}
	h := header(rate, channels, 0)
	if _, err := w.Write(h[:]); err != nil {
		return nil, fmt.Errorf("wav: write header: %w", err)
	}
	return &Writer{w: w, rate: rate, ch: channels}, nil
}

// Write appends interleaved samples (a whole number of frames). It reuses one internal buffer, so
// a recording in steady state allocates nothing.
func (w *Writer) Write(samples []float32) error {
	if w.err != nil {
		return w.err
	}
	n := len(samples) - len(samples)%w.ch
	if w.written+uint64(2*n) > maxDataBytes {
		w.err = ErrFull
		return w.err
	}
	if cap(w.buf) < 2*n {
		w.buf = make([]byte, 2*n)
	}
	b := w.buf[:2*n]
	for i, s := range samples[:n] {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(toInt16(s)))
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("wav: write samples: %w", err)
		return w.err
	}
	w.written += uint64(2 * n)
	return nil
}

// Frames is the number of frames written so far.
func (w *Writer) Frames() uint64 { return w.written / uint64(2*w.ch) }

// Close patches the header sizes. It does not close the underlying file.
func (w *Writer) Close() error {
	if w.err != nil && !errors.Is(w.err, ErrFull) {
		return w.err
	}
	h := header(w.rate, w.ch, uint32(w.written))
	if _, err := w.w.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("wav: seek to header: %w", err)
	}
	if _, err := w.w.Write(h[:]); err != nil {
		return fmt.Errorf("wav: patch header: %w", err)
	}
	if _, err := w.w.Seek(0, io.SeekEnd); err != nil {
		return fmt.Errorf("wav: seek to end: %w", err)
	}
	return nil
}
