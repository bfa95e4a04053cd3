package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"vimpclient/protocol"
)

// lobbyAuth is a lobby room's auth form: no name field.
const lobbyAuth = `{"params":[{"name":"model","value":"m1","options":{"storage":"model"}}]}`

const fakeToken = "eyJhbGciOiJSUzI1NiJ9.eyJuaWNrIjoiQWxpY2UifQ.c2lnbmF0dXJlLXRoYXQtaXMtc2VjcmV0"

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// recordedPlatform records what a session hands to its platform.
type recordedPlatform struct {
	mu       sync.Mutex
	answers  []string
	commands []string
}

func (p *recordedPlatform) AnswerVote(name, value string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answers = append(p.answers, name+"="+value)
	return nil
}

func (p *recordedPlatform) Command(line string) (bool, error) {
	if !strings.HasPrefix(line, "/like") {
		return false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.commands = append(p.commands, line)
	return true, nil
}

// runAuth plays CONFIG_DATA and an auth form to a session on target and
// returns the session, what it sent, and how to stop it.
func runAuth(t *testing.T, target Target, form string, opts Options) (*Session, *chanTransport, func()) {
	t.Helper()
	tr := &chanTransport{in: make(chan Message, 16), release: make(chan struct{}), notify: make(chan struct{}, 1)}
	close(tr.release)
	opts.Queue = NewQueue(256)
	s := New(opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Run(ctx, tr, target)
	}()
	tr.in <- Message{Data: []byte("[0," + testConfig + "]")}
	tr.in <- Message{Data: []byte("[1," + form + "]")}
	return s, tr, func() { cancel(); <-done }
}

// sentOn waits until the session wrote a message on port and returns it.
func sentOn(t *testing.T, s *Session, tr *chanTransport, port int) string {
	t.Helper()
	prefix := "[" + itoa(port) + ","
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		tr.mu.Lock()
		for _, m := range tr.sent {
			if strings.HasPrefix(m, prefix) {
				tr.mu.Unlock()
				return m
			}
		}
		tr.mu.Unlock()
		select {
		case <-tr.notify:
		case <-deadline.C:
			t.Fatalf("nothing sent on port %d", port)
		}
	}
}

func TestTokenOnlyToLobbyRooms(t *testing.T) {
	var buf bytes.Buffer
	rec := NewRecorder(nopCloser{&buf}, "test", nil)
	s, tr, stop := runAuth(t, roomTarget, lobbyAuth, Options{Recorder: rec})
	msg := sentOn(t, s, tr, protocol.AuthResponse)
	var got []map[string]string
	if err := json.Unmarshal([]byte(strings.Replace(msg, "[1,", "[{},", 1)), &got); err != nil || got[1]["token"] != fakeToken || got[1]["model"] != "m1" {
		t.Fatalf("lobby AUTH_RESPONSE %s", msg)
	}
	s.noteError("a failure quoting %s", fakeToken)
	stop()
	_ = rec.Close()
	if strings.Contains(buf.String(), fakeToken) || !strings.Contains(buf.String(), Redacted) {
		t.Errorf("the recording holds the token:\n%s", buf.String())
	}
	for _, e := range s.Stats().Errors {
		if strings.Contains(e, fakeToken) {
			t.Errorf("kept error holds the token: %s", e)
		}
	}

	s, tr, stop = runAuth(t, Target{Host: "127.0.0.1:3002"}, testAuth, Options{Auth: AuthValues{Nick: "Alice"}})
	defer stop()
	msg = sentOn(t, s, tr, protocol.AuthResponse)
	if strings.Contains(msg, "token") {
		t.Errorf("a dedicated host got a token: %s", msg)
	}
}

// roomTarget is a lobby room with a token of its own master.
var roomTarget = Target{Lobby: true, Master: "http://m.example:3002", Token: fakeToken, TokenHome: "http://m.example:3002", Room: "r1"}

// authError waits for the AUTH_DATA event and returns why the session did
// not answer it.
func authError(t *testing.T, s *Session) error {
	t.Helper()
	return authEvent(t, s).Err
}

// authEvent waits for the AUTH_DATA event.
func authEvent(t *testing.T, s *Session) Event {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	var evs []Event
	for {
		select {
		case <-s.opts.Queue.Ready():
		case <-deadline.C:
			t.Fatal("no AUTH_DATA event")
		}
		evs = s.opts.Queue.Drain(evs[:0])
		for _, e := range evs {
			if e.Kind == EventMessage && e.Port == protocol.AuthData {
				return e
			}
		}
	}
}

