// Package hostile is a vimp host that lies, for tests and measurements:
// it plays the handshake as a real host does, then throws one kind of
// hostile traffic at the client until the connection ends. Each Scenario
// is one attack the client must survive without freezing, panicking or
// growing without bound. testkit/cmd/hostilehost serves them on a port, for
// measuring the built client from outside.
package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"vimpclient/host/packer"
	"vimpclient/protocol"
	"vimpclient/snapschema"
)

// Scenario names one kind of hostile traffic.
type Scenario string

// The scenarios.
const (
	// Entities: binary frames whose rows keep naming new entities, as
	// fast as the socket takes them.
	Entities Scenario = "entities"
	// Schemas: CONFIG_DATA messages near the message cap with a schema of
	// every key id and hundreds of fields, sent again and again.
	Schemas Scenario = "schemas"
	// Garbage: random binary frames (valid headers, random bodies) and
	// random text on every port.
	Garbage Scenario = "garbage"
	// Messages: chat, stat, panel and vote messages at their size limits,
	// as fast as the socket takes them.
	Messages Scenario = "messages"
	// Maps: MAP_DATA near the message cap and the map limits, again and
	// again.
	Maps Scenario = "maps"
	// Assets: a sound catalog and images that point at files which are
	// too large, never end, or decode to huge pictures.
	Assets Scenario = "assets"
	// Chat: chat lines of 64 KiB texts and authors, system lines and
	// templates with 64 KiB parameters, each one new, as fast as the socket
	// takes them, to a game that asks the client to keep 10000 lines.
	Chat Scenario = "chat"
	// Panels: panel messages of 64 entries, each a known key with a
	// 64 KiB value.
	Panels Scenario = "panels"
	// Stats: scoreboard messages naming new rows of 64 KiB ids and cells
	// in every table.
	Stats Scenario = "stats"
	// Votes: votes opened with 64 KiB title parameters and an inline list
	// of 256 options of 8 KiB, and value lists of the same.
	Votes Scenario = "votes"
)

// Scenarios lists every scenario.
var Scenarios = []Scenario{Entities, Schemas, Garbage, Messages, Maps, Assets, Chat, Panels, Stats, Votes}

// metaScenario reports whether s floods one overlay, with MetaConfig.
func metaScenario(s Scenario) bool {
	return s == Chat || s == Panels || s == Stats || s == Votes
}

// Host serves /config, /game and the asset traps of one scenario.
type Host struct {
	scenario Scenario
	mux      *http.ServeMux
}

// New returns a host for s, or an error for an unknown scenario.
func New(s Scenario) (*Host, error) {
	known := false
	for _, k := range Scenarios {
		known = known || k == s
	}
	if !known {
		return nil, fmt.Errorf("hostile: unknown scenario %q", s)
	}
	h := &Host{scenario: s, mux: http.NewServeMux()}
	h.mux.HandleFunc("/config", h.config)
	h.mux.HandleFunc("/game", h.game)
	h.assetRoutes()
	return h, nil
}

// ServeHTTP implements http.Handler.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

