package audio

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"

	"vimpclient/audio/mix"
	"vimpclient/audio/spatial"
	"vimpclient/audio/wav"
)

const rate = 48000
const block = 480 // 10 ms

// logSink collects log records so tests can count warnings.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// String is what was logged so far (the logger may still be writing).
func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func (s *logSink) count(sub string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.buf.String(), sub)
}

func newLogger() (*slog.Logger, *logSink) {
	s := &logSink{}
	return slog.New(slog.NewTextHandler(s, &slog.HandlerOptions{Level: slog.LevelDebug})), s
}

func dc(frames int, v float32) []byte {
	d := make([]float32, frames)
	for i := range d {
		d[i] = v
	}
	return wav.Encode(d, rate, 1)
}

func tone(hz float64, frames int) []byte {
	d := make([]float32, frames)
	for i := range d {
		d[i] = float32(0.5 * math.Sin(2*math.Pi*hz*float64(i)/rate))
	}
	return wav.Encode(d, rate, 1)
}

// files serves sounds/<name>.wav from a map.
type files map[string][]byte

func (f files) Fetch(ctx context.Context, path string) ([]byte, error) {
	b, ok := f[strings.TrimSuffix(strings.TrimPrefix(path, "sounds/"), ".wav")]
	if !ok {
		return nil, fmt.Errorf("%s: not found", path)
	}
	return b, nil
}

type rig struct {
	t   *testing.T
	mx  *mix.Mixer
	m   *Manager
	log *logSink
}

// newRig loads catalog JSON (codecList wav) with the given files and waits for the load.
func newRig(t *testing.T, catalog string, f files, opt Options) *rig {
	t.Helper()
	cat, warns, err := ParseCatalog([]byte(catalog))
	if err != nil || len(warns) != 0 {
		t.Fatalf("catalog: %v %q", err, warns)
	}
	lg, sink := newLogger()
	opt.Logger = lg
	mx := mix.New(mix.Options{Rate: rate})
	m := NewManager(mx, opt)
	l := m.Init(context.Background(), cat, f)
	<-l.Done()
	return &rig{t: t, mx: mx, m: m, log: sink}
}

// tick runs one render tick and mixes 10 ms.
func (r *rig) tick() []float32 {
	r.m.Tick()
	out := make([]float32, 2*block)
	r.mx.Mix(out)
	return out
}

func rms(out []float32, ch int) float64 {
	var s float64
	n := len(out) / 2
	for f := 0; f < n; f++ {
		v := float64(out[2*f+ch])
		s += v * v
	}
	return math.Sqrt(s / float64(n))
}

const tanksCatalog = `{"codecList":["webm","wav"],"sounds":{
	"shot":{"file":"shot","priority":100,"volume":0.4},
	"explosion":{"file":"explosion","priority":100,"volume":0.4},
	"bombHasBeenPlanted":{"file":"bomb-has-been-planted","priority":90,"volume":0.4},
	"tankEngine":{"file":"tank-engine","priority":50,"loop":true,"volume":0.5},
	"roundStart":{"file":"round-start","priority":200,"volume":0.3}}}`

func tanksFiles() files {
	return files{
		"shot":                  dc(rate, 1),
		"explosion":             dc(rate, 1),
		"bomb-has-been-planted": dc(rate, 1),
		"tank-engine":           tone(200, rate),
		"round-start":           dc(rate, 1),
	}
}

