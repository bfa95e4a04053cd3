package clientcore

import (
	"fmt"
	"strings"
	"testing"
	"vimpclient/gamemap"
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

// spawningGame spawns one event frame for every "fire" input and records
// what the core forwards to it.
type spawningGame struct {
	NopGame
	w1     *KeySchema
	spawns []EventFrame
	panel  []string
	maps   int
}

func (g *spawningGame) ApplyInput(seq uint32, down bool, name string, _ float64) {
	if down && name == "fire" {
		g.spawns = append(g.spawns, EventFrame{Blocks: []Block{{Schema: g.w1, Rows: []Row{{Local: seq, Fields: make([]float32, len(g.w1.Fields))}}}}})
	}
}
func (g *spawningGame) TakeSpawns() []EventFrame {
	out := g.spawns
	g.spawns = nil
	return out
}
func (g *spawningGame) SyncPanel(key, value string, set bool) {
	g.panel = append(g.panel, key+"="+value)
}
func (g *spawningGame) SetMap(*gamemap.Map) { g.maps++ }

// What a game spawns for the player's own input comes out of TakeFrames
// after the frames the host sent, once; a map change drops spawns not yet
// taken. Panel cells and maps reach the game through the core.
func TestSpawnsThroughTakeFrames(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	g := &spawningGame{w1: s.Key("w1")}
	c := New(s, Options{})
	c.SetGame(g)
	c.ApplyInput(1, true, "fire", 10)
	c.ApplyInput(2, true, "forward", 10)
	h := c.Sample(11)
	if h.Flags&HotFrames == 0 {
		t.Fatal("a spawn waiting, but no HotFrames flag")
	}
	fr := c.TakeFrames()
	if len(fr) != 1 || fr[0].Blocks[0].Rows[0].Local != 1 {
		t.Fatalf("frames %+v, want the one spawn", fr)
	}
	if len(c.TakeFrames()) != 0 {
		t.Fatal("a spawn delivered twice")
	}
	c.ApplyInput(3, true, "fire", 12)
	c.SetMap(nil)
	if len(c.TakeFrames()) != 0 || g.maps != 1 {
		t.Fatalf("spawns kept across a map change, or the map not forwarded (%d)", g.maps)
	}
	c.SyncPanel("w1", "10", true)
	if strings.Join(g.panel, ",") != "w1=10" {
		t.Fatalf("panel %v", g.panel)
	}
	if _, ok := c.Prediction(); ok {
		t.Fatal("a game without prediction reports some")
	}
}

// ObserveFrames sees every frame that decodes, once, and none that does not.
func TestObserveFrames(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	c := New(s, Options{})
	var seqs []uint32
	c.ObserveFrames(func(f *Frame) { seqs = append(seqs, f.Seq) })
	mk := func(seq uint32) []byte {
		return encodeFrame(s, &testFrame{port: 5, version: 5, seq: seq, serverTime: float64(seq) * 33})
	}
	c.PushFrame(mk(1), 0)
	c.PushFrame(mk(1), 1) // a duplicate still decodes once more: it arrived twice
	c.PushFrame([]byte{5, 4, 0}, 2)
	c.PushFrame(mk(2), 3)
	if fmt.Sprint(seqs) != "[1 1 2]" {
		t.Fatalf("observed %v", seqs)
	}
	c.ObserveFrames(nil)
	c.PushFrame(mk(3), 4)
	if len(seqs) != 3 {
		t.Fatal("observed after ObserveFrames(nil)")
	}
}

// minimalGame implements Game and no role: it counts what reaches it.
type minimalGame struct{ inputs, updates, resets int }

func (g *minimalGame) OnServerState(*PlayerBlock, float64, float64, float64) {}
func (g *minimalGame) ApplyInput(uint32, bool, string, float64)              { g.inputs++ }
func (g *minimalGame) Update(float64)                                        { g.updates++ }
func (g *minimalGame) Overlay(_ uint8, _ bool, tail []Record) ([]Record, [2]float32, bool) {
	return tail, [2]float32{}, false
}
func (g *minimalGame) Reset() { g.resets++ }

// A game that implements only Game runs through every call of the core:
// the calls of roles it lacks do nothing.
func TestMinimalGame(t *testing.T) {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	g := &minimalGame{}
	c := New(s, Options{})
	c.SetGame(g)
	c.ApplyInput(1, true, "fire", 10)
	c.ApplyAim(2, 1, 2, 1, 10)
	c.SetActive(true)
	c.SyncPanel("w1", "10", true)
	c.SetMap(nil)
	c.Sample(11)
	c.Reset()
	if g.inputs != 1 || g.updates != 1 || g.resets != 1 {
		t.Errorf("inputs %d, updates %d, resets %d; want 1 each", g.inputs, g.updates, g.resets)
	}
	if _, ok := c.Prediction(); ok {
		t.Error("a game without PredictionReporter reports a prediction")
	}
	if _, ok := c.Turret(); ok {
		t.Error("a game without TurretGame reports a turret")
	}
	if len(c.TakeFrames()) != 0 {
		t.Error("a game without Spawner spawned frames")
	}
}
