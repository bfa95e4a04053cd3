// Package synth generates the project's own sound effects — shots, explosions, the engine loop,
// round cues — from a few lines of signal processing each, so the embedded host can serve a full
// sound catalog without shipping anyone else's recordings. Every render is deterministic.
package synth

import (
	"math"
	"math/rand/v2"
	"slices"

	"vimpclient/audio/pcm"
	"vimpclient/audio/wav"
)

// Rate is the sample rate the effects are rendered at (the mixer's rate: no resampling).
const Rate = 48000

type recipe struct {
	seconds float64
	loop    bool
	render  func(s []float64, rng *rand.Rand)
}

// recipes maps file names (as in the reference games' catalogs) to generators.
func recipes() map[string]recipe {
	return map[string]recipe{
		"shot":                  {0.45, false, shot},
		"explosion":             {1.6, false, explosion},
		"bomb-has-been-planted": {0.9, false, planted},
		"tank-engine":           {1.0, true, engine},
		"round-start":           {0.9, false, arpeggio([]float64{523.25, 659.25, 783.99, 1046.5}, 0.12, 0.4)},
		"victory":               {1.6, false, arpeggio([]float64{523.25, 659.25, 783.99, 1046.5, 1318.5}, 0.11, 0.9)},
		"defeat":                {1.6, false, arpeggio([]float64{440, 415.3, 392, 349.23}, 0.22, 0.8)},
		"frag":                  {0.45, false, arpeggio([]float64{987.77, 1318.5}, 0.08, 0.3)},
		"hit":                   {0.3, false, hit},
		"game-over":             {1.4, false, sweep(392, 98, 1.3)},
		"death":                 {0.7, false, sweep(600, 80, 0.65)},
		"tank-landing":          {0.5, false, landing},
		"tank-water":            {2.0, true, water},
	}
}

