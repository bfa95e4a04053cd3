package audio

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"vimpclient/audio/mix"
	"vimpclient/audio/pcm"
	"vimpclient/audio/spatial"
	"vimpclient/audio/wav"
)

// fakeClock is advanced by the test; each tick sent to the pump is processed before the next.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestSilentFallbackRecordsAndEndsVoices(t *testing.T) {
	lg, sink := newLogger()
	mx := mix.New(mix.Options{Rate: rate})
	tone := &pcm.Buffer{Rate: rate, Channels: 1, Data: make([]float32, rate/10)} // 100 ms
	for i := range tone.Data {
		tone.Data[i] = float32(0.5 * math.Sin(2*math.Pi*440*float64(i)/rate))
	}
	g := spatial.Default().Voice(spatial.Listener{Zoom: 1}, 600, 0, false) // to the right
	v := mx.Play(tone, g, false, 1)

	clock := &fakeClock{t: time.Unix(1000, 0)}
	ticks := make(chan time.Time)
	path := filepath.Join(t.TempDir(), "out.wav")
	out, err := OpenOutput(context.Background(), mx, OutputOptions{
		WAVPath: path, Logger: lg, now: clock.now, ticks: ticks,
		openDevice: func(context.Context, io.Reader) (soundDevice, error) { return nil, errors.New("no card") },
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Device() {
		t.Fatal("device reported without a card")
	}
	for i := 0; i < 20; i++ { // 20 × 10 ms
		clock.t = clock.t.Add(10 * time.Millisecond)
		ticks <- clock.t
	}
	ticks <- clock.t // the previous tick is fully processed once this one is taken
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if mx.Playing(v) || len(mx.TakeEnded(nil)) != 1 {
		t.Fatal("the one-shot did not end while silent")
	}
	if n := sink.count("no sound device"); n != 1 {
		t.Fatalf("%d device warnings, want 1:\n%s", n, sink.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := wav.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if b.Frames() != rate/5 {
		t.Fatalf("recorded %d frames, want %d (200 ms)", b.Frames(), rate/5)
	}
	first := &pcm.Buffer{Rate: rate, Channels: 2, Data: b.Data[:2*rate/10]}
	l, r := rms(first.Data, 0), rms(first.Data, 1)
	if !(r > 3*l) || math.Abs(r-0.5/math.Sqrt2*float64(g.RL)) > 2e-3 {
		t.Fatalf("recorded tone L %v R %v", l, r)
	}
	if rest := b.Data[2*rate/10:]; rms(rest, 0) != 0 || rms(rest, 1) != 0 {
		t.Fatal("sound after the one-shot ended")
	}
}

// fakeDevice stands for a sound card: the test pulls its reader by hand.
type fakeDevice struct {
	src       io.Reader
	suspended chan struct{} // closed by Suspend
	paused    atomic.Bool
}

func (d *fakeDevice) Err() error     { return nil }
func (d *fakeDevice) Suspend() error { close(d.suspended); return nil }
func (d *fakeDevice) Pause()         { d.paused.Store(true) }
func (d *fakeDevice) Close() error   { return nil }

// pull has the device take frames of the mix.
func (d *fakeDevice) pull(t *testing.T, frames int) {
	t.Helper()
	if n, err := d.src.Read(make([]byte, 8*frames)); err != nil || n != 8*frames {
		t.Fatalf("read %d, %v", n, err)
	}
}

// openFake opens an output on a fake device, its clocks driven by the test: the clock reads
// the time of opening, the watch's ticks carry the time after.
func openFake(t *testing.T) (*Output, *fakeDevice, time.Time, chan time.Time, *logSink) {
	lg, sink := newLogger()
	clock := &fakeClock{t: time.Unix(1000, 0)}
	watch := make(chan time.Time)
	dev := &fakeDevice{suspended: make(chan struct{})}
	out, err := OpenOutput(context.Background(), mix.New(mix.Options{Rate: rate}), OutputOptions{
		Logger: lg, now: clock.now, watchTicks: watch, ticks: make(chan time.Time),
		openDevice: func(_ context.Context, src io.Reader) (soundDevice, error) { dev.src = src; return dev, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	return out, dev, clock.t, watch, sink
}

// A device that takes ten seconds of sound in one second of wall-clock time never blocks:
// the output suspends it (which stops oto's write loop) and goes on silently, warning once.
func TestNeverBlockingDeviceFallsBackSilent(t *testing.T) {
	out, dev, now, watch, sink := openFake(t)
	if !out.Device() {
		t.Fatal("fake device not playing")
	}
	for range 4 { // four ticks of 250 ms, 2.5 s of sound taken in each
		now = now.Add(250 * time.Millisecond)
		dev.pull(t, rate*5/2)
		watch <- now
	}
	select {
	case <-dev.suspended:
	case <-time.After(10 * time.Second):
		t.Fatal("the spinning device was not suspended")
	}
	if out.Device() || !dev.paused.Load() {
		t.Fatalf("after the spin: device %v, paused %v", out.Device(), dev.paused.Load())
	}
	if n := sink.count("no sound device"); n != 1 || !strings.Contains(sink.String(), "never blocks") {
		t.Fatalf("%d warnings, want 1 saying the device never blocks:\n%s", n, sink.String())
	}
}

// A device that takes sound at the pace it plays, its buffer filled at once at the start and
// in bursts of a few buffers, is kept.
func TestPacedDeviceKeepsPlaying(t *testing.T) {
	out, dev, now, watch, sink := openFake(t)
	dev.pull(t, rate*60/1000) // the buffer, filled at once
	for i := range 40 {       // 10 s in ticks of 250 ms
		now = now.Add(250 * time.Millisecond)
		if i%4 == 3 {
			dev.pull(t, rate) // a second's worth, late
		}
		watch <- now
	}
	watch <- now // the previous tick is fully processed once this one is taken
	select {
	case <-dev.suspended:
		t.Fatal("a paced device was suspended")
	default:
	}
	if !out.Device() || sink.count("no sound device") != 0 {
		t.Fatalf("paced device dropped:\n%s", sink.String())
	}
}

// The pace is judged per window: a device that keeps pace for a while and then stops
// blocking is caught in the first window it spins in; a burst under the factor is not.
func TestDevicePaceWindows(t *testing.T) {
	t0 := time.Unix(0, 0)
	p := devicePace{rate: 1000, buffer: 100 * time.Millisecond, start: t0}
	if p.spinning(t0.Add(900*time.Millisecond), 1e6) {
		t.Fatal("judged before a window passed")
	}
	steps := []struct {
		at     time.Duration
		pulled int64
		spin   bool
	}{
		{1000, 1100, false},        // real time plus the buffer
		{2000, 1100 + 4400, false}, // 4× real time plus buffer: at the limit
		{3000, 5500 + 4401, true},  // just over
		{4000, 9901 + 900, false},
	}
	for _, s := range steps {
		if got := p.spinning(t0.Add(s.at*time.Millisecond), s.pulled); got != s.spin {
			t.Fatalf("at %d ms with %d frames: spinning %v, want %v", s.at, s.pulled, got, s.spin)
		}
	}
}

func TestOutputWAVPathError(t *testing.T) {
	_, err := OpenOutput(context.Background(), mix.New(mix.Options{}), OutputOptions{
		WAVPath: filepath.Join(t.TempDir(), "no", "such", "dir.wav"), Silent: true})
	if err == nil {
		t.Fatal("no error for an impossible WAV path")
	}
}

// The real oto path runs in a child process: oto allows one context per process, and the ALSA
// configuration is chosen through the environment.
func TestRealDevicePaths(t *testing.T) {
	if os.Getenv("VIMP_AUDIO_CHILD") != "" {
		t.Skip("child")
	}
	if testing.Short() {
		t.Skip("short")
	}
	run := func(t *testing.T, mode string, env ...string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDeviceChild$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), append(env, "VIMP_AUDIO_CHILD="+mode)...)
		b, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(b), "--- PASS: TestDeviceChild") {
			t.Fatalf("child %s: %v\n%s", mode, err, b)
		}
		return string(b)
	}
	t.Run("null device is dropped as spinning", func(t *testing.T) {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte("pcm.!default { type null }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, "device", "HOME="+home)
	})
	t.Run("broken device falls back", func(t *testing.T) {
		conf := filepath.Join(t.TempDir(), "alsa.conf")
		if err := os.WriteFile(conf, []byte("pcm.!default { type hw card 99 }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, "fallback", "ALSA_CONFIG_PATH="+conf, "HOME="+t.TempDir())
	})
}

func TestDeviceChild(t *testing.T) {
	mode := os.Getenv("VIMP_AUDIO_CHILD")
	if mode == "" {
		t.Skip("run by TestRealDevicePaths")
	}
	lg, sink := newLogger()
	mx := mix.New(mix.Options{Rate: rate})
	pulled := make(chan struct{}, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wavPath := filepath.Join(t.TempDir(), "device.wav")
	out, err := OpenOutput(ctx, mx, OutputOptions{Logger: lg, WAVPath: wavPath, afterMix: func(int) {
		select {
		case pulled <- struct{}{}:
		default:
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	switch mode {
	case "device":
		if !out.Device() {
			t.Fatalf("null device not opened:\n%s", sink.String())
		}
		// A null device never blocks: within a window or two of the watch the output drops it.
		// Nothing signals the drop but the state itself, so it is polled, with the deadline.
		for out.Device() {
			select {
			case <-ctx.Done():
				t.Fatalf("the null device was never found spinning:\n%s", sink.String())
			case <-time.After(50 * time.Millisecond):
			}
		}
		if n := sink.count("no sound device"); n != 1 || !strings.Contains(sink.String(), "never blocks") {
			t.Fatalf("%d warnings, want 1 saying the device never blocks:\n%s", n, sink.String())
		}
	case "fallback":
		if out.Device() {
			t.Fatal("broken device reported as playing")
		}
		if n := sink.count("no sound device"); n != 1 {
			t.Fatalf("%d warnings, want 1:\n%s", n, sink.String())
		}
	}
	select {
	case <-pulled: // the mix runs either way
	case <-ctx.Done():
		t.Fatal("the mixer was never pulled")
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(wavPath)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := wav.Decode(data); err != nil || b.Frames() == 0 {
		t.Fatalf("recording with mode %s: %v, %d frames", mode, err, b.Frames())
	}
	t.Log(sink.String())
}
