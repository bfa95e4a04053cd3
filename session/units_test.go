package session

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"vimpclient/protocol"
)

func TestLimiterNeverExceedsHostWindow(t *testing.T) {
	l := newLimiter(SendRate, SendBurst)
	now := time.Unix(1000, 0)
	var sends []time.Time
	for i := 0; i < 1000; i++ {
		now = now.Add(l.take(now))
		sends = append(sends, now)
	}
	if n := maxPerSecond(sends); n > SendRate+SendBurst || n > 300/2 {
		t.Errorf("%d sends in one second", n)
	}
	if got := sends[len(sends)-1].Sub(sends[0]); got < 9*time.Second {
		t.Errorf("1000 sends took only %v", got)
	}
}

func TestQueueOverflowEvictsFramesFirst(t *testing.T) {
	q := NewQueue(8)
	q.Push(Event{Kind: EventMessage, Port: 0})
	for i := 0; i < 20; i++ {
		q.Push(Event{Kind: EventFrame, Data: []byte{byte(i)}})
	}
	for i := 0; i < 10; i++ {
		q.Push(Event{Kind: EventMessage, Port: 3})
	}
	evs := q.Drain(nil)
	if len(evs) != 8 || evs[0].Port != 0 {
		t.Fatalf("queue = %+v", evs)
	}
	for _, e := range evs {
		if e.Kind == EventFrame {
			t.Errorf("frame kept over a message: %+v", e)
		}
	}
	f, e := q.Dropped()
	if f != 20 || e != 3 {
		t.Errorf("dropped frames %d events %d", f, e)
	}
	if len(q.Drain(nil)) != 0 {
		t.Error("drain left events")
	}
}

// A full queue of frames makes room for a quarter of its budget at once,
// oldest frames first, so that a flood costs one pass over the queue every
// so many pushes; the messages among the frames stay.
func TestQueueOverflowEvictsAQuarter(t *testing.T) {
	q := NewQueue(64)
	q.Push(Event{Kind: EventMessage, Port: 3})
	for i := range 63 {
		q.Push(Event{Kind: EventFrame, Port: i})
	}
	q.Push(Event{Kind: EventFrame, Port: 63})
	evs := q.Drain(nil)
	if len(evs) != 49 {
		t.Fatalf("%d events after the overflow, want 48 kept and the new one", len(evs))
	}
	if evs[0].Kind != EventMessage || evs[1].Port != 16 || evs[48].Port != 63 {
		t.Errorf("kept %v port %d … port %d, want the message, then frames 16 to 63", evs[0].Kind, evs[1].Port, evs[48].Port)
	}
	if f, e := q.Dropped(); f != 16 || e != 0 {
		t.Errorf("dropped %d frames, %d events; want 16, 0", f, e)
	}
}

// A stalled game loop and a host sending big messages: the queue stays
// within its byte budget, frames giving way first, then new messages.
func TestQueueBoundedByBytes(t *testing.T) {
	q := NewQueue(4096)
	frame := make([]byte, 1<<20)
	for range 100 {
		q.Push(Event{Kind: EventFrame, Data: frame})
	}
	q.Push(Event{Kind: EventMessage, Port: 3, Size: 3 << 20}) // a big map
	for range 20 {
		q.Push(Event{Kind: EventMessage, Port: 15, Size: 4 << 20})
	}
	if q.bytes > DefaultQueueBytes {
		t.Fatalf("%d bytes queued, budget %d", q.bytes, DefaultQueueBytes)
	}
	evs := q.Drain(nil)
	f, e := q.Dropped()
	if evs[0].Port != 3 || f != 100 || e == 0 {
		t.Fatalf("first %+v, dropped frames %d events %d", evs[0], f, e)
	}
	// A replay sizes its queue to the recording.
	q.SetByteLimit(200 << 20)
	for range 100 {
		q.Push(Event{Kind: EventFrame, Data: frame})
	}
	if n := len(q.Drain(nil)); n != 100 {
		t.Fatalf("%d of 100 frames kept under a 200 MiB budget", n)
	}
}

// DrainUpTo takes the oldest events within its counts, the first whatever
// its size, and leaves the rest in order with their bytes.
func TestQueueDrainUpToKeepsTheRest(t *testing.T) {
	q := NewQueue(64)
	for i := range 10 {
		q.Push(Event{Kind: EventFrame, Data: make([]byte, 1000*(i+1)), Port: i})
	}
	var got []int
	for _, step := range []struct{ events, bytes, want int }{{3, 1 << 20, 3}, {5, 10, 1}, {5, 5000 + 6000 + 2*eventOverhead, 2}, {100, 1 << 20, 4}, {1, 1, 0}} {
		evs := q.DrainUpTo(nil, step.events, step.bytes)
		if len(evs) != step.want {
			t.Fatalf("step %+v: %d events", step, len(evs))
		}
		for _, e := range evs {
			got = append(got, e.Port)
		}
	}
	if fmt.Sprint(got) != "[0 1 2 3 4 5 6 7 8 9]" || q.Len() != 0 || q.bytes != 0 {
		t.Fatalf("order %v, left %d events %d bytes", got, q.Len(), q.bytes)
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{3 * time.Second, 3 * time.Second, 6 * time.Second, 12 * time.Second, 24 * time.Second, 48 * time.Second, 60 * time.Second, 60 * time.Second}
	for i, w := range want {
		if got := Backoff(i); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i, got, w)
		}
	}
}

