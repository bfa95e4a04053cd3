package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"vimpclient/clientcore"
	"vimpclient/protocol"
)

// testTimeout bounds every test; waits are on messages, never sleeps.
const testTimeout = 20 * time.Second

func startHost(t *testing.T, cfg Config) (*Server, context.CancelFunc) {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Start(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		<-srv.Done()
	})
	return srv, cancel
}

type msg struct {
	binary  bool
	data    []byte
	port    int
	payload json.RawMessage
}

type tclient struct {
	t        *testing.T
	ws       *websocket.Conn
	ctx      context.Context
	autoPong bool
	dec      *clientcore.Decoder
	core     *clientcore.Core
	frames   int
	gid      int // own game id from a player block, -1 unknown
	last     clientcore.Frame
	pings    int
}

func dialOrigin(t *testing.T, srv *Server, origin string) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL(), "http")+"/game", &websocket.DialOptions{HTTPHeader: h})
	if err == nil {
		ws.SetReadLimit(16 << 20)
	}
	return ws, err
}

func dial(t *testing.T, srv *Server) *tclient {
	t.Helper()
	ws, err := dialOrigin(t, srv, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(func() { cancel(); _ = ws.CloseNow() })
	return &tclient{t: t, ws: ws, ctx: ctx, autoPong: true, gid: -1}
}

func (c *tclient) send(port int, payload any) {
	c.t.Helper()
	b, _ := json.Marshal([]any{port, payload})
	if err := c.ws.Write(c.ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

func (c *tclient) read() (msg, error) {
	typ, data, err := c.ws.Read(c.ctx)
	if err != nil {
		return msg{}, err
	}
	if typ == websocket.MessageBinary {
		c.frames++
		if c.core != nil && !c.core.PushFrame(data, float64(time.Now().UnixNano())/1e6) {
			c.t.Fatalf("frame %d dropped by the client core: %v", c.frames, c.core.LastError())
		}
		if c.dec != nil {
			if err := c.dec.Decode(data, &c.last); err != nil {
				c.t.Fatalf("frame %d does not decode: %v", c.frames, err)
			}
			if c.last.HasPlayer {
				c.gid = int(c.last.Player.GameID)
			}
		}
		return msg{binary: true, data: data}, nil
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(data, &arr); err != nil || len(arr) != 2 {
		c.t.Fatalf("bad text message %q", data)
	}
	m := msg{data: data, payload: arr[1]}
	_ = json.Unmarshal(arr[0], &m.port)
	if m.port == protocol.Ping {
		c.pings++
		if c.autoPong {
			var id int
			_ = json.Unmarshal(m.payload, &id)
			c.send(protocol.Pong, id)
		}
	}
	return m, nil
}

// until reads until pred accepts a message.
func (c *tclient) until(what string, pred func(m msg) bool) msg {
	c.t.Helper()
	for {
		m, err := c.read()
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", what, err)
		}
		if pred(m) {
			return m
		}
	}
}

func (c *tclient) port(p int) msg {
	c.t.Helper()
	return c.until(fmt.Sprintf("port %d", p), func(m msg) bool { return !m.binary && m.port == p })
}

// handshake runs the dedicated join until the initial vote, building a
// decoder from CONFIG_DATA.
func (c *tclient) handshake(name string) { c.handshakeWith(name, nil) }

// handshakeWith is handshake, handing seen the payloads of CONFIG_DATA,
// AUTH_DATA and MAP_DATA.
func (c *tclient) handshakeWith(name string, seen func(port int, payload []byte)) {
	c.t.Helper()
	if seen == nil {
		seen = func(int, []byte) {}
	}
	cfg := c.port(protocol.ConfigData)
	seen(protocol.ConfigData, cfg.payload)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(cfg.payload, &top); err != nil {
		c.t.Fatal(err)
	}
	s, err := clientcore.ParseSchema(top["snapshot"])
	if err != nil {
		c.t.Fatalf("CONFIG_DATA schema: %v", err)
	}
	c.dec = clientcore.NewDecoder(s)
	c.core = clientcore.New(s, clientcore.Options{})
	c.send(protocol.ConfigReady, nil)
	auth := c.port(protocol.AuthData)
	seen(protocol.AuthData, auth.payload)
	if !strings.Contains(string(auth.payload), `"name":"name"`) {
		c.t.Fatalf("AUTH_DATA without the guest name field: %s", auth.payload)
	}
	c.send(protocol.AuthResponse, map[string]string{"name": name, "model": "m1"})
	res := c.port(protocol.AuthResult)
	if string(res.payload) != "null" {
		c.t.Fatalf("auth rejected: %s", res.payload)
	}
	c.send(protocol.ModulesReady, nil)
	seen(protocol.MapData, c.port(protocol.MapData).payload)
	c.send(protocol.MapReady, nil)
	c.port(protocol.FirstShotData)
	c.send(protocol.FirstShotReady, nil)
	c.until("hide tech screen", func(m msg) bool { return m.port == protocol.TechInformData && string(m.payload) == "null" })
	c.port(protocol.VoteData)
}

func (c *tclient) joinTeam(team string) {
	c.t.Helper()
	c.send(protocol.VoteSend, []string{"teamChange", team})
	c.until("keyset 1", func(m msg) bool { return m.port == protocol.KeysetData && string(m.payload) == "1" })
}

// expectClose reads until the connection closes and returns the code and
// the TECH_INFORM payloads seen.
func (c *tclient) expectClose() (websocket.StatusCode, []string) {
	c.t.Helper()
	var techs []string
	for {
		m, err := c.read()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				c.t.Fatal("no close before the test deadline")
			}
			return websocket.CloseStatus(err), techs
		}
		if !m.binary && m.port == protocol.TechInformData {
			techs = append(techs, string(m.payload))
		}
	}
}

func TestHTTPDiscovery(t *testing.T) {
	srv, _ := startHost(t, Config{Bots: 1, Sound: func(f string) ([]byte, string, bool) {
		if f == "shot.mp3" {
			return []byte("ID3"), "audio/mpeg", true
		}
		return nil, "", false
	}})
	get := func(path string) (int, []byte) {
		resp, err := http.Get(srv.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	code, b := get("/config")
	var cfg map[string]any
	if code != 200 || json.Unmarshal(b, &cfg) != nil || cfg["mode"] != "dedicated" || cfg["gameId"] != "tanks" || cfg["wsPath"] != "/game" {
		t.Fatalf("/config: %d %s", code, b)
	}
	code, b = get("/games/manifest.json")
	var list []map[string]any
	if code != 200 || json.Unmarshal(b, &list) != nil || len(list) != 1 || list[0]["assetsBase"] != "/games/tanks/" || list[0]["engineApi"] != 3.0 {
		t.Fatalf("manifest: %d %s", code, b)
	}
	if code, _ = get("/games/snakes/manifest.json"); code != 404 {
		t.Fatalf("unknown game: %d", code)
	}
	if code, b = get("/games/tanks/img/tiles.png"); code != 200 || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Fatalf("tiles.png: %d", code)
	}
	if code, b = get("/games/tanks/maps/yard"); code != 200 || !strings.Contains(string(b), `"physicsStatic"`) {
		t.Fatalf("map: %d %s", code, b)
	}
	if code, b = get("/games/tanks/sounds/shot.mp3"); code != 200 || string(b) != "ID3" {
		t.Fatalf("shot.mp3: %d %q", code, b)
	}
	if code, _ = get("/games/tanks/sounds/shot.wav"); code != 404 {
		t.Fatalf("shot.wav: %d", code)
	}
	if code, _ = get("/games/tanks/maps/nowhere"); code != 404 {
		t.Fatalf("unknown map: %d", code)
	}
}

func TestHandshakeFramesAndInput(t *testing.T) {
	srv, _ := startHost(t, Config{Bots: 3})
	c := dial(t, srv)
	c.handshake("Alice")
	c.joinTeam("team1")
	// Wait for frames with our player block, then drive forward.
	c.until("player block", func(m msg) bool { return m.binary && c.last.HasPlayer })
	x0, y0 := c.last.Player.State[0], c.last.Player.State[1]
	c.send(protocol.KeysData, "1:down:forward")
	c.until("tank moved", func(m msg) bool {
		if !m.binary || !c.last.HasPlayer {
			return false
		}
		dx, dy := c.last.Player.State[0]-x0, c.last.Player.State[1]-y0
		return dx*dx+dy*dy > 25 && c.last.Player.LastInputSeq == 1
	})
	// Bots are in the m1 block next to us.
	var tanks int
	for _, b := range c.last.Blocks {
		if b.Key() == "m1" {
			tanks = len(b.Rows)
		}
	}
	if tanks < 4 {
		t.Fatalf("m1 block has %d tanks, want us and 3 bots", tanks)
	}
	c.send(protocol.KeysData, "2:up:forward")
	start := c.frames
	c.until("30 frames", func(m msg) bool { return c.frames-start >= 30 })
}

func TestTwoClientsSeeEachOther(t *testing.T) {
	srv, _ := startHost(t, Config{Bots: 0})
	a, b := dial(t, srv), dial(t, srv)
	a.handshake("Alice")
	b.handshake("Bob")
	a.joinTeam("team1")
	b.joinTeam("team2")
	b.until("b's player block", func(m msg) bool { return m.binary && b.last.HasPlayer })
	a.until("a's player block", func(m msg) bool { return m.binary && a.last.HasPlayer })
	hasRow := func(c *tclient, gid int) bool {
		for _, blk := range c.last.Blocks {
			if blk.Key() != "m1" {
				continue
			}
			for _, r := range blk.Rows {
				if int(r.ID) == gid && !r.Null {
					return true
				}
			}
		}
		return false
	}
	a.until("Bob's tank in Alice's frames", func(m msg) bool { return m.binary && hasRow(a, b.gid) })
	b.until("Alice's tank in Bob's frames", func(m msg) bool { return m.binary && hasRow(b, a.gid) })
	if a.gid == b.gid {
		t.Fatalf("both clients got game id %d", a.gid)
	}
	a.send(protocol.ChatSend, "hi Bob")
	b.until("chat relay", func(m msg) bool { return m.port == protocol.ChatData && string(m.payload) == `["hi Bob","Alice",1]` })
}

func TestAuthRejection(t *testing.T) {
	srv, _ := startHost(t, Config{})
	c := dial(t, srv)
	c.port(protocol.ConfigData)
	c.send(protocol.AuthResponse, map[string]string{"name": "Early", "model": "m1"}) // port not enabled yet
	c.send(protocol.ConfigReady, nil)
	c.port(protocol.AuthData)
	c.send(protocol.AuthResponse, map[string]any{"name": "A"})
	if m := c.port(protocol.AuthResult); string(m.payload) != `[{"name":"model","error":"Property is missing"}]` {
		t.Fatalf("missing field: %s", m.payload)
	}
	c.send(protocol.AuthResponse, map[string]any{"name": 5, "model": "m1"})
	if m := c.port(protocol.AuthResult); string(m.payload) != `[{"name":"name","error":"Property must be a string"}]` {
		t.Fatalf("non-string: %s", m.payload)
	}
	c.send(protocol.AuthResponse, map[string]any{"name": "1bad", "model": "m9"})
	if m := c.port(protocol.AuthResult); string(m.payload) != `[{"name":"name","error":"not valid"},{"name":"model","error":"not valid"}]` {
		t.Fatalf("invalid: %s", m.payload)
	}
	c.send(protocol.AuthResponse, map[string]any{"name": "Good", "model": "m1"})
	c.until("loading", func(m msg) bool { return m.port == protocol.TechInformData && string(m.payload) == "[2]" })
	if m := c.port(protocol.AuthResult); string(m.payload) != "null" {
		t.Fatalf("accepted: %s", m.payload)
	}
}

func TestKickMissedPings(t *testing.T) {
	srv, _ := startHost(t, Config{PingInterval: 10 * time.Millisecond})
	c := dial(t, srv)
	c.autoPong = false
	c.handshake("Mute")
	code, techs := c.expectClose()
	if code != protocol.CloseKickMissedPings || len(techs) == 0 || techs[len(techs)-1] != "[5]" {
		t.Fatalf("close %d techs %v, want 4004 after [5]", code, techs)
	}
	if c.pings != 5 {
		t.Fatalf("kicked after %d pings, want 5", c.pings)
	}
}

func TestKickMaxLatency(t *testing.T) {
	// The smoothed RTT starts at 100 ms, so with a 50 ms limit the first
	// accepted PONG already exceeds it.
	srv, _ := startHost(t, Config{PingInterval: 200 * time.Millisecond, MaxLatency: 50 * time.Millisecond, MaxMissedPings: 1000})
	c := dial(t, srv)
	c.port(protocol.ConfigData)
	c.send(protocol.ConfigReady, nil)
	c.port(protocol.AuthData)
	c.send(protocol.AuthResponse, map[string]string{"name": "Slow", "model": "m1"})
	c.port(protocol.AuthResult)
	c.send(protocol.ModulesReady, nil) // MAP_DATA comes with an immediate PING
	code, techs := c.expectClose()
	if code != protocol.CloseKickMaxLatency || len(techs) == 0 || techs[len(techs)-1] != "[4]" {
		t.Fatalf("close %d techs %v, want 4003 after [4]", code, techs)
	}
}

func TestPongKeepsConnection(t *testing.T) {
	srv, _ := startHost(t, Config{PingInterval: 20 * time.Millisecond, MaxMissedPings: 1000})
	c := dial(t, srv)
	c.handshake("Ponger")
	c.until("20 pings", func(m msg) bool { return c.pings >= 20 })
	// Latency reaches the scoreboard.
	c.until("latency in stat", func(m msg) bool {
		return m.port == protocol.StatData && strings.Contains(string(m.payload), `"Ponger","",0,0,`) && !strings.Contains(string(m.payload), `"Ponger","",0,0,null`)
	})
}

func TestHandshakeTimeout(t *testing.T) {
	srv, _ := startHost(t, Config{HandshakeTimeout: 30 * time.Millisecond})
	c := dial(t, srv)
	if code, _ := c.expectClose(); code != protocol.CloseHandshakeTimeout {
		t.Fatalf("close %d, want 4008", code)
	}
}

func TestIdleKick(t *testing.T) {
	srv, _ := startHost(t, Config{IdleTimeout: 40 * time.Millisecond, IdleCheck: 10 * time.Millisecond})
	c := dial(t, srv)
	c.handshake("Idle")
	c.joinTeam("team1")
	code, techs := c.expectClose()
	if code != protocol.CloseKickIdle || len(techs) == 0 || techs[len(techs)-1] != "[3]" {
		t.Fatalf("close %d techs %v, want 4005 after [3]", code, techs)
	}
}

func TestOriginAndConnectionRate(t *testing.T) {
	srv, _ := startHost(t, Config{ConnRate: 2})
	ws, err := dialOrigin(t, srv, "")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ws.Read(context.Background())
	if code := websocket.CloseStatus(err); code != -1 {
		t.Fatalf("no Origin: close %d, want an abnormal close without a code", code)
	}
	ws, err = dialOrigin(t, srv, "http://evil.example:1")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err = ws.Read(context.Background()); websocket.CloseStatus(err) != protocol.CloseInvalidOrigin {
		t.Fatalf("wrong Origin: %v, want 4001", err)
	}
	// The Origin-less attempt is not counted, the wrong-Origin one is; the
	// second is admitted, the third refused.
	ok, err := dialOrigin(t, srv, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer ok.CloseNow()
	if _, _, err := ok.Read(context.Background()); err != nil { // CONFIG_DATA: counted and admitted
		t.Fatal(err)
	}
	ws, err = dialOrigin(t, srv, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err = ws.Read(context.Background()); websocket.CloseStatus(err) != protocol.CloseTooManyConnections {
		t.Fatalf("over the connection budget: %v, want 4009", err)
	}
}

func TestRoomFull(t *testing.T) {
	srv, _ := startHost(t, Config{MaxPlayers: 1})
	a := dial(t, srv)
	a.handshake("First")
	b := dial(t, srv)
	code, techs := b.expectClose()
	if code != protocol.CloseRoomFull || len(techs) != 1 || techs[0] != "[6,[1]]" {
		t.Fatalf("close %d techs %v, want 4006 after [6,[1]]", code, techs)
	}
}

// TestHostileClient: garbage, wrong ports, a flood and an oversized
// message from one client must not disturb another.
func TestHostileClient(t *testing.T) {
	srv, _ := startHost(t, Config{Bots: 2, PingInterval: 300 * time.Millisecond, MaxMissedPings: 1000})
	good := dial(t, srv)
	good.handshake("Good")
	good.joinTeam("team1")
	bad := dial(t, srv)
	for _, s := range []string{"not json{", "[0", "{}", "null", "42", "", `["constructor",-1]`, `[42,null]`, `[-1,null]`,
		`[5,"1:down:fire"]`, `[8,1]`, `[3,null]`, `[7,["teamChange","nowhere"]]`} {
		if err := bad.ws.Write(bad.ctx, websocket.MessageText, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := bad.ws.Write(bad.ctx, websocket.MessageBinary, []byte{0xff, 0x00, 0x13}); err != nil {
		t.Fatal(err)
	}
	// The handshake still works after the garbage.
	bad.handshake("Bad")
	bad.send(protocol.VoteSend, []string{"teamChange", "nowhere"})
	bad.send(protocol.VoteSend, []string{"mapChange", "nowhere"})
	// A message of exactly 64 KiB is accepted; the connection answers the
	// next request.
	exact := make([]byte, protocol.MaxClientMessage)
	copy(exact, `[6,"`)
	for i := 4; i < len(exact)-2; i++ {
		exact[i] = 'y'
	}
	copy(exact[len(exact)-2:], `"]`)
	if err := bad.ws.Write(bad.ctx, websocket.MessageText, exact); err != nil {
		t.Fatal(err)
	}
	bad.send(protocol.VoteSend, "teams")
	bad.until("team list after a 64 KiB message", func(m msg) bool {
		return m.port == protocol.VoteData && string(m.payload) == `["team1","team2","spectators"]`
	})
	for i := 0; i < 2000; i++ {
		if err := bad.ws.Write(bad.ctx, websocket.MessageText, []byte(`[6,"flood"]`)); err != nil {
			t.Fatal(err)
		}
	}
	big := make([]byte, protocol.MaxClientMessage+1)
	copy(big, `[6,"`)
	for i := 4; i < len(big); i++ {
		big[i] = 'x'
	}
	_ = bad.ws.Write(bad.ctx, websocket.MessageText, big)
	if code, _ := bad.expectClose(); code != websocket.StatusMessageTooBig {
		t.Fatalf("oversized message: close %d, want 1009", code)
	}
	start, pings := good.frames, good.pings
	good.until("frames and pings keep flowing", func(m msg) bool { return good.frames-start >= 60 && good.pings-pings >= 2 })
	if !good.last.HasPlayer {
		t.Fatal("good client lost its player block")
	}
	if st := good.core.Stats(); st.Dropped != 0 || st.Decoded == 0 {
		t.Fatalf("client core stats %+v: frames dropped", st)
	}
}

func TestGracefulShutdown(t *testing.T) {
	srv, cancel := startHost(t, Config{})
	c := dial(t, srv)
	c.handshake("Stay")
	cancel()
	if code, _ := c.expectClose(); code != websocket.StatusGoingAway {
		t.Fatalf("close %d, want 1001", code)
	}
	<-srv.Done()
}
