package input

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/testkit/capturetest"
)

// fakeUI records what the controller asks of the overlays and keeps the
// mode flags the way the overlays would.
type fakeUI struct {
	open  map[Mode]bool
	calls []string
}

func newFakeUI() *fakeUI { return &fakeUI{open: map[Mode]bool{}} }

func (u *fakeUI) modes() Modes { return ModesOf(u.open[ModeChat], u.open[ModeVote], u.open[ModeStat]) }

// set opens or closes m behind the controller's back (the host opened a
// vote), and hands c the modes, as the loop does each frame.
func (u *fakeUI) set(c *Controller, m Mode, open bool) {
	u.open[m] = open
	c.SetModes(u.modes())
}

func (u *fakeUI) OpenMode(m Mode, _ float64) Modes {
	u.open[m] = true
	u.calls = append(u.calls, "open:"+m.String())
	return u.modes()
}
func (u *fakeUI) CloseStat() Modes {
	u.open[ModeStat] = false
	u.calls = append(u.calls, "closeStat")
	return u.modes()
}
func (u *fakeUI) ChatCommand(c Cmd, _ float64) Modes {
	u.open[ModeChat] = false
	u.calls = append(u.calls, fmt.Sprintf("chatCmd:%d", c))
	return u.modes()
}
func (u *fakeUI) VoteKey(code int, _ float64) Modes {
	u.calls = append(u.calls, "vote:"+strconv.Itoa(code))
	return u.modes()
}

type fakePred struct{ got []string }

func (p *fakePred) ApplyInput(seq uint32, down bool, name string, _ float64) {
	action := "up"
	if down {
		action = "down"
	}
	p.got = append(p.got, fmt.Sprintf("%d:%s:%s", seq, action, name))
}
func (p *fakePred) ApplyAim(seq uint32, x, y float32, flags uint32, _ float64) {
	p.got = append(p.got, fmt.Sprintf("%d:aim:%v:%v:%d", seq, x, y, flags))
}

func captureConfig(t *testing.T) Config {
	t.Helper()
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	pc, err := protocol.ParseConfig(capturetest.First(t, lines, "A", protocol.ConfigData))
	if err != nil {
		t.Fatal(err)
	}
	cfg, problems := ConfigFrom(pc)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	return cfg
}

func texts(sent []Sent) []string {
	var out []string
	for _, s := range sent {
		out = append(out, string(s.Msg))
	}
	return out
}

func eq(t *testing.T, got []Sent, want ...string) {
	t.Helper()
	g := texts(got)
	if strings.Join(g, " ") != strings.Join(want, " ") {
		t.Fatalf("sent %q, want %q", g, want)
	}
}