// Unreachable hosts are retried with growing waits until the context ends.
func TestRunnerBacksOffWhenUnreachable(t *testing.T) {
	s := New(Options{})
	var waits []time.Duration
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{Session: s,
		Resolve: func(context.Context) (Target, error) { return Target{}, errors.New("connection refused") },
		Sleep: func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			if len(waits) == 4 {
				cancel()
				return context.Canceled
			}
			return nil
		}}
	info, err := r.Run(ctx)
	if info != nil || err == nil {
		t.Errorf("info %+v err %v", info, err)
	}
	if len(waits) != 4 || waits[0] != 3*time.Second || waits[3] != 24*time.Second {
		t.Errorf("waits %v", waits)
	}
	// Each wait is announced to the game loop before it starts: when the
	// next attempt starts, its number and why there is no connection.
	var retries []*RetryInfo
	for _, ev := range s.Queue().Drain(nil) {
		if ev.Kind == EventRetry {
			if d := ev.Retry.At.Sub(ev.At); d != ev.Retry.Wait {
				t.Errorf("attempt %d at %v after the event, wait %v", ev.Retry.Attempt, d, ev.Retry.Wait)
			}
			retries = append(retries, ev.Retry)
		}
	}
	if len(retries) != len(waits) {
		t.Fatalf("%d retry events for %d waits", len(retries), len(waits))
	}
	for i, ri := range retries {
		if ri.Attempt != i+1 || ri.Wait != waits[i] || ri.Reason != "connection refused" || ri.Failed != ri.Reason {
			t.Errorf("retry %d: %+v", i, ri)
		}
	}
	for err, want := range map[error]string{
		fmt.Errorf("probe: %w", syscall.ECONNREFUSED):   "the host is not accepting connections",
		&net.DNSError{Name: "nohost.invalid", Err: "x"}: "the host's name is not known (nohost.invalid)",
		errors.New("odd"): "odd",
	} {
		if got := attemptFailure(err); got != want {
			t.Errorf("attemptFailure(%v) = %q", err, got)
		}
	}
}

