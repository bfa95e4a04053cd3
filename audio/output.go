package audio

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"sync"
	"time"

	"github.com/ebitengine/oto/v3"

	"vimpclient/audio/mix"
	"vimpclient/audio/wav"
)

// OutputOptions configure where the mix goes.
type OutputOptions struct {
	// WAVPath, if set, records the mix as a 16-bit stereo WAV file (the -audio-out flag), with or
	// without a sound card.
	WAVPath string
	// Silent skips the sound card (headless sessions); the mix still runs in real time.
	Silent bool
	// Latency is the device buffer; default 60 ms.
	Latency time.Duration
	Logger  *slog.Logger

	now      func() time.Time // start time of the silent pump (tests)
	ticks    <-chan time.Time // ticks of the silent pump, carrying the time (tests); default every 10 ms
	afterMix func(frames int) // called after each mixed block (tests)
	openOto  func() (*oto.Context, chan struct{}, error)
}

// Output drives a mixer: a sound card pulls it through oto, or, when there is none, a pump
// pulls it at wall-clock pace so voices still end on time and a recording still fills.
type Output struct {
	mx      *mix.Mixer
	log     *slog.Logger
	opt     OutputOptions
	rec     *recorder
	otoCtx  *oto.Context
	player  *oto.Player
	warn    sync.Once
	mu      sync.Mutex
	device  bool
	stop    chan struct{}
	wg      sync.WaitGroup
	closing sync.Once
	scratch []float32
}

// OpenOutput starts playing mx. A missing or broken sound card is not an error: the output falls
// back to silent with one warning and everything else runs unchanged. Only a WAV file that cannot
// be created is an error. The oto context exists once per process, so open one Output per process.
func OpenOutput(ctx context.Context, mx *mix.Mixer, opt OutputOptions) (*Output, error) {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Latency <= 0 {
		opt.Latency = 60 * time.Millisecond
	}
	if opt.now == nil {
		opt.now = time.Now
	}
	if opt.openOto == nil {
		opt.openOto = func() (*oto.Context, chan struct{}, error) {
			return oto.NewContext(&oto.NewContextOptions{
				SampleRate:   mx.Rate(),
				ChannelCount: 2,
				Format:       oto.FormatFloat32LE,
				BufferSize:   opt.Latency,
			})
		}
	}
	o := &Output{mx: mx, log: opt.Logger, opt: opt, stop: make(chan struct{})}
	if opt.WAVPath != "" {
		rec, err := newRecorder(opt.WAVPath, mx.Rate())
		if err != nil {
			return nil, err
		}
		o.rec = rec
	}
	if opt.Silent {
		o.startPump()
		return o, nil
	}
	if err := o.openDevice(ctx); err != nil {
		o.fallBack(err)
		return o, nil
	}
	o.wg.Add(1)
	go o.watch()
	return o, nil
}

func (o *Output) openDevice(ctx context.Context) error {
	c, ready, err := o.opt.openOto()
	if err != nil {
		return fmt.Errorf("open audio device: %w", err)
	}
	select {
	case <-ready:
	case <-ctx.Done():
		return fmt.Errorf("open audio device: %w", ctx.Err())
	}
	if err := c.Err(); err != nil {
		return fmt.Errorf("open audio device: %w", err)
	}
	o.otoCtx = c
	o.player = c.NewPlayer(deviceReader{o})
	o.player.SetBufferSize(int(o.opt.Latency.Seconds()*float64(o.mx.Rate()))*8 + 8)
	o.player.Play()
	o.mu.Lock()
	o.device = true
	o.mu.Unlock()
	return nil
}

// Device reports whether a sound card is playing the mix.
func (o *Output) Device() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.device
}

// fallBack switches to the silent pump, warning once.
func (o *Output) fallBack(err error) {
	o.warn.Do(func() {
		o.log.Warn("audio: no sound device, continuing silently", "err", err)
		o.mu.Lock()
		o.device = false
		o.mu.Unlock()
		if o.player != nil {
			o.player.Pause()
		}
		o.startPump()
	})
}

// watch notices a device that fails after it opened.
func (o *Output) watch() {
	defer o.wg.Done()
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-t.C:
			err := o.otoCtx.Err()
			if err == nil {
				err = o.player.Err()
			}
			if err != nil {
				o.fallBack(fmt.Errorf("audio device failed: %w", err))
				return
			}
		}
	}
}

// deviceReader is what oto pulls: the mix as float32 little-endian stereo, copied to the recorder.
type deviceReader struct{ o *Output }

func (r deviceReader) Read(p []byte) (int, error) {
	o := r.o
	frames := len(p) / 8
	if cap(o.scratch) < 2*frames {
		o.scratch = make([]float32, 2*frames)
	}
	buf := o.scratch[:2*frames]
	o.mx.Mix(buf)
	for i, s := range buf {
		bits := math.Float32bits(s)
		p[4*i], p[4*i+1], p[4*i+2], p[4*i+3] = byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24)
	}
	o.record(buf)
	return frames * 8, nil
}

func (o *Output) record(buf []float32) {
	if o.rec != nil {
		o.rec.write(buf, o.log)
	}
	if o.opt.afterMix != nil {
		o.opt.afterMix(len(buf) / 2)
	}
}

// maxCatchUp bounds how much the pump mixes after a stall (the rest is skipped).
const maxCatchUp = 10 * time.Second

func (o *Output) startPump() {
	ticks := o.opt.ticks
	var ticker *time.Ticker
	if ticks == nil {
		ticker = time.NewTicker(10 * time.Millisecond)
		ticks = ticker.C
	}
	start := o.opt.now()
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		if ticker != nil {
			defer ticker.Stop()
		}
		rate := float64(o.mx.Rate())
		var mixed int64
		buf := make([]float32, 2*480)
		for {
			var now time.Time
			select {
			case <-o.stop:
				return
			case now = <-ticks:
			}
			due := int64(now.Sub(start).Seconds()*rate) - mixed
			if limit := int64(maxCatchUp.Seconds() * rate); due > limit {
				mixed += due - limit
				due = limit
			}
			for due > 0 {
				n := min(due, int64(len(buf)/2))
				o.mx.Mix(buf[:2*n])
				o.record(buf[:2*n])
				due -= n
				mixed += n
			}
		}
	}()
}

// Close stops the output and finishes the recording. The oto context itself cannot be released.
func (o *Output) Close() error {
	var err error
	o.closing.Do(func() {
		close(o.stop)
		o.wg.Wait()
		if o.player != nil {
			o.player.Pause()
			err = o.player.Close()
		}
		if o.rec != nil {
			err = errors.Join(err, o.rec.close())
		}
	})
	return err
}

// recorder writes the mix to a WAV file; a write error is logged once and ends the recording.
type recorder struct {
	mu     sync.Mutex
	f      *os.File
	w      *wav.Writer
	failed bool
}

func newRecorder(path string, rate int) (*recorder, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("audio: create %s: %w", path, err)
	}
	w, err := wav.NewWriter(f, rate, 2)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audio: start %s: %w", path, err)
	}
	return &recorder{f: f, w: w}, nil
}

func (r *recorder) write(buf []float32, log *slog.Logger) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failed {
		return
	}
	if err := r.w.Write(buf); err != nil {
		r.failed = true
		log.Warn("audio: recording stopped", "path", r.f.Name(), "err", err)
	}
}

func (r *recorder) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.w.Close()
	if cerr := r.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("audio: close %s: %w", r.f.Name(), cerr)
	}
	return err
}
