package gameloop

import (
	"encoding/json"
	"testing"
	"time"

	"vimpclient/host/match"
	"vimpclient/protocol"
)

// The summary's rounds come from the informs and the round clock: a round
// runs from its ROUND START to the victory or game over that ends it, or to
// the next ROUND START when its clock ran out; a round the host restarts
// with time left, or that a new map cuts, is not measured, nor is a victory
// whose round start was not seen.
func TestRoundsSummaryFromInforms(t *testing.T) {
	h := newHeavyMatch(t, nil)
	h.step(0)
	if s := Summarize(h.loop, nil, 0); s.Rounds != nil {
		t.Fatalf("rounds %+v before any round start", s.Rounds)
	}
	m, err := match.New(match.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	mapRaw, _ := m.MapText(m.MapNames()[0])
	start := protocol.Inform{Code: 1}
	victory := protocol.Inform{Code: 0, Params: []string{"team2"}}
	gameOver := protocol.Inform{Code: 2}
	clock := func(secs string) protocol.Panel { return protocol.Panel{{Key: "t", Value: secs, Set: true}} }
	script := []struct {
		afterMs int
		port    int
		v       protocol.Message
	}{
		{0, protocol.GameInformData, start},
		{30000, protocol.GameInformData, victory}, // 30 s
		{5000, protocol.GameInformData, start},
		{42500, protocol.GameInformData, gameOver}, // 42.5 s
		{5000, protocol.PanelData, clock("120")},   // the round clock comes before the start
		{0, protocol.GameInformData, start},
		{60000, protocol.PanelData, clock("60")},
		{59000, protocol.PanelData, clock("1")},                   // its last second
		{1000, protocol.PanelData, clock("120")},                  // the next round's clock
		{0, protocol.GameInformData, start},                       // 120 s: the time ran out
		{200, protocol.PanelData, clock("120")},                   //
		{0, protocol.GameInformData, start},                       // restarted with time left: not measured
		{20000, protocol.PanelData, clock("100")},                 //
		{0, protocol.MapData, &protocol.MapInfo{Raw: mapRaw}},     // a new map cuts the round
		{3000, protocol.GameInformData, victory},                  // its start was not seen
		{2000, protocol.GameInformData, start},                    // still running at the end
		{1000, protocol.GameInformData, protocol.Inform{Code: 7}}, // not a round's
	}
	for _, s := range script {
		h.step(s.afterMs)
		h.push(s.port, s.v)
	}
	h.step(16)
	got := Summarize(h.loop, nil, 0).Rounds
	want := RoundsSummary{Started: 6, Ended: 3, MeanSeconds: 64.2, ShortestSeconds: 30}
	if got == nil || *got != want {
		t.Fatalf("rounds %+v, want %+v", got, want)
	}
	b, err := json.Marshal(Summarize(h.loop, nil, 0))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rounds map[string]float64 `json:"rounds"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]float64{"started": 6, "ended": 3, "meanSeconds": 64.2, "shortestSeconds": 30} {
		if doc.Rounds[k] != v {
			t.Fatalf("summary JSON rounds %v, want %s = %v", doc.Rounds, k, v)
		}
	}
}

// A lost connection cuts the running round: the round start of the next
// connection begins a new one, and the time in between is no round's.
func TestRoundsCutByReconnect(t *testing.T) {
	r := rounds{minLeft: -1}
	t0 := time.Unix(0, 0)
	r.inform(1, t0)
	r.cut() // the connection was replaced
	r.inform(1, t0.Add(90*time.Second))
	r.inform(0, t0.Add(100*time.Second))
	want := RoundsSummary{Started: 2, Ended: 1, MeanSeconds: 10, ShortestSeconds: 10}
	if got := r.summary(); got == nil || *got != want {
		t.Fatalf("rounds %+v, want %+v", got, want)
	}
}
