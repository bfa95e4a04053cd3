package lobby_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

func TestParseClaimsAndFreshness(t *testing.T) {
	k := testKeys(t)
	exp := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	c, err := lobby.ParseClaims(k.Sign(fakemaster.TokenClaims{Sub: "7", Nick: "Alice", Expiry: exp}))
	if err != nil || c.Nick != "Alice" || c.Subject != "7" || !c.Expiry.Equal(exp) || c.Issuer != lobby.Issuer || c.KeyID != "test-key" {
		t.Fatalf("%+v %v", c, err)
	}
	now := time.Now()
	if err := lobby.CheckFresh(c, now); err != nil {
		t.Error(err)
	}
	for name, at := range map[string]time.Time{"expired": now.Add(-time.Minute), "about to": now.Add(30 * time.Second)} {
		c.Expiry = at
		if err := lobby.CheckFresh(c, now); !errors.Is(err, lobby.ErrTokenExpired) || !strings.Contains(err.Error(), "sign in again") {
			t.Errorf("%s: %v", name, err)
		}
	}
	c.Expiry = time.Time{}
	if err := lobby.CheckFresh(c, now); !errors.Is(err, lobby.ErrTokenExpired) {
		t.Errorf("no exp: %v", err)
	}
	for _, bad := range []string{"", "abc", "a.b.c", strings.Repeat("x", 9000)} {
		if _, err := lobby.ParseClaims(bad); !errors.Is(err, lobby.ErrBadToken) {
			t.Errorf("%.20q: %v", bad, err)
		}
	}
}