// TestReplayCaptureKeys drives the controller with the recorded sessions: the
// host's TECH_INFORM and KEYSET messages in order, and a physical press or
// release for every key message the recorder sent. The controller must emit
// the recorded action and command for each, with its own seq counting up by
// one from 1. The one intended difference: a key held across a key-set change
// gets a fresh down from this client (a key set change drops the host's held keys), which the browser-like
// recorder did not send; that down is checked too.
func TestReplayCaptureKeys(t *testing.T) {
	for _, file := range []string{"minigame-dedicated.jsonl", "minigame-two-clients.jsonl"} {
		t.Run(file, func(t *testing.T) {
			lines := capturetest.Load(t, file)
			for _, conn := range []string{"A", "B"} {
				var c *Controller
				var cfg Config
				checked, resent := 0, 0
				want := uint32(0)
				expect := func(action, name string) {
					t.Helper()
					want++
					eq(t, c.Drain(), fmt.Sprintf(`[5,"%d:%s:%s"]`, want, action, name))
				}
				for _, l := range lines {
					if l.Conn != conn {
						continue
					}
					now := l.Ms
					switch {
					case l.Dir == "s2c" && l.Port == protocol.ConfigData:
						pc, err := protocol.ParseConfig(l.Payload)
						if err != nil {
							t.Fatal(err)
						}
						cfg, _ = ConfigFrom(pc)
						c = NewController(cfg, newFakeUI(), nil, nil)
					case c == nil:
					case l.Dir == "s2c" && l.Port == protocol.TechInformData:
						ti, err := protocol.ParseTechInform(l.Payload)
						if err != nil {
							t.Fatal(err)
						}
						c.SetEnabled(ti.Hide, now)
					case l.Dir == "s2c" && l.Port == protocol.KeysetData:
						k, err := protocol.ParseKeyset(l.Payload)
						if err != nil {
							t.Fatal(err)
						}
						var names []string
						for code := range c.held {
							if n, ok := cfg.KeySets[k][code]; ok && c.enabled {
								names = append(names, n)
							}
						}
						c.SetKeySet(k, now)
						if len(names) > 1 {
							t.Fatalf("test handles one held key, got %v", names)
						}
						if len(names) == 1 {
							expect("down", names[0])
							resent++
						} else {
							eq(t, c.Drain())
						}
					case l.Dir == "c2s" && l.Port == protocol.KeysData:
						var s string
						if err := json.Unmarshal(l.Payload, &s); err != nil {
							t.Fatal(err)
						}
						parts := strings.Split(s, ":")
						code := -1
						for k, n := range cfg.KeySets[c.KeySet()] {
							if n == parts[2] {
								code = k
							}
						}
						if code < 0 {
							t.Fatalf("%s: %q not in key set %d", conn, s, c.KeySet())
						}
						if parts[1] == "down" {
							c.KeyDown(code, now)
						} else {
							c.KeyUp(code, now)
						}
						expect(parts[1], parts[2])
						checked++
					}
				}
				if conn == "A" && checked < 6 {
					t.Fatalf("%s: only %d key messages checked", conn, checked)
				}
				t.Logf("%s %s: %d recorded key messages reproduced, %d held-key downs re-sent", file, conn, checked, resent)
			}
		})
	}
}

func newTestController(t *testing.T) (*Controller, *fakeUI, *fakePred) {
	ui := newFakeUI()
	pred := &fakePred{}
	c := NewController(captureConfig(t), ui, pred, nil)
	c.SetEnabled(true, 0)
	c.SetKeySet(1, 0)
	c.Drain()
	return c, ui, pred
}

const (
	kW, kS, kJ, kN = 87, 83, 74, 78
	kC, kM, kTab   = 67, 77, 9
	kEnter, kEsc   = 13, 27
)

func TestNoRepeatAndSharedSeqWithPredictor(t *testing.T) {
	c, _, pred := newTestController(t)
	c.KeyDown(kW, 1)
	c.KeyDown(kW, 2) // a second down without an up (repeat) sends nothing
	c.KeyUp(kW, 3)
	eq(t, c.Drain(), `[5,"1:down:forward"]`, `[5,"2:up:forward"]`)
	if strings.Join(pred.got, " ") != "1:down:forward 2:up:forward" {
		t.Fatalf("predictor got %v", pred.got)
	}
	if c.Seq() != 2 {
		t.Fatalf("seq %d", c.Seq())
	}
	c.KeyDown(kN, 4) // unbound in the player set
	c.KeyUp(kN, 5)
	eq(t, c.Drain())
}

func TestDisabledSendsOnlyUps(t *testing.T) {
	c, ui, _ := newTestController(t)
	c.KeyDown(kW, 1)
	c.SetEnabled(false, 2) // loading screen shown
	c.KeyDown(kJ, 3)       // ignored
	c.KeyUp(kW, 4)         // still sent
	eq(t, c.Drain(), `[5,"1:down:forward"]`, `[5,"2:up:forward"]`)
	c.KeyDown(kM, 5) // vote menu does not open while disabled
	if ui.open[ModeVote] {
		t.Fatal("vote opened while disabled")
	}
	c.KeyDown(kTab, 6) // stat works
	c.KeyDown(kC, 7)   // chat works
	if !ui.open[ModeStat] || !ui.open[ModeChat] {
		t.Fatalf("modes %v", ui.open)
	}
}

