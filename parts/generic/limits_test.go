package generic

import (
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

func limitedScene(t *testing.T, lim parts.Limits) (*parts.Scene, *clientcore.Schema) {
	t.Helper()
	s, err := clientcore.ParseSchema([]byte(schemaJSON))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := parts.NewScene(parts.SceneOptions{Generic: Factory{}, Tex: partstest.NewTextures(nil), Canvases: []string{"vimp"}, Limits: lim}, s, parts.PartsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return sc, s
}

// rows returns n rows of key a1 with ids from first on.
func rows(t *testing.T, s *clientcore.Schema, first, n int) []clientcore.Row {
	out := make([]clientcore.Row, n)
	for i := range out {
		out[i] = clientcore.Row{ID: uint32(first + i), Fields: rowtest.Row(t, s.Key("a1"), map[string]float64{"x": float64(i), "y": 1})}
	}
	return out
}

// An event frame that would go past a limit is not applied at all and is
// counted with the limit it reached; frames within the limits still apply.
func TestSceneRefusesFramesOverItsLimits(t *testing.T) {
	sc, s := limitedScene(t, parts.Limits{EntitiesPerKey: 10, NewPerFrame: 6, EntitiesPerCanvas: 100, Effects: 3})
	frame := func(blocks ...clientcore.Block) *clientcore.EventFrame { return &clientcore.EventFrame{Blocks: blocks} }
	a1 := func(first, n int) clientcore.Block {
		return clientcore.Block{Schema: s.Key("a1"), Rows: rows(t, s, first, n)}
	}

	sc.ApplyFrame(frame(a1(0, 7))) // 7 new in one frame, the limit is 6
	if counts, _ := sc.Counts(); counts["generic"] != 0 {
		t.Fatalf("a refused frame created %v", counts)
	}
	r := sc.Refused()
	if r.Frames != 1 || r.Rows != 7 || !strings.Contains(r.Reason, "7 new entities in one frame, the limit is 6") {
		t.Fatalf("refusal %+v", r)
	}
	sc.ApplyFrame(frame(a1(0, 6)))
	sc.ApplyFrame(frame(a1(0, 6), a1(6, 4))) // 6 known, 4 new: 10 live
	if counts, _ := sc.Counts(); counts["generic"] != 10 || sc.Stage("vimp").Len() != 10 {
		t.Fatalf("within the limits: %v, stage %d", counts, sc.Stage("vimp").Len())
	}
	sc.ApplyFrame(frame(a1(20, 1))) // the 11th of the key
	if r := sc.Refused(); r.Frames != 2 || !strings.Contains(r.Reason, "11 entities of a1/generic, the limit is 10") {
		t.Fatalf("per key: %+v", r)
	}
	// A null row frees a place.
	sc.ApplyFrame(frame(clientcore.Block{Schema: s.Key("a1"), Rows: []clientcore.Row{{ID: 0, Null: true}}}))
	sc.ApplyFrame(frame(a1(20, 1)))
	if counts, _ := sc.Counts(); counts["generic"] != 10 || sc.Refused().Frames != 2 {
		t.Fatalf("after a removal: %v %+v", counts, sc.Refused())
	}
	// Effects: three live at most.
	e1 := clientcore.Block{Schema: s.Key("e1")}
	for range 4 {
		e1.Rows = append(e1.Rows, clientcore.Row{Fields: rowtest.Row(t, s.Key("e1"), map[string]float64{"x": 1, "y": 2})})
	}
	sc.ApplyFrame(frame(e1))
	if _, effects := sc.Counts(); effects != 0 || !strings.Contains(sc.Refused().Reason, "4 effects, the limit is 3") {
		t.Fatalf("effects %d, %+v", effects, sc.Refused())
	}
}

// Hot records of new entities past a limit are not created, and counted;
// the live ones keep updating.
func TestSceneHotSamplesStayWithinLimits(t *testing.T) {
	sc, s := limitedScene(t, parts.Limits{EntitiesPerKey: 50, NewPerFrame: 20, EntitiesPerCanvas: 45})
	hot := func(first, n int) *clientcore.Hot {
		h := &clientcore.Hot{}
		for _, r := range rows(t, s, first, n) {
			h.Actors = append(h.Actors, clientcore.Record{Schema: s.Key("a1"), ID: r.ID, Fields: r.Fields})
		}
		return h
	}
	sc.ApplyHot(hot(0, 30)) // 20 a sample
	if counts, _ := sc.Counts(); counts["generic"] != 20 || sc.Refused().Rows != 10 || !strings.Contains(sc.Refused().Reason, "new entities in one frame") {
		t.Fatalf("first sample %v %+v", counts, sc.Refused())
	}
	for range 5 {
		sc.ApplyHot(hot(0, 100)) // the canvas holds 45
	}
	if counts, _ := sc.Counts(); counts["generic"] != 45 || sc.Stage("vimp").Len() != 45 || !strings.Contains(sc.Refused().Reason, "entries on canvas vimp") {
		t.Fatalf("flood %v %+v", counts, sc.Refused())
	}
	sc.Clear(nil, true)
	if counts, _ := sc.Counts(); counts["generic"] != 0 || sc.Stage("vimp").Len() != 0 {
		t.Fatalf("after clear %v", counts)
	}
	sc.ApplyHot(hot(0, 10))
	if counts, _ := sc.Counts(); counts["generic"] != 10 {
		t.Fatalf("after clear the limits count again from zero: %v", counts)
	}
}
