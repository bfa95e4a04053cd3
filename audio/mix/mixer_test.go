package mix

import (
	"math"
	"testing"

	"vimpclient/audio/pcm"
	"vimpclient/audio/spatial"
)

func constant(ch, frames int, v float32) *pcm.Buffer {
	d := make([]float32, ch*frames)
	for i := range d {
		d[i] = v
	}
	return &pcm.Buffer{Rate: 48000, Channels: ch, Data: d}
}

func sine(freq float64, frames int) *pcm.Buffer {
	d := make([]float32, frames)
	for i := range d {
		d[i] = float32(math.Sin(2 * math.Pi * freq * float64(i) / 48000))
	}
	return &pcm.Buffer{Rate: 48000, Channels: 1, Data: d}
}

func TestMonoAndStereoRouting(t *testing.T) {
	m := New(Options{})
	m.Play(constant(1, 1000, 0.5), spatial.Gains{LL: 0.3, RL: 0.6}, false, 1)
	st := &pcm.Buffer{Rate: 48000, Channels: 2, Data: make([]float32, 2000)}
	for i := 0; i < 1000; i++ {
		st.Data[2*i], st.Data[2*i+1] = 0.2, -0.4
	}
	// stereo equal-power hard right: L = 0, R = inR + inL
	m.Play(st, spatial.Gains{RL: 1, RR: 1}, false, 1)
	m.SetMaster(0.5)
	out := make([]float32, 2*100)
	m.Mix(out)
	// first block ramps the master from 1 to 0.5; check the last frame, where it has arrived
	l, r := out[198], out[199]
	if math.Abs(float64(l)-0.5*0.15) > 1e-6 || math.Abs(float64(r)-0.5*(0.3+0.2-0.4)) > 1e-6 {
		t.Fatalf("last frame L %v R %v", l, r)
	}
	m.Mix(out)
	if math.Abs(float64(out[0])-0.075) > 1e-6 {
		t.Fatalf("steady master: L %v", out[0])
	}
}

func TestOneShotEndsOnceAndStopGivesNoNotice(t *testing.T) {
	m := New(Options{})
	a := m.Play(constant(1, 150, 1), spatial.Dry(false), false, 1)
	b := m.Play(constant(1, 150, 1), spatial.Dry(false), false, 1)
	m.Stop(b)
	out := make([]float32, 2*100)
	m.Mix(out)
	if got := m.TakeEnded(nil); len(got) != 0 {
		t.Fatalf("ended after 100 of 150 frames: %v", got)
	}
	m.Mix(out)
	if out[2*49] != 1 || out[2*50] != 0 {
		t.Fatalf("one-shot should end after frame 149: %v %v", out[2*49], out[2*50])
	}
	got := m.TakeEnded(nil)
	if len(got) != 1 || got[0] != a {
		t.Fatalf("ended = %v, want [%v]", got, a)
	}
	if m.Playing(a) || m.TakeEnded(nil) != nil {
		t.Fatal("ended voice still playing or noticed twice")
	}
	// the freed slot gets a fresh handle; the stale one finds nothing
	c := m.Play(constant(1, 10, 1), spatial.Dry(false), false, 1)
	if c == a || c == b {
		t.Fatal("handle reused")
	}
	m.SetGains(a, spatial.Gains{}) // stale: must not touch c
	m.Mix(out)
	if out[0] != 1 {
		t.Fatal("stale handle changed another voice")
	}
}

func TestLoopKeepsPlaying(t *testing.T) {
	m := New(Options{})
	v := m.Play(constant(2, 64, 0.25), spatial.Dry(true), true, 1.37)
	out := make([]float32, 2*4800)
	for k := 0; k < 10; k++ {
		m.Mix(out)
	}
	if !m.Playing(v) {
		t.Fatal("loop stopped")
	}
	for i, s := range out {
		if math.Abs(float64(s)-0.25) > 1e-6 {
			t.Fatalf("sample %d = %v, want 0.25 throughout the loop", i, s)
		}
	}
}