func TestChatSwallowsGameKeysButUpStillSent(t *testing.T) {
	c, ui, _ := newTestController(t)
	c.KeyDown(kW, 1)
	c.KeyDown(kC, 2) // opens chat
	if !ui.open[ModeChat] {
		t.Fatal("chat not open")
	}
	c.KeyDown(kJ, 3) // text, not fire
	c.KeyUp(kJ, 4)
	c.KeyUp(kW, 5) // up of a key pressed before the chat opened
	eq(t, c.Drain(), `[5,"1:down:forward"]`, `[5,"2:up:forward"]`)
	c.KeyDown(kTab, 6) // stat opens from the chat
	c.KeyDown(kEnter, 7)
	if ui.open[ModeChat] || !ui.open[ModeStat] {
		t.Fatalf("modes %v", ui.open)
	}
	want := "open:chat open:stat chatCmd:1"
	if strings.Join(ui.calls, " ") != want {
		t.Fatalf("calls %v, want %s", ui.calls, want)
	}
	c.KeyUp(kTab, 8)
	if ui.open[ModeStat] {
		t.Fatal("stat stays open after Tab up")
	}
}

func TestModeKeysHavePriorityOverGameSet(t *testing.T) {
	cfg := captureConfig(t)
	cfg.KeySets[1][kC] = "fire" // a game binding an engine code
	ui := newFakeUI()
	c := NewController(cfg, ui, nil, nil)
	c.SetEnabled(true, 0)
	c.SetKeySet(1, 0)
	c.KeyDown(kC, 1)
	eq(t, c.Drain())
	if !ui.open[ModeChat] {
		t.Fatal("chat did not open")
	}
}

func TestVoteKeysAndGameKeysTogether(t *testing.T) {
	c, ui, _ := newTestController(t)
	ui.set(c, ModeVote, true)
	c.KeyDown(49, 1) // digit 1 goes to the vote
	c.KeyDown(kW, 2) // game keys still work with the vote open
	eq(t, c.Drain(), `[5,"1:down:forward"]`)
	if ui.calls[0] != "vote:49" {
		t.Fatalf("calls %v", ui.calls)
	}
}

func TestKeySetChangeResendsHeldKeys(t *testing.T) {
	c, _, _ := newTestController(t)
	c.KeyDown(kW, 1)
	c.KeyDown(kN, 2) // unbound for players
	c.SetKeySet(0, 3)
	// forward is not in set 0; N (nextPlayer) is held: fresh down, no up for forward.
	eq(t, c.Drain(), `[5,"1:down:forward"]`, `[5,"2:down:nextPlayer"]`)
	c.KeyUp(kW, 4) // no longer marked: nothing
	c.KeyUp(kN, 5)
	eq(t, c.Drain(), `[5,"3:up:nextPlayer"]`)
}

func TestKeySetChangeWhileChatOpenSendsNothing(t *testing.T) {
	c, ui, _ := newTestController(t)
	c.KeyDown(kW, 1)
	ui.set(c, ModeChat, true)
	c.SetKeySet(1, 2)
	c.KeyUp(kW, 3)
	eq(t, c.Drain(), `[5,"1:down:forward"]`)
}

func TestFocusLossReleasesHeldKeys(t *testing.T) {
	c, _, _ := newTestController(t)
	c.KeyDown(kW, 1)
	c.KeyDown(kS, 2)
	c.FocusLost(3)
	eq(t, c.Drain(), `[5,"1:down:forward"]`, `[5,"2:down:back"]`, `[5,"3:up:back"]`, `[5,"4:up:forward"]`)
	c.SetKeySet(1, 4) // nothing is held any more
	eq(t, c.Drain())
}

