package gameloop

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/session"
	"vimpclient/testkit/capturetest"
	"vimpclient/testkit/hostile"
)

// scripted is a transport that hands the session a fixed list of messages,
// then a clean close; what the client sends is dropped.
type scripted struct {
	msgs []session.Message
	next int
}

func (s *scripted) Recv(ctx context.Context) (session.Message, error) {
	if s.next == len(s.msgs) || ctx.Err() != nil {
		return session.Message{}, &session.CloseError{Code: 1000}
	}
	s.next++
	return s.msgs[s.next-1], nil
}

func (s *scripted) Send(context.Context, []byte, bool) error { return nil }
func (s *scripted) Close(int, string) error                  { return nil }
func (s *scripted) Lockstep() bool                           { return true }

// pipelineInput encodes messages for FuzzPipeline: per message a flag byte
// (bit 0: binary), a big-endian u16 length and the bytes.
func pipelineInput(msgs []session.Message) []byte {
	var b bytes.Buffer
	for _, m := range msgs {
		flag := byte(0)
		if m.Binary {
			flag = 1
		}
		n := min(len(m.Data), 0xffff)
		b.WriteByte(flag)
		_ = binary.Write(&b, binary.BigEndian, uint16(n))
		b.Write(m.Data[:n])
	}
	return b.Bytes()
}

// pipelineMessages decodes pipelineInput's form; a short tail is one last
// message of what is left.
func pipelineMessages(in []byte) []session.Message {
	var out []session.Message
	for len(in) >= 3 {
		n := int(binary.BigEndian.Uint16(in[1:3]))
		bin := in[0]&1 == 1
		in = in[3:]
		n = min(n, len(in))
		out = append(out, session.Message{Binary: bin, Data: bytes.Clone(in[:n])})
		in = in[n:]
	}
	return out
}