// zeroCrossingsHz estimates a tone's frequency from its upward zero crossings in one channel.
func zeroCrossingsHz(out []float32, ch int) float64 {
	n := len(out) / 2
	first, last, count := -1, -1, 0
	for f := 1; f < n; f++ {
		if out[2*(f-1)+ch] < 0 && out[2*f+ch] >= 0 {
			if first < 0 {
				first = f
			} else {
				count++
			}
			last = f
		}
	}
	if count == 0 {
		return 0
	}
	return float64(count) / (float64(last-first) / 48000)
}

func TestPlaybackRateChangesPitch(t *testing.T) {
	m := New(Options{})
	v := m.Play(sine(480, 48000), spatial.Dry(false), true, 1.18)
	out := make([]float32, 2*24000)
	m.Mix(out)
	if hz := zeroCrossingsHz(out, 0); math.Abs(hz-480*1.18) > 2 {
		t.Fatalf("rate 1.18: %v Hz, want %v", hz, 480*1.18)
	}
	m.SetRate(v, 1)
	m.Mix(out)
	if hz := zeroCrossingsHz(out, 0); math.Abs(hz-480) > 2 {
		t.Fatalf("rate 1: %v Hz, want 480", hz)
	}
}

func TestGainRampIsLinear(t *testing.T) {
	m := New(Options{RampFrames: 100})
	v := m.Play(constant(1, 10000, 1), spatial.Gains{}, true, 1)
	m.SetGains(v, spatial.Gains{LL: 1, RL: 0.5})
	out := make([]float32, 2*200)
	m.Mix(out)
	for f := 0; f < 100; f++ {
		want := float64(f+1) / 100
		if math.Abs(float64(out[2*f])-want) > 1e-4 || math.Abs(float64(out[2*f+1])-want/2) > 1e-4 {
			t.Fatalf("frame %d: %v/%v, want %v/%v", f, out[2*f], out[2*f+1], want, want/2)
		}
	}
	if out[2*150] != 1 || out[2*150+1] != 0.5 {
		t.Fatalf("after the ramp: %v/%v", out[300], out[301])
	}
}

func TestClampAndEffectsVolume(t *testing.T) {
	m := New(Options{})
	for i := 0; i < 4; i++ {
		m.Play(constant(1, 1000, 0.9), spatial.Dry(false), false, 1)
	}
	out := make([]float32, 2*10)
	m.Mix(out)
	if out[0] != 1 {
		t.Fatalf("sum 3.6 not clamped: %v", out[0])
	}
	m.SetEffects(0)
	m.Mix(out)
	m.Mix(out)
	if out[0] != 0 {
		t.Fatalf("effects 0: %v", out[0])
	}
}

func TestPoolFullIsCounted(t *testing.T) {
	m := New(Options{MaxVoices: 2})
	b := constant(1, 10, 1)
	m.Play(b, spatial.Dry(false), false, 1)
	m.Play(b, spatial.Dry(false), false, 1)
	if v := m.Play(b, spatial.Dry(false), false, 1); v != 0 {
		t.Fatal("third voice in a pool of two")
	}
	if s := m.Stats(); s.PoolFull != 1 || s.Playing != 2 {
		t.Fatalf("stats %+v", s)
	}
}

func TestReadEncodesFloat32LE(t *testing.T) {
	m := New(Options{})
	m.Play(constant(1, 100, 0.5), spatial.Gains{LL: 1, RL: 0.25}, false, 1)
	p := make([]byte, 8*4+3)
	n, err := m.Read(p)
	if err != nil || n != 32 {
		t.Fatalf("Read = %d, %v", n, err)
	}
	l := math.Float32frombits(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24)
	r := math.Float32frombits(uint32(p[4]) | uint32(p[5])<<8 | uint32(p[6])<<16 | uint32(p[7])<<24)
	if l != 0.5 || r != 0.125 {
		t.Fatalf("decoded %v %v", l, r)
	}
}

