package lobby_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"

	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

func dialTo(ctx context.Context, fm *fakemaster.Master, origin string, handle func(any)) (*lobby.Signal, error) {
	m, _ := lobby.NewMaster(fm.URL(), nil)
	return lobby.DialSignal(ctx, lobby.SignalConfig{URL: m.SignalURL(), Origin: origin, Handle: handle})
}

func TestSignalOriginRule(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{Keys: testKeys(t)})
	defer fm.Close()
	ctx := context.Background()
	m, _ := lobby.NewMaster(fm.URL(), nil)
	s, err := dialTo(ctx, fm, m.Origin(), nil)
	if err != nil {
		t.Fatalf("derived origin %s refused: %v", m.Origin(), err)
	}
	if s.Welcome().ID == "" || len(s.Welcome().ICEServers) != 1 || s.Welcome().ICEServers[0].URLs[0] != "stun:127.0.0.1:9" {
		t.Errorf("welcome %+v", s.Welcome())
	}
	_ = s.Close()
	<-s.Done()
	if _, err := dialTo(ctx, fm, "http://127.0.0.1", nil); !errors.Is(err, lobby.ErrInvalidOrigin) {
		t.Errorf("wrong origin: %v", err)
	}
	if _, err := dialTo(ctx, fm, "", nil); err == nil {
		t.Error("dialled with no Origin")
	}
	// Without an Origin the master drops the socket with no close frame.
	c, _, err := websocket.Dial(ctx, m.SignalURL(), &websocket.DialOptions{HTTPHeader: http.Header{}})
	if err == nil {
		_, _, err = c.Read(ctx)
		if websocket.CloseStatus(err) != -1 {
			t.Errorf("origin-less socket closed with a code: %v", err)
		}
	}
}

// The newer master pings the socket and drops a silent session; reading
// answers its pings.
func TestSignalAnswersMasterPings(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t),
		WSPing: 20 * time.Millisecond, WSDeadAfter: 200 * time.Millisecond})
	defer fm.Close()
	m, _ := lobby.NewMaster(fm.URL(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := dialTo(ctx, fm, m.Origin(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := fm.WaitCount(ctx, "ws-pong", 10); err != nil {
		t.Fatalf("pings not answered: %v", err)
	}
	select {
	case <-s.Done():
		t.Fatalf("dropped: %v", s.Err())
	default:
	}
}

// A room's latency through the master; a second ask within the interval
// answers from the last measure without another ping_host.
func TestPingHost(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{Keys: testKeys(t)})
	defer fm.Close()
	m, _ := lobby.NewMaster(fm.URL(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var host *lobby.Signal
	registered := make(chan string, 1)
	host, err := dialTo(ctx, fm, m.Origin(), func(msg any) {
		switch v := msg.(type) {
		case *lobby.HostRegistered:
			registered <- v.Room()
		case *lobby.PingHost:
			go host.Send(ctx, lobby.PongHostMsg(v.ClientID, v.PingID))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	if err := host.Send(ctx, lobby.RegisterHostMsg(lobby.RegisterHost{Name: "R", MaxPlayers: 4, GameID: "tanks", Token: testKeys(t).Token("1", "H")})); err != nil {
		t.Fatal(err)
	}
	room := <-registered
	c, err := dialTo(ctx, fm, m.Origin(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rtt, err := c.Ping(ctx, room)
	if err != nil || rtt <= 0 {
		t.Fatalf("ping: %v %v", rtt, err)
	}
	again, err := c.Ping(ctx, room)
	if err != nil || again != rtt {
		t.Errorf("second ping %v %v, want the cached %v", again, err, rtt)
	}
	if l, ok := c.Latency(room); !ok || l != rtt {
		t.Errorf("latency %v %v", l, ok)
	}
	n := 0
	for _, l := range fm.Log() {
		if l.Dir == "in" && l.Type == "ping_host" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d ping_host sent, want 1", n)
	}
}

// A master that accepts the socket but never welcomes, or is not there,
// fails the dial within its context.
func TestSignalSlowOrDown(t *testing.T) {
	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		<-r.Context().Done()
	}))
	defer mute.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	m, _ := lobby.NewMaster(mute.URL, nil)
	if _, err := lobby.DialSignal(ctx, lobby.SignalConfig{URL: m.SignalURL(), Origin: m.Origin()}); err == nil {
		t.Error("a master that never welcomes was accepted")
	}
	mute.CloseClientConnections()
	down := mute.URL
	mute.Close()
	m, _ = lobby.NewMaster(down, nil)
	if _, err := lobby.DialSignal(context.Background(), lobby.SignalConfig{URL: m.SignalURL(), Origin: m.Origin()}); err == nil {
		t.Error("a master that is down was reached")
	}
}
