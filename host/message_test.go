package host

import (
	"encoding/json"
	"testing"
	"time"
)

func TestParseClientMessage(t *testing.T) {
	cases := []struct {
		in      string
		ok      bool
		port    int
		payload string
	}{
		{`[0,null]`, true, 0, `null`},
		{`[5,"3:down:forward"]`, true, 5, `"3:down:forward"`},
		{` [8, 17] `, true, 8, `17`},
		{`[2]`, true, 2, `null`},
		{`[1,{"name":"Al"}]`, true, 1, `{"name":"Al"}`},
		{`[11,null]`, false, 0, ``},
		{`[-1,null]`, false, 0, ``},
		{`["constructor",-1]`, false, 0, ``},
		{`[1.0,null]`, false, 0, ``},
		{`[0`, false, 0, ``},
		{`{}`, false, 0, ``},
		{`null`, false, 0, ``},
		{`42`, false, 0, ``},
		{``, false, 0, ``},
		{`[]`, false, 0, ``},
		{`not json{`, false, 0, ``},
	}
	for _, c := range cases {
		port, payload, ok := ParseClientMessage([]byte(c.in))
		if ok != c.ok || port != c.port || (ok && string(payload) != c.payload) {
			t.Errorf("%q: got %d %s %v, want %d %s %v", c.in, port, payload, ok, c.port, c.payload, c.ok)
		}
	}
}

func FuzzParseClientMessage(f *testing.F) {
	for _, s := range []string{`[0,null]`, `[5,"1:down:fire"]`, `[7,["teamChange","team1"]]`, `[8,3]`,
		`["constructor",-1]`, `[0`, `{}`, "\x00\xff", `[1,{"name":"A","model":"m1"}]`, `[3]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		port, payload, ok := ParseClientMessage(data)
		if !ok {
			return
		}
		if port < 0 || port > 8 {
			t.Fatalf("port %d accepted", port)
		}
		if !json.Valid(payload) {
			t.Fatalf("payload %q is not JSON", payload)
		}
	})
}

// The budget admits limit messages a second, and a full allowance again
// once a second has passed since its window opened.
func TestMessageBudget(t *testing.T) {
	b := messageBudget{limit: 3}
	t0 := time.Unix(100, 0)
	for i, want := range []bool{true, true, true, false, false} {
		if got := b.admit(t0.Add(time.Duration(i) * 100 * time.Millisecond)); got != want {
			t.Fatalf("message %d in the first second: admitted %v, want %v", i, got, want)
		}
	}
	if !b.admit(t0.Add(time.Second)) || !b.admit(t0.Add(1500*time.Millisecond)) {
		t.Fatal("the next second's messages refused")
	}
}