// The engine's worked ranking example of audible sounds under the voice limit.
func TestRankingExample(t *testing.T) {
	for _, limit := range []int{30, 2} {
		r := newRig(t, tanksCatalog, tanksFiles(), Options{VoiceLimit: limit})
		m := r.m
		expl, _ := m.Register("explosion", At(0, 0))
		near, _ := m.Register("tankEngine", At(30, 40))
		shot, _ := m.Register("shot", At(300, 0))
		far, _ := m.Register("tankEngine", At(5000, 0))
		bomb, _ := m.Register("bombHasBeenPlanted", At(1300, 0))
		m.Tick()
		playing := func(id ID) bool { reg := m.byID[id]; return reg != nil && reg.voice != 0 }
		if m.Update(bomb, At(0, 0)) {
			t.Errorf("limit %d: far bomb still registered", limit)
		}
		if !playing(expl) || !playing(near) {
			t.Errorf("limit %d: explosion or near engine not playing", limit)
		}
		if limit == 30 {
			if !playing(shot) || !playing(far) {
				t.Errorf("limit 30: shot %v far engine %v, want both playing", playing(shot), playing(far))
			}
			if m.Sounding() != 4 {
				t.Errorf("limit 30: %d sounding, want 4", m.Sounding())
			}
		} else {
			if m.Update(shot, At(0, 0)) {
				t.Error("limit 2: the shot one-shot should be deleted at step 6")
			}
			if !m.Update(far, At(5000, 0)) || playing(far) {
				t.Error("limit 2: the far engine should stay registered and silent")
			}
		}
	}
}

// The 31st voice of lower priority is culled: its tone is absent from the render.
func TestThirtyFirstVoiceIsCulled(t *testing.T) {
	cat := `{"codecList":["wav"],"sounds":{"hi":{"priority":100,"volume":0.02},"lo":{"priority":60,"volume":0.5}}}`
	r := newRig(t, cat, files{"hi": dc(rate, 1), "lo": tone(1000, rate)}, Options{})
	for i := 0; i < 30; i++ {
		if _, ok := r.m.Register("hi", At(0, 0)); !ok {
			t.Fatal("register hi")
		}
	}
	lo, _ := r.m.Register("lo", At(0, 0))
	out := r.tick()
	if r.m.Sounding() != 30 || r.m.Update(lo, At(0, 0)) {
		t.Fatalf("sounding %d, low-priority one-shot registered %v", r.m.Sounding(), r.m.Update(lo, At(0, 0)))
	}
	// 30 DC voices at 0.02 × master 0.7 × pan ≈ 0.7071: a constant; any 1 kHz tone would ripple.
	lo0, hi0 := out[2*block-2], out[2*block-2]
	for f := block / 2; f < block; f++ {
		lo0, hi0 = min(lo0, out[2*f]), max(hi0, out[2*f])
	}
	if hi0-lo0 > 1e-4 {
		t.Fatalf("culled voice audible: left channel ripples by %v", hi0-lo0)
	}
	if s := r.mx.Stats(); s.Playing != 30 {
		t.Fatalf("mixer plays %d voices", s.Playing)
	}
}

// A loop circling the listener pans left and right; past maxDistance it is silent.
func TestCirclingSourcePansAndFarIsSilent(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{})
	m := r.m
	m.SetListener(100, 100)
	id, _ := m.Register("tankEngine", At(100, 100))
	for step := 0; step < 16; step++ {
		a := float64(step) * math.Pi / 8 // 0 = right, π/2 = down-screen (behind), π = left
		x, y := 100+400*math.Cos(a), 100+400*math.Sin(a)
		m.Update(id, At(x, y))
		r.tick()
		out := r.tick() // the gain ramp of the move is over within this block's first 256 frames
		l, rr := rms(out[2*300:], 0), rms(out[2*300:], 1)
		side := math.Cos(a)
		switch {
		case side > 0.3 && !(rr > 1.2*l):
			t.Errorf("angle %d/16: right side but L %.4f R %.4f", step, l, rr)
		case side < -0.3 && !(l > 1.2*rr):
			t.Errorf("angle %d/16: left side but L %.4f R %.4f", step, l, rr)
		case math.Abs(side) < 0.01 && math.Abs(l-rr) > 0.01*l:
			t.Errorf("angle %d/16: centre but L %.4f R %.4f", step, l, rr)
		}
	}
	m.Update(id, At(100+1300, 100))
	r.tick()
	out := r.tick()
	if l, rr := rms(out, 0), rms(out, 1); l != 0 || rr != 0 {
		t.Fatalf("beyond maxDistance: L %v R %v", l, rr)
	}
	if m.Sounding() != 1 {
		t.Fatal("a far loop keeps its voice")
	}
}