func (h *Host) config(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"mode":"dedicated","gameId":"hostile","gameVersion":"1","wsPath":"/game"}`))
}

// conn is one client connection.
type conn struct {
	c   *websocket.Conn
	ctx context.Context
	rnd *rand.Rand
}

func (c *conn) send(port int, payload string) error {
	return c.c.Write(c.ctx, websocket.MessageText, []byte(fmt.Sprintf("[%d,%s]", port, payload)))
}

func (c *conn) read() error {
	_, _, err := c.c.Read(c.ctx)
	return err
}

// errStop ends a connection.
var errStop = errors.New("stop")

func (h *Host) game(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	defer ws.CloseNow()
	c := &conn{c: ws, ctx: r.Context(), rnd: rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))}
	// The client's PONGs and input are read and dropped in the background
	// once the handshake is over.
	if err := h.handshake(c); err != nil {
		return
	}
	go func() {
		for c.read() == nil {
		}
	}()
	_ = h.attack(c)
}

// Config is the CONFIG_DATA of every scenario but Schemas: one hot key of
// entities with a position, one list key of events, two canvases.
const Config = `{"interpolation":{"delay":100,"maxFrameAge":1000},` +
	`"modules":{"canvasManager":{"canvases":{"vimp":{"width":960,"height":600,"aspectRatio":"16:9","baseScale":"5:1","dynamicCamera":true},` +
	`"radar":{"width":150,"height":150,"fixSize":"150","baseScale":"1:8"}}}},` +
	`"parts":{"gameSets":{"a":["Blob"],"e":["Spark"]},"entitiesOnCanvas":{"Blob":"vimp","Spark":"vimp"}%s},` +
	`"snapshot":{"a":{"id":1,"kind":"indexed32","class":"hot","fields":[{"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"angle","ty":"f32","interp":"lerpAngle"},{"name":"team","ty":"u8"}]},` +
	`"e":{"id":2,"kind":"list16","class":"event","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"}]}}}`

// handshake plays a healthy join up to play: CONFIG_DATA, the auth form,
// the auth verdict, MAP_DATA and FIRST_SHOT_DATA, each answered.
func (h *Host) handshake(c *conn) error {
	config, m := fmt.Sprintf(Config, ""), HugeMap(4, 4)
	switch {
	case h.scenario == Assets:
		config, m = fmt.Sprintf(Config, `,"sounds":`+soundCatalog), trapMap
	case metaScenario(h.scenario):
		config = MetaConfig()
	}
	steps := []struct {
		port    int
		payload string
	}{
		{protocol.ConfigData, config},
		{protocol.AuthData, `{"params":[{"name":"name","value":"","options":{"storage":"playerName","required":true}}]}`},
		{protocol.AuthResult, "null"},
		{protocol.MapData, m},
		{protocol.FirstShotData, `[{},0,1,0]`},
	}
	for _, s := range steps {
		if err := c.send(s.port, s.payload); err != nil {
			return err
		}
		if err := c.read(); err != nil {
			return err
		}
	}
	for _, m := range []struct {
		port    int
		payload string
	}{{protocol.TechInformData, "null"}, {protocol.KeysetData, "1"}, {protocol.Ping, "1"}} {
		if err := c.send(m.port, m.payload); err != nil {
			return err
		}
	}
	return nil
}

func (h *Host) attack(c *conn) error {
	switch h.scenario {
	case Entities:
		return floodEntities(c)
	case Schemas:
		return floodSchemas(c)
	case Garbage:
		return floodGarbage(c)
	case Messages:
		return floodMessages(c)
	case Maps:
		return floodMaps(c)
	case Assets:
		<-c.ctx.Done() // the traps are in the files the client fetches
		return nil
	case Chat, Panels, Stats, Votes:
		next := MetaFlood(h.scenario)
		for {
			port, payload := next()
			if err := c.send(port, payload); err != nil {
				return err
			}
		}
	}
	return nil
}

// entitySchema is Config's snapshot for the packer.
func entitySchema() *snapschema.Schema {
	var cfg struct {
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := json.Unmarshal([]byte(fmt.Sprintf(Config, "")), &cfg); err != nil {
		panic(err) // a constant
	}
	s, err := snapschema.Parse(cfg.Snapshot)
	if err != nil {
		panic(err) // a constant
	}
	return s
}

// EntityFrames returns a function building the next frame of the entity
// flood: each frame names perFrame entities never seen before, repeats the
// keep latest ones before them (interpolation shows an entity only once
// two frames carry it) and adds a few event rows, its server time
// advancing 16 ms a frame.
func EntityFrames(perFrame, keep int) func() []byte {
	s := entitySchema()
	a, e := s.Key("a"), s.Key("e")
	var f packer.Frame
	seq, last := uint32(0), uint32(0)
	vals := make([]packer.Value, 4)
	return func() []byte {
		seq++
		f.Start(seq, float64(seq)*16, &packer.Camera{X: 0, Y: 0}, nil)
		f.Block(a)
		first := uint32(1)
		if last > uint32(keep) {
			first = last - uint32(keep) + 1
		}
		last += uint32(perFrame)
		for id := first; id <= last; id++ {
			vals[0], vals[1] = packer.F(float32(id%1000)), packer.F(float32(id/1000))
			vals[2], vals[3] = packer.F(0), packer.I(id%4)
			f.Row(id, vals)
		}
		f.Block(e)
		for range 16 {
			f.ListRow(vals[:2])
		}
		b, err := f.Bytes()
		if err != nil {
			panic(err) // the rows fit the schema by construction
		}
		return bytes.Clone(b) // the frame's buffer is reused
	}
}

func floodEntities(c *conn) error {
	next := EntityFrames(500, 500)
	for {
		if err := c.c.Write(c.ctx, websocket.MessageBinary, next()); err != nil {
			return err
		}
	}
}

// HostileSchema is a CONFIG_DATA snapshot of every key id, each with
// fields fields of long names.
func HostileSchema(fields int) string {
	var b strings.Builder
	b.WriteString("{")
	kinds := []string{"indexed8", "indexed32", "list16", "indexedNoNull8"}
	for id := range 256 {
		if id > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%03d%s":{"id":%d,"kind":%q,"class":%q,"fields":[`, id, strings.Repeat("x", 40), id, kinds[id%4], [2]string{"hot", "event"}[id%2])
		for f := range fields {
			if f > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"name":"f%d%s","ty":"f32","interp":"lerp"}`, f, strings.Repeat("y", 20))
		}
		b.WriteString("]}")
	}
	b.WriteString("}")
	return b.String()
}

func floodSchemas(c *conn) error {
	// One schema just within the client's bounds, one far past them
	// (about 2.8 MiB), each with the frames a client decodes against it.
	cfg := func(snap string) string {
		return fmt.Sprintf(`{"interpolation":{"delay":100,"maxFrameAge":1000},"modules":{"canvasManager":{"canvases":{"vimp":{"width":960,"height":600}}}},`+
			`"parts":{"gameSets":{"k001":["A","B","C","D"]},"entitiesOnCanvas":{}},"snapshot":%s}`, snap)
	}
	msgs := []string{cfg(HostileSchema(14)), cfg(HostileSchema(200))}
	for i := 0; ; i++ {
		if err := c.send(protocol.ConfigData, msgs[i%2]); err != nil {
			return err
		}
		for range 8 {
			if err := c.c.Write(c.ctx, websocket.MessageBinary, randomFrame(c.rnd)); err != nil {
				return err
			}
		}
	}
}

// randomFrame is a v5 header followed by random bytes.
func randomFrame(r *rand.Rand) []byte {
	n := 16 + r.IntN(64<<10)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	b[0], b[1] = packer.Port, packer.Version
	return b
}

func floodGarbage(c *conn) error {
	for i := 0; ; i++ {
		if err := c.c.Write(c.ctx, websocket.MessageBinary, randomFrame(c.rnd)); err != nil {
			return err
		}
		junk := make([]byte, c.rnd.IntN(8<<10))
		for j := range junk {
			junk[j] = byte(32 + c.rnd.IntN(95))
		}
		port := c.rnd.IntN(protocol.ServerPortCount + 1) // every port and one unknown
		switch port {
		case protocol.AuthResult, protocol.Ping:
			// An auth verdict that rejects ends a headless run, as it
			// should; a PING is answered. Neither is garbage to survive.
			port = protocol.Misc
		}
		js, _ := json.Marshal(string(junk))
		payloads := []string{string(js), "{" + string(js) + ":1}", "[" + strings.Repeat("[", 500) + strings.Repeat("]", 500) + "]", "1e400"}
		if err := c.send(port, payloads[i%len(payloads)]); err != nil {
			return err
		}
	}
}

func floodMessages(c *conn) error {
	long := strings.Repeat("w", 600)
	var stat strings.Builder
	stat.WriteString(`[[`)
	for i := range 600 {
		if i > 0 {
			stat.WriteString(",")
		}
		fmt.Fprintf(&stat, `[%d,0,[%q,1,2,3]]`, i, long)
	}
	stat.WriteString(`],[]]`)
	var panel strings.Builder
	panel.WriteString("[")
	for i := range 100 {
		if i > 0 {
			panel.WriteString(",")
		}
		fmt.Fprintf(&panel, `["p%d",%q]`, i, long)
	}
	panel.WriteString("]")
	items := make([]string, 300)
	for i := range items {
		items[i] = fmt.Sprintf("%q", fmt.Sprint(long, i))
	}
	vote := `[["v` + long[:70] + `",[` + strings.Repeat(`"p",`, 20) + `"p"],[` + strings.Join(items, ",") + `]],null,null]`
	msgs := []struct {
		port    int
		payload string
	}{
		{protocol.ChatData, fmt.Sprintf(`[%q,0,"sys"]`, long)},
		{protocol.StatData, stat.String()},
		{protocol.PanelData, panel.String()},
		{protocol.VoteData, vote},
		{protocol.GameInformData, fmt.Sprintf(`[%q,[%q],5000]`, long, long)},
		{protocol.TechInformData, fmt.Sprintf(`[%d,[%q]]`, 2, long)},
	}
	for i := 0; ; i++ {
		m := msgs[i%len(msgs)]
		if err := c.send(m.port, m.payload); err != nil {
			return err
		}
	}
}

// HugeMap is a MAP_DATA of a cols×rows grid, every cell a wall tile, and
// the most bodies a map may have.
func HugeMap(cols, rows int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"setId":"m","step":32,"scale":1,"spriteSheet":{"img":"t.png","frames":[[0,0,32,32],[32,0,32,32]]},"physicsStatic":[1],"layers":{"1":[0],"2":[1]},"map":[`)
	for r := range rows {
		if r > 0 {
			b.WriteString(",")
		}
		b.WriteString("[")
		for col := range cols {
			if col > 0 {
				b.WriteString(",")
			}
			b.WriteByte("01"[(r*7+col*13)%3/2])
		}
		b.WriteString("]")
	}
	b.WriteString(`],"physicsDynamic":[`)
	for i := range 256 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"position":[%d,%d],"width":32,"height":32,"angle":0,"img":"t.png","layer":2}`, i*40, i*40)
	}
	b.WriteString("]}")
	return b.String()
}

func floodMaps(c *conn) error {
	// About 4 MiB: a grid of the largest accepted cell count, and one past
	// every limit in turn.
	maps := []string{HugeMap(1024, 1000), HugeMap(4097, 2), HugeMap(1100, 1000)}
	for i := 0; ; i++ {
		if err := c.send(protocol.MapData, maps[i%len(maps)]); err != nil {
			return err
		}
	}
}

// Sizes of the overlay floods.
const (
	// FloodText is the length of a flooded text: a chat line, a panel
	// value, a scoreboard cell, a vote parameter.
	FloodText = 64 << 10
	// floodOption is the length of a flooded vote option.
	floodOption = 8 << 10
	// MetaTeams is the number of scoreboard tables MetaConfig declares.
	MetaTeams = 4
	// MetaColumns is the number of scoreboard columns MetaConfig declares.
	MetaColumns = 32
	// MetaPanelKeys is the number of panel keys MetaConfig declares.
	MetaPanelKeys = 64
)

// MetaConfig is Config with every overlay the meta floods aim at, each
// asking the most the client accepts: a chat history of 10000 lines,
// MetaPanelKeys panel value cells, MetaTeams scoreboard tables of
// MetaColumns columns, a vote template "flood" with a title of parameters
// and no values of its own, and a chat template group "t".
func MetaConfig() string {
	var cfg map[string]any
	if err := json.Unmarshal([]byte(fmt.Sprintf(Config, "")), &cfg); err != nil {
		panic(err) // a constant
	}
	keys, fields := map[string]string{}, []map[string]any{}
	for i := range MetaPanelKeys {
		keys[fmt.Sprintf("k%d", i)] = fmt.Sprintf("f%d", i)
		fields = append(fields, map[string]any{"name": fmt.Sprintf("f%d", i), "type": "value"})
	}
	cols, bodies, heads := []string{}, map[string]string{}, map[string]string{}
	for i := range MetaColumns {
		cols = append(cols, fmt.Sprintf("c%d", i))
	}
	for t := range MetaTeams {
		bodies[fmt.Sprint(t+1)] = fmt.Sprintf("team%d", t+1)
		heads[fmt.Sprint(t+1)] = fmt.Sprintf("team%d", t+1)
	}
	modules := cfg["modules"].(map[string]any)
	modules["chat"] = map[string]any{"params": map[string]any{
		"listLimit": 100, "cacheMin": 9999, "cacheMax": 10000,
		"messages": map[string][]string{"t": {"{0} said {1} to {2}"}},
	}}
	modules["panel"] = map[string]any{"keys": keys, "fields": fields}
	modules["stat"] = map[string]any{"params": map[string]any{"columns": cols, "bodies": bodies, "heads": heads}}
	modules["vote"] = map[string]any{"params": map[string]any{
		"templates": map[string][]any{"flood": {"{0} {1} {2} {3}", nil, true}},
		"time":      1e9,
	}}
	b, err := json.Marshal(cfg)
	if err != nil {
		panic(err) // plain values
	}
	return string(b)
}

// MetaFlood returns a function giving the next message of the overlay
// flood s (Chat, Panels, Stats or Votes): its port and payload. Every text
// is new, so nothing a client keeps can be shared between messages.
func MetaFlood(s Scenario) func() (int, string) {
	n := 0
	// long is a text of size bytes that differs from every other: a
	// number, then filler.
	long := func(size int) string {
		n++
		head := fmt.Sprintf("%d-", n)
		return head + strings.Repeat("w", size-len(head))
	}
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	i := 0
	return func() (int, string) {
		i++
		switch s {
		case Chat:
			switch i % 3 {
			case 0:
				return protocol.ChatData, fmt.Sprintf(`[%s]`, q(long(FloodText)))
			case 1:
				return protocol.ChatData, fmt.Sprintf(`[%s,%s,1]`, q(long(FloodText)), q(long(FloodText)))
			default:
				return protocol.ChatData, q("t:0:" + long(FloodText) + "," + long(FloodText) + "," + long(FloodText))
			}
		case Panels:
			var b strings.Builder
			b.WriteString("[")
			for k := range MetaPanelKeys {
				if k > 0 {
					b.WriteString(",")
				}
				b.WriteString(q(fmt.Sprintf("k%d:", k) + long(FloodText/8)))
			}
			b.WriteString("]")
			return protocol.PanelData, b.String()
		case Stats:
			// Rows of one table a message, about 2 MiB: new ids, every
			// cell a long text, and a team row.
			var b strings.Builder
			team := 1 + i%MetaTeams
			b.WriteString("[[")
			for r := range 8 {
				if r > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `[%s,%d,[`, q(long(FloodText/16)), team)
				for c := range MetaColumns {
					if c > 0 {
						b.WriteString(",")
					}
					b.WriteString(q(long(FloodText / 8)))
				}
				b.WriteString("]]")
			}
			fmt.Fprintf(&b, `],[[%d,[%s]]]]`, team, q(long(FloodText)))
			return protocol.StatData, b.String()
		case Votes:
			if i%2 == 0 {
				items := make([]string, 256)
				for k := range items {
					items[k] = q(long(floodOption))
				}
				return protocol.VoteData, "[" + strings.Join(items, ",") + "]"
			}
			params := make([]string, 4)
			for k := range params {
				params[k] = q(long(FloodText))
			}
			items := make([]string, 64)
			for k := range items {
				items[k] = q(long(floodOption))
			}
			return protocol.VoteData, fmt.Sprintf(`{"name":"flood","params":[%s],"values":[%s]}`, strings.Join(params, ","), strings.Join(items, ","))
		}
		panic("hostile: not an overlay flood: " + string(s))
	}
}
