package lobby

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vimpclient/testkit/localfiletest"
)

func storeMaster(t *testing.T, addr string) *Master {
	t.Helper()
	m, err := NewMaster(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A damaged token store keeps the sign-ins it can read; a login sets the
// damaged file aside instead of writing over it.
func TestDamagedTokenStoreLosesNoSignIn(t *testing.T) {
	valid := []byte(`{"a.example:443":{"token":"tok-a","auth":"https://id"},"127.0.0.1:3002":{"token":"tok-b"}}`)
	newM := storeMaster(t, "http://127.0.0.1:4000")
	for _, d := range localfiletest.Damages() {
		t.Run(d.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tokens.json")
			held := d.Write(t, path, valid)
			s := NewTokenStore(path)
			if err := s.Save(newM, "tok-new", ""); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, held)
			if got := s.Load(newM.Key()); got != "tok-new" {
				t.Fatalf("the new sign-in reads %q", got)
			}
		})
	}
	for name, held := range map[string]string{
		"bad entry":  `{"a.example:443":{"token":"tok-a","auth":"https://id"},"x:1":{"token":7},"127.0.0.1:3002":{"token":"tok-b"}}`,
		"empty key":  `{"a.example:443":{"token":"tok-a","auth":"https://id"},"":{"token":"z"},"127.0.0.1:3002":{"token":"tok-b"}}`,
		"no token":   `{"a.example:443":{"token":"tok-a","auth":"https://id"},"x:1":{"auth":"y"},"127.0.0.1:3002":{"token":"tok-b"}}`,
		"not object": `{"a.example:443":{"token":"tok-a","auth":"https://id"},"x:1":[1,2],"127.0.0.1:3002":{"token":"tok-b"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tokens.json")
			if err := os.WriteFile(path, []byte(held), 0o600); err != nil {
				t.Fatal(err)
			}
			s := NewTokenStore(path)
			if err := s.Save(newM, "tok-new", ""); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, []byte(held))
			for key, want := range map[string]string{"a.example:443": "tok-a", "127.0.0.1:3002": "tok-b", newM.Key(): "tok-new"} {
				if got := s.Load(key); got != want {
					t.Errorf("%s: %q, want %q", key, got, want)
				}
			}
			if s.AuthURL("a.example:443") != "https://id" {
				t.Error("the identity service of a kept sign-in was lost")
			}
			// Whole again: a sign-out sets nothing more aside.
			if err := s.Remove(storeMaster(t, "https://a.example")); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, []byte(held))
		})
	}
}

func FuzzParseTokens(f *testing.F) {
	f.Add([]byte(`{"a.example:443":{"token":"tok-a","auth":"https://id","master":"https://a.example"}}`))
	f.Add([]byte(`{"A:1":{"token":"t"},"":{"token":"z"},"x:1":{"token":7}}`))
	f.Add([]byte(`{"x:1":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"a:1":{"token":"t"},}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		all, damage := parseTokens(b)
		for k, v := range all {
			if k == "" || v.Token == "" || len(v.Token) > maxTokenLen {
				t.Fatalf("kept %q: %+v", k, v)
			}
		}
		if damage == "" {
			// Whatever was read in full survives a save and a read back.
			path := filepath.Join(t.TempDir(), "tokens.json")
			s := NewTokenStore(path)
			if err := s.writeAll(all, ""); err != nil {
				t.Fatal(err)
			}
			back, d := s.readAll()
			if d != "" || len(back) != len(all) {
				t.Fatalf("read back %d of %d entries (%s)", len(back), len(all), d)
			}
		}
	})
}

// A FIFO named as the token file is refused at once, never waited on.
func TestTokenFileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "token")
	if err := localfiletest.Mkfifo(p); err != nil {
		t.Skip(err)
	}
	if _, err := readTokenFile(p); err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("err %v", err)
	}
}
