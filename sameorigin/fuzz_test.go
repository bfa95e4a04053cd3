package sameorigin_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"vimpclient/sameorigin"
)

// FuzzRedirectPolicy holds the policy to its definition for any pair of
// addresses: a redirect is followed exactly when both have one origin, and
// a WebSocket follows none; nothing panics.
func FuzzRedirectPolicy(f *testing.F) {
	for _, seed := range [][2]string{
		{"http://127.0.0.1:3002/config", "http://127.0.0.1:3002/v2/config"},
		{"http://127.0.0.1:3002/", "http://127.0.0.1:3003/"},
		{"http://Master.example/", "http://master.example:80/x"},
		{"https://m.example/", "http://m.example/"},
		{"http://[::1]:8080/", "http://[::1]:8080/a"},
		{"http://m.example:80/", "http://m.example:080/"},
		{"http://m.example/", "//other.example/"},
		{"http://u:p@m.example/", "http://m.example/"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, from, to string) {
		a, errA := url.Parse(from)
		b, errB := url.Parse(to)
		if errA != nil || errB != nil {
			return
		}
		b = a.ResolveReference(b)
		oa, ob := sameorigin.Of(a), sameorigin.Of(b)
		if oa == "" || ob == "" {
			return
		}
		first := &http.Request{URL: a}
		next := &http.Request{URL: b}
		err := sameorigin.CheckRedirect(next, []*http.Request{first})
		if (err == nil) != (oa == ob) {
			t.Fatalf("%q -> %q (origins %q, %q): %v", from, to, oa, ob, err)
		}
		if err != nil && !errors.Is(err, sameorigin.ErrRedirect) {
			t.Fatalf("a refusal that is not ErrRedirect: %v", err)
		}
		if err := sameorigin.NoRedirect(next, []*http.Request{first}); !errors.Is(err, sameorigin.ErrRedirect) {
			t.Fatalf("a WebSocket followed %q -> %q", from, to)
		}
		if sameorigin.Of(b) != ob {
			t.Fatal("Of is not stable")
		}
	})
}
