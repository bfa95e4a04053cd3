package session

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"vimpclient/protocol"
)

// fakeHost is an in-process vimp host: /config plus a WebSocket whose
// behaviour each test scripts. It checks the Origin as upstream hosts do.
type fakeHost struct {
	t      *testing.T
	srv    *httptest.Server
	script func(ctx context.Context, h *hostConn)
	conns  chan struct{}
}

type hostConn struct {
	t    *testing.T
	c    *websocket.Conn
	ctx  context.Context
	sent time.Time
}

func newFakeHost(t *testing.T, script func(ctx context.Context, h *hostConn)) *fakeHost {
	t.Helper()
	fh := &fakeHost{t: t, script: script, conns: make(chan struct{}, 100)}
	mux := http.NewServeMux()
	mux.HandleFunc("/config", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"mode":"dedicated","gameId":"miniGame","gameVersion":null,"wsPath":"/game"}`))
	})
	mux.HandleFunc("/game", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
		if err != nil {
			return
		}
		c.SetReadLimit(protocol.MaxClientMessage)
		fh.conns <- struct{}{}
		origin := r.Header.Get("Origin")
		if origin == "" {
			_ = c.CloseNow()
			return
		}
		if origin != "http://"+r.Host && origin != "http://localhost:"+r.Host[strings.LastIndex(r.Host, ":")+1:] {
			_ = c.Close(protocol.CloseInvalidOrigin, "invalidOrigin")
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		fh.script(ctx, &hostConn{t: t, c: c, ctx: ctx})
	})
	fh.srv = httptest.NewServer(mux)
	t.Cleanup(fh.srv.Close)
	return fh
}

func (h *hostConn) send(port int, payload string) {
	if err := h.c.Write(h.ctx, websocket.MessageText, []byte("["+itoa(port)+","+payload+"]")); err != nil {
		h.t.Logf("host send: %v", err)
	}
}

func (h *hostConn) sendRaw(typ websocket.MessageType, b []byte) {
	if err := h.c.Write(h.ctx, typ, b); err != nil {
		h.t.Logf("host send: %v", err)
	}
}

// recv returns the next client message as port and compact payload.
func (h *hostConn) recv() (int, string) {
	h.t.Helper()
	_, b, err := h.c.Read(h.ctx)
	if err != nil {
		h.t.Errorf("host read: %v", err)
		return -1, ""
	}
	env, err := protocol.ParseEnvelope(b)
	if err != nil {
		h.t.Errorf("client sent malformed %q", b)
		return -1, ""
	}
	return env.Port, string(env.Payload)
}

func (h *hostConn) expect(port int, payload string) {
	h.t.Helper()
	p, pl := h.recv()
	if p != port || (payload != "" && pl != payload) {
		h.t.Errorf("host got [%d,%s], want [%d,%s]", p, pl, port, payload)
	}
}

const testConfig = `{"interpolation":{"delay":100,"maxFrameAge":1000},"modules":{"controls":{"keySetList":[{"78":"nextPlayer"},{"87":"forward"}]},"vote":{"params":{"templates":{"teamChange":["Choose a team","teams",true]}}}},"techInformList":["a","b","Loading...","Idle kick text","Latency kick text","Missed pings text","Room full: {0}"],"snapshot":{}}`

const testAuth = `{"params":[{"name":"name","value":"","options":{"storage":"playerName","required":true}},{"name":"model","value":"m1","options":{"storage":"model"}}]}`

// handshake plays a healthy join up to "playing".
func (h *hostConn) handshake(nick string) {
	h.send(0, testConfig)
	h.expect(0, "null")
	h.send(1, testAuth)
	h.expect(1, `{"model":"m1","name":"`+nick+`"}`)
	h.send(8, "[2]")
	h.send(2, "null")
	h.expect(2, "null")
	h.send(3, `{"setId":"m1","scale":1}`)
	h.expect(3, "null")
	h.send(4, `[[],0,1795959719465,0]`)
	h.send(14, `[[],[],true]`)
	h.send(17, "0")
	h.expect(4, "null")
	h.send(8, "null")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// runOnce connects once (no reconnect: the sleep stub ends the run) and
// returns the close, whether the runner wanted to reconnect, and the session.
func runOnce(t *testing.T, fh *fakeHost, opts Options) (*CloseInfo, []time.Duration, *Session) {
	t.Helper()
	client, err := HTTPClient("")
	if err != nil {
		t.Fatal(err)
	}
	s := New(opts)
	var waits []time.Duration
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := &Runner{Session: s, Addr: fh.srv.URL, Client: client, Sleep: func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return errors.New("stop after one attempt")
	}}
	info, err := r.Run(ctx)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return info, waits, s
}