func TestSeqWrapsAndResets(t *testing.T) {
	c, _, _ := newTestController(t)
	c.queued.seq = 1<<32 - 1 // the one counter: the sender's
	c.KeyDown(kW, 1)
	c.KeyUp(kW, 2)
	eq(t, c.Drain(), `[5,"0:down:forward"]`, `[5,"1:up:forward"]`)
	c.ResetConnection()
	c.SetEnabled(true, 2)
	c.SetKeySet(1, 2)
	c.Drain()
	c.KeyDown(kS, 3)
	eq(t, c.Drain(), `[5,"1:down:back"]`)
}

func pointerController(t *testing.T, keySets []int) (*Controller, *fakeUI, *fakePred) {
	cfg := captureConfig(t)
	cfg.Pointer = &PointerConfig{KeySets: keySets, DoubleTapMs: 300, DoubleTapPx: 40, SendIntervalMs: 50}
	ui := newFakeUI()
	pred := &fakePred{}
	// A camera at (100, 50) with scale 2: world = (screen - (0, 0)) / 2 + offset.
	toWorld := func(x, y float64) (float64, float64, bool) {
		if x < 0 {
			return 0, 0, false
		}
		return x/2 - 100, y/2 - 50.125, true
	}
	c := NewController(cfg, ui, pred, toWorld)
	c.SetEnabled(true, 0)
	c.SetKeySet(1, 0)
	c.Drain()
	return c, ui, pred
}

func TestPointerPressMoveThrottleRelease(t *testing.T) {
	c, _, pred := pointerController(t, []int{1})
	c.Pointer(PointerMove, 10, 10, 1000) // not pressed: ignored
	c.Pointer(PointerPress, 200, 100, 1000)
	c.Pointer(PointerMove, 210, 100, 1020) // < 50 ms: dropped
	c.Pointer(PointerMove, 220, 101, 1050) // sent
	c.Pointer(PointerRelease, 230, 102, 1060)
	// y: 100/2-50.125 = -0.125 rounds half up to -0.12 (JS Math.round).
	eq(t, c.Drain(), `[5,"1:aim:0:-0.12:1"]`, `[5,"2:aim:10:0.38:1"]`, `[5,"3:aim:15:0.88:0"]`)
	if pred.got[0] != "1:aim:0:-0.12:1" {
		t.Fatalf("predictor %v", pred.got)
	}
}

func TestPointerDoubleTap(t *testing.T) {
	c, _, _ := pointerController(t, nil)
	c.Pointer(PointerPress, 200, 200, 1000)
	c.Pointer(PointerRelease, 200, 200, 1100)
	c.Pointer(PointerPress, 220, 220, 1250) // within 300 ms and 40 px
	c.Pointer(PointerMove, 230, 220, 1400)
	c.Pointer(PointerRelease, 230, 220, 1500)
	c.Pointer(PointerPress, 300, 300, 1600) // too far
	eq(t, c.Drain(), `[5,"1:aim:0:49.88:1"]`, `[5,"2:aim:0:49.88:0"]`, `[5,"3:aim:10:59.88:3"]`,
		`[5,"4:aim:15:59.88:3"]`, `[5,"5:aim:15:59.88:0"]`, `[5,"6:aim:50:99.88:1"]`)
}

