// Package mix is the project's own mixing loop: a fixed pool of voices, each a decoded sample
// read at its own playback rate and routed to one stereo output through a 2×2 gain matrix, summed
// under a master and an effects volume. It replaces the browser's audio graph with one pull-driven
// function that allocates nothing once running.
//
// Every method is safe for concurrent use: the game loop starts, steers and stops voices while
// the output goroutine pulls samples.
package mix

import (
	"encoding/binary"
	"math"
	"sync"

	"vimpclient/audio/pcm"
	"vimpclient/audio/spatial"
)

// Voice is a handle to one playing instance. Handles are never reused, so a stale handle simply
// finds nothing. The zero Voice is "none".
type Voice uint64

const slotBits = 16

func (v Voice) slot() int { return int(v & (1<<slotBits - 1)) }

// Options configure a Mixer.
type Options struct {
	Rate       int // output sample rate (Hz); default 48000
	MaxVoices  int // size of the voice pool; default 96
	RampFrames int // frames over which a gain change is ramped; default 256
	MaxEnded   int // ended-voice notices kept between two TakeEnded calls; default 256
}

func (o *Options) fill() {
	if o.Rate <= 0 {
		o.Rate = 48000
	}
	if o.MaxVoices <= 0 {
		o.MaxVoices = 96
	}
	if o.MaxVoices >= 1<<slotBits {
		o.MaxVoices = 1<<slotBits - 1
	}
	if o.RampFrames <= 0 {
		o.RampFrames = 256
	}
	if o.MaxEnded <= 0 {
		o.MaxEnded = 256
	}
	if o.MaxEnded < o.MaxVoices {
		o.MaxEnded = o.MaxVoices // every tracked voice can end between two TakeEnded calls
	}
}

// Stats counts what the mixer had to refuse or forget.
type Stats struct {
	Playing      int    // voices sounding now
	PoolFull     uint64 // Play calls refused because every voice was busy
	EndedDropped uint64 // end notices lost because TakeEnded was not called in time
	Frames       uint64 // frames mixed so far
}

type voice struct {
	id      Voice
	data    []float32
	stereo  bool
	frames  int
	pos     float64
	rate    float64
	loop    bool
	notify  bool       // report the natural end through TakeEnded
	cur     [6]float32 // LL, LR, RL, RR, then the left and right output delays in frames
	target  [6]float32
	rampLen int // frames left in the current gain ramp
}

// Mixer mixes voices into interleaved stereo float32 frames.
type Mixer struct {
	mu       sync.Mutex
	opt      Options
	voices   []voice // fixed pool; id == 0 means free
	serial   uint64
	master   float32
	effects  float32
	out      float32 // current master×effects, ramped toward the target
	ended    []Voice // ring buffer of naturally ended one-shots
	endHead  int
	endCount int
	stats    Stats
	scratch  []float32
}

// New returns a mixer with master and effects volume 1.
func New(opt Options) *Mixer {
	opt.fill()
	return &Mixer{
		opt:     opt,
		voices:  make([]voice, opt.MaxVoices),
		master:  1,
		effects: 1,
		out:     1,
		ended:   make([]Voice, opt.MaxEnded),
	}
}

// Rate is the output sample rate.
func (m *Mixer) Rate() int { return m.opt.Rate }

// Play starts a voice reading b (which must already be at the mixer's rate) from the beginning,
// routed by g at once (no ramp), looping or not, at playback rate rate (1 = as recorded). It
// returns 0 when the pool is full or the buffer is empty.
func (m *Mixer) Play(b *pcm.Buffer, g spatial.Gains, loop bool, rate float64) Voice {
	return m.play(b, g, loop, rate, true)
}

// PlayDetached is Play for a voice nobody waits for (system sounds): its natural end is not
// reported by TakeEnded, so fire-and-forget sounds cannot crowd out the notices that matter.
func (m *Mixer) PlayDetached(b *pcm.Buffer, g spatial.Gains, loop bool, rate float64) Voice {
	return m.play(b, g, loop, rate, false)
}

