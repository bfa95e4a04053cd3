package audio

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ebitengine/oto/v3"

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
		openOto: func() (*oto.Context, chan struct{}, error) { return nil, nil, errors.New("no card") },
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
	t.Run("null device plays", func(t *testing.T) {
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
