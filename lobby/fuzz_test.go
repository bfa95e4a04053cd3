package lobby

import (
	"encoding/json"
	"strings"
	"testing"
)

// Each parser returns a value or an error for any input, never panics, and
// what it returns keeps its bounds.

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"type":"welcome","id":"a","iceServers":[{"urls":"stun:x:1"},{"urls":["stun:y","turn:z"]}]}`,
		`{"type":"webrtc_answer","hostId":"h","sdp":{"type":"answer","sdp":"v=0"}}`,
		`{"type":"webrtc_answer","roomId":"r","hostId":"r","epoch":2,"sdp":{"type":"answer","sdp":"v=0"}}`,
		`{"type":"ice_candidate","fromId":"h","epoch":1,"candidate":{"candidate":"candidate:1 1 udp 1 127.0.0.1 5000 typ host","sdpMid":"0","sdpMLineIndex":0}}`,
		`{"type":"webrtc_offer","clientId":"c","sdp":{"type":"offer","sdp":"v=0"},"memberId":"m","epoch":1}`,
		`{"type":"ping_host","clientId":"c","pingId":3}`,
		`{"type":"pong_host","hostId":"h","pingId":3}`,
		`{"type":"error","code":"voteRejected","re":"host_vote_start","reason":"active"}`,
		`{"type":"host_registered","hostId":"h","hostSecret":"s","gameId":"tanks","mapsVersion":null,"codeVersion":{}}`,
		`{"type":"host_migrating","roomId":"r","epoch":2,"reason":"vote","waitMs":5000}`,
		`{"type":"host_changed","roomId":"r","epoch":2,"mode":"cold"}`,
		`{"type":"room_closed","roomId":"r","reason":"x"}`,
		`{"type":"host_vote","roomId":"r","voteId":"v","initiatorNick":"n","endsAt":1,"durationMs":15000,"eligibleCount":3}`,
		`{"type":"host_vote_result","roomId":"r","voteId":"v","passed":true,"yes":2,"no":1,"eligibleCount":3}`,
		`{"type":"standby_assigned"}`, `{"type":5}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Parse(b)
		if err != nil {
			return
		}
		switch m := v.(type) {
		case *Welcome:
			if m.ID == "" || len(m.ICEServers) > maxICEServers {
				t.Fatalf("welcome %+v", m)
			}
			for _, s := range m.ICEServers {
				if len(s.URLs) > maxURLsPerServer {
					t.Fatalf("urls %v", s.URLs)
				}
			}
		case *Answer:
			if m.Room() == "" || m.SDP.Type != "answer" {
				t.Fatalf("answer %+v", m)
			}
		case *Error:
			if m.Code == "" || Words(m.Code, m.Reason) == "" {
				t.Fatalf("error %+v", m)
			}
		}
	})
}

func FuzzParseServerPage(f *testing.F) {
	for _, s := range []string{
		`{"total":2,"servers":[{"hostId":"h1","name":"A","mapName":"m","currentPlayers":1,"maxPlayers":8,"region":"eu","gameId":"tanks","rating":-3}]}`,
		`{"total":1,"servers":[{"roomId":"abcd2345","hostId":"abcd2345","info":"B","currentPlayers":1e9,"maxPlayers":-1}]}`,
		`{"servers":[null,1,"x",{"hostId":""}]}`, `{"total":-5,"servers":[]}`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		page, _, err := ParseServerPage(b)
		if err != nil {
			return
		}
		if page.Total < 0 || len(page.Servers) > MaxRooms {
			t.Fatalf("page %d rooms, total %d", len(page.Servers), page.Total)
		}
		for _, r := range page.Servers {
			if r.ID == "" || r.CurrentPlayers < 0 || r.MaxPlayers < 0 || !json.Valid(r.Raw) {
				t.Fatalf("room %+v", r)
			}
		}
		if len(page.Servers) > 0 {
			_, _ = FindRoom(page.Servers, page.Servers[0].Name)
		}
	})
}

func FuzzParseClaims(f *testing.F) {
	for _, s := range []string{
		"eyJhbGciOiJSUzI1NiIsImtpZCI6ImsifQ.eyJzdWIiOiIxIiwibmljayI6IkEiLCJpc3MiOiJ2aW1wLWF1dGgiLCJleHAiOjE5MDAwMDAwMDB9.c2ln",
		"eyJhbGciOiJub25lIn0.eyJuaWNrIjoiTmVvIn0.",
		"eyJhbGciOiJSUzI1NiJ9.eyJleHAiOiJzb29uIn0.c2ln",
		"a.b.c", "", "....",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseClaims(s)
		if err == nil && len(s) > maxTokenLen {
			t.Fatalf("over-long token parsed: %+v", c)
		}
	})
}

func FuzzParseJWKS(f *testing.F) {
	for _, s := range []string{
		`{"keys":[{"kty":"RSA","kid":"k","n":"sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw","e":"AQAB"}]}`,
		`{"keys":[{"kty":"oct","k":"AAAA"}]}`, `{"keys":"x"}`, `{}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		set, err := ParseJWKS(b)
		if err == nil && (len(set.Keys) == 0 || len(set.Keys) > maxJWKSKeys) {
			t.Fatalf("%d keys", len(set.Keys))
		}
	})
}

func FuzzConnectSources(f *testing.F) {
	for _, s := range []string{
		"default-src 'self'; connect-src 'self' wss: data: https://auth.example.org; img-src 'self'",
		"connect-src https://a.example, connect-src http://127.0.0.1:3010/",
		"connect-src *.x https://u:p@y https://z/?q", "connect-src", ";;;,,,", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := ConnectSources(s)
		if len(out) > maxPolicySources {
			t.Fatalf("%d sources", len(out))
		}
		for _, u := range out {
			if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || strings.ContainsAny(u, "'* ") {
				t.Fatalf("source %q", u)
			}
			if again, ok := serviceOrigin(u); !ok || again != u {
				t.Fatalf("source %q reads back as %q %v", u, again, ok)
			}
		}
	})
}