// The worked final amplitude: shot volume 0.4, master 0.7, dx 600, HRTF approximation A.
func TestFinalAmplitudeThroughTheWholeChain(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{})
	r.m.Register("shot", At(600, 0))
	out := r.tick()
	l, rr := float64(out[2*100]), float64(out[2*100+1])
	if math.Abs(l-0.01393) > 5e-5 || math.Abs(rr-0.09491) > 5e-5 {
		t.Fatalf("L %.5f R %.5f, want 0.01393 0.09491", l, rr)
	}
}

func TestOwnSoundIsDryAndSwitchable(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{})
	id, _ := r.m.Register("tankEngine", At(600, 0).WithSpatial(false).WithVolume(0.5))
	out := r.tick()
	// dry mono: both channels at master 0.7 × volume 0.5, same signal
	if l, rr := rms(out, 0), rms(out, 1); math.Abs(l-rr) > 1e-6 || math.Abs(l-0.7*0.5*0.5/math.Sqrt2) > 2e-3 {
		t.Fatalf("dry own loop: L %v R %v", l, rr)
	}
	r.m.Update(id, SoundData{Set: SetSpatial, Spatial: true})
	r.tick()
	out = r.tick()
	if l, rr := rms(out, 0), rms(out, 1); !(rr > 3*l) {
		t.Fatalf("spatial again at dx 600: L %v R %v", l, rr)
	}
}

func TestEngineRateChangesPitch(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{})
	id, _ := r.m.Register("tankEngine", At(0, 0))
	var all []float32
	for i := 0; i < 50; i++ {
		r.m.Update(id, At(0, 0).WithRate(1.18))
		all = append(all, r.tick()...)
	}
	crossings := 0
	for f := 2*block + 1; f < len(all)/2; f++ {
		if all[2*(f-1)] < 0 && all[2*f] >= 0 {
			crossings++
		}
	}
	secs := float64(len(all)/2-2*block) / rate
	if hz := float64(crossings) / secs; math.Abs(hz-236) > 3 {
		t.Fatalf("engine at rate 1.18: %.1f Hz, want 236", hz)
	}
}

func TestResetReleaseUnregister(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{})
	m := r.m
	ended := 0
	loop, _ := m.Register("tankEngine", At(10, 0))
	shot, _ := m.Register("shot", SoundData{Set: SetPosition, X: 10, OnEnd: func() { ended++ }})
	m.SetListener(5, 5)
	r.tick()
	if m.Sounding() != 2 {
		t.Fatalf("sounding %d", m.Sounding())
	}
	m.Reset()
	if m.Update(shot, At(0, 0)) {
		t.Error("one-shot survived reset")
	}
	if !m.Update(loop, At(10, 0)) || m.byID[loop].voice != 0 {
		t.Error("loop registration not kept as not playing")
	}
	if l := m.Listener(); l.X != 0 || l.Y != 0 {
		t.Errorf("listener after reset %+v", l)
	}
	if s := r.mx.Stats(); s.Playing != 0 {
		t.Errorf("%d voices still sounding after reset", s.Playing)
	}
	r.tick()
	if m.byID[loop].voice == 0 {
		t.Error("loop not restarted on the next tick")
	}

	// Release: the one-shot plays out and calls back; the loop stops.
	shot, _ = m.Register("shot", SoundData{Set: SetPosition, OnEnd: func() { ended++ }})
	r.tick()
	m.Release(shot)
	m.Release(loop)
	if m.Registered() != 0 || r.mx.Stats().Playing != 1 {
		t.Fatalf("after release: %d registered, %d playing", m.Registered(), r.mx.Stats().Playing)
	}
	for i := 0; i < 110 && ended == 0; i++ {
		r.tick()
	}
	if ended != 1 {
		t.Fatalf("end callback fired %d times", ended)
	}

	// Unregister stops at once, with no callback.
	shot, _ = m.Register("shot", SoundData{Set: SetPosition, OnEnd: func() { ended++ }})
	r.tick()
	m.Unregister(shot)
	if r.mx.Stats().Playing != 0 {
		t.Fatal("unregistered one-shot still sounds")
	}
	for i := 0; i < 110; i++ {
		r.tick()
	}
	if ended != 1 {
		t.Fatal("a stopped one-shot called back")
	}
	m.Unregister(12345) // unknown ids are ignored
	m.Release(12345)
}

