package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"vimpclient/protocol"
)

func TestHealthyJoinExactlyOnceReplies(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.handshake("Alice")
		// Two more MAP_DATA, three FIRST_SHOT_DATA of odd shapes: one reply each.
		h.send(3, `{"setId":"m1"}`)
		h.send(3, `"not even an object"`)
		h.expect(3, "null")
		h.expect(3, "null")
		for _, fs := range []string{`null`, `"x"`, `[{"m1":{"1":[1,2]}},0,1,0]`} {
			h.send(4, fs)
			h.expect(4, "null")
		}
		h.send(10, "17")
		h.expect(8, "17")
		h.send(10, "1e3")
		h.expect(8, "1e3")
		h.send(17, "1")
		h.send(8, "[6,[30]]")
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	info, waits, s := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}})
	if info.Code != protocol.CloseRoomFull || info.Reconnect || info.Reason != "Room full: 30" || len(waits) != 0 {
		t.Errorf("close = %+v, waits %v", info, waits)
	}
	st := s.Stats()
	if st.Furthest != StatePlaying || !st.Player || st.Pongs != 2 || st.Malformed != 3 {
		t.Errorf("stats = %+v", st)
	}
}

// Every close code a vimp host uses and the client's reaction to it.
func TestClosePolicyPerCode(t *testing.T) {
	for _, tc := range []struct {
		code      int
		tech      string // TECH_INFORM sent before the close
		reconnect bool
		reason    string
	}{
		{1000, "", true, "Connection closed (code 1000)."},
		{protocol.CloseGoingAway, "", true, protocol.CloseReason(protocol.CloseGoingAway)},
		{protocol.CloseAbnormal, "", true, protocol.CloseReason(protocol.CloseAbnormal)},
		{protocol.CloseTooBig, "", true, protocol.CloseReason(protocol.CloseTooBig)},
		{protocol.CloseStaleHost, "", true, protocol.CloseReason(protocol.CloseStaleHost)},
		{protocol.CloseInvalidOrigin, "", false, protocol.CloseReason(protocol.CloseInvalidOrigin)},
		{protocol.CloseBlocked, "", true, protocol.CloseReason(protocol.CloseBlocked)},
		{protocol.CloseKickMaxLatency, "[4]", true, "Latency kick text"},
		{protocol.CloseKickMissedPings, "[5]", true, "Missed pings text"},
		{protocol.CloseKickIdle, "[3]", true, "Idle kick text"},
		{protocol.CloseRoomFull, "[6,[1]]", false, "Room full: 1"},
		{protocol.CloseHandshakeTimeout, "", false, protocol.CloseReason(protocol.CloseHandshakeTimeout)},
		{protocol.CloseTooManyConnections, "", false, protocol.CloseReason(protocol.CloseTooManyConnections)},
	} {
		t.Run(itoa(tc.code), func(t *testing.T) {
			fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
				h.handshake("Alice")
				if tc.tech != "" {
					h.send(8, tc.tech)
				}
				if tc.code == protocol.CloseAbnormal {
					_ = h.c.CloseNow()
					return
				}
				_ = h.c.Close(websocket.StatusCode(tc.code), "")
			})
			info, waits, _ := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}})
			if info.Code != tc.code || info.Reconnect != tc.reconnect || info.Reason != tc.reason {
				t.Errorf("close = %+v, want code %d reconnect %v reason %q", info, tc.code, tc.reconnect, tc.reason)
			}
			if tc.reconnect && (len(waits) != 1 || waits[0] != ReconnectDelay) {
				t.Errorf("reconnect waits %v, want one of %v", waits, ReconnectDelay)
			}
			if !tc.reconnect && len(waits) != 0 {
				t.Errorf("stayed code reconnected after %v", waits)
			}
		})
	}
}

// A room-full answer before CONFIG_DATA uses the built-in texts.
func TestRoomFullBeforeConfig(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.send(8, "[6,[30]]")
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	info, _, s := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}})
	if info.Reconnect || info.Reason != "Room is full! Max players: 30. Try again later." {
		t.Errorf("close = %+v", info)
	}
	if s.Stats().Furthest != StateConnecting {
		t.Errorf("furthest = %v", s.Stats().Furthest)
	}
}

func TestWrongOriginStays(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) { t.Error("admitted") })
	client, _ := HTTPClient("")
	s := New(Options{})
	r := &Runner{Session: s, Addr: fh.srv.URL, Origin: "http://evil.example", Client: client,
		Sleep: func(context.Context, time.Duration) error { t.Error("reconnected after 4001"); return context.Canceled }}
	info, err := r.Run(context.Background())
	if err != nil || info.Code != protocol.CloseInvalidOrigin || info.Reconnect {
		t.Errorf("close = %+v, %v", info, err)
	}
}