func (m *Mixer) play(b *pcm.Buffer, g spatial.Gains, loop bool, rate float64, notify bool) Voice {
	if b == nil || b.Frames() == 0 || (b.Channels != 1 && b.Channels != 2) {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.voices {
		v := &m.voices[i]
		if v.id != 0 {
			continue
		}
		m.serial++
		*v = voice{
			id:     Voice(m.serial<<slotBits | uint64(i)),
			data:   b.Data,
			stereo: b.Channels == 2,
			frames: b.Frames(),
			rate:   sanitizeRate(rate),
			loop:   loop,
			notify: notify,
			cur:    m.route(g),
		}
		v.target = v.cur
		return v.id
	}
	m.stats.PoolFull++
	return 0
}

// maxDelaySeconds bounds a per-ear delay (the interaural time difference is under 1 ms).
const maxDelaySeconds = 0.005

// route turns a routing into the voice's gain and delay-in-frames vector.
func (m *Mixer) route(g spatial.Gains) [6]float32 {
	lim := float32(maxDelaySeconds * float64(m.opt.Rate))
	d := func(s float32) float32 {
		f := s * float32(m.opt.Rate)
		if !(f > 0) {
			return 0
		}
		return min(f, lim)
	}
	return [6]float32{g.LL, g.LR, g.RL, g.RR, d(g.DelayL), d(g.DelayR)}
}

// sanitizeRate keeps a playback rate in a range where the mixing loop stays cheap and sane.
func sanitizeRate(r float64) float64 {
	if !(r > 0) || math.IsInf(r, 0) {
		return 1
	}
	return math.Max(1.0/16, math.Min(16, r))
}

func (m *Mixer) find(id Voice) *voice {
	if id == 0 {
		return nil
	}
	s := id.slot()
	if s >= len(m.voices) || m.voices[s].id != id {
		return nil
	}
	return &m.voices[s]
}

// SetGains moves a voice's routing to g, ramped over the next RampFrames frames.
func (m *Mixer) SetGains(id Voice, g spatial.Gains) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v := m.find(id); v != nil {
		t := m.route(g)
		if t != v.target {
			v.target = t
			v.rampLen = m.opt.RampFrames
		}
	}
}

// SetRate changes a voice's playback rate (speed and pitch).
func (m *Mixer) SetRate(id Voice, rate float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v := m.find(id); v != nil {
		v.rate = sanitizeRate(rate)
	}
}

// Playing reports whether the voice is still sounding.
func (m *Mixer) Playing(id Voice) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.find(id) != nil
}

// Stop silences a voice at once. A stopped voice gets no end notice.
func (m *Mixer) Stop(id Voice) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v := m.find(id); v != nil {
		*v = voice{}
	}
}

// StopAll silences every voice and forgets pending end notices.
func (m *Mixer) StopAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.voices {
		m.voices[i] = voice{}
	}
	m.endHead, m.endCount = 0, 0
}

// SetMaster sets the master volume (the engine's 0.7, or 0 while muted).
func (m *Mixer) SetMaster(g float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.master = clampVol(g)
}

// SetEffects sets the effects volume (the player's sound setting), applied with the master.
func (m *Mixer) SetEffects(g float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.effects = clampVol(g)
}

func clampVol(g float64) float32 {
	if !(g > 0) {
		return 0
	}
	return float32(math.Min(g, 4))
}

// TakeEnded appends the one-shot voices that ended on their own since the last call to dst and
// returns it. Call it once per tick; notices beyond MaxEnded are dropped and counted.
func (m *Mixer) TakeEnded(dst []Voice) []Voice {
	m.mu.Lock()
	defer m.mu.Unlock()
	for ; m.endCount > 0; m.endCount-- {
		dst = append(dst, m.ended[m.endHead])
		m.endHead = (m.endHead + 1) % len(m.ended)
	}
	return dst
}

// Stats returns the counters.
func (m *Mixer) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.stats
	for i := range m.voices {
		if m.voices[i].id != 0 {
			s.Playing++
		}
	}
	return s
}

func (m *Mixer) noteEnded(id Voice) {
	if m.endCount == len(m.ended) {
		m.stats.EndedDropped++
		return
	}
	m.ended[(m.endHead+m.endCount)%len(m.ended)] = id
	m.endCount++
}

