package comets

import (
	"encoding/json"
	"testing"

	"vimpclient/host"
)

// nullOut drops what the match sends.
type nullOut struct{}

func (nullOut) JSON(int, int, any)      {}
func (nullOut) Frame(int, []byte, bool) {}

// FuzzKeys sends a playing user's KEYS_DATA from the network: whatever it
// holds, the match does not panic, the comet's turn stays -1, 0 or 1, and
// the frames it packs afterwards are well formed.
func FuzzKeys(f *testing.F) {
	for _, s := range []string{"1:down:left", "2:up:left", "3:down:right", "x:down:left", "4:aim:1:2:0",
		"5:down", "::", "4294967296:down:left", "6:down:boost", "-1:up:right"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		m, err := NewMatch(host.MatchOptions{Bots: 1, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		m.SetOut(nullOut{})
		if _, ok := m.Join(1, "Probe"); !ok {
			t.Fatal("join refused")
		}
		m.ModulesReady(1)
		m.MapReady(1)
		m.FirstShotReady(1)
		m.Keys(1, payload)
		for _, c := range m.comets {
			if c != nil && (c.Turn < -1 || c.Turn > 1) {
				t.Fatalf("%q: turn %d", payload, c.Turn)
			}
		}
		for range sendEvery {
			m.Step(1000)
		}
		if _, err := m.frame.Bytes(); err != nil {
			t.Fatalf("%q: frame: %v", payload, err)
		}
		m.Chat(1, payload)
		m.Vote(1, json.RawMessage(payload))
	})
}