func TestMalformedAndUnknownIgnored(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		for _, raw := range []string{"not json{", "{}", "[", `["constructor",-1]`, "null", "42", "", `[1.5,0]`} {
			h.sendRaw(websocket.MessageText, []byte(raw))
		}
		h.send(42, `{"future":true}`)
		h.send(5, `"json on the binary port"`)
		h.send(18, `{"shape":"unknown"}`)
		h.send(14, `"bad stat"`)
		h.send(10, `"17"`)
		h.sendRaw(websocket.MessageBinary, []byte{0xff, 0x00})
		h.handshake("Alice")
		h.send(10, "3")
		h.expect(8, "3")
		_ = h.c.Close(protocol.CloseHandshakeTimeout, "")
	})
	_, _, s := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}})
	st := s.Stats()
	if st.Malformed != 10 || st.Unknown != 2 || st.Furthest != StatePlaying || st.Ports[18] != 1 || st.Frames != 1 {
		t.Errorf("stats = %+v", st)
	}
}

// A message above the hard read cap ends the connection (and is retried),
// it never grows memory without bound.
func TestOversizedServerMessage(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.handshake("Alice")
		big := make([]byte, MaxIncomingMessage+1)
		h.sendRaw(websocket.MessageBinary, big)
		_, _, _ = h.c.Read(ctx)
	})
	info, waits, _ := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}})
	if !info.Reconnect || len(waits) != 1 {
		t.Errorf("close = %+v waits %v", info, waits)
	}
}

// A big MAP_DATA (above the library default and the 64 KiB client cap) is read.
func TestLargeMapAccepted(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.send(0, testConfig)
		h.expect(0, "null")
		h.send(1, testAuth)
		h.recv()
		h.send(2, "null")
		h.expect(2, "null")
		h.send(3, `{"setId":"m1","pad":"`+strings.Repeat("x", 300<<10)+`"}`)
		h.expect(3, "null")
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	_, _, s := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}})
	if s.Stats().Ports[protocol.MapData] != 1 {
		t.Errorf("map not received: %+v", s.Stats())
	}
}

// A rejected answer is surfaced; the player's corrected values go through
// SubmitAuth and are remembered for this host and game.
func TestAuthRejectedThenSubmitted(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.send(0, testConfig)
		h.expect(0, "null")
		h.send(1, testAuth)
		h.expect(1, `{"model":"m1","name":"x"}`)
		h.send(2, `[{"name":"name","error":"not valid"}]`)
		h.expect(1, `{"model":"m1","name":"Alice"}`)
		h.send(2, "null")
		h.expect(2, "null")
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	store := NewAuthStore(t.TempDir() + "/auth.json")
	s := New(Options{Auth: AuthValues{Nick: "x", Store: store}})
	client, _ := HTTPClient("")
	r := &Runner{Session: s, Addr: fh.srv.URL, Client: client, Sleep: func(context.Context, time.Duration) error { return context.Canceled }}
	done := make(chan struct{})
	go func() { defer close(done); _, _ = r.Run(context.Background()) }()
	var evs []Event
	rejected := false
	for !rejected {
		<-s.Queue().Ready()
		evs = s.Queue().Drain(evs)
		for _, e := range evs {
			if v, ok := e.Msg.(protocol.AuthVerdict); ok && !v.OK && v.Errors[0].Name == "name" {
				rejected = true
			}
		}
	}
	if err := s.SubmitAuth(map[string]string{"name": "Alice", "model": "m1"}); err != nil {
		t.Fatal(err)
	}
	<-done
	host := strings.TrimPrefix(fh.srv.URL, "http://")
	if got := store.Load(host, "miniGame"); got["playerName"] != "Alice" {
		t.Errorf("remembered %v", got)
	}
	if err := s.SubmitAuth(map[string]string{"name": "B"}); err == nil {
		t.Error("submit accepted with no form waiting")
	}
}

// Leaving (the context ends) sends a clean 1000 close frame; the runner does
// not reconnect.
func TestLeavingClosesCleanly(t *testing.T) {
	got := make(chan websocket.StatusCode, 1)
	ctx, cancel := context.WithCancel(context.Background())
	fh := newFakeHost(t, func(hctx context.Context, h *hostConn) {
		h.handshake("Alice")
		cancel()
		_, _, err := h.c.Read(hctx)
		got <- websocket.CloseStatus(err)
	})
	client, _ := HTTPClient("")
	s := New(Options{Auth: AuthValues{Nick: "Alice"}})
	r := &Runner{Session: s, Addr: fh.srv.URL, Client: client}
	info, err := r.Run(ctx)
	if err != nil || info == nil || !info.Local || info.Reconnect {
		t.Errorf("close %+v %v", info, err)
	}
	if code := <-got; code != websocket.StatusNormalClosure {
		t.Errorf("host saw close %d, want 1000", code)
	}
}

// With AutoTeam, a quiet host still gets the team-vote answers: the pauses
// are timers, not only piggy-backed on incoming traffic.
func TestTeamVoteOnQuietHost(t *testing.T) {
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.handshake("Alice")
		h.send(16, `{"name":"teamChange"}`)
		start := time.Now()
		h.expect(7, `"teams"`)
		if d := time.Since(start); d < TeamListPause/2 {
			h.t.Errorf("list requested after %v", d)
		}
		h.send(16, `["team1","spectators"]`)
		h.expect(7, `["teamChange","spectators"]`)
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	_, _, s := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}, AutoTeam: true, Team: "spectators"})
	if errs := s.Stats().Errors; len(errs) != 0 {
		t.Errorf("errors %v", errs)
	}
}
