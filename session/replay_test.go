package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

func loadCapture(t *testing.T, name string) []RecordedLine {
	t.Helper()
	f, err := os.Open(filepath.Join(capturetest.SharedDir(t), "captures", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := ReadRecording(f, DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	return rec.Lines
}

// compared keeps what the issue compares: handshake answers (ports 0-4),
// PONGs (8) and the team-vote exchange ("teams" and the teamChange answer to
// a playing team). Each is reduced to compact JSON.
func compared(port int, payload json.RawMessage, team string) (string, bool) {
	switch {
	case port <= protocol.FirstShotReady || port == protocol.Pong:
	case port == protocol.VoteSend:
		var s string
		var pair []string
		if json.Unmarshal(payload, &s) == nil && s == "teams" {
			break
		}
		if json.Unmarshal(payload, &pair) == nil && len(pair) == 2 && pair[0] == "teamChange" && pair[1] == team {
			break
		}
		return "", false
	default:
		return "", false
	}
	var v any
	if err := json.Unmarshal(payload, &v); err != nil {
		return "", false
	}
	b, _ := json.Marshal([]any{port, v})
	return string(b), true
}

func recordedReplies(lines []RecordedLine, conn, team string) []string {
	var out []string
	for _, l := range lines {
		if l.Conn == conn && l.Dir == "c2s" && l.Kind == "json" {
			if s, ok := compared(l.Port, l.Payload, team); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func sentReplies(t *testing.T, sent [][]byte, team string) []string {
	var out []string
	for _, m := range sent {
		env, err := protocol.ParseEnvelope(m)
		if err != nil {
			t.Fatalf("client sent a malformed message %q: %v", m, err)
		}
		if s, ok := compared(env.Port, env.Payload, team); ok {
			out = append(out, s)
		}
	}
	return out
}

// Replaying each capture through the session reproduces the recorded
// client's replies in order.
func TestReplayReproducesRecordedReplies(t *testing.T) {
	for _, tc := range []struct {
		file, conn, nick string
		frames           int
	}{
		{"minigame-dedicated.jsonl", "A", "Recorder", 0},
		{"minigame-two-clients.jsonl", "A", "Alice", 0},
		{"minigame-two-clients.jsonl", "B", "Bob", 0},
	} {
		t.Run(tc.file+"/"+tc.conn, func(t *testing.T) {
			lines := loadCapture(t, tc.file)
			rp, err := NewReplay(lines, tc.conn)
			if err != nil {
				t.Fatal(err)
			}
			s := New(Options{Auth: AuthValues{Nick: tc.nick}, AutoTeam: true, Team: "team1", Now: rp.Now})
			info := s.Run(context.Background(), rp, Target{Host: "127.0.0.1:8090", GameID: "miniGame"})
			if info.Code != 1000 || !info.Reconnect {
				t.Errorf("close = %+v", info)
			}
			want := recordedReplies(lines, tc.conn, "team1")
			got := sentReplies(t, rp.Sent(), "team1")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("replies differ\n got %q\nwant %q", got, want)
			}
			st := s.Stats()
			if st.Furthest != StatePlaying || !st.Player || st.Malformed != 0 || st.Unknown != 0 {
				t.Errorf("stats = %+v", st)
			}
			var binaries int
			for _, l := range lines {
				if l.Conn == tc.conn && l.Dir == "s2c" && l.Kind == "binary" {
					binaries++
				}
			}
			if st.Frames != binaries || st.Ports[protocol.ShotData] != binaries {
				t.Errorf("frames %d (port 5: %d), capture has %d", st.Frames, st.Ports[protocol.ShotData], binaries)
			}
		})
	}
}

// Under -team with a team the host never offers, the vote is not answered.
func TestReplayRefusesUnofferedTeam(t *testing.T) {
	lines := loadCapture(t, "minigame-dedicated.jsonl")
	rp, err := NewReplay(lines, "A")
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Auth: AuthValues{Nick: "Recorder"}, AutoTeam: true, Team: "team9", Now: rp.Now})
	s.Run(context.Background(), rp, Target{Host: "127.0.0.1:8090"})
	for _, m := range rp.Sent() {
		env, _ := protocol.ParseEnvelope(m)
		if env.Port == protocol.VoteSend && string(env.Payload) != `"teams"` {
			t.Errorf("sent vote answer %s", m)
		}
	}
	if errs := s.Stats().Errors; len(errs) == 0 {
		t.Error("no error reported for the refused team")
	}
	// The game loop is told, once, with the teams the host offers.
	var refused []string
	for _, ev := range s.Queue().Drain(nil) {
		if ev.Kind == EventRefused {
			refused = append(refused, ev.Err.Error())
		}
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "team9 is not offered (offered: team1") {
		t.Errorf("refusals %q", refused)
	}
}

// Every connection of the error-probe capture, replayed through the session,
// ends with the recorded close code, the policy's reconnect decision, and
// for kicks the reason from the TECH_INFORM that preceded the close.
func TestReplayErrorProbesClosePolicy(t *testing.T) {
	lines := loadCapture(t, "minigame-error-probes.jsonl")
	closes := map[string]RecordedLine{}
	var order []string
	for _, l := range lines {
		if l.Dir == "event" && l.Kind == "close" && l.Conn != "" {
			if _, dup := closes[l.Conn]; !dup {
				order = append(order, l.Conn)
			}
			closes[l.Conn] = l
		}
	}
	reasons := map[int]string{
		protocol.CloseKickIdle:        "Kicked for inactivity.",
		protocol.CloseKickMaxLatency:  "Connection terminated due to high network latency.",
		protocol.CloseKickMissedPings: "Connection terminated due to missed network pings.",
		protocol.CloseRoomFull:        "Room is full! Max players: 1. Try again later.",
	}
	codes := map[int]bool{}
	for _, conn := range order {
		want := closes[conn]
		rp, err := NewReplay(lines, conn)
		if err != nil {
			t.Fatalf("%s: %v", conn, err)
		}
		s := New(Options{Auth: AuthValues{Nick: "Probe"}, Now: rp.Now, Queue: NewQueue(1 << 16)})
		info := s.Run(context.Background(), rp, Target{})
		if info.Code != want.Code || info.Reconnect == protocol.ClosePolicyStays(want.Code) {
			t.Errorf("%s: close %+v, recorded %d", conn, info, want.Code)
		}
		if r, ok := reasons[want.Code]; ok && info.Reason != r {
			t.Errorf("%s: reason %q, want %q", conn, info.Reason, r)
		}
		if st := s.Stats(); st.Unknown != 0 {
			t.Errorf("%s: %d unknown-port messages", conn, st.Unknown)
		}
		codes[want.Code] = true
	}
	for _, c := range []int{1006, 1009, 4001, 4003, 4004, 4005, 4006, 4008, 4009} {
		if !codes[c] {
			t.Errorf("no probe closed with %d", c)
		}
	}
}

// A replay at speed 1 keeps the recorded spacing; Now follows the recording.
func TestReplayRealtime(t *testing.T) {
	lines := []RecordedLine{
		{T: 1000, Ms: 0, Conn: "A", Dir: "s2c", Kind: "json", Port: 10, Payload: []byte("1")},
		{T: 1060, Ms: 60, Conn: "A", Dir: "s2c", Kind: "binary", B64: "BQU="},
		{T: 1061, Ms: 61, Conn: "A", Dir: "event", Kind: "close", Code: 4004},
	}
	rp, err := NewReplay(lines, "")
	if err != nil {
		t.Fatal(err)
	}
	rp.Speed = 1
	start := time.Now()
	s := New(Options{Now: rp.Now})
	info := s.Run(context.Background(), rp, Target{})
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("replay took %v, recording spans 61 ms", d)
	}
	if info.Code != 4004 || !info.Reconnect || rp.Now() != time.UnixMilli(1061) {
		t.Errorf("close %+v now %v", info, rp.Now())
	}
	if sent := rp.Sent(); len(sent) != 1 || string(sent[0]) != "[8,1]" {
		t.Errorf("sent %q", sent)
	}
}

// A recording keeps what keys the game's assets: the connect event names
// the host, the game and its version and the assets base, and a replay
// reads them back for the connection it plays.
func TestRecordedTargetKeysTheAssets(t *testing.T) {
	var buf closingBuffer
	rec := NewRecorder(&buf, "test", nil)
	want := Target{WSURL: "ws://127.0.0.1:5/game", Host: "127.0.0.1:5", GameID: "tanks", GameVersion: "v7", AssetsBase: "http://127.0.0.1:5/games/tanks/"}
	rec.Event("connect", connectFields(want))
	rec.SetConn("B")
	rec.Event("connect", connectFields(Target{WSURL: "ws://x/game", Host: "x"}))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	read, err := ReadRecording(&buf.Buffer, DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	lines := read.Lines
	got, ok := RecordedTarget(lines, "")
	if !ok || got.Host != want.Host || got.GameID != want.GameID || got.GameVersion != want.GameVersion || got.AssetsBase != want.AssetsBase {
		t.Fatalf("recorded target %+v %v, want %+v", got, ok, want)
	}
	if _, ok := RecordedTarget(lines, "B"); ok {
		t.Fatal("a connection to a host without an assets base gave a target")
	}
}