func TestPointerGating(t *testing.T) {
	c, ui, _ := pointerController(t, []int{1})
	c.Pointer(PointerPress, 200, 200, 1000)
	c.KeyDown(kC, 1010) // chat opens: release at the press point
	c.Pointer(PointerPress, 300, 300, 1100)
	eq(t, c.Drain(), `[5,"1:aim:0:49.88:1"]`, `[5,"2:aim:0:49.88:0"]`)
	ui.set(c, ModeChat, false)

	c.Pointer(PointerPress, 200, 200, 2000)
	ui.set(c, ModeVote, true) // opened by the host
	c.Tick(2010)
	ui.set(c, ModeVote, false)
	c.Pointer(PointerPress, 200, 200, 3000)
	c.SetKeySet(0, 3010) // set 0 is not live: released, then presses ignored
	c.Pointer(PointerPress, 200, 200, 3100)
	eq(t, c.Drain(), `[5,"3:aim:0:49.88:1"]`, `[5,"4:aim:0:49.88:0"]`, `[5,"5:aim:0:49.88:1"]`, `[5,"6:aim:0:49.88:0"]`)

	c.SetKeySet(1, 4000)
	c.Pointer(PointerPress, 200, 200, 4000)
	c.SetEnabled(false, 4010)
	c.Pointer(PointerPress, -5, 200, 4100) // disabled anyway
	eq(t, c.Drain(), `[5,"7:aim:0:49.88:1"]`, `[5,"8:aim:0:49.88:0"]`)
	c.SetEnabled(true, 5000)
	c.Pointer(PointerPress, -5, 5, 5000) // no world point: dropped, no seq
	c.Pointer(PointerPress, 0, 0, 5001)  // second press within 300 ms and 40 px: double
	eq(t, c.Drain(), `[5,"9:aim:-100:-50.12:3"]`)
}

func TestNoPointerChannelNoTraffic(t *testing.T) {
	c, _, _ := newTestController(t)
	c.Pointer(PointerPress, 1, 1, 1)
	c.Pointer(PointerRelease, 1, 1, 2)
	eq(t, c.Drain())
}

// The core is the predictor the wiring passes.
var _ Predictor = (*clientcore.Core)(nil)

