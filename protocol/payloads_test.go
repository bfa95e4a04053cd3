package protocol

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"vimpclient/testkit/capturetest"
)

func sharedDir(t testing.TB) string { return capturetest.SharedDir(t) }

type captureLine struct {
	Dir     string          `json:"dir"`
	Kind    string          `json:"kind"`
	Port    int             `json:"port"`
	Payload json.RawMessage `json:"payload"`
}

// Every JSON message the upstream host sent in the captures decodes without error.
func TestCapturedPayloadsDecode(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedDir(t), "captures", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no captures found under the test data")
	}
	perPort := map[int]int{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			var l captureLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if l.Dir != "s2c" || l.Kind != "json" {
				continue
			}
			if _, err := DecodePayload(l.Port, l.Payload); err != nil {
				t.Errorf("%s port %d %s: %v", filepath.Base(f), l.Port, l.Payload, err)
			}
			perPort[l.Port]++
		}
		fh.Close()
	}
	for _, p := range []int{ConfigData, AuthData, AuthResult, MapData, FirstShotData, GameInformData, TechInformData, Ping, Clear, PanelData, StatData, ChatData, VoteData, KeysetData} {
		if perPort[p] == 0 {
			t.Errorf("captures hold no message on port %d", p)
		}
	}
}

func TestEnvelope(t *testing.T) {
	for _, tc := range []struct {
		in   string
		port int
		pay  string
		bad  bool
	}{
		{`[10,17]`, 10, `17`, false},
		{`[10, 17.0 ]`, 10, `17.0`, false},
		{`[2]`, 2, `null`, false},
		{`[0,null]`, 0, `null`, false},
		{`[42,{"a":1}]`, 42, `{"a":1}`, false},
		{`{}`, 0, ``, true},
		{`[]`, 0, ``, true},
		{`["constructor",-1]`, 0, ``, true},
		{`[-1,0]`, 0, ``, true},
		{`[1.5,0]`, 0, ``, true},
		{`[1,2,3]`, 0, ``, true},
		{`not json{`, 0, ``, true},
	} {
		env, err := ParseEnvelope([]byte(tc.in))
		if tc.bad {
			if err == nil || !errors.Is(err, ErrNotEnvelope) {
				t.Errorf("%s: want ErrNotEnvelope, got %v", tc.in, err)
			}
			continue
		}
		if err != nil || env.Port != tc.port || string(env.Payload) != tc.pay {
			t.Errorf("%s: got %d %s %v", tc.in, env.Port, env.Payload, err)
		}
	}
}

func TestPongEchoesExactToken(t *testing.T) {
	for _, id := range []string{"17", "1e3", "17.0", "4294967296"} {
		tok, err := ParsePing(json.RawMessage(id))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got := string(PongMsg(tok)); got != "[8,"+id+"]" {
			t.Errorf("pong for %s = %s", id, got)
		}
	}
	for _, bad := range []string{`"17"`, `null`, `[1]`, `{}`, `1x`} {
		if _, err := ParsePing(json.RawMessage(bad)); err == nil {
			t.Errorf("ping %s accepted", bad)
		}
	}
}

func TestStatCells(t *testing.T) {
	st, err := ParseStat(json.RawMessage(`[[["1",3,null],["1",1,["Bob","",0,0,null]],["2",1,["Bot","",1,2,"SCRIPTED"],1],"junk"],[[3,[1,"",0,0]],[1,[1,"",0,0],2]],true]`))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Full || len(st.Bodies) != 3 || len(st.Heads) != 2 {
		t.Fatalf("got %+v", st)
	}
	if !st.Bodies[0].Remove || st.Bodies[1].Cells[4] != (StatCell{Keep: true}) || st.Bodies[1].Cells[1] != (StatCell{Text: ""}) {
		t.Errorf("cells: %+v", st.Bodies)
	}
	if st.Bodies[2].Cells[4].Text != "SCRIPTED" || st.Bodies[2].Cells[3].Text != "2" || st.Bodies[2].Body != 1 || st.Heads[1].Row != 2 {
		t.Errorf("scalars: %+v %+v", st.Bodies[2], st.Heads[1])
	}
}

func TestChatVoteTechForms(t *testing.T) {
	c, err := ParseChat(json.RawMessage(`"s:4:Bob,Alice"`))
	if err != nil || c.Kind != ChatTemplate || c.Group != "s" || c.Index != 4 || len(c.Params) != 2 || c.Params[1] != "Alice" {
		t.Errorf("template: %+v %v", c, err)
	}
	c, err = ParseChat(json.RawMessage(`["gg","Alice",1]`))
	if err != nil || c.Kind != ChatPlayer || c.Author != "Alice" || c.Team != 1 {
		t.Errorf("player: %+v %v", c, err)
	}
	c, err = ParseChat(json.RawMessage(`["7:45"]`))
	if err != nil || c.Kind != ChatSystem || c.Text != "7:45" {
		t.Errorf("system: %+v %v", c, err)
	}
	v, err := ParseVote(json.RawMessage(`{"name":"mapChangeBySystem","values":["a","b"]}`))
	if err != nil || v.Open == nil || v.Open.Name != "mapChangeBySystem" || string(v.Open.Values) != `["a","b"]` {
		t.Errorf("vote: %+v %v", v, err)
	}
	v, err = ParseVote(json.RawMessage(`[]`))
	if err != nil || !v.IsList || len(v.List) != 0 {
		t.Errorf("empty list: %+v %v", v, err)
	}
	ti, err := ParseTechInform(json.RawMessage(`[6,[30]]`))
	if err != nil || ti.Hide || ti.Code != 6 || ti.Params[0] != "30" || !ti.Terminal() {
		t.Errorf("tech: %+v %v", ti, err)
	}
	ti, _ = ParseTechInform(json.RawMessage(`[2]`))
	if ti.Terminal() {
		t.Error("loading is terminal")
	}
	cl, err := ParseClear(json.RawMessage(`[]`))
	if err != nil || cl.Full || len(cl.Sets) != 0 {
		t.Errorf("partial clear: %+v %v", cl, err)
	}
}

func TestBuilders(t *testing.T) {
	m, err := AuthResponseMsg(map[string]string{"name": "Alice", "model": "m1"})
	if err != nil || string(m) != `[1,{"model":"m1","name":"Alice"}]` {
		t.Errorf("auth: %s %v", m, err)
	}
	if s := string(KeyMsg(42, KeyDown, "forward")); s != `[5,"42:down:forward"]` {
		t.Errorf("key: %s", s)
	}
	if s := string(AimMsg(44, 512.254, 300.5, 1)); s != `[5,"44:aim:512.25:300.5:1"]` {
		t.Errorf("aim: %s", s)
	}
	if s := string(VoteAnswerMsg("teamChange", "team1")); s != `[7,["teamChange","team1"]]` {
		t.Errorf("vote: %s", s)
	}
	if _, ok := ChatMsg("\x01\x7f"); ok {
		t.Error("control-only chat sent")
	}
	if s, _ := ChatMsg("g\ng"); string(s) != `[6,"gg"]` {
		t.Errorf("chat: %s", s)
	}
	if string(Null(MapReady)) != "[3,null]" {
		t.Error("null message")
	}
}
