package lobby_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

// upstreamPolicy is the policy the upstream master sends in production with
// VIMP_AUTH_SERVICE_URL=https://auth.example.org, written out by hand from
// its configuration (the script-src hash shortened).
const upstreamPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-XJmz='; worker-src 'self' blob:; " +
	"connect-src 'self' wss: data: https://auth.example.org; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; " +
	"object-src 'none'; base-uri 'self'; frame-ancestors 'none'"

func TestConnectSources(t *testing.T) {
	for _, c := range []struct {
		name    string
		headers []string
		want    []string
	}{
		{"upstream", []string{upstreamPolicy}, []string{"https://auth.example.org"}},
		{"no service configured", []string{"default-src 'self'; connect-src 'self' wss: data:"}, nil},
		{"case and slash", []string{"CONNECT-SRC 'self' HTTP://Auth.Local:3010/"}, []string{"http://auth.local:3010"}},
		{"path kept", []string{"connect-src https://id.example/v1/"}, []string{"https://id.example/v1"}},
		{"wildcards and schemes skipped", []string{"connect-src *.example.com https://*.cdn.example wss://x.example blob: 'none' *"}, nil},
		{"credentials and queries skipped", []string{"connect-src https://u:p@a.example https://b.example/?x=1 https://c.example"}, []string{"https://c.example"}},
		{"first connect-src of a policy", []string{"connect-src https://a.example; connect-src https://b.example"}, []string{"https://a.example"}},
		{"each policy read", []string{"connect-src https://a.example, connect-src https://b.example", "connect-src https://a.example https://c.example"},
			[]string{"https://a.example", "https://b.example", "https://c.example"}},
		{"no connect-src", []string{"default-src https://a.example"}, nil},
		{"empty", nil, nil},
	} {
		if got := lobby.ConnectSources(c.headers...); !slices.Equal(got, c.want) {
			t.Errorf("%s: ConnectSources = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestIdentityServiceOf(t *testing.T) {
	h := http.Header{}
	h.Set("Content-Security-Policy", "connect-src 'self' http://127.0.0.1:3002 http://127.0.0.1:3010")
	s, ok := lobby.IdentityServiceOf([]byte(`{"mode":"lobby"}`), h, "http://127.0.0.1:3002")
	if !ok || s.URL != "http://127.0.0.1:3010" || s.From != lobby.FromPolicy {
		t.Fatalf("policy: %+v %v, want the one origin other than the master's", s, ok)
	}
	s, ok = lobby.IdentityServiceOf([]byte(`{"mode":"lobby","authServiceUrl":"https://id.example/"}`), h, "http://127.0.0.1:3002")
	if !ok || s.URL != "https://id.example" || s.From != lobby.FromConfig {
		t.Fatalf("config: %+v %v, want /config's field first", s, ok)
	}
	s, ok = lobby.IdentityServiceOf([]byte(`{"mode":"lobby","authServiceUrl":"javascript:alert(1)"}`), nil, "http://127.0.0.1:3002")
	if ok {
		t.Fatalf("a field that is no http(s) URL was taken: %+v", s)
	}
	h.Set("Content-Security-Policy", "connect-src 'self' http://127.0.0.1:3002")
	if s, ok := lobby.IdentityServiceOf(nil, h, "http://127.0.0.1:3002"); ok {
		t.Fatalf("the master's own origin was taken for the service: %+v", s)
	}
}

func TestMasterIdentityService(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{AuthService: "http://127.0.0.1:3010"})
	defer fm.Close()
	m, err := lobby.NewMaster(fm.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.IdentityService(context.Background())
	if err != nil || s.URL != "http://127.0.0.1:3010" || s.From != lobby.FromPolicy {
		t.Fatalf("IdentityService = %+v, %v", s, err)
	}

	bare := fakemaster.Start(fakemaster.Config{})
	defer bare.Close()
	m, _ = lobby.NewMaster(bare.URL(), nil)
	if _, err := m.IdentityService(context.Background()); !errors.Is(err, lobby.ErrNoAuthService) {
		t.Fatalf("a master naming no service: %v, want ErrNoAuthService", err)
	}
}