func TestResolve(t *testing.T) {
	var body, rooms string
	manifest := `[{"id":"tanks","engineApi":3}]`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/config":
			if body == "" {
				http.NotFound(w, r)
				return
			}
			_, _ = w.Write([]byte(body))
		case "/servers":
			if rooms == "" {
				http.NotFound(w, r)
				return
			}
			_, _ = w.Write([]byte(rooms))
		case "/games/manifest.json":
			_, _ = w.Write([]byte(manifest))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	client, _ := HTTPClient("")
	host := srv.Listener.Addr().String()
	lobby := Target{Lobby: true, Master: srv.URL, Origin: "https://" + host, Host: host}
	for _, tc := range []struct {
		body, rooms, addr, origin string
		want                      Target
		err                       bool
	}{
		{`{"mode":"dedicated","gameId":"tanks","gameVersion":"abc","wsPath":"/game"}`, "", srv.URL, "",
			Target{WSURL: "ws://" + host + "/game", Origin: "http://" + host, Host: host, GameID: "tanks", GameVersion: "abc"}, false},
		{`{"mode":"dedicated","gameId":"tanks"}`, "", host, "http://localhost:3002",
			Target{WSURL: "ws://" + host + "/game", Origin: "http://localhost:3002", Host: host, GameID: "tanks"}, false},
		{`{"mode":"dedicated","gameId":"g","wsUrl":"wss://example.org/x"}`, "", srv.URL, "",
			Target{WSURL: "wss://example.org/x", Origin: "http://" + host, Host: host, GameID: "g"}, false},
		{`{"mode":"lobby"}`, "", srv.URL, "", lobby, false},
		// An older master: no /config, but a room list.
		{``, `{"total":0,"servers":[]}`, srv.URL, "", lobby, false},
		{`not json`, `{"total":1,"servers":[{"hostId":"a"}]}`, srv.URL, "", lobby, false},
		// Neither answer, and no room list: no vimp server.
		{`not json`, "", srv.URL, "", Target{}, true},
		{``, "", srv.URL, "", Target{}, true},
		{`{"mode":"other"}`, `{"servers":null}`, srv.URL, "", Target{}, true},
		{``, `<html>`, srv.URL, "", Target{}, true},
		{`{"mode":"lobby"}`, "", srv.URL, "https://vimp.example", Target{Lobby: true, Master: srv.URL, Origin: "https://vimp.example", Host: host}, false},
		{``, "", "http://127.0.0.1:1", "", Target{}, true},
		{``, "", "ws://127.0.0.1:8090/game", "", Target{WSURL: "ws://127.0.0.1:8090/game", Origin: "http://127.0.0.1:8090", Host: "127.0.0.1:8090"}, false},
		{``, "", "wss://example.org:443/game", "", Target{WSURL: "wss://example.org:443/game", Origin: "https://example.org", Host: "example.org:443"}, false},
		{``, "", "ftp://x", "", Target{}, true},
	} {
		body, rooms = tc.body, tc.rooms
		got, err := Resolve(context.Background(), client, tc.addr, tc.origin)
		if tc.err {
			if err == nil {
				t.Errorf("%s %s: no error", tc.addr, tc.body)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %s: got %+v %v, want %+v", tc.addr, tc.body, got, err, tc.want)
		}
	}
	body, manifest = `{"mode":"dedicated","gameId":"tanks"}`, `[{"id":"tanks","engineApi":4}]`
	if got, err := Resolve(context.Background(), client, srv.URL, ""); err != nil || got.Warning == "" {
		t.Errorf("engineApi 4 not flagged: %+v %v", got, err)
	}
}

// https verifies certificates: a self-signed host fails until -ca names its CA.
func TestCAFile(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"mode":"dedicated","gameId":"g"}`))
	}))
	defer srv.Close()
	plain, _ := HTTPClient("")
	if _, err := Resolve(context.Background(), plain, srv.URL, ""); err == nil {
		t.Fatal("self-signed host accepted without a CA")
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	withCA, err := HTTPClient(ca)
	if err != nil {
		t.Fatal(err)
	}
	tg, err := Resolve(context.Background(), withCA, srv.URL, "")
	if err != nil || tg.WSURL[:6] != "wss://" {
		t.Errorf("with CA: %+v %v", tg, err)
	}
	if _, err := HTTPClient(filepath.Join(t.TempDir(), "missing.pem")); err == nil {
		t.Error("missing CA file accepted")
	}
}

func TestAuthValuesAndStore(t *testing.T) {
	form, err := protocol.ParseAuthData([]byte(testAuth))
	if err != nil {
		t.Fatal(err)
	}
	store := NewAuthStore(filepath.Join(t.TempDir(), "auth.json"))
	a := AuthValues{Store: store}
	if _, err := a.Answer(form, "127.0.0.1:3002", "tanks"); !errors.Is(err, ErrAuthIncomplete) {
		t.Errorf("missing nick: %v", err)
	}
	a.Nick = "Alice"
	a.Set = map[string]string{"model": "m2"}
	v, err := a.Answer(form, "127.0.0.1:3002", "tanks")
	if err != nil || v["name"] != "Alice" || v["model"] != "m2" {
		t.Fatalf("answer %v %v", v, err)
	}
	if err := a.Remember(form, v, "127.0.0.1:3002", "tanks"); err != nil {
		t.Fatal(err)
	}
	// Remembered per host and game, by storage key.
	later := AuthValues{Store: store}
	v, err = later.Answer(form, "127.0.0.1:3002", "tanks")
	if err != nil || v["name"] != "Alice" || v["model"] != "m2" {
		t.Errorf("remembered %v %v", v, err)
	}
	if _, err := later.Answer(form, "127.0.0.1:3002", "snakes"); err == nil {
		t.Error("values leaked to another game")
	}
	if v, err := (AuthValues{GuestNick: "Guest0042"}).Answer(form, "h:1", "g"); err != nil || v["name"] != "Guest0042" {
		t.Errorf("guest nick: %v %v", v, err)
	}
	if got := store.Load("127.0.0.1:3002", "tanks"); got["playerName"] != "Alice" || got["model"] != "m2" {
		t.Errorf("stored %v", got)
	}
}

// A session recorded to JSON lines replays to the same replies.
func TestRecordingRoundTrip(t *testing.T) {
	lines := loadCapture(t, "minigame-dedicated.jsonl")
	rp, _ := NewReplay(lines, "A")
	var buf closingBuffer
	rec := NewRecorder(&buf, "test", rp.Now)
	s := New(Options{Auth: AuthValues{Nick: "Recorder"}, AutoTeam: true, Team: "team1", Now: rp.Now, Recorder: rec})
	s.Run(context.Background(), rp, Target{})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := ReadRecording(bytes.NewReader(buf.Bytes()), DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	rp2, err := NewReplay(again.Lines, "A")
	if err != nil {
		t.Fatal(err)
	}
	s2 := New(Options{Auth: AuthValues{Nick: "Recorder"}, AutoTeam: true, Team: "team1", Now: rp2.Now})
	s2.Run(context.Background(), rp2, Target{})
	a, b := sentReplies(t, rp.Sent(), "team1"), sentReplies(t, rp2.Sent(), "team1")
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("replies %d vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("reply %d: %s vs %s", i, a[i], b[i])
		}
	}
	if w := recordedReplies(again.Lines, "A", "team1"); len(w) != len(a) {
		t.Errorf("recording holds %d c2s replies, session sent %d", len(w), len(a))
	}
}

type closingBuffer struct{ bytes.Buffer }

func (*closingBuffer) Close() error { return nil }

// A plain web server is told apart from a vimp host and a master: the error
// names the address and what /config answered, and no retry is made.
func TestResolveNotVimp(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<html><body>File not found</body></html>"))
	}))
	defer srv.Close()
	client, _ := HTTPClient("")
	_, err := Resolve(context.Background(), client, srv.URL, "")
	if err == nil {
		t.Fatal("a static web server was taken for a vimp server")
	}
	want := srv.URL + ": not a vimp host or lobby master (GET /config: 404 text/html)"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !errors.Is(err, ErrStay) {
		t.Error("the error is retried")
	}
}

// A mistyped address is never retried: no attempt can mend it. A scheme one
// edit from a known one comes with the address corrected.
func TestResolveMistypedAddress(t *testing.T) {
	client, _ := HTTPClient("")
	for _, tc := range []struct{ addr, want string }{
		{"htp://127.0.0.1:3002", `address "htp://127.0.0.1:3002": scheme must be http, https, ws or wss (did you mean "http://127.0.0.1:3002"?)`},
		{"htttps://example.test/x", `address "htttps://example.test/x": scheme must be http, https, ws or wss (did you mean "https://example.test/x"?)`},
		{"wws://h:1", `address "wws://h:1": scheme must be http, https, ws or wss (did you mean "ws://h:1"?)`},
		{"ftp://h:1", `address "ftp://h:1": scheme must be http, https, ws or wss`},
		{"http://", `address "http://": not a URL with a host`},
	} {
		_, err := Resolve(context.Background(), client, tc.addr, "")
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.addr, err, tc.want)
		}
		if !errors.Is(err, ErrStay) {
			t.Errorf("%s: the error is retried", tc.addr)
		}
	}
}

// With MaxFailures, an unreachable host is given up after that many
// attempts in a row, with the last attempt's error.
func TestRunnerGivesUpAfterMaxFailures(t *testing.T) {
	s := New(Options{})
	var waits []time.Duration
	attempts := 0
	r := &Runner{Session: s, MaxFailures: 5,
		Resolve: func(context.Context) (Target, error) {
			attempts++
			return Target{}, fmt.Errorf("attempt %d refused", attempts)
		},
		Sleep: func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			return nil
		}}
	info, err := r.Run(context.Background())
	if info != nil || err == nil {
		t.Fatalf("info %+v err %v", info, err)
	}
	if attempts != 5 || len(waits) != 4 {
		t.Errorf("%d attempts, waits %v; want 5 attempts and 4 waits", attempts, waits)
	}
	var total time.Duration
	for _, w := range waits {
		total += w
	}
	if total != 45*time.Second {
		t.Errorf("waited %v in all, want 45s (3+6+12+24)", total)
	}
	if want := "gave up after 5 failed attempts: attempt 5 refused"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// A replay answers the recorded auth form as the recorded client did: the
// upstream capture's answer, with -nick in place of the name when given.
func TestReplayAuthFromCapture(t *testing.T) {
	lines := loadCapture(t, "minigame-dedicated.jsonl")
	got := RecordedAuth(lines, "")
	if len(got) != 2 || got["name"] != "Recorder" || got["model"] != "m1" {
		t.Errorf("recorded answer %v, want name Recorder, model m1", got)
	}
	a := ReplayAuth(lines, "A", "Other")
	if a.Nick != "Other" || a.Set["name"] != "" || a.Set["model"] != "m1" {
		t.Errorf("with a nick: %+v", a)
	}
	if RecordedAuth(lines, "no such conn") != nil {
		t.Error("an answer for a connection that is not recorded")
	}
	// The replay's session sends the recorded answer with no nick given.
	rp, _ := NewReplay(lines, "A")
	s := New(Options{Auth: ReplayAuth(lines, "A", ""), AutoTeam: true, Team: "team1", Now: rp.Now})
	s.Run(context.Background(), rp, Target{})
	sent := false
	for _, m := range rp.Sent() {
		if bytes.HasPrefix(m, []byte("[1,")) {
			sent = bytes.Contains(m, []byte(`"name":"Recorder"`))
		}
	}
	if !sent {
		t.Error("the recorded name was not sent")
	}
}
