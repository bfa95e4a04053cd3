package sameorigin_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/coder/websocket"

	"vimpclient/sameorigin"
)

func TestOf(t *testing.T) {
	for in, want := range map[string]string{
		"http://Example.COM/x":   "http://example.com:80",
		"https://example.com":    "https://example.com:443",
		"ws://127.0.0.1:3002/":   "http://127.0.0.1:3002",
		"wss://h/":               "https://h:443",
		"http://[::1]:8080/a?b":  "http://[::1]:8080",
		"http://h:80":            "http://h:80",
		"/relative":              "",
		"http://h:1/%zz-invalid": "",
	} {
		if got := sameorigin.Parse(in); got != want {
			t.Errorf("Parse(%q) = %q, want %q", in, got, want)
		}
	}
	if sameorigin.Parse("http://h") == sameorigin.Parse("https://h") {
		t.Error("http and https of one host are one origin")
	}
	if sameorigin.Parse("http://h:1") == sameorigin.Parse("http://h:2") {
		t.Error("two ports of one host are one origin")
	}
}

// counter is a server that counts what reaches it.
func counter(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		_, _ = w.Write([]byte("other"))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestClientRefusesAnotherOrigin(t *testing.T) {
	other, hits := counter(t)
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/there", http.StatusFound)
		case "/there":
			_, _ = w.Write([]byte("there"))
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	}))
	defer first.Close()
	c := sameorigin.Client(nil)

	_, err := c.Get(first.URL + "/away")
	var re *sameorigin.RedirectError
	if !errors.As(err, &re) || !errors.Is(err, sameorigin.ErrRedirect) {
		t.Fatalf("cross-origin redirect: %v, want a RedirectError", err)
	}
	if !strings.Contains(err.Error(), first.URL+"/away") || !strings.Contains(err.Error(), other.URL+"/x") {
		t.Errorf("the error does not name both addresses: %v", err)
	}
	if hits.Load() != 0 {
		t.Errorf("the other origin was asked %d times", hits.Load())
	}
	long := &sameorigin.RedirectError{From: first.URL, To: other.URL + "/" + strings.Repeat("é", 5000)}
	if msg := long.Error(); len(msg) > 600 || !strings.Contains(msg, other.URL) || !utf8.ValidString(msg) {
		t.Errorf("a long target is not clipped: %d bytes", len(msg))
	}

	resp, err := c.Get(first.URL + "/here")
	if err != nil {
		t.Fatalf("same-origin redirect: %v", err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != "/there" {
		t.Errorf("same-origin redirect ended at %s", resp.Request.URL)
	}

	if _, err := c.Get(first.URL + "/loop"); !errors.Is(err, sameorigin.ErrRedirect) {
		t.Errorf("a redirect loop: %v", err)
	}
}

// A policy the caller had still runs after the origin check.
func TestClientKeepsInnerPolicy(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			http.Redirect(w, r, "/b", http.StatusFound)
		}
	}))
	defer srv.Close()
	inner := errors.New("inner refused")
	c := sameorigin.Client(&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return inner }})
	if _, err := c.Get(srv.URL + "/a"); !errors.Is(err, inner) {
		t.Errorf("inner policy lost: %v", err)
	}
}

// coder/websocket follows redirects through its client; the WebSocket
// client follows none, to any origin.
func TestWebSocketClientFollowsNoRedirect(t *testing.T) {
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		c, err := websocket.Accept(w, r, nil)
		if err == nil {
			_ = c.CloseNow()
		}
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, other.URL+"/", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/ws2", http.StatusFound)
	}))
	defer first.Close()
	wsURL := func(p string) string {
		u, _ := url.Parse(first.URL)
		u.Scheme, u.Path = "ws", p
		return u.String()
	}
	// Without the policy the library follows the redirect (what this
	// package exists to stop).
	if c, _, err := websocket.Dial(context.Background(), wsURL("/away"), nil); err == nil {
		_ = c.CloseNow()
	}
	if otherHits.Load() != 1 {
		t.Fatalf("the library's own behaviour changed: %d upgrades reached the other origin", otherHits.Load())
	}
	otherHits.Store(0)

	client := sameorigin.WebSocketClient(nil)
	for _, p := range []string{"/away", "/same"} {
		_, _, err := websocket.Dial(context.Background(), wsURL(p), &websocket.DialOptions{HTTPClient: client})
		var re *sameorigin.RedirectError
		if !errors.As(err, &re) || !re.WebSocket {
			t.Fatalf("%s: %v, want a WebSocket RedirectError", p, err)
		}
		if !strings.Contains(err.Error(), strings.TrimPrefix(first.URL, "http://")) {
			t.Errorf("%s: the error does not name the first address: %v", p, err)
		}
	}
	if otherHits.Load() != 0 {
		t.Errorf("%d upgrades reached the other origin", otherHits.Load())
	}
}
