package tanks

import (
	"encoding/json"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/parts/generic"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

// dustScene is a scene of a newer host listing Dust for m1, with one tank
// (id 1) from row.
func dustScene(t *testing.T, s *clientcore.Schema) (*parts.Scene, *partstest.Sounds) {
	t.Helper()
	rnd := partstest.Seq(7)
	pc, err := parts.ParsePartsConfig(json.RawMessage(`{"gameSets":{"m1":["Tank","Dust"]},
	 "entitiesOnCanvas":{"Tank":"vimp","Dust":"vimp"}}`))
	if err != nil {
		t.Fatal(err)
	}
	snd := &partstest.Sounds{}
	sc, err := parts.NewScene(parts.SceneOptions{Game: Game(rnd), Generic: generic.Factory{}, Tex: partstest.NewTextures(baked()),
		Sound: snd, Rand: rnd, Canvases: []string{"vimp"}}, s, pc)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Drawers["Dust"] != "tanks" || len(sc.Fallbacks) != 0 {
		t.Fatalf("drawers %v, fallbacks %v", sc.Drawers, sc.Fallbacks)
	}
	return sc, snd
}

func dustOf(t *testing.T, sc *parts.Scene) *Dust {
	t.Helper()
	for _, p := range sc.Parts() {
		if d, ok := p.(*Dust); ok {
			return d
		}
	}
	t.Fatal("no dust part")
	return nil
}

// dustRow is a newer m1 row with the given throttle load, speed and
// vertical speed.
func dustRow(t *testing.T, s *clientcore.Schema, load, vx, vz float64) []float32 {
	t.Helper()
	return rowtest.Row(t, s.Key("m1"), map[string]float64{"x": 100, "y": 100, "condition": 3, "size": 3, "team": 1,
		"engineLoad": load, "vx": vx, "vz": vz})
}

// Tracks spinning under strain throw dust back from under the tank, 30 a
// second a track at full strain; a tank that drives, or idles, throws
// none; and the dust settles within 0.7 s.
func TestDustFromSpinningTracks(t *testing.T) {
	s := newerSchema(t)
	sc, _ := dustScene(t, s)
	hot := func(row []float32) {
		sc.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 1, Fields: row}}})
	}
	hot(dustRow(t, s, 2, 0, 0)) // full throttle against a wall
	d := dustOf(t, sc)
	for range 60 {
		sc.Step(1000.0 / 60)
	}
	// A second at 30 a track, those of the last 0.3–0.7 s still alive.
	if n := len(d.Grains); n < 2*30*3/10 || n > 2*30 {
		t.Fatalf("%d grains alive after a second of spinning", n)
	}
	for _, g := range d.Grains {
		if g.vx >= 0 { // thrown back: the tank faces +x
			t.Fatalf("a grain thrown forward: %+v", g)
		}
	}
	hot(dustRow(t, s, 2, 40, 0)) // it moves: no spinning
	for range 45 {
		sc.Step(1000.0 / 60)
	}
	if n := len(d.Grains); n != 0 {
		t.Fatalf("%d grains after 0.75 s of driving", n)
	}
	hot(dustRow(t, s, 0.5, 0, 0)) // idling
	sc.Step(500)
	if n := len(d.Grains); n != 0 {
		t.Fatalf("an idling tank threw %d grains", n)
	}
}

// A landing bursts dust out of both tracks, as much as it was hard, and
// the landing sounds once at that volume (the tank's part plays it); a
// soft touch-down throws none, and a storm of landings never holds more
// than maxDust grains.
func TestDustFromALanding(t *testing.T) {
	s := newerSchema(t)
	sc, snd := dustScene(t, s)
	hot := func(vz float64) {
		sc.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 1, Fields: dustRow(t, s, 0, 0, vz)}}})
	}
	hot(-1)
	hot(0) // a soft touch-down
	d := dustOf(t, sc)
	landings := func() (out []partstest.SoundCall) {
		for _, c := range snd.Calls {
			if c.Name == "tankLanding" {
				out = append(out, c)
			}
		}
		return out
	}
	if len(d.Grains) != 0 || len(landings()) != 0 {
		t.Fatalf("a soft landing: %d grains, sounds %+v", len(d.Grains), snd.Calls)
	}
	hot(-3)
	hot(0) // half of a full impact
	if want := 2 * 7; len(d.Grains) != want {
		t.Fatalf("%d grains from a half-hard landing, want %d", len(d.Grains), want)
	}
	if l := landings(); len(l) != 1 || l[0].D.VolumeScale != 0.5 {
		t.Fatalf("landing sounds %+v", l)
	}
	for range 50 {
		hot(-12)
		hot(0)
	}
	if len(d.Grains) > maxDust {
		t.Fatalf("%d grains, bound %d", len(d.Grains), maxDust)
	}
}

// A step and a draw of a busy emitter allocate nothing.
func TestDustAllocatesNothing(t *testing.T) {
	s := newerSchema(t)
	sc, _ := dustScene(t, s)
	sc.ApplyHot(&clientcore.Hot{Actors: []clientcore.Record{{Schema: s.Key("m1"), ID: 1, Fields: dustRow(t, s, 2, 0, 0)}}})
	d := dustOf(t, sc)
	var g partstest.Gfx
	for range 120 {
		sc.Step(16)
	}
	if a := testing.AllocsPerRun(100, func() {
		d.Step(16)
		g.Ops = g.Ops[:0]
		d.Draw(&g)
	}); a != 0 {
		t.Fatalf("%v allocations a frame", a)
	}
}
