package audio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"sync"
	"sync/atomic"
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
	// Latency is the device buffer; default DeviceBuffer.
	Latency time.Duration
	Logger  *slog.Logger

	now        func() time.Time // start time of the silent pump and of the device's pace (tests)
	ticks      <-chan time.Time // ticks of the silent pump, carrying the time (tests); default every 10 ms
	watchTicks <-chan time.Time // ticks of the device watch, carrying the time (tests); default every 250 ms
	afterMix   func(frames int) // called after each mixed block (tests)
	// openDevice opens the sound card that pulls src (tests pass a fake one); default oto.
	openDevice func(ctx context.Context, src io.Reader) (soundDevice, error)
}

// DeviceBuffer is the sound card's buffer unless OutputOptions.Latency says otherwise: how far
// ahead of the speaker the mix runs. oto's own default leaves it to the driver (ALSA: two
// periods of 1,024 frames, 43 ms at 48 kHz; other systems differ), so it is set here, the same
// on every system. A sound starts up to this long after the frame that caused it (60 ms is under
// four frames at 60 Hz, below what a player notices as late); a shorter buffer runs dry, and
// clicks, whenever the mixing goroutine waits longer than it for a core, which on a loaded
// two-core machine (a collection, the window's own frame) happens at 20-30 ms.
const DeviceBuffer = 60 * time.Millisecond

// soundDevice is what the output needs of a sound card: oto's context and its one player.
type soundDevice interface {
	// Err reports a failure of the device or of the player.
	Err() error
	// Suspend stops the device pulling (the write loop waits instead of writing silence).
	Suspend() error
	Pause()
	Close() error
}

// otoDevice is the sound card through oto.
type otoDevice struct {
	ctx    *oto.Context
	player *oto.Player
}

// openOto opens oto's context (once per process) with a buffer of latency, and a player pulling
// src whose own buffer holds as much again.
func openOto(ctx context.Context, rate int, latency time.Duration, src io.Reader) (soundDevice, error) {
	c, ready, err := oto.NewContext(&oto.NewContextOptions{
		SampleRate:   rate,
		ChannelCount: 2,
		Format:       oto.FormatFloat32LE,
		BufferSize:   latency,
	})
	if err != nil {
		return nil, err
	}
	select {
	case <-ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	p := c.NewPlayer(src)
	p.SetBufferSize(int(latency.Seconds()*float64(rate))*8 + 8) // frames of 2 float32s
	p.Play()
	return otoDevice{ctx: c, player: p}, nil
}

func (d otoDevice) Err() error {
	if err := d.ctx.Err(); err != nil {
		return err
	}
	return d.player.Err()
}
func (d otoDevice) Suspend() error { return d.ctx.Suspend() }
func (d otoDevice) Pause()         { d.player.Pause() }
func (d otoDevice) Close() error   { return d.player.Close() }

// A device that never blocks (a null ALSA device, some broken drivers) takes samples as fast as
// they are mixed: oto's write loop then spins on a core, writing silence nowhere. The watch
// measures the pace over windows of spinWindow and gives up on a device that took more than
// spinFactor times real time (plus its buffer) in one.
const (
	spinWindow = time.Second
	spinFactor = 4
)

// errNeverBlocks is why a spinning device is dropped.
var errNeverBlocks = errors.New("the sound device takes samples faster than it plays them (it never blocks)")

// Output drives a mixer: a sound card pulls it through oto, or, when there is none, a pump
// pulls it at wall-clock pace so voices still end on time and a recording still fills.
type Output struct {
	mx      *mix.Mixer
	log     *slog.Logger
	opt     OutputOptions
	rec     *recorder
	dev     soundDevice
	pulled  atomic.Int64 // frames the device has taken
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
		opt.Latency = DeviceBuffer
	}
	if opt.now == nil {
		opt.now = time.Now
	}
	if opt.openDevice == nil {
		opt.openDevice = func(ctx context.Context, src io.Reader) (soundDevice, error) {
			return openOto(ctx, mx.Rate(), opt.Latency, src)
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
	go o.watch(devicePace{rate: float64(mx.Rate()), buffer: opt.Latency, start: opt.now()})
	return o, nil
}

func (o *Output) openDevice(ctx context.Context) error {
	dev, err := o.opt.openDevice(ctx, deviceReader{o})
	if err != nil {
		return fmt.Errorf("open audio device: %w", err)
	}
	o.dev = dev
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
		if o.dev != nil {
			o.dev.Pause()
		}
		o.startPump()
	})
}

// watch notices a device that fails after it opened, or that never blocks; the latter is
// suspended too, which stops oto's write loop.
func (o *Output) watch(pace devicePace) {
	defer o.wg.Done()
	ticks := o.opt.watchTicks
	if ticks == nil {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		ticks = t.C
	}
	for {
		var now time.Time
		select {
		case <-o.stop:
			return
		case now = <-ticks:
		}
		if err := o.dev.Err(); err != nil {
			o.fallBack(fmt.Errorf("audio device failed: %w", err))
			return
		}
		if pace.spinning(now, o.pulled.Load()) {
			o.fallBack(errNeverBlocks)
			if err := o.dev.Suspend(); err != nil {
				o.log.Debug("audio: suspend the device", "err", err)
			}
			return
		}
	}
}

// devicePace compares the frames a device took over a window of wall-clock time with what it
// can have played in that time.
type devicePace struct {
	rate   float64       // frames a second
	buffer time.Duration // the device's buffer, which it may fill at once
	start  time.Time     // the current window's start
	base   int64         // frames taken before it
}

// spinning reports, once a window of spinWindow has passed, whether the device took more than
// spinFactor times real time in it, and starts the next window.
func (p *devicePace) spinning(now time.Time, pulled int64) bool {
	elapsed := now.Sub(p.start)
	if elapsed < spinWindow {
		return false
	}
	played := (elapsed + p.buffer).Seconds() * p.rate
	took := float64(pulled - p.base)
	p.start, p.base = now, pulled
	return took > spinFactor*played
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
	o.pulled.Add(int64(frames))
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
		if o.dev != nil {
			o.dev.Pause()
			err = o.dev.Close()
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
