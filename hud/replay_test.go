package hud

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

// memStore is an in-memory Store.
type memStore struct {
	data  map[string]map[string]string
	saves int
}

func (m *memStore) Load(host, game string) map[string]string {
	out := map[string]string{}
	for k, v := range m.data[host+"|"+game] {
		out[k] = v
	}
	return out
}

func (m *memStore) Save(host, game string, values map[string]string) error {
	if m.data == nil {
		m.data = map[string]map[string]string{}
	}
	k := host + "|" + game
	if m.data[k] == nil {
		m.data[k] = map[string]string{}
	}
	for n, v := range values {
		m.data[k][n] = v
	}
	m.saves++
	return nil
}

// replayResult is what a replay observed.
type replayResult struct {
	h        *HUD
	store    *memStore
	produced int // client messages the overlays reproduced
	skipped  []string
}

// replay feeds one connection of a capture into a HUD and, for each message
// the recorded client sent on the auth, chat and vote ports, drives the
// overlays the way a player would and checks they produce that message.
// stop, when not nil, is called after every server message and ends the
// replay when it returns true.
func replay(t *testing.T, file, conn string, stop func(h *HUD, l capturetest.Line) bool) replayResult {
	t.Helper()
	lines := capturetest.Load(t, file)
	store := &memStore{}
	h := New("127.0.0.1:8090", "minigame", store)
	res := replayResult{h: h, store: store}
	pressDigit := func(d int, now float64) { h.VoteKey(48+d, now) }
	for _, l := range lines {
		if l.Conn != conn {
			continue
		}
		now := l.Ms
		h.Update(now)
		switch l.Dir {
		case "s2c":
			if l.Port == protocol.Ping || l.Port == protocol.ShotData {
				continue
			}
			v, err := protocol.DecodePayload(l.Port, l.Payload)
			if err != nil {
				t.Fatalf("%s %s port %d at %.0f: %v", file, conn, l.Port, l.Ms, err)
			}
			h.Handle(v, now)
			if stop != nil && stop(h, l) {
				return res
			}
		case "c2s":
			var got []Out
			switch l.Port {
			case protocol.AuthResponse:
				var want map[string]string
				if err := json.Unmarshal(l.Payload, &want); err != nil {
					t.Fatal(err)
				}
				if h.Auth == nil {
					t.Fatalf("auth answer without a form")
				}
				h.Auth.FocusField(0)
				h.Auth.Type([]rune(want["name"]))
				h.SubmitAuth()
				got = h.Outgoing()
				if len(got) != 1 {
					t.Fatalf("auth: %d messages", len(got))
				}
				var env []json.RawMessage
				var sent map[string]string
				if json.Unmarshal(got[0].Msg, &env) != nil || json.Unmarshal(env[1], &sent) != nil || !reflect.DeepEqual(sent, want) {
					t.Fatalf("auth sent %s, recorded %s", got[0].Msg, l.Payload)
				}
				if !reflect.DeepEqual(got[0].Values, want) {
					t.Fatalf("auth values %v", got[0].Values)
				}
				res.produced++
				continue
			case protocol.ChatSend:
				var text string
				if err := json.Unmarshal(l.Payload, &text); err != nil {
					t.Fatal(err)
				}
				h.OpenMode(input.ModeChat, now)
				h.ChatText([]rune(text))
				h.ChatCommand(input.CmdEnter, now)
				got = h.Outgoing()
			case protocol.VoteSend:
				if protocol.ListRequest(l.Payload) != "" {
					// A request goes out when a vote needs its list: either
					// already queued by an incoming vote, or from the M menu.
					got = h.Outgoing()
					if len(got) == 0 {
						h.OpenMode(input.ModeVote, now)
						pick := 1
						if strings.Contains(string(l.Payload), "maps") {
							pick = 2
						}
						pressDigit(pick, now)
						got = h.Outgoing()
					}
					break
				}
				var ans []string
				if err := json.Unmarshal(l.Payload, &ans); err != nil || len(ans) != 2 {
					t.Fatalf("vote answer %s", l.Payload)
				}
				w := h.Vote.Cur
				if w == nil || w.Name != ans[0] {
					// The stock UI cannot send this one (a map the host never listed).
					res.skipped = append(res.skipped, string(l.Payload))
					continue
				}
				idx := -1
				for i, o := range w.PageOptions() {
					if o == ans[1] {
						idx = i
					}
				}
				if idx < 0 && len(w.Options) == 0 {
					// An empty list (one-map catalogue): nothing to pick.
					res.skipped = append(res.skipped, string(l.Payload))
					h.VoteKey(48, now)
					continue
				}
				if idx < 0 {
					t.Fatalf("option %q not on the page %v", ans[1], w.PageOptions())
				}
				pressDigit(idx+1, now)
				got = h.Outgoing()
			default:
				continue
			}
			want := `[` + itoa(l.Port) + `,` + string(l.Payload) + `]`
			if len(got) != 1 || compact(string(got[0].Msg)) != compact(want) {
				t.Fatalf("%s %s at %.0f: produced %+v, recorded %s", file, conn, l.Ms, got, want)
			}
			res.produced++
		}
	}
	return res
}

func itoa(n int) string { return strconv.Itoa(n) }

func compact(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func chatTexts(c *Chat) []string {
	var out []string
	for _, l := range c.History() {
		out = append(out, l.Name+": "+l.Text)
	}
	return out
}

func TestReplayDedicated(t *testing.T) {
	r := replay(t, "minigame-dedicated.jsonl", "A", nil)
	t.Logf("reproduced %d client messages, skipped %v", r.produced, r.skipped)
	if r.produced < 8 {
		t.Fatalf("only %d client messages reproduced", r.produced)
	}
	want := []string{
		"System: Recorder joined the game",
		"System: Your new team: team1",
		"Recorder: hello from the recorder",
		"System: 2 scripted participant(s) spawned",
		"System: Command not found",
		"System: Recorder joined the game",
		"System: Your new team: team1",
	}
	got := chatTexts(r.h.Chat)
	if len(got) < len(want) || !reflect.DeepEqual(got[:len(want)], want) {
		t.Fatalf("chat history\n%q\nwant prefix\n%q", got, want)
	}
	if r.store.data["127.0.0.1:8090|minigame"]["playerName"] != "Recorder" || r.store.data["127.0.0.1:8090|minigame"]["model"] != "m1" {
		t.Fatalf("remembered %v", r.store.data)
	}
}

func TestReplayTwoClients(t *testing.T) {
	for _, conn := range []string{"A", "B"} {
		r := replay(t, "minigame-two-clients.jsonl", conn, nil)
		t.Logf("%s: reproduced %d client messages, skipped %v", conn, r.produced, r.skipped)
		if r.produced < 5 {
			t.Fatalf("%s: only %d reproduced", conn, r.produced)
		}
	}
}
