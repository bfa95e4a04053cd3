package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Each parser must return a value or an error for any input, never panic.

func seedPayloads(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`null`))
	f.Add([]byte(``))
	f.Add([]byte(`[`))
	f.Add([]byte(`{"a":[1,{"b":null}]}`))
}

func FuzzParseEnvelope(f *testing.F) {
	seedPayloads(f, `[10,17]`, `[0,{"x":1}]`, `["constructor",-1]`, `[1e3,0]`, `[2]`)
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := ParseEnvelope(b)
		if err == nil && (env.Port < 0 || env.Payload == nil) {
			t.Fatalf("bad envelope %+v", env)
		}
		// The payload is sliced out of the text, not decoded: the standard
		// decoder splitting the same array must agree on every input.
		var parts []json.RawMessage
		want := json.Unmarshal(b, &parts) == nil && len(parts) >= 1 && len(parts) <= 2
		if want {
			port, perr := parsePort(parts[0])
			want = perr == nil
			if want && err == nil {
				payload := []byte("null")
				if len(parts) == 2 {
					payload = bytes.TrimSpace(parts[1])
				}
				if env.Port != port || !bytes.Equal(env.Payload, payload) {
					t.Fatalf("%q: got port %d payload %q, the decoder says %d %q", b, env.Port, env.Payload, port, payload)
				}
			}
		}
		if want != (err == nil) {
			t.Fatalf("%q: error %v, the decoder accepts it: %v", b, err, want)
		}
	})
}

func FuzzDecodePayload(f *testing.F) {
	for port, s := range []string{
		`{"interpolation":{"delay":100},"modules":{"controls":{"keySetList":[{"78":"nextPlayer"}]},"vote":{"params":{"templates":{"teamChange":["Choose a team","teams",true]}}}},"snapshot":{}}`,
		`{"params":[{"name":"name","value":"","options":{"storage":"playerName","required":true,"maxlength":15,"options":["m1"]}}],"texts":{"title":"T"}}`,
		`[{"name":"name","error":"not valid"}]`,
		`{"scale":0.6,"setId":"c1"}`,
		`[[{"id":0,"x":1}],0,1795959745442,0]`,
		`"roundStart"`, `[0,["team1"]]`, `[6,[30]]`, `{"key":"localstorageNameReplace","value":"Neo"}`, `17`,
		`["w2","m1"]`, `"log"`, `["t:97","h","w1:200"]`, `[[["1",3,null],["1",1,["Bob","",0,0,"BOT"]]],[[3,[1,"",0,0]]],true]`,
		`"s:4:Bob,Alice"`, `{"name":"teamChange"}`, `1`, `{"any":"thing"}`,
	} {
		f.Add(port, []byte(s))
	}
	f.Fuzz(func(t *testing.T, port int, b []byte) {
		v, err := DecodePayload(port, json.RawMessage(b))
		if err == nil && v == nil {
			t.Fatalf("port %d: nil value without error", port)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	seedPayloads(f, `{"modules":{"vote":{"params":{"templates":{"x":[1,[2],{}]}}}}}`, `{"modules":[]}`)
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseConfig(b) })
}

func FuzzParseAuthData(f *testing.F) {
	seedPayloads(f, `{"params":[{"name":"a","value":3,"options":{"maxlength":"x"}}]}`, `{"params":[{"name":1}]}`)
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ParseAuthData(b)
		if err == nil {
			for _, p := range a.Params {
				if p.Name == "" {
					t.Fatal("unnamed param accepted")
				}
			}
		}
	})
}

func FuzzParseStat(f *testing.F) {
	seedPayloads(f, `[[["1",1,[{},[],1.5,"x",true]]],[[1,null]]]`, `[[],[],1]`)
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := ParseStat(b)
		if err != nil {
			return
		}
		if len(st.Bodies) > MaxStatRows || len(st.Heads) > MaxStatHeads {
			t.Fatalf("%d rows, %d heads", len(st.Bodies), len(st.Heads))
		}
		for _, r := range st.Bodies {
			if len(r.Cells) > MaxStatCells {
				t.Fatalf("%d cells", len(r.Cells))
			}
			for _, c := range r.Cells {
				if len(c.Text) > MaxText {
					t.Fatalf("cell of %d bytes", len(c.Text))
				}
			}
		}
	})
}

func FuzzParseChat(f *testing.F) {
	seedPayloads(f, `"a:b"`, `"a:1:"`, `[1,2,"x"]`)
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseChat(b)
		if err != nil {
			return
		}
		if len(c.Text) > MaxText || len(c.Author) > MaxText || len(c.Params) > MaxParams || len(c.Group) > MaxName {
			t.Fatalf("chat beyond the limits: %d %d %d %d", len(c.Text), len(c.Author), len(c.Params), len(c.Group))
		}
	})
}

func FuzzParseVote(f *testing.F) {
	seedPayloads(f, `{"name":""}`, `{"name":"x","params":[1,null],"values":"teams"}`, `[1,[2]]`)
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := ParseVote(b)
		if err == nil && v.Open == nil && !v.IsList {
			t.Fatal("vote with neither form")
		}
		if len(v.List) > MaxVoteItems || (v.Open != nil && (len(v.Open.Params) > MaxParams || len(v.Open.Name) > MaxName)) {
			t.Fatal("vote beyond the limits")
		}
	})
}

func FuzzParsePing(f *testing.F) {
	seedPayloads(f, `17`, `-1`, `1e999`, `"1"`)
	f.Fuzz(func(t *testing.T, b []byte) {
		id, err := ParsePing(b)
		if err == nil {
			var n json.Number
			if json.Unmarshal(id, &n) != nil {
				t.Fatalf("accepted non-number %q", id)
			}
		}
	})
}

func FuzzSmallParsers(f *testing.F) {
	seedPayloads(f, `[2]`, `[0,["team1",1]]`, `["t:1","h"]`, `["a",1]`, `1`, `"x"`, `{"key":1}`, `[[],0,1,0]`, `{"scale":"x"}`)
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ParseAuthResult(b)
		_, _ = ParseMapData(b)
		_, _ = ParseFirstShot(b)
		_, _ = ParseSound(b)
		_, _ = ParseGameInform(b)
		_, _ = ParseTechInform(b)
		_, _ = ParseMisc(b)
		_, _ = ParseClear(b)
		if cells, err := ParsePanel(b); err == nil && len(cells) > MaxPanelCells {
			t.Fatalf("%d panel cells", len(cells))
		}
		_, _ = ParseKeyset(b)
	})
}