func TestSystemSoundsBypassTheLimit(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{VoiceLimit: 1})
	r.m.Register("tankEngine", At(0, 0))
	r.m.HandleSoundData([]byte(`"roundStart"`))
	r.m.HandleSoundData([]byte(`"roundStart"`))
	r.m.HandleSoundData([]byte(`"noSuchSound"`))
	r.m.HandleSoundData([]byte(`{"not":"a string"}`))
	out := r.tick()
	if s := r.mx.Stats(); s.Playing != 3 {
		t.Fatalf("%d voices, want the loop and two system plays", s.Playing)
	}
	// both channels: 2 × 0.3 × 0.7 (DC) + the loop's tone, centred
	if math.Abs(float64(out[0]-out[1])) > 1e-6 {
		t.Fatalf("system sound not centred: %v %v", out[0], out[1])
	}
	if r.log.count("unknown sound") != 1 || r.log.count("dropped SOUND_DATA") != 1 {
		t.Fatalf("log:\n%s", r.log.String())
	}
	r.m.SetMuted(true)
	r.tick()
	out = r.tick()
	if out[0] != 0 || out[1] != 0 {
		t.Fatal("muted output not silent")
	}
	// The master volume scales everything; a mute keeps it.
	r.m.SetMuted(false)
	r.tick()
	full := r.tick()
	r.m.SetMasterVolume(0.5)
	r.m.SetMuted(true)
	r.m.SetMuted(false)
	r.tick()
	half := r.tick()
	if a, b := rms(half, 0), rms(full, 0); b == 0 || math.Abs(a/b-0.5) > 0.05 {
		t.Fatalf("rms at master volume 0.5: %v, at 1: %v", a, b)
	}
}

func TestUnknownAndLoadingNames(t *testing.T) {
	release := make(chan struct{})
	f := FetchFunc(func(ctx context.Context, path string) ([]byte, error) {
		switch path {
		case "sounds/tank-engine.wav":
			select {
			case <-release:
				return tone(200, rate), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		case "sounds/shot.wav":
			return nil, fmt.Errorf("404")
		}
		return dc(rate, 1), nil
	})
	cat, _, _ := ParseCatalog([]byte(tanksCatalog))
	lg, sink := newLogger()
	mx := mix.New(mix.Options{Rate: rate})
	m := NewManager(mx, Options{Logger: lg})
	l := m.Init(context.Background(), cat, f)

	if _, ok := m.SoundConfig("tankEngine"); !ok {
		t.Fatal("a loading sound must be known")
	}
	id, ok := m.Register("tankEngine", At(0, 0))
	if !ok {
		t.Fatal("registration of a loading sound refused")
	}
	m.Tick()
	if m.Sounding() != 0 || !m.Update(id, At(0, 0)) {
		t.Fatal("loading loop should be registered and silent")
	}
	close(release)
	<-l.Done()
	if loaded, failed, total := l.Counts(); loaded != 4 || failed != 1 || total != 5 {
		t.Fatalf("counts %d %d %d", loaded, failed, total)
	}
	m.Tick()
	if m.Sounding() != 1 {
		t.Fatal("loop did not start once its sample arrived")
	}
	if _, ok := m.Register("shot", At(0, 0)); ok {
		t.Fatal("a sound whose file failed is unknown")
	}
	if _, ok := m.Register("nope", At(0, 0)); ok {
		t.Fatal("unknown name accepted")
	}
	m.Register("nope", At(0, 0))
	if n := sink.count("unknown sound"); n != 2 { // shot once, nope once
		t.Fatalf("%d unknown-sound warnings, want 2", n)
	}
	if sink.count("sound not loaded") != 1 {
		t.Fatal("failed load not logged")
	}
}

func TestNoDecodableCodecLoadsNothing(t *testing.T) {
	cat, _, _ := ParseCatalog([]byte(`{"codecList":["webm"],"sounds":{"shot":{}}}`))
	lg, sink := newLogger()
	m := NewManager(mix.New(mix.Options{}), Options{Logger: lg})
	<-m.Init(context.Background(), cat, files{}).Done()
	if _, ok := m.SoundConfig("shot"); ok {
		t.Fatal("sound known without a codec")
	}
	if sink.count("no codec") != 1 {
		t.Fatal("missing error log")
	}
}

// Steady-state ticks with 30 loops allocate nothing.
func TestTickAllocatesNothing(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{})
	ids := make([]ID, 35)
	for i := range ids {
		ids[i], _ = r.m.Register("tankEngine", At(float64(i*20), 0))
	}
	r.m.Tick()
	n := testing.AllocsPerRun(100, func() {
		for i, id := range ids {
			r.m.Update(id, At(float64(i*20), 5).WithRate(1.1).WithVolume(0.45))
		}
		r.m.Tick()
	})
	if n != 0 {
		t.Fatalf("%v allocations per tick", n)
	}
}

