// Package sameorigin keeps a connection on the origin it was opened to: the
// redirect policy of every HTTP client and WebSocket dial that carries an
// identity token, or that leads to a place the token is sent.
//
// An origin is scheme, host and port. A master (or a host) that answers
// with a redirect to another origin could otherwise take the client, and
// the player's token with it, anywhere: HTTP requests follow a redirect
// only within their origin, and a WebSocket dial follows none, as a
// browser's WebSocket never does.
package sameorigin

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// maxRedirects is the most same-origin redirects one request follows (the
// standard library's own limit).
const maxRedirects = 10

// ErrRedirect is the sentinel every refused redirect wraps.
var ErrRedirect = errors.New("redirect refused")

// RedirectError is a refused redirect: From is the address asked for, To
// the one the answer pointed at.
type RedirectError struct {
	From, To string
	// WebSocket marks a WebSocket dial, which follows no redirect at all.
	WebSocket bool
}

func (e *RedirectError) Error() string {
	from, to := clip(e.From), clip(e.To)
	if e.WebSocket {
		if Parse(e.From) == Parse(e.To) {
			return fmt.Sprintf("%s answered the WebSocket upgrade with a redirect to %s: a WebSocket follows no redirect", from, to)
		}
		return fmt.Sprintf("%s answered the WebSocket upgrade with a redirect to another origin, %s: not followed", from, to)
	}
	return fmt.Sprintf("%s redirected to another origin, %s: not followed (give that address yourself if you trust it)", from, to)
}

// maxShown bounds an address in an error: the redirect's target is the
// server's to choose, up to a whole header's length.
const maxShown = 200

// clip shortens s to maxShown bytes (on a rune boundary), with an ellipsis.
func clip(s string) string {
	if len(s) <= maxShown {
		return s
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Unwrap makes errors.Is(err, ErrRedirect) hold.
func (e *RedirectError) Unwrap() error { return ErrRedirect }

// Refused finds a refused redirect in err's chain: the client's error for
// the player then says that, without the layers of the request around it.
func Refused(err error) (*RedirectError, bool) {
	var re *RedirectError
	return re, errors.As(err, &re)
}

// Of is u's origin, scheme://host:port in lower case, with the scheme's
// default port written out; a WebSocket URL has the origin of the HTTP
// request that opens it (ws as http, wss as https). "" for a URL without a
// host.
func Of(u *url.URL) string {
	if u == nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// Parse is the origin of a URL given as text ("" when it has none).
func Parse(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return Of(u)
}

// CheckRedirect is an http.Client CheckRedirect that follows a redirect
// only to the origin of the first request, at most ten times.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) == 0 {
		return nil
	}
	first := via[0].URL
	if Of(req.URL) != Of(first) {
		return &RedirectError{From: first.String(), To: req.URL.String()}
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("%s: stopped after %d redirects: %w", first, maxRedirects, ErrRedirect)
	}
	return nil
}

// NoRedirect is the CheckRedirect of a WebSocket dial: it follows none.
func NoRedirect(req *http.Request, via []*http.Request) error {
	from := req.URL.String()
	if len(via) > 0 {
		from = via[0].URL.String()
	}
	return &RedirectError{From: from, To: req.URL.String(), WebSocket: true}
}

// Client is a copy of c (http.DefaultClient when nil) that follows
// redirects within their origin only. A CheckRedirect c already had still
// runs after this one (it may refuse more, never less).
func Client(c *http.Client) *http.Client {
	return with(c, CheckRedirect)
}

// WebSocketClient is a copy of c (http.DefaultClient when nil) for a
// WebSocket dial: it follows no redirect.
func WebSocketClient(c *http.Client) *http.Client {
	return with(c, NoRedirect)
}

func with(c *http.Client, policy func(*http.Request, []*http.Request) error) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	out := *c
	inner := c.CheckRedirect
	out.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := policy(req, via); err != nil {
			return err
		}
		if inner != nil {
			return inner(req, via)
		}
		return nil
	}
	return &out
}