// Mix overwrites out (interleaved stereo, len(out)/2 frames) with the next block of the mix.
func (m *Mixer) Mix(out []float32) {
	out = out[:len(out)&^1]
	for i := range out {
		out[i] = 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.voices {
		if m.voices[i].id != 0 {
			m.mixVoice(&m.voices[i], out)
		}
	}
	// Output stage: master×effects ramped across the block, then a hard clamp to [−1, 1].
	target := m.master * m.effects
	n := len(out) / 2
	if m.stats.Frames == 0 {
		m.out = target // volumes set before the first block apply from its first frame
	}
	g, step := m.out, float32(0)
	if n > 0 && g != target {
		step = (target - g) / float32(n)
	}
	for f := 0; f < n; f++ {
		g += step
		l, r := out[2*f]*g, out[2*f+1]*g
		out[2*f], out[2*f+1] = clamp1(l), clamp1(r)
	}
	m.out = target
	m.stats.Frames += uint64(n)
}

func clamp1(x float32) float32 {
	if x > 1 {
		return 1
	}
	if x < -1 {
		return -1
	}
	return x
}

// mixVoice adds one voice into out and advances it; a one-shot that runs out is freed and noted.
// A voice at rate 1 from a whole-sample position with settled gains takes the plain copy path;
// anything else (a gain ramp, another rate) takes the interpolating path for its channel count.
func (m *Mixer) mixVoice(v *voice, out []float32) {
	var ended bool
	switch {
	case v.cur[4] != 0 || v.cur[5] != 0 || v.target[4] != 0 || v.target[5] != 0:
		ended = v.mixDelayed(out)
	case v.rampLen == 0 && v.rate == 1 && v.pos == math.Trunc(v.pos):
		ended = v.mixWhole(out)
	default:
		ended = v.mixFrac(out)
	}
	if ended {
		if v.notify {
			m.noteEnded(v.id)
		}
		*v = voice{}
	}
}

// rampStep is the per-frame gain and delay increment of the current ramp.
func (v *voice) rampStep() (inc [6]float32) {
	if v.rampLen > 0 {
		for k := range inc {
			inc[k] = (v.target[k] - v.cur[k]) / float32(v.rampLen)
		}
	}
	return inc
}

// rampFrame moves the gains and delays g one frame along the current ramp,
// whose step is inc and which has ramp (> 0) frames left: onto the target
// on its last frame. It returns them and the frames then left. (The paths without delays
// have delays of 0 at both ends of the ramp, which a step leaves at 0.)
func (v *voice) rampFrame(g [6]float32, inc *[6]float32, ramp int) ([6]float32, int) {
	ramp--
	if ramp == 0 {
		return v.target, 0
	}
	for k := range g {
		g[k] += inc[k]
	}
	return g, ramp
}

// mixDelayed is the general path for a voice whose output channels are held back by different
// delays: each channel reads the sample at its own (earlier) position. A one-shot ends once the
// later ear has heard its last frame.
func (v *voice) mixDelayed(out []float32) bool {
	n := len(out) / 2
	g, inc, ramp := v.cur, v.rampStep(), v.rampLen
	defer func() { v.cur, v.rampLen = g, ramp }()
	flen := float64(v.frames)
	for f := 0; f < n; f++ {
		if ramp > 0 {
			g, ramp = v.rampFrame(g, &inc, ramp)
		}
		lL, rL := v.readAt(v.pos - float64(g[4])*v.rate)
		lR, rR := v.readAt(v.pos - float64(g[5])*v.rate)
		out[2*f] += g[0]*lL + g[1]*rL
		out[2*f+1] += g[2]*lR + g[3]*rR
		v.pos += v.rate
		if v.loop {
			if v.pos >= flen {
				v.pos = math.Mod(v.pos, flen)
			}
		} else if v.pos-float64(max(g[4], g[5]))*v.rate >= flen {
			return true
		}
	}
	return false
}

// readAt reads the sample at any position with linear interpolation: a loop wraps around in
// both directions, a one-shot is silent before its start and after its end.
func (v *voice) readAt(p float64) (l, r float32) {
	flen := float64(v.frames)
	if p < 0 || p >= flen {
		if !v.loop {
			return 0, 0
		}
		p = math.Mod(p, flen)
		if p < 0 {
			p += flen
		}
	}
	i := int(p)
	if i >= v.frames { // rounding at the wrap
		i = v.frames - 1
	}
	t := float32(p - float64(i))
	j := i + 1
	if j >= v.frames {
		j = -1
		if v.loop {
			j = 0
		}
	}
	if v.stereo {
		l, r = v.data[2*i], v.data[2*i+1]
		var nl, nr float32
		if j >= 0 {
			nl, nr = v.data[2*j], v.data[2*j+1]
		}
		return l + (nl-l)*t, r + (nr-r)*t
	}
	l = v.data[i]
	var nx float32
	if j >= 0 {
		nx = v.data[j]
	}
	return l + (nx-l)*t, 0
}

// mixWhole mixes at rate 1 from a whole-sample position: no interpolation, runs up to the end of
// the sample at a time.
func (v *voice) mixWhole(out []float32) bool {
	n := len(out) / 2
	g0, g1, g2, g3 := v.cur[0], v.cur[1], v.cur[2], v.cur[3]
	i := int(v.pos)
	for f := 0; f < n; {
		run := min(n-f, v.frames-i)
		dst := out[2*f : 2*(f+run)]
		if v.stereo {
			src := v.data[2*i : 2*(i+run)]
			for k := 0; k < run; k++ {
				l, r := src[2*k], src[2*k+1]
				dst[2*k] += g0*l + g1*r
				dst[2*k+1] += g2*l + g3*r
			}
		} else {
			src := v.data[i : i+run]
			for k, x := range src {
				dst[2*k] += g0 * x
				dst[2*k+1] += g2 * x
			}
		}
		f += run
		i += run
		if i >= v.frames {
			if !v.loop {
				return true
			}
			i = 0
		}
	}
	v.pos = float64(i)
	return false
}

// mixFrac mixes a voice read with linear interpolation, ramping its gains
// if needed: a mono sample goes to both ears through LL and RL, a stereo
// one through the whole matrix.
func (v *voice) mixFrac(out []float32) bool {
	n := len(out) / 2
	g, inc, ramp := v.cur, v.rampStep(), v.rampLen
	data, frames, loop, stereo := v.data, v.frames, v.loop, v.stereo
	pos, rate, flen := v.pos, v.rate, float64(v.frames)
	defer func() { v.cur, v.rampLen = g, ramp }()
	for f := 0; f < n; f++ {
		if ramp > 0 {
			g, ramp = v.rampFrame(g, &inc, ramp)
		}
		i := int(pos)
		t := float32(pos - float64(i))
		if stereo {
			al, ar := data[2*i], data[2*i+1]
			var bl, br float32
			if i+1 < frames {
				bl, br = data[2*i+2], data[2*i+3]
			} else if loop {
				bl, br = data[0], data[1]
			}
			l := al + (bl-al)*t
			r := ar + (br-ar)*t
			out[2*f] += g[0]*l + g[1]*r
			out[2*f+1] += g[2]*l + g[3]*r
		} else {
			a := data[i]
			var b float32
			if i+1 < frames {
				b = data[i+1]
			} else if loop {
				b = data[0]
			}
			x := a + (b-a)*t
			out[2*f] += g[0] * x
			out[2*f+1] += g[2] * x
		}
		pos += rate
		if pos >= flen {
			if !loop {
				return true
			}
			pos = math.Mod(pos, flen)
		}
	}
	v.pos = pos
	return false
}

// Read fills p with the next frames as interleaved stereo float32 little-endian — the format the
// oto context is opened with. It never fails; len(p) is rounded down to whole frames.
func (m *Mixer) Read(p []byte) (int, error) {
	frames := len(p) / 8
	if cap(m.scratch) < frames*2 {
		m.scratch = make([]float32, frames*2)
	}
	buf := m.scratch[:frames*2]
	m.Mix(buf)
	for i, s := range buf {
		binary.LittleEndian.PutUint32(p[4*i:], math.Float32bits(s))
	}
	return frames * 8, nil
}
