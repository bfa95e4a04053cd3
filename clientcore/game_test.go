package clientcore

import (
	"strings"
	"testing"
)

// recordingGame logs the hook calls and predicts a fixed overlay.
type recordingGame struct {
	NopGame
	log      []string
	overlay  bool
	vals     []float32
	m1       *KeySchema
	dropKey  string
	lastSeen float64
}

func (g *recordingGame) BeginReconcile(f *Frame) { g.log = append(g.log, "begin") }
func (g *recordingGame) OnServerState(p *PlayerBlock, serverTime, offset, localNow float64) {
	g.log = append(g.log, "state")
}
func (g *recordingGame) FinishReconcile() { g.log = append(g.log, "finish") }
func (g *recordingGame) TrackFrame(myID uint8, hasID bool, f *EventFrame) {
	g.log = append(g.log, "track")
}
func (g *recordingGame) FilterFrame(f *EventFrame, myID uint8, hasID bool, localNow float64) {
	g.log = append(g.log, "filter")
	for i := range f.Blocks {
		if f.Blocks[i].Schema.Name == g.dropKey {
			f.Blocks[i].Rows = nil // the game's own storage: drop every row
		}
	}
}
func (g *recordingGame) Update(localNow float64) {
	g.log = append(g.log, "update")
	g.lastSeen = localNow
}
func (g *recordingGame) Overlay(myID uint8, hasID bool, tail []Record) ([]Record, [2]float32, bool) {
	g.log = append(g.log, "overlay")
	if !g.overlay || !hasID {
		return tail, [2]float32{}, false
	}
	return append(tail, Record{Schema: g.m1, ID: uint32(myID), Fields: g.vals}), [2]float32{g.vals[0], g.vals[1]}, true
}

func TestGameHooks(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	g := &recordingGame{m1: s.Key("m1"), vals: make([]float32, 11), dropKey: "w1", overlay: true}
	g.vals[0], g.vals[1] = 500, 600
	c := New(s, Options{})
	c.SetGame(g)
	row := []float64{1, 2, 0, 0, 0, 0, 0, 1, 1, 1, 0}
	mk := func(seq uint32, t float64) []byte {
		return encodeFrame(s, &testFrame{port: 5, version: 5, seq: seq, serverTime: t,
			camera: &FrameCamera{X: 10, Y: 20},
			player: &PlayerBlock{GameID: 4, LastInputSeq: seq},
			blocks: []testBlock{{key: "m1", rows: []testRow{{id: 4, fields: row}}}, {key: "w1", rows: []testRow{{fields: make([]float64, 8)}}}}})
	}
	c.PushFrame(mk(1, 1000), 1000)
	c.PushFrame(mk(1, 1000), 1001) // duplicate: not reconciled
	c.PushFrame(mk(2, 1033), 1033)
	if got := strings.Join(g.log, ","); got != "begin,state,finish,begin,state,finish" {
		t.Errorf("push hooks: %s", got)
	}
	if id, ok := c.MyGameID(); !ok || id != 4 {
		t.Errorf("my game id %d %v", id, ok)
	}
	g.log = nil
	h := c.Sample(1120) // render time 1020: only seq 1 crossed
	if got := strings.Join(g.log, ","); got != "track,filter,update,overlay" {
		t.Errorf("sample hooks: %s", got)
	}
	if h.Flags&HotPredicted == 0 || len(h.Tail) != 1 || h.Camera != [2]float32{500, 600} {
		t.Errorf("overlay: flags %d tail %d camera %v", h.Flags, len(h.Tail), h.Camera)
	}
	flat := h.Flatten(nil)
	if flat[len(flat)-11] != 500 || flat[len(flat)-12] != 4 || flat[len(flat)-13] != 1 {
		t.Errorf("tail record not at the end of the flat layout: %v", flat)
	}
	ev := c.TakeFrames()
	if len(ev) != 1 || len(ev[0].Blocks) != 2 || ev[0].Blocks[1].Rows != nil {
		t.Fatalf("filtered event frame: %+v", ev)
	}
	// The filter edited the event frame only, not the buffered frame.
	if n := len(c.buf.frames[0].frame.Blocks[1].Rows); n != 1 {
		t.Errorf("buffered frame lost its rows: %d", n)
	}
	c.Reset()
	if _, ok := c.MyGameID(); ok {
		t.Errorf("id kept after Reset")
	}
}
