package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"vimpclient/gameloop"
	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

func sharedPath(t testing.TB, parts ...string) string {
	return filepath.Join(append([]string{capturetest.SharedDir(t)}, parts...)...)
}

func decodeSummary(t *testing.T, out []byte) gameloop.Summary {
	t.Helper()
	var s gameloop.Summary
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	return s
}

// Replaying each capture through the CLI reaches play, answers every PING,
// and counts the fixture's JSON frames as dropped, saying why once.
func TestReplayCommandOnCaptures(t *testing.T) {
	for _, tc := range []struct {
		file, conn, nick string
		pings            int
	}{
		{"minigame-dedicated.jsonl", "A", "Recorder", 8},
		{"minigame-two-clients.jsonl", "B", "Bob", 7},
	} {
		path := sharedPath(t, "captures", tc.file)
		if _, err := os.Stat(path); err != nil {
			t.Skipf("no captures: %v", err)
		}
		var out, errb bytes.Buffer
		code := run([]string{"replay", "-headless", "-summary", "-conn", tc.conn, "-nick", tc.nick, "-team", "team1", path}, &out, &errb)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.file, code, errb.String())
		}
		s := decodeSummary(t, out.Bytes())
		if s.State != "playing" || !s.Player || s.Pings != tc.pings || s.Ports["10"] != tc.pings {
			t.Errorf("%s: %+v", tc.file, s)
		}
		if s.Frames.Received == 0 || s.Frames.Decoded != 0 || s.Frames.Dropped != uint64(s.Frames.Received) || s.Ports["5"] != s.Frames.Received {
			t.Errorf("%s frames: %+v", tc.file, s.Frames)
		}
		// The fixture's frames are JSON text: said once, and counted.
		if s.CloseCode == nil || *s.CloseCode != 1000 || len(s.Errors) != 1 || !strings.Contains(s.Errors[0], "cannot be decoded") {
			t.Errorf("%s close %v errors %v", tc.file, s.CloseCode, s.Errors)
		}
		if s.Undecodable == nil || s.Undecodable.Frames != uint64(s.Frames.Received) || !strings.Contains(s.Undecodable.Reason, "JSON text") {
			t.Errorf("%s undecodable %+v", tc.file, s.Undecodable)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-headless", "http://a", "http://b"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "one address") {
		t.Errorf("two addresses: %d %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"-set", "novalue", "http://x"}, &out, &errb); code != 2 {
		t.Errorf("bad -set: %d", code)
	}
}

// goldenEntities counts, per snapshot key, the distinct non-null ids of the
// conformance frames, from the decoder JSON the upstream engine produced.
func goldenEntities(t *testing.T, cases []struct {
	Bin  string `json:"bin"`
	Text string `json:"decodedJsonText"`
}) map[string]int {
	sets := map[string]map[string]bool{}
	for _, c := range cases {
		var d struct {
			Snapshot map[string]json.RawMessage `json:"snapshot"`
		}
		if err := json.Unmarshal([]byte(c.Text), &d); err != nil {
			t.Fatal(err)
		}
		for key, raw := range d.Snapshot {
			var rows map[string]json.RawMessage
			if json.Unmarshal(raw, &rows) != nil {
				continue // a list: rows without ids
			}
			for id, row := range rows {
				if string(row) == "null" {
					continue
				}
				if sets[key] == nil {
					sets[key] = map[string]bool{}
				}
				sets[key][id] = true
			}
		}
	}
	out := map[string]int{}
	for k, s := range sets {
		out[k] = len(s)
	}
	return out
}

// A headless run against an in-process host that sends real v5 frames (the
// conformance set) and one JSON frame: the summary counts decoded and
// dropped frames and the distinct entity ids per key.
func TestHeadlessSummaryWithRealFrames(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	schemaRaw, err := os.ReadFile(sharedPath(t, "conformance", "schemas", "tanks.json"))
	if err != nil {
		t.Skipf("no conformance data: %v", err)
	}
	var schema struct {
		Keys json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(schemaRaw, &schema); err != nil {
		t.Fatal(err)
	}
	idx, err := os.ReadFile(sharedPath(t, "conformance", "frames", "tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		Cases []struct {
			Bin  string `json:"bin"`
			Text string `json:"decodedJsonText"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(idx, &set); err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	for _, c := range set.Cases {
		b, err := os.ReadFile(sharedPath(t, "conformance", c.Bin))
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, b)
	}
	want := goldenEntities(t, set.Cases)

	mux := http.NewServeMux()
	mux.HandleFunc("/config", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"mode":"dedicated","gameId":"tanks","wsPath":"/game"}`))
	})
	mux.HandleFunc("/game", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		if r.Header.Get("Origin") != "http://"+r.Host {
			_ = c.Close(protocol.CloseInvalidOrigin, "invalidOrigin")
			return
		}
		ctx := r.Context()
		send := func(port int, payload string) {
			_ = c.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf("[%d,%s]", port, payload)))
		}
		read := func() string { _, b, _ := c.Read(ctx); return string(b) }
		send(0, `{"interpolation":{"delay":100,"maxFrameAge":1000},"snapshot":`+string(schema.Keys)+`}`)
		read()
		send(1, `{"params":[{"name":"name","value":"","options":{"storage":"playerName","required":true}}]}`)
		read()
		send(2, "null")
		read()
		send(3, `{"setId":"c1"}`)
		read()
		send(4, `[{},0,1,0]`)
		read()
		send(8, "null")
		send(17, "1")
		send(10, "1")
		for _, f := range frames {
			_ = c.Write(ctx, websocket.MessageBinary, f)
		}
		_ = c.Write(ctx, websocket.MessageBinary, []byte(`{"serverTime":1,"seq":1,"body":[]}`))
		if got := read(); got != "[8,1]" {
			t.Errorf("pong %q", got)
		}
		_ = c.Close(protocol.CloseRoomFull, "")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	var out, errb bytes.Buffer
	code := run([]string{"-headless", "-for", "20s", "-summary", "-nick", "Tester", srv.URL}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := decodeSummary(t, out.Bytes())
	if s.State != "playing" || !s.Player || s.Pings != 1 || s.CloseCode == nil || *s.CloseCode != protocol.CloseRoomFull {
		t.Errorf("summary %+v", s)
	}
	if s.Frames.Received != len(frames)+1 || s.Frames.Decoded != uint64(len(frames)) || s.Frames.Dropped != 1 {
		t.Errorf("frames %+v, want %d decoded and 1 dropped", s.Frames, len(frames))
	}
	if fmt.Sprint(s.Entities) != fmt.Sprint(want) {
		t.Errorf("entities %v, want %v", s.Entities, want)
	}
	if !strings.Contains(errb.String(), "Room full") && !strings.Contains(errb.String(), "room is full") {
		t.Errorf("closing note %q", errb.String())
	}
}

