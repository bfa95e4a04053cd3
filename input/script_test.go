package input

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"vimpclient/protocol"
)

func TestParseScript(t *testing.T) {
	steps, err := ParseScript(strings.NewReader("# comment\n\n2s up forward  # trailing\n1.5s down forward\n1.5s down fire\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []ScriptStep{{1500 * time.Millisecond, protocol.KeyDown, "forward", 4}, {1500 * time.Millisecond, protocol.KeyDown, "fire", 5}, {2 * time.Second, protocol.KeyUp, "forward", 3}}
	if fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	for _, bad := range []string{"1s down", "x down forward", "-1s down forward", "1s press forward", "1s down a:b", "1s down forward extra"} {
		if _, err := ParseScript(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseScript(f *testing.F) {
	f.Add("1.5s down forward\n# c\n2s up forward\n")
	f.Add("0 down x")
	f.Add("1h2m3s up y # z")
	f.Fuzz(func(t *testing.T, s string) {
		steps, err := ParseScript(strings.NewReader(s))
		if err != nil {
			return
		}
		for i, st := range steps {
			if st.Offset < 0 || (st.Action != protocol.KeyDown && st.Action != protocol.KeyUp) || st.Command == "" {
				t.Fatalf("bad step %+v", st)
			}
			if i > 0 && steps[i-1].Offset > st.Offset {
				t.Fatal("steps not sorted")
			}
		}
	})
}

func TestCheckScriptAgainstPlayerKeys(t *testing.T) {
	cfg := Config{KeySets: []map[int]string{{78: "nextPlayer"}, {87: "forward", 32: "fire"}}}
	ok := []ScriptStep{{Command: "forward", Line: 1}, {Command: "fire", Line: 2}}
	if err := CheckScript(ok, cfg); err != nil {
		t.Fatal(err)
	}
	bad := append(ok, ScriptStep{Command: "jump", Line: 7})
	err := CheckScript(bad, cfg)
	if err == nil || !strings.Contains(err.Error(), "line 7") || !strings.Contains(err.Error(), `"jump"`) ||
		!strings.Contains(err.Error(), "fire, forward") {
		t.Fatalf("unknown command: %v", err)
	}
	// The spectator set's commands are not what a player script plays.
	if err := CheckScript([]ScriptStep{{Command: "nextPlayer", Line: 3}}, cfg); err == nil {
		t.Fatal("a spectator command accepted")
	}
	if err := CheckScript(ok, Config{}); err == nil {
		t.Fatal("a game without key sets accepted")
	}
}

// Commands from a script go out through the controller's rules: only while
// input is enabled and the active set offers them, again after a key-set
// change, and their up after every down that went out.
func TestControllerCommand(t *testing.T) {
	cfg := Config{KeySets: []map[int]string{{78: "nextPlayer"}, {87: "forward", 32: "fire"}}}
	pred := &fakePred{}
	c := NewController(cfg, newFakeUI(), pred, nil)
	if c.Command(protocol.KeyDown, "forward", 0) {
		t.Fatal("sent while input is disabled")
	}
	c.SetEnabled(true, 1)
	c.SetKeySet(1, 2) // the held command goes down now
	eq(t, c.Drain(), `[5,"1:down:forward"]`)
	if c.Command(protocol.KeyDown, "forward", 3) {
		t.Fatal("a second down for a held command")
	}
	if c.Command(protocol.KeyDown, "nextPlayer", 4) {
		t.Fatal("a command the active set does not offer went out")
	}
	// Spectator set: forward is not offered and not resent; the held
	// nextPlayer is offered now and goes down.
	c.SetKeySet(0, 5)
	eq(t, c.Drain(), `[5,"2:down:nextPlayer"]`)
	c.Command(protocol.KeyUp, "nextPlayer", 5)
	eq(t, c.Drain(), `[5,"3:up:nextPlayer"]`)
	c.SetKeySet(1, 6)
	eq(t, c.Drain(), `[5,"4:down:forward"]`)
	if !c.Command(protocol.KeyUp, "forward", 7) {
		t.Fatal("the up of a sent down did not go out")
	}
	eq(t, c.Drain(), `[5,"5:up:forward"]`)
	if c.Command(protocol.KeyUp, "forward", 8) {
		t.Fatal("an up without a down went out")
	}
	if fmt.Sprint(pred.got) != "[1:down:forward 2:down:nextPlayer 3:up:nextPlayer 4:down:forward 5:up:forward]" {
		t.Fatalf("prediction saw %v", pred.got)
	}
}