// A token whose binding does not match the room's master, or a target
// that is no lobby room, answers no AUTH_RESPONSE: the token is not sent.
func TestTokenOnlyToItsOwnMaster(t *testing.T) {
	for name, target := range map[string]Target{
		"another master": {Lobby: true, Master: "http://evil.example:3002", Token: fakeToken, TokenHome: "http://m.example:3002", Room: "r1"},
		"other scheme":   {Lobby: true, Master: "https://m.example:3002", Token: fakeToken, TokenHome: "http://m.example:3002", Room: "r1"},
		"unbound":        {Lobby: true, Master: "http://m.example:3002", Token: fakeToken, Room: "r1"},
		"dedicated host": {Host: "m.example:3002", Token: fakeToken, TokenHome: "http://m.example:3002"},
	} {
		t.Run(name, func(t *testing.T) {
			s, tr, stop := runAuth(t, target, lobbyAuth, Options{})
			defer stop()
			err := authError(t, s)
			if !errors.Is(err, ErrTokenNotHere) {
				t.Fatalf("auth answered with %v, want ErrTokenNotHere", err)
			}
			if err := s.SubmitAuth(map[string]string{"model": "m1"}); !errors.Is(err, ErrTokenNotHere) {
				t.Errorf("a player's answer: %v", err)
			}
			tr.mu.Lock()
			defer tr.mu.Unlock()
			for _, m := range tr.sent {
				if strings.Contains(m, fakeToken) || strings.HasPrefix(m, "["+itoa(protocol.AuthResponse)+",") {
					t.Errorf("sent: %s", m)
				}
			}
		})
	}
}

func TestEngineVotesBelongToThePlatform(t *testing.T) {
	s, tr, stop := runAuth(t, roomTarget, lobbyAuth, Options{})
	defer stop()
	if err := s.VoteAnswer(ChangeHostVote, "yes"); !errors.Is(err, errNoPlatform) {
		t.Errorf("engine vote answered without a platform: %v", err)
	}
	p := &recordedPlatform{}
	s.SetPlatform(p)
	tr.in <- Message{Data: []byte("[2,null]")}
	sentOn(t, s, tr, protocol.ModulesReady)
	if err := s.VoteAnswer(ChangeHostVote, "yes"); err != nil {
		t.Fatal(err)
	}
	if err := s.Chat("/like nice host"); err != nil {
		t.Fatal(err)
	}
	if err := s.VoteAnswer("teamChange", "red"); err != nil {
		t.Fatal(err)
	}
	sentOn(t, s, tr, protocol.VoteSend)
	tr.mu.Lock()
	for _, m := range tr.sent {
		if strings.Contains(m, "@changeHost") || strings.Contains(m, "/like") {
			t.Errorf("sent to the host: %s", m)
		}
	}
	tr.mu.Unlock()
	p.mu.Lock()
	if len(p.answers) != 1 || p.answers[0] != "@changeHost=yes" || len(p.commands) != 1 {
		t.Errorf("platform got %v %v", p.answers, p.commands)
	}
	p.mu.Unlock()

	// A host cannot open a vote with a reserved name.
	before := s.Stats().Unknown
	tr.in <- Message{Data: []byte(`[16,{"name":"@changeHost","values":["yes","no"]}]`)}
	tr.in <- Message{Data: []byte(`[10,77]`)}
	sentOn(t, s, tr, protocol.Pong)
	if s.Stats().Unknown != before+1 {
		t.Errorf("a host's @ vote was not dropped")
	}
	var evs []Event
	evs = s.Queue().Drain(evs)
	for _, e := range evs {
		if v, ok := e.Msg.(protocol.Vote); ok && v.Open != nil && IsEngineVote(v.Open.Name) {
			t.Errorf("host's engine vote reached the game loop: %+v", v.Open)
		}
	}
}

// The AUTH_DATA event the session answered itself carries the values it
// sent (without a lobby token), so a rejected -nick is shown as sent.
func TestAuthEventCarriesAnswer(t *testing.T) {
	s, _, stop := runAuth(t, roomTarget, testAuth, Options{Auth: AuthValues{Nick: "A"}})
	defer stop()
	ev := authEvent(t, s)
	if ev.Err != nil || ev.Answer["name"] != "A" {
		t.Fatalf("err %v answer %v, want the sent name", ev.Err, ev.Answer)
	}
	if _, ok := ev.Answer[TokenField]; ok {
		t.Fatalf("answer holds the token: %v", ev.Answer)
	}
}