// pipelineSeeds are the real traffic the fuzzer starts from: the hostile
// host's handshake with its entity frames, the tanks conformance schema
// with every conformance frame, and the recorded sessions.
func pipelineSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	text := func(port int, payload string) session.Message {
		return session.Message{Data: []byte(fmt.Sprintf("[%d,%s]", port, payload))}
	}
	handshake := []session.Message{
		text(0, fmt.Sprintf(hostile.Config, "")),
		text(1, `{"params":[{"name":"name","value":"","options":{"storage":"playerName","required":true}}]}`),
		text(2, "null"), text(3, `{"setId":"m"}`), text(4, `[{},0,1,0]`), text(8, "null"), text(17, "1"),
	}
	flood := append([]session.Message(nil), handshake...)
	next := hostile.EntityFrames(20, 200)
	for range 8 {
		flood = append(flood, session.Message{Binary: true, Data: next()})
	}
	seeds = append(seeds, pipelineInput(flood))

	dir := capturetest.SharedDir(t)
	for _, game := range []string{"tanks", "snakes", "synthetic"} {
		raw, err := os.ReadFile(filepath.Join(dir, "conformance", "schemas", game+".json"))
		if err != nil {
			t.Fatalf("conformance schema: %v", err)
		}
		var schema struct {
			Keys json.RawMessage `json:"keys"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		msgs := append([]session.Message{text(0, `{"interpolation":{"delay":100,"maxFrameAge":1000},`+
			`"modules":{"canvasManager":{"canvases":{"vimp":{"width":960,"height":600}}}},"snapshot":`+string(schema.Keys)+`}`)}, handshake[1:]...)
		bins, _ := filepath.Glob(filepath.Join(dir, "conformance", "frames", game, "*.bin"))
		for _, p := range bins {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, session.Message{Binary: true, Data: b})
		}
		seeds = append(seeds, pipelineInput(msgs))
	}
	caps, _ := filepath.Glob(filepath.Join(dir, "captures", "*.jsonl"))
	for _, p := range caps {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		read, err := session.ReadRecording(f, session.DefaultRecordingLimits())
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var msgs []session.Message
		conn := ""
		for _, l := range read.Lines {
			if l.Dir != "s2c" || (conn != "" && l.Conn != conn) {
				continue
			}
			conn = l.Conn
			if m, ok, err := l.Wire(); err == nil && ok {
				msgs = append(msgs, m)
			}
		}
		seeds = append(seeds, pipelineInput(msgs))
	}
	return seeds
}

// pipelineLimits are small enough that the fuzzer reaches every one.
var pipelineLimits = parts.Limits{EntitiesPerKey: 64, EntitiesPerCanvas: 256, Effects: 64, NewPerFrame: 48, FramesPerTick: 4, RowsPerTick: 512}

// runPipeline plays msgs through a session, the loop, the world and the
// parts scene (nothing drawn), then ticks until the loop has caught up. It
// checks every tick's work by count, not by the clock (the events one tick
// took, what the scene and the core hold after it): a tick's time depends
// on the machine, its work does not.
func runPipeline(t *testing.T, msgs []session.Message) *Loop {
	clock := time.Unix(1000, 0)
	now := func() time.Time { return clock }
	sess := session.New(session.Options{Logger: quiet(), Now: now, AutoTeam: true,
		Auth: session.AuthValues{Nick: "Fuzz"}})
	l := New(Options{Session: sess, Log: quiet(), Start: clock, AutoTeam: true, Rand: func() float64 { return 0.5 },
		Limits: pipelineLimits})
	sess.Run(context.Background(), &scripted{msgs: msgs}, session.Target{Host: "fuzz"})
	for tick := 0; ; tick++ {
		queued := sess.Queue().Len()
		l.Tick(clock)
		if took := queued - sess.Queue().Len(); took > eventsPerTick {
			t.Fatalf("tick %d handled %d events, the bound is %d", tick, took, eventsPerTick)
		}
		checkHeld(t, l)
		clock = clock.Add(16 * time.Millisecond)
		// Ticks for 1.5 s of play at least, so that render time crosses
		// the frames (a flood's come 16 ms apart) and effects end.
		if !l.Behind() && tick >= minPipelineTicks {
			break
		}
		if tick > 4096+clientcoreQueue {
			t.Fatalf("still behind after %d ticks", tick)
		}
	}
	return l
}

// The seeds reach what the fuzzer is for: the flood seed's frames decode,
// make entities and go past the scene's limits; the conformance seeds
// decode.
func TestPipelineSeedsReachTheScene(t *testing.T) {
	seeds := pipelineSeeds(t)
	l := runPipeline(t, pipelineMessages(seeds[0]))
	st := l.Stats()
	if st.Decoded == 0 || st.Refused.Rows == 0 || len(l.World().Scene().Parts()) == 0 {
		t.Fatalf("flood seed: %d decoded, refused %+v, %d parts", st.Decoded, st.Refused, len(l.World().Scene().Parts()))
	}
	for i := 1; i <= 3; i++ {
		if st := runPipeline(t, pipelineMessages(seeds[i])).Stats(); st.Decoded == 0 || st.Dropped != 0 {
			t.Errorf("conformance seed %d: %d decoded, %d dropped, errors %q", i, st.Decoded, st.Dropped, st.Errors)
		}
	}
}

// minPipelineTicks is 1.5 s of ticks at 16 ms.
const minPipelineTicks = 94

// clientcoreQueue is the most event frames a core queues.
const clientcoreQueue = 1024

// checkHeld holds the scene to its limits and the core to its byte bound.
func checkHeld(t *testing.T, l *Loop) {
	t.Helper()
	w := l.World()
	for _, c := range w.Canvases() {
		if n := w.Stage(c.Spec.ID).Len(); n > pipelineLimits.EntitiesPerCanvas+mapEntries(l) {
			t.Fatalf("canvas %s holds %d entries, the limit is %d", c.Spec.ID, n, pipelineLimits.EntitiesPerCanvas)
		}
	}
	if sc := w.Scene(); sc != nil {
		per, effects := sc.Counts()
		for part, n := range per {
			if n > pipelineLimits.EntitiesPerKey*len(sc.Schema().Keys) {
				t.Fatalf("%d live %s parts", n, part)
			}
		}
		if effects > pipelineLimits.Effects {
			t.Fatalf("%d effects, the limit is %d", effects, pipelineLimits.Effects)
		}
	}
	if c := l.Core(); c != nil && c.HeldBytes() > clientcore.MaxHeldBytes+clientcore.MaxRowsPerFrame*64 {
		t.Fatalf("the core holds %d bytes of frames", c.HeldBytes())
	}
}

// mapEntries is what the map's parts may add to a canvas beside the
// entities (tile layers, bodies).
func mapEntries(l *Loop) int {
	if m := l.World().Map(); m != nil {
		return 64 + len(m.Dynamic)
	}
	return 64
}

// FuzzPipeline drives mutated host traffic — frames and messages seeded
// from the recorded sessions, the conformance frames and the hostile
// host's flood — through the whole client but drawing.
func FuzzPipeline(f *testing.F) {
	for _, s := range pipelineSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		msgs := pipelineMessages(in)
		if len(msgs) > 256 {
			msgs = msgs[:256]
		}
		runPipeline(t, msgs)
	})
}