// Stereo sources: per-ear routing under HRTF, cross-feed under
// equal power. A left-only stereo sample at dx 600 shows the difference.
func TestStereoSourceRouting(t *testing.T) {
	st := make([]float32, 2*rate)
	for i := 0; i < rate; i++ {
		st[2*i] = 0.5 // left channel only
	}
	cat := `{"codecList":["wav"],"sounds":{"s":{"volume":1}},"spatial":{"panningModel":"%s"}}`
	for _, c := range []struct {
		model        string
		wantL, wantR float64
	}{
		// HRTF approx A, case 4: gL 0.1452, R ear gets the (silent) right channel only
		{"HRTF", 0.7 * 0.342597 * 0.1452 * 0.5, 0},
		// equal power, az 90: L = inL·cos(π/2) = 0, R = inR + inL·1
		{"equalpower", 0, 0.7 * 0.342597 * 0.5},
	} {
		r := newRig(t, fmt.Sprintf(cat, c.model), files{"s": wav.Encode(st, rate, 2)}, Options{})
		r.m.Register("s", At(600, 0))
		out := r.tick()
		l, rr := float64(out[100]), float64(out[101])
		if math.Abs(l-c.wantL) > 2e-4 || math.Abs(rr-c.wantR) > 2e-4 {
			t.Errorf("%s: L %.5f R %.5f, want %.5f %.5f", c.model, l, rr, c.wantL, c.wantR)
		}
	}
}

func TestRegistrationsAreBounded(t *testing.T) {
	r := newRig(t, tanksCatalog, tanksFiles(), Options{})
	for i := 0; i < MaxRegistrations; i++ {
		if _, ok := r.m.Register("tankEngine", At(0, 0)); !ok {
			t.Fatalf("refused at %d", i)
		}
	}
	if _, ok := r.m.Register("tankEngine", At(0, 0)); ok {
		t.Fatal("registration beyond the bound accepted")
	}
	r.m.Register("tankEngine", At(0, 0))
	if s := r.m.Stats(); s.Refused != 2 || s.Registered != MaxRegistrations {
		t.Fatalf("stats %+v", s)
	}
	if r.log.count("too many sound registrations") != 1 {
		t.Fatal("want exactly one warning")
	}
}

// With ITD on, a click on the right reaches the left ear ITD(λ)·rate frames later.
func TestITDThroughTheChain(t *testing.T) {
	click := make([]float32, rate/10)
	click[100] = 1
	r := newRig(t, `{"codecList":["wav"],"sounds":{"c":{"volume":1}}}`, files{"c": wav.Encode(click, rate, 1)}, Options{})
	r.m.SetITD(true)
	r.m.Register("c", At(600, 0))
	out := r.tick()
	peak := func(ch int) int {
		at, best := -1, float32(0)
		for f := 0; f < block; f++ {
			if v := out[2*f+ch]; v > best {
				at, best = f, v
			}
		}
		return at
	}
	lag := peak(0) - peak(1)
	want := spatial.ITDSeconds(73.301) * rate // ≈ 27.4 frames
	if peak(1) != 100 || math.Abs(float64(lag)-want) > 1 {
		t.Fatalf("right ear at %d, left ear %d frames later, want 100 and %.1f", peak(1), lag, want)
	}
}