func TestRoundJS2(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{1.005, 1}, // 100.49999…: binary representation below the half
		{-0.125, -0.12}, {0.125, 0.13}, {-0.001, 0}, {12.5, 12.5}, {-3, -3},
	} {
		if got := RoundJS2(tc.in); got != tc.want {
			t.Errorf("RoundJS2(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if s := string(protocol.AimMsg(1, RoundJS2(-0.0001), 0, 0)); s != `[5,"1:aim:0:0:0"]` {
		t.Fatalf("negative zero printed: %s", s)
	}
}

func TestConfigDefaultsAndBadEntries(t *testing.T) {
	cfg, problems := ConfigFrom(&protocol.Config{
		KeySets: []map[string]string{{"x": "bad", "78": "nextPlayer"}},
		Pointer: json.RawMessage(`{"keySets":[1]}`),
	})
	if len(problems) != 1 || cfg.KeySets[0][78] != "nextPlayer" || cfg.Modes[67] != ModeChat || cfg.Cmds[27] != CmdEscape {
		t.Fatalf("cfg %+v problems %v", cfg, problems)
	}
	if p := cfg.Pointer; p == nil || p.DoubleTapMs != 300 || p.DoubleTapPx != 40 || p.SendIntervalMs != 50 || p.KeySets[0] != 1 {
		t.Fatalf("pointer %+v", cfg.Pointer)
	}
}

// A mode set to "" switches the engine's mode of that key off, without a
// problem reported; a mode name that is no mode is still reported.
func TestConfigModeSwitchedOff(t *testing.T) {
	cfg, problems := ConfigFrom(&protocol.Config{Modes: map[string]string{"9": "stat", "67": "chat", "77": "", "80": "dance"}})
	if _, ok := cfg.Modes[77]; ok || cfg.Modes[9] != ModeStat || cfg.Modes[67] != ModeChat {
		t.Fatalf("modes %v", cfg.Modes)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "dance") {
		t.Fatalf("problems %v, want the one for 80", problems)
	}
}

type fakeSender struct {
	seq  uint32
	sent []string
	fail bool
}

func (s *fakeSender) Key(a protocol.KeyAction, name string) (uint32, error) {
	s.seq++
	if s.fail {
		return s.seq, fmt.Errorf("not in game")
	}
	s.sent = append(s.sent, string(protocol.KeyMsg(s.seq, a, name)))
	return s.seq, nil
}

func (s *fakeSender) Aim(x, y float64, flags uint8) (uint32, error) {
	s.seq++
	s.sent = append(s.sent, string(protocol.AimMsg(s.seq, x, y, flags)))
	return s.seq, nil
}

// With a sender (the session) the sender's seq numbers the messages and the
// predictor gets that same seq.
func TestSenderSeqIsTheOneCounter(t *testing.T) {
	var _ Sender = (*session.Session)(nil)
	c, _, pred := pointerController(t, nil)
	snd := &fakeSender{seq: 40}
	c.SetSender(snd)
	c.KeyDown(kW, 1)
	c.Pointer(PointerPress, 200, 200, 2)
	c.KeyUp(kW, 3)
	eq(t, c.Drain())
	want := []string{`[5,"41:down:forward"]`, `[5,"42:aim:0:49.88:1"]`, `[5,"43:up:forward"]`}
	if strings.Join(snd.sent, " ") != strings.Join(want, " ") || strings.Join(pred.got, " ") != "41:down:forward 42:aim:0:49.88:1 43:up:forward" {
		t.Fatalf("sent %v predicted %v", snd.sent, pred.got)
	}
	if c.Seq() != 43 {
		t.Fatalf("seq %d", c.Seq())
	}
	snd.fail = true
	c.KeyDown(kS, 4)
	if c.SendErrs != 1 || len(pred.got) != 3 {
		t.Fatalf("refused send predicted: %v", pred.got)
	}
}

// A key held while input was off (a screen, or a lost connection whose
// seat came back: the host released its keys and sent the key set while
// input was off) is pressed when input comes back; a key still marked
// pressed is not sent twice.
func TestEnablingPressesKeysHeldMeanwhile(t *testing.T) {
	c, _, _ := newTestController(t)
	c.KeyDown(kW, 1)
	eq(t, c.Drain(), `[5,"1:down:forward"]`)
	c.SetEnabled(false, 2) // the connection is lost
	c.SetKeySet(1, 3)      // the resumed seat's key set: marks forgotten, nothing sent while off
	eq(t, c.Drain())
	c.SetEnabled(true, 4) // the host's screen hides
	eq(t, c.Drain(), `[5,"2:down:forward"]`)
	c.SetEnabled(true, 5) // already on: nothing again
	eq(t, c.Drain())
	c.SetEnabled(false, 6) // a screen over a held, marked key: no second down after it
	c.SetEnabled(true, 7)
	eq(t, c.Drain())
	c.KeyUp(kW, 8)
	eq(t, c.Drain(), `[5,"3:up:forward"]`)
}

// textRec records the command-line edits a frame makes.
type textRec struct{ got []string }

func (r *textRec) ChatText(rs []rune) { r.got = append(r.got, "text:"+string(rs)) }
func (r *textRec) ChatBackspace(word bool) {
	r.got = append(r.got, fmt.Sprintf("backspace word=%v", word))
}
func (r *textRec) ChatClear() { r.got = append(r.got, "clear") }

// With Ctrl held, Backspace deletes a word and A clears the open command
// line; without it A is typed.
func TestFrameCtrlEditsTheCommandLine(t *testing.T) {
	c, ui, _ := newTestController(t)
	ui.open[ModeChat] = true
	rec := &textRec{}
	c.Frame(&Frame{Backspace: true, Ctrl: true}, ui.modes(), rec, 0)
	c.Frame(&Frame{Pressed: []int{65}, Ctrl: true}, ui.modes(), rec, 16)
	c.Frame(&Frame{Pressed: []int{65}, Chars: []rune("a"), Backspace: true}, ui.modes(), rec, 32)
	want := []string{"backspace word=true", "clear", "text:a", "backspace word=false"}
	if !slices.Equal(rec.got, want) {
		t.Fatalf("edits %q, want %q", rec.got, want)
	}
}