// BenchmarkMix30Voices mixes 30 voices (mono and stereo, looping at engine rates, with gains
// moving every block) into one 10 ms block at 48 kHz.
func BenchmarkMix30Voices(b *testing.B) {
	m := New(Options{})
	mono := sine(220, 48000)
	st := &pcm.Buffer{Rate: 48000, Channels: 2, Data: make([]float32, 2*48000)}
	for i := range st.Data {
		st.Data[i] = float32(math.Sin(float64(i) * 0.01))
	}
	var ids [30]Voice
	for i := range ids {
		buf := mono
		if i%3 == 0 {
			buf = st
		}
		ids[i] = m.Play(buf, spatial.Gains{LL: 0.3, RL: 0.2}, true, 1+float64(i%7)*0.03)
	}
	out := make([]float32, 2*480)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := float32(i%10) * 0.01
		for _, id := range ids {
			m.SetGains(id, spatial.Gains{LL: g, RL: 0.1 - g})
		}
		m.Mix(out)
	}
}

func BenchmarkRead30Voices(b *testing.B) {
	m := New(Options{})
	mono := sine(220, 48000)
	for i := 0; i < 30; i++ {
		m.Play(mono, spatial.Gains{LL: 0.3, RL: 0.2}, true, 1.1)
	}
	p := make([]byte, 8*480)
	m.Read(p)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Read(p)
	}
}

func TestDetachedVoiceEndsWithoutNotice(t *testing.T) {
	m := New(Options{})
	m.PlayDetached(constant(1, 10, 1), spatial.Dry(false), false, 1)
	out := make([]float32, 2*20)
	m.Mix(out)
	if out[2*9] != 1 || out[2*10] != 0 || m.TakeEnded(nil) != nil || m.Stats().Playing != 0 {
		t.Fatal("detached voice did not end silently")
	}
}

// A per-ear delay holds one channel back; a one-shot lasts until the later ear has heard it all.
func TestPerEarDelay(t *testing.T) {
	m := New(Options{Rate: 48000})
	imp := &pcm.Buffer{Rate: 48000, Channels: 1, Data: make([]float32, 20)}
	imp.Data[5] = 1
	v := m.Play(imp, spatial.Gains{LL: 1, RL: 0.5, DelayL: 10.0 / 48000}, false, 1)
	out := make([]float32, 2*40)
	m.Mix(out)
	for f := 0; f < 40; f++ {
		wantL, wantR := float32(0), float32(0)
		if f == 15 {
			wantL = 1
		}
		if f == 5 {
			wantR = 0.5
		}
		if math.Abs(float64(out[2*f]-wantL)) > 1e-6 || math.Abs(float64(out[2*f+1]-wantR)) > 1e-6 {
			t.Fatalf("frame %d: %v/%v, want %v/%v", f, out[2*f], out[2*f+1], wantL, wantR)
		}
	}
	if got := m.TakeEnded(nil); len(got) != 1 || got[0] != v {
		t.Fatalf("ended %v", got)
	}
	// a looping voice wraps the delayed read to the loop's end
	m.Play(imp, spatial.Gains{LL: 1, DelayL: 18.0 / 48000}, true, 1)
	m.Mix(out[:2*20])
	if out[2*3] != 1 { // 5 − 18 + 20 = 7 → frame 3 reads position −15 ≡ 5
		for f := 0; f < 20; f++ {
			if out[2*f] != 0 {
				t.Fatalf("loop delay: impulse at frame %d, want 3", f)
			}
		}
		t.Fatal("loop delay: impulse missing")
	}
}

// BenchmarkMix30VoicesITD is the same scene with per-ear delays (the ITD option).
func BenchmarkMix30VoicesITD(b *testing.B) {
	m := New(Options{})
	mono := sine(220, 48000)
	var ids [30]Voice
	for i := range ids {
		ids[i] = m.Play(mono, spatial.Gains{LL: 0.3, RL: 0.2, DelayL: 0.0005}, true, 1+float64(i%7)*0.03)
	}
	out := make([]float32, 2*480)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d := float32(i%10) * 0.00005
		for _, id := range ids {
			m.SetGains(id, spatial.Gains{LL: 0.3, RL: 0.2, DelayL: d})
		}
		m.Mix(out)
	}
}