func TestTokenSourcesOrder(t *testing.T) {
	dir := t.TempDir()
	store := lobby.NewTokenStore(filepath.Join(dir, "tokens.json"))
	if err := store.Save(master(t, "http://127.0.0.1:3002"), "stored", "http://auth"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "tokens.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("store file mode: %v %v", fi, err)
	}
	file := filepath.Join(dir, "t.txt")
	if err := os.WriteFile(file, []byte(" fromfile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src        lobby.TokenSources
		want, from string
	}{
		{lobby.TokenSources{Flag: "flag", File: file, FlagMaster: "127.0.0.1:3002", Env: "env", EnvMaster: "127.0.0.1:3002", Store: store}, "flag", "-token"},
		{lobby.TokenSources{File: file, FlagMaster: "http://127.0.0.1:3002", Env: "env", EnvMaster: "127.0.0.1:3002", Store: store}, "fromfile", "-token-file"},
		{lobby.TokenSources{Env: "env", EnvMaster: "127.0.0.1", Store: store}, "env", "VIMP_TOKEN"},
		{lobby.TokenSources{Store: store}, "stored", "the stored sign-in"},
		// A flag's or the environment's token for another master is
		// passed over: the stored sign-in is this master's.
		{lobby.TokenSources{Flag: "flag", FlagMaster: "127.0.0.1:3003", Env: "env", Store: store}, "stored", "the stored sign-in"},
	} {
		got, from, err := tc.src.Token(master(t, "http://127.0.0.1:3002"))
		if err != nil || got != tc.want || from != tc.from {
			t.Errorf("%+v: %q %q %v", tc.src, got, from, err)
		}
	}
	if _, _, err := (lobby.TokenSources{Store: store}).Token(master(t, "other:1")); !errors.Is(err, lobby.ErrNoToken) {
		t.Errorf("another master's token was used: %v", err)
	}
	if _, _, err := (lobby.TokenSources{File: filepath.Join(dir, "missing"), FlagMaster: "x"}).Token(master(t, "x")); err == nil {
		t.Error("missing token file accepted")
	}
	if store.AuthURL("127.0.0.1:3002") != "http://auth" {
		t.Error("auth URL not stored")
	}
}

func master(t *testing.T, addr string) *lobby.Master {
	t.Helper()
	m, err := lobby.NewMaster(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A token is bound to one master: the one it was stored for, or the one
// it was found for; it may be sent there and nowhere else.
func TestTokenBinding(t *testing.T) {
	store := lobby.NewTokenStore(filepath.Join(t.TempDir(), "tokens.json"))
	home := master(t, "http://127.0.0.1:3002")
	if err := store.Save(home, "stored-token-value", ""); err != nil {
		t.Fatal(err)
	}
	tok, err := lobby.TokenSources{Store: store}.For(home)
	if err != nil || tok.Value != "stored-token-value" || tok.Home != "http://127.0.0.1:3002" {
		t.Fatalf("stored: %+v %v", tok, err)
	}
	if err := tok.CheckSend("http://127.0.0.1:3002"); err != nil {
		t.Errorf("to its own master: %v", err)
	}
	for _, dest := range []string{"http://127.0.0.1:3003", "https://127.0.0.1:3002", "http://evil.example:3002", ""} {
		err := tok.CheckSend(dest)
		if !errors.Is(err, lobby.ErrTokenElsewhere) || !strings.Contains(err.Error(), tok.Home) || !strings.Contains(err.Error(), dest) {
			t.Errorf("to %q: %v", dest, err)
		}
	}
	if err := (lobby.Token{Value: "x"}).CheckSend("http://127.0.0.1:3002"); !errors.Is(err, lobby.ErrTokenElsewhere) {
		t.Errorf("an unbound token was let through: %v", err)
	}
	if s := fmt.Sprint(tok) + fmt.Sprintf("%v %+v %s", tok, []lobby.Token{tok}, tok); strings.Contains(s, tok.Value) {
		t.Errorf("a printed token shows its value: %s", s)
	}

	// The same host and port over https is another origin: the stored
	// sign-in is not for it.
	if _, err := (lobby.TokenSources{Store: store}).For(master(t, "https://127.0.0.1:3002")); !errors.Is(err, lobby.ErrTokenElsewhere) {
		t.Errorf("a sign-in stored for http used for https: %v", err)
	}
	// A flag's token is bound to the master it was asked for.
	flag, err := lobby.TokenSources{Flag: "flag-token", FlagMaster: "127.0.0.1:4000"}.For(master(t, "127.0.0.1:4000"))
	if err != nil || flag.Home != "http://127.0.0.1:4000" || flag.From != "-token" {
		t.Errorf("flag: %+v %v", flag, err)
	}
}

func TestVerifier(t *testing.T) {
	k := testKeys(t)
	other, err := fakemaster.NewKeys("test-key")
	if err != nil {
		t.Fatal(err)
	}
	v := k.Verifier()
	ctx := context.Background()
	hour := time.Now().Add(time.Hour)
	if c, err := v.Verify(ctx, k.Token("5", "Neo")); err != nil || c.Nick != "Neo" {
		t.Fatalf("valid token: %+v %v", c, err)
	}
	for name, tok := range map[string]string{
		"expired":     k.Sign(fakemaster.TokenClaims{Sub: "5", Nick: "Neo", Expiry: time.Now().Add(-time.Minute)}),
		"mis-signed":  other.Token("5", "Neo"),
		"no nick":     k.Sign(fakemaster.TokenClaims{Sub: "5", Expiry: hour}),
		"no exp":      k.Sign(fakemaster.TokenClaims{Sub: "5", Nick: "Neo"}),
		"wrong iss":   k.Sign(fakemaster.TokenClaims{Sub: "5", Nick: "Neo", Expiry: hour, Issuer: "someone"}),
		"unknown kid": k.Sign(fakemaster.TokenClaims{Sub: "5", Nick: "Neo", Expiry: hour, KeyID: "other"}),
		"alg none":    "eyJhbGciOiJub25lIn0.eyJuaWNrIjoiTmVvIn0.",
		"missing":     "",
	} {
		if _, err := v.Verify(ctx, tok); !errors.Is(err, lobby.ErrTokenInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	down := &lobby.Verifier{Fetch: func(context.Context) ([]byte, error) { return nil, errors.New("502") }}
	if _, err := down.Verify(ctx, k.Token("5", "Neo")); err == nil || !strings.Contains(err.Error(), "identity keys") {
		t.Errorf("keys down: %v", err)
	}
	if _, err := lobby.ParseJWKS([]byte(`{"keys":[{"kty":"oct","k":"AAAA"}]}`)); err == nil {
		t.Error("a symmetric key set accepted")
	}
}

// A token from a flag or the environment goes to the master named with it
// and to no other: not to a master a link leads to, nor to one named
// nowhere. The error says what was passed over, never the token.
func TestTokenOnlyForItsMaster(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.txt")
	if err := os.WriteFile(file, []byte("file-token-value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := master(t, "https://other.example")
	for _, src := range []lobby.TokenSources{
		{Flag: "flag-token-value"},
		{Flag: "flag-token-value", FlagMaster: "https://lobby.example"},
		{File: file, FlagMaster: "lobby.example:443"},
		{Env: "env-token-value"},
		{Env: "env-token-value", EnvMaster: "https://lobby.example"},
		{Env: "env-token-value", FlagMaster: "https://other.example"}, // the flags' master is not VIMP_TOKEN's
		{Flag: "flag-token-value", FlagMaster: "http://other.example", Env: "env-token-value", EnvMaster: "other.example:80"},
	} {
		got, from, err := src.Token(other)
		if !errors.Is(err, lobby.ErrNoToken) || got != "" {
			t.Errorf("%+v: the token went to %s: %q from %q, %v", src, other.URL(), got, from, err)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "token-value") || !strings.Contains(msg, "-token-master https://other.example") {
			t.Errorf("%+v: %v", src, err)
		}
		if _, err := src.For(other); !errors.Is(err, lobby.ErrNoToken) {
			t.Errorf("%+v: For gave a token to %s: %v", src, other.URL(), err)
		}
	}
	for _, tc := range []struct {
		src        lobby.TokenSources
		want, from string
	}{
		{lobby.TokenSources{Flag: "f", FlagMaster: "https://other.example"}, "f", "-token"},
		{lobby.TokenSources{Flag: "f", FlagMaster: "wss://OTHER.example:443/"}, "f", "-token"},
		{lobby.TokenSources{Flag: "f", FlagMaster: "other.example"}, "f", "-token"},
		{lobby.TokenSources{File: file, FlagMaster: "other.example:443"}, "file-token-value", "-token-file"},
		{lobby.TokenSources{Env: "e", EnvMaster: "https://other.example"}, "e", "VIMP_TOKEN"},
		{lobby.TokenSources{Flag: "f", FlagMaster: "https://lobby.example", Env: "e", EnvMaster: "https://other.example"}, "e", "VIMP_TOKEN"},
	} {
		got, from, err := tc.src.Token(other)
		if err != nil || got != tc.want || from != tc.from {
			t.Errorf("%+v: %q %q %v", tc.src, got, from, err)
		}
	}
}

// DefaultTokenSources: -token and -token-file are for -token-master, else
// the master the command line names; VIMP_TOKEN for -token-master, else
// VIMP_TOKEN_MASTER, never the command line's master by itself.
func TestDefaultTokenSourcesMasters(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "env-token")
	t.Setenv("VIMP_TOKEN_MASTER", "")
	named, link, chosen := master(t, "https://named.example"), master(t, "https://link.example"), master(t, "https://chosen.example")
	for _, tc := range []struct {
		flags     lobby.TokenFlags
		envMaster string
		m         *lobby.Master
		want      string // "" : none
	}{
		{lobby.TokenFlags{Token: "flag-token", Named: "https://named.example"}, "", named, "flag-token"},
		{lobby.TokenFlags{Token: "flag-token", Named: "https://named.example"}, "", link, ""},
		{lobby.TokenFlags{Named: "https://named.example"}, "", named, ""},
		{lobby.TokenFlags{Token: "flag-token"}, "", link, ""},
		{lobby.TokenFlags{}, "https://named.example", named, "env-token"},
		{lobby.TokenFlags{}, "https://named.example", link, ""},
		{lobby.TokenFlags{Token: "flag-token", Master: "https://chosen.example", Named: "https://named.example"}, "", chosen, "flag-token"},
		{lobby.TokenFlags{Token: "flag-token", Master: "https://chosen.example", Named: "https://named.example"}, "", named, ""},
		{lobby.TokenFlags{Master: "https://chosen.example"}, "https://named.example", chosen, "env-token"},
		{lobby.TokenFlags{Master: "https://chosen.example"}, "https://named.example", named, ""},
	} {
		t.Setenv("VIMP_TOKEN_MASTER", tc.envMaster)
		got, _, err := lobby.DefaultTokenSources(tc.flags).Token(tc.m)
		if got != tc.want || (tc.want == "" && !errors.Is(err, lobby.ErrNoToken)) {
			t.Errorf("%+v, VIMP_TOKEN_MASTER=%q, for %s: %q %v; want %q", tc.flags, tc.envMaster, tc.m.URL(), got, err, tc.want)
		}
	}
}
