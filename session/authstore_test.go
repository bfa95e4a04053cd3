package session

import (
	"os"
	"path/filepath"
	"testing"

	"vimpclient/testkit/localfiletest"
)

// A damaged auth store keeps the answers it can read; joining a host sets
// the damaged file aside instead of writing that host's values alone.
func TestDamagedAuthStoreLosesNothing(t *testing.T) {
	valid := []byte(`{"a.example:443|tanks":{"userName":"Alice","team":"red"},"b.example:80|snakes":{"userName":"Bob"}}`)
	for _, d := range localfiletest.Damages() {
		t.Run(d.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "auth.json")
			held := d.Write(t, path, valid)
			s := NewAuthStore(path)
			if err := s.Save("c.example:80", "tanks", map[string]string{"userName": "Carol"}); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, held)
			if got := s.Load("c.example:80", "tanks")["userName"]; got != "Carol" {
				t.Fatalf("the new answer reads %q", got)
			}
		})
	}
	for name, held := range map[string]string{
		"wrong value": `{"a.example:443|tanks":{"userName":"Alice","team":7},"b.example:80|snakes":{"userName":"Bob"}}`,
		"bad host":    `{"a.example:443|tanks":{"userName":"Alice","team":"red"},"x|y":[1],"b.example:80|snakes":{"userName":"Bob"}}`,
		"null host":   `{"a.example:443|tanks":{"userName":"Alice","team":"red"},"x|y":null,"b.example:80|snakes":{"userName":"Bob"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "auth.json")
			if err := os.WriteFile(path, []byte(held), 0o600); err != nil {
				t.Fatal(err)
			}
			s := NewAuthStore(path)
			if err := s.Save("c.example:80", "tanks", map[string]string{"userName": "Carol"}); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, []byte(held))
			if got := s.Load("a.example:443", "tanks")["userName"]; got != "Alice" {
				t.Errorf("a.example's answer: %q", got)
			}
			if got := s.Load("b.example:80", "snakes")["userName"]; got != "Bob" {
				t.Errorf("b.example's answer: %q", got)
			}
			if got := s.Load("c.example:80", "tanks")["userName"]; got != "Carol" {
				t.Errorf("the new answer: %q", got)
			}
		})
	}
}

func FuzzParseAuthStore(f *testing.F) {
	f.Add([]byte(`{"a:443|tanks":{"userName":"Alice"}}`))
	f.Add([]byte(`{"a|b":{"x":7,"":"y"},"":{"n":"v"},"c|d":null,"e|f":[1]}`))
	f.Add([]byte(`{"a|b":{"x":"y"},}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		all, damage := parseAuthStore(b)
		for k, vals := range all {
			if k == "" || vals == nil {
				t.Fatalf("kept host %q: %v", k, vals)
			}
			for n, v := range vals {
				if n == "" || len(v) > maxAuthValue {
					t.Fatalf("kept %q=%.20q", n, v)
				}
			}
		}
		_ = damage
	})
}
