package session

import (
	"bytes"
	"context"
	"testing"
)

// FuzzReadRecording: any recording file gives lines within the limits, or
// an error; every kept line passes the checks, and its message can be
// made and played. More seeds (every number negative, huge, fractional)
// are in testdata/fuzz/FuzzReadRecording.
func FuzzReadRecording(f *testing.F) {
	f.Add([]byte(`{"t":1,"ms":0,"conn":"A","dir":"s2c","kind":"json","port":10,"payload":3}` + "\n"))
	f.Add([]byte(`{"conn":"A","dir":"s2c","kind":"binary","bytes":3,"b64":"AQID"}` + "\n" + `{"conn":"A","dir":"event","kind":"close","code":4004}`))
	f.Add([]byte(`{"conn":"A","dir":"s2c","kind":"binary","bytes":99999999,"b64Omitted":true}`))
	f.Add([]byte("{\n"))
	lim := RecordingLimits{Lines: 40, Bytes: 64 << 10}
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := ReadRecording(bytes.NewReader(b), lim)
		if err != nil {
			return
		}
		if len(rec.Lines) > lim.Lines || rec.Read > 4*lim.Lines || rec.Kept > lim.Bytes || rec.Read != len(rec.Lines)+rec.Skipped {
			t.Fatalf("kept %d lines (%d bytes) of %d, %d skipped, limits %+v", len(rec.Lines), rec.Kept, rec.Read, rec.Skipped, lim)
		}
		for i := range rec.Lines {
			if err := rec.Lines[i].check(); err != nil {
				t.Fatalf("kept line %d: %v", i, err)
			}
			if _, _, err := rec.Lines[i].Wire(); err != nil && rec.Lines[i].B64 == "" {
				t.Fatalf("kept line %d: %v", i, err)
			}
		}
		lines := rec.Lines
		rp, err := NewReplay(lines, "")
		if err != nil {
			return
		}
		s := New(Options{Auth: AuthValues{Nick: "Fuzz"}, AutoTeam: true, Now: rp.Now, Queue: NewQueue(64)})
		s.Run(context.Background(), rp, Target{})
	})
}

// FuzzHandle: any message sequence on the read loop is handled without
// panic, and the queue stays bounded.
func FuzzHandle(f *testing.F) {
	f.Add([]byte(`[0,{"modules":{"vote":{"params":{"templates":{"teamChange":["t","teams"]}}}}}]`), []byte(`[16,{"name":"teamChange"}]`), []byte(`[16,["team1"]]`), false)
	f.Add([]byte(`[1,{"params":[{"name":"name","options":{"required":true}}]}]`), []byte(`[2,null]`), []byte(`[10,5]`), false)
	f.Add([]byte(`[4,null]`), []byte(`[8,null]`), []byte{5, 5, 0, 0}, true)
	f.Fuzz(func(t *testing.T, a, b, c []byte, lastBinary bool) {
		s := New(Options{Auth: AuthValues{Nick: "Fuzz"}, AutoTeam: true, Queue: NewQueue(16)})
		ob := newOutbox(nil)
		cn := &conn{}
		s.handle(cn, ob, Message{Data: a})
		s.handle(cn, ob, Message{Data: b})
		s.handle(cn, ob, Message{Data: c, Binary: lastBinary})
		if n := len(s.Queue().Drain(nil)); n > 16 {
			t.Fatalf("queue grew to %d", n)
		}
		if ob.pending() > 8 {
			t.Fatalf("%d replies for 3 messages", ob.pending())
		}
	})
}
