package synth

import (
	"math"
	"slices"
	"testing"

	"vimpclient/audio/wav"
)

func rmsOf(s []float32) float64 {
	var sum float64
	for _, v := range s {
		sum += float64(v) * float64(v)
	}
	return math.Sqrt(sum / float64(len(s)))
}

func TestEveryEffectRendersAndDecodes(t *testing.T) {
	want := []string{"bomb-has-been-planted", "death", "defeat", "explosion", "frag", "game-over", "hit",
		"round-start", "shot", "tank-engine", "tank-landing", "tank-water", "victory"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("names %v", got)
	}
	for _, name := range Names() {
		b, ok := Render(name)
		if !ok || b.Rate != Rate || b.Channels != 1 || b.Frames() < Rate/5 {
			t.Fatalf("%s: %+v", name, b)
		}
		var peak float64
		for _, v := range b.Data {
			peak = math.Max(peak, math.Abs(float64(v)))
		}
		if math.Abs(peak-0.9) > 1e-6 {
			t.Errorf("%s: peak %v, want 0.9", name, peak)
		}
		if r := rmsOf(b.Data); r < 0.02 {
			t.Errorf("%s: nearly silent (rms %v)", name, r)
		}
		again, _ := Render(name)
		if !slices.Equal(again.Data, b.Data) {
			t.Errorf("%s: not deterministic", name)
		}
		file, _ := WAV(name)
		d, err := wav.Decode(file)
		if err != nil || d.Frames() != b.Frames() {
			t.Errorf("%s: WAV round trip: %v", name, err)
		}
		if !Loop(name) {
			if last := b.Data[len(b.Data)-1]; math.Abs(float64(last)) > 1e-3 {
				t.Errorf("%s: one-shot ends on %v (click)", name, last)
			}
		}
	}
	if _, ok := Render("nope"); ok {
		t.Error("unknown effect rendered")
	}
}

func TestShotAndExplosionDecay(t *testing.T) {
	for _, name := range []string{"shot", "explosion"} {
		b, _ := Render(name)
		head := rmsOf(b.Data[:Rate/20])
		tail := rmsOf(b.Data[len(b.Data)-Rate/10:])
		if !(head > 10*tail) {
			t.Errorf("%s: head rms %v, tail rms %v: not a decaying hit", name, head, tail)
		}
	}
}

// The loops' seams (the engine, the tracks in water) are no bigger a step
// than the loops' own steps.
func TestLoopsAreSeamless(t *testing.T) {
	for _, name := range []string{"tank-engine", "tank-water"} {
		b, _ := Render(name)
		if !Loop(name) {
			t.Fatalf("%s not marked as a loop", name)
		}
		var maxStep float64
		for i := 1; i < len(b.Data); i++ {
			maxStep = math.Max(maxStep, math.Abs(float64(b.Data[i]-b.Data[i-1])))
		}
		seam := math.Abs(float64(b.Data[0] - b.Data[len(b.Data)-1]))
		if seam > maxStep {
			t.Fatalf("%s: seam step %v exceeds the largest step inside the loop %v", name, seam, maxStep)
		}
	}
}