// The headless run exits non-zero when play is never reached; without -nick
// it answers with a guest nick.
func TestHeadlessFailsWhenAuthRejected(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	mux := http.NewServeMux()
	mux.HandleFunc("/config", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"mode":"dedicated","gameId":"g"}`))
	})
	mux.HandleFunc("/game", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		_ = c.Write(ctx, websocket.MessageText, []byte(`[0,{}]`))
		_, _, _ = c.Read(ctx)
		_ = c.Write(ctx, websocket.MessageText, []byte(`[1,{"params":[{"name":"name","value":"","options":{"required":true}}]}]`))
		_, b, _ := c.Read(ctx)
		if !strings.HasPrefix(string(b), `[1,{"name":"Guest`) {
			t.Errorf("auth answer %s", b)
		}
		_ = c.Write(ctx, websocket.MessageText, []byte(`[2,[{"name":"name","error":"not valid"}]]`))
		_, _, _ = c.Read(ctx) // the client gives up and closes
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var out, errb bytes.Buffer
	code := run([]string{"-headless", "-for", "20s", "-summary", srv.URL}, &out, &errb)
	s := decodeSummary(t, out.Bytes())
	if code == 0 || s.State != "auth" || len(s.Errors) == 0 || !strings.Contains(errb.String(), "auth rejected") {
		t.Errorf("exit %d, summary %+v, stderr %q", code, s, errb.String())
	}
}

// A plain web server is neither a host nor a master: the headless run says
// so at once and exits 1, with the reason in the summary.
func TestHeadlessRefusesNonVimpServer(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	srv := httptest.NewServer(http.FileServer(http.Dir(t.TempDir())))
	defer srv.Close()
	var out, errb bytes.Buffer
	code := run([]string{"-headless", "-for", "5s", "-summary", srv.URL}, &out, &errb)
	s := decodeSummary(t, out.Bytes())
	want := srv.URL + ": not a vimp host or lobby master (GET /config: 404 text/plain)"
	if code != 1 || !strings.Contains(errb.String(), want) || len(s.Errors) != 1 || !strings.Contains(s.Errors[0], want) {
		t.Errorf("exit %d, summary errors %q, stderr %q; want %q", code, s.Errors, errb.String(), want)
	}
}

// A recording made with -nick replays headless with no -nick: the recorded
// auth answer is given again.
func TestReplayOfNickRecordingNeedsNoNick(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	rec := filepath.Join(t.TempDir(), "match.jsonl")
	var out, errb bytes.Buffer
	if code := run([]string{"-headless", "-for", "2s", "-bots", "1", "-nick", "Alice", "-record", rec}, &out, &errb); code != 0 {
		t.Fatalf("recording run: exit %d, %s", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	code := run([]string{"replay", "-headless", "-summary", rec}, &out, &errb)
	s := decodeSummary(t, out.Bytes())
	if code != 0 || s.State != "playing" || strings.Contains(errb.String(), "needs a value") {
		t.Errorf("replay: exit %d, state %q, stderr %q", code, s.State, errb.String())
	}
}

// -h (of the program and of a subcommand) is asked for, not an error: it
// exits 0 and lists every subcommand.
func TestHelpExitsZero(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-h"}, &out, &errb); code != 0 {
		t.Fatalf("-h: exit %d", code)
	}
	for _, c := range []string{"servers", "login", "serve", "replay", "frames", "open", "install-desktop", "-version"} {
		if !strings.Contains(errb.String(), "vimpclient "+c) {
			t.Errorf("-h does not list %q:\n%s", c, errb.String())
		}
	}
	for _, sub := range []string{"servers", "replay", "serve", "frames", "login", "open"} {
		if code := run([]string{sub, "-h"}, &out, &errb); code != 0 {
			t.Errorf("%s -h: exit %d", sub, code)
		}
	}
	errb.Reset()
	if code := run([]string{"demo", "-headless", filepath.Join(t.TempDir(), "missing.jsonl")}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "replay") {
		t.Errorf("demo FILE is not replay: exit %d, %q", code, errb.String())
	}
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