// Names lists the effects, sorted.
func Names() []string {
	r := recipes()
	names := make([]string, 0, len(r))
	for n := range r {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Loop reports whether an effect is meant to loop (its end joins its start without a click).
func Loop(name string) bool { return recipes()[name].loop }

// Render returns the named effect as mono PCM at Rate, peak-normalised to 0.9.
func Render(name string) (pcm.Buffer, bool) {
	r, ok := recipes()[name]
	if !ok {
		return pcm.Buffer{}, false
	}
	s := make([]float64, int(r.seconds*Rate))
	var seed uint64
	for _, c := range name {
		seed = seed*131 + uint64(c)
	}
	r.render(s, rand.New(rand.NewPCG(seed, 0x5eed)))
	peak := 0.0
	for _, v := range s {
		peak = math.Max(peak, math.Abs(v))
	}
	out := make([]float32, len(s))
	if peak > 0 {
		for i, v := range s {
			out[i] = float32(v * 0.9 / peak)
		}
	}
	return pcm.Buffer{Rate: Rate, Channels: 1, Data: out}, true
}

// WAV returns the named effect as a 16-bit WAV file.
func WAV(name string) ([]byte, bool) {
	b, ok := Render(name)
	if !ok {
		return nil, false
	}
	return wav.Encode(b.Data, b.Rate, b.Channels), true
}

func t(i int) float64 { return float64(i) / Rate }

// lowpass is a one-pole low-pass filter with cutoff hz, applied in place.
func lowpass(s []float64, hz float64) {
	a := 1 - math.Exp(-2*math.Pi*hz/Rate)
	var y float64
	for i, x := range s {
		y += a * (x - y)
		s[i] = y
	}
}

// fadeEdges removes clicks at the start and end of a one-shot.
func fadeEdges(s []float64, attack, release float64) {
	na, nr := int(attack*Rate), int(release*Rate)
	for i := 0; i < na && i < len(s); i++ {
		s[i] *= float64(i) / float64(na)
	}
	for i := 0; i < nr && i < len(s); i++ {
		s[len(s)-1-i] *= float64(i) / float64(nr)
	}
}

// shot: a bright noise crack over a falling low thump.
func shot(s []float64, rng *rand.Rand) {
	noise := make([]float64, len(s))
	for i := range noise {
		noise[i] = rng.Float64()*2 - 1
	}
	lowpass(noise, 5000)
	phase := 0.0
	for i := range s {
		x := t(i)
		f := 60 + 140*math.Exp(-x/0.04)
		phase += 2 * math.Pi * f / Rate
		s[i] = noise[i]*math.Exp(-x/0.035) + 0.8*math.Sin(phase)*math.Exp(-x/0.09)
	}
	fadeEdges(s, 0.001, 0.02)
}

// explosion: low rumbling noise whose brightness falls, with a sub-bass punch.
func explosion(s []float64, rng *rand.Rand) {
	var y1, y2 float64
	phase := 0.0
	for i := range s {
		x := t(i)
		cut := 200 + 2500*math.Exp(-x/0.15)
		a := 1 - math.Exp(-2*math.Pi*cut/Rate)
		n := rng.Float64()*2 - 1
		y1 += a * (n - y1)
		y2 += a * (y1 - y2)
		f := 35 + 50*math.Exp(-x/0.1)
		phase += 2 * math.Pi * f / Rate
		s[i] = 2.5*y2*math.Exp(-x/0.45) + 0.9*math.Sin(phase)*math.Exp(-x/0.25)
	}
	fadeEdges(s, 0.002, 0.1)
}

// planted: three short electronic beeps.
func planted(s []float64, _ *rand.Rand) {
	for i := range s {
		x := t(i)
		k := int(x / 0.25)
		local := x - float64(k)*0.25
		if k > 2 || local > 0.09 {
			continue
		}
		env := math.Min(1, local/0.004) * math.Min(1, (0.09-local)/0.01)
		s[i] = env * (math.Sin(2*math.Pi*1500*x) + 0.3*math.Sin(2*math.Pi*3000*x))
	}
}

// engine: a one-second loop of 20 Hz cylinder pulses on 40 Hz harmonics with a rough noise
// layer. Every component completes whole cycles in the loop, and the noise is filtered
// circularly, so the end flows into the start.
func engine(s []float64, rng *rand.Rand) {
	n := len(s)
	noise := make([]float64, n)
	for i := range noise {
		noise[i] = rng.Float64()*2 - 1
	}
	// run the filter over two laps and keep the second: the state wraps around seamlessly
	a := 1 - math.Exp(-2*math.Pi*300/Rate)
	var y float64
	for lap := 0; lap < 2; lap++ {
		for i := range noise {
			y += a * (noise[i] - y)
			if lap == 1 {
				noise[i] = y
			}
		}
	}
	for i := range s {
		x := t(i)
		pulse := math.Mod(x*20, 1) // 20 firing pulses per second
		env := math.Exp(-pulse * 4)
		var h float64
		for k := 1; k <= 6; k++ {
			h += math.Sin(2*math.Pi*40*float64(k)*x) / float64(k)
		}
		s[i] = env*h + 1.5*noise[i]*(0.6+0.4*env)
	}
}

// landing: a tank coming down on its tracks: a low thump that drops in
// pitch, a short crunch of noise and a metallic rattle.
func landing(s []float64, rng *rand.Rand) {
	phase := 0.0
	for i := range s {
		x := t(i)
		f := 38 + 50*math.Exp(-x/0.05)
		phase += 2 * math.Pi * f / Rate
		thump := math.Sin(phase) * math.Exp(-x/0.12)
		crunch := (rng.Float64()*2 - 1) * math.Exp(-x/0.03)
		rattle := math.Sin(2*math.Pi*730*x) * math.Sin(2*math.Pi*17*x) * math.Exp(-x/0.09)
		s[i] = thump + 0.5*crunch + 0.25*rattle
	}
	lowpass(s, 1800)
	fadeEdges(s, 0.001, 0.05)
}

// water: tracks churning water, a loop: band-limited noise run over two
// laps (the filter's state wraps around, so the end joins the start) with
// a slow surge of bubbles.
func water(s []float64, rng *rand.Rand) {
	n := len(s)
	noise := make([]float64, n)
	for i := range noise {
		noise[i] = rng.Float64()*2 - 1
	}
	lo := 1 - math.Exp(-2*math.Pi*900/Rate)
	hi := 1 - math.Exp(-2*math.Pi*120/Rate)
	var y, base float64
	for lap := 0; lap < 2; lap++ {
		for i := range noise {
			y += lo * (noise[i] - y)
			base += hi * (y - base)
			if lap == 1 {
				noise[i] = y - base // a band of 120–900 Hz
			}
		}
	}
	dur := float64(n) / Rate
	for i := range s {
		x := t(i)
		// Whole numbers of cycles over the loop keep its ends level.
		surge := 0.65 + 0.35*math.Sin(2*math.Pi*math.Round(3*dur)/dur*x)
		bubble := math.Max(0, math.Sin(2*math.Pi*math.Round(11*dur)/dur*x)) * math.Sin(2*math.Pi*420*x)
		s[i] = 2.5*noise[i]*surge + 0.2*bubble
	}
}

// arpeggio: plucked square-ish notes one after another, the last one held for tail seconds.
func arpeggio(notes []float64, step, tail float64) func([]float64, *rand.Rand) {
	return func(s []float64, _ *rand.Rand) {
		for k, f := range notes {
			start := float64(k) * step
			decay := 0.12
			if k == len(notes)-1 {
				decay = tail / 2
			}
			for i := int(start * Rate); i < len(s); i++ {
				x := t(i) - start
				env := math.Min(1, x/0.003) * math.Exp(-x/decay)
				v := math.Sin(2*math.Pi*f*x) + 0.33*math.Sin(2*math.Pi*3*f*x) + 0.2*math.Sin(2*math.Pi*5*f*x)
				s[i] += env * v
			}
		}
		fadeEdges(s, 0, 0.05)
	}
}

// hit: a metallic clank of inharmonic partials.
func hit(s []float64, rng *rand.Rand) {
	partials := []float64{410, 1130, 1870, 2630, 3390}
	for i := range s {
		x := t(i)
		var v float64
		for k, f := range partials {
			v += math.Sin(2*math.Pi*f*x) * math.Exp(-x/(0.08/float64(k+1))) / float64(k+1)
		}
		s[i] = v + (rng.Float64()*2-1)*math.Exp(-x/0.008)
	}
	fadeEdges(s, 0.0005, 0.02)
}

// sweep: a tone gliding from f0 to f1 over dur seconds, with vibrato.
func sweep(f0, f1, dur float64) func([]float64, *rand.Rand) {
	return func(s []float64, _ *rand.Rand) {
		phase := 0.0
		for i := range s {
			x := t(i)
			p := math.Min(1, x/dur)
			f := f0 * math.Pow(f1/f0, p) * (1 + 0.01*math.Sin(2*math.Pi*6*x))
			phase += 2 * math.Pi * f / Rate
			s[i] = (math.Sin(phase) + 0.4*math.Sin(2*phase)) * math.Exp(-x/(dur/2))
		}
		fadeEdges(s, 0.005, 0.08)
	}
}
