package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"vimpclient/sameorigin"
)

// The identity service a master's players sign in with is published by the
// master itself: its Content-Security-Policy lets the lobby page reach the
// service (connect-src names its origin, next to 'self' and the WebSocket
// schemes), and a master may also name it in /config. The client reads
// both, so a player signs in knowing only the master's address.

// Bounds of what is read of a policy header: a real one is well under
// 1 KiB; a hostile one must not cost more than this to look at.
const (
	maxPolicyLen     = 16 << 10
	maxPolicySources = 64
	maxServiceURLLen = 512
)

// AuthService is the identity service a master publishes, and where it was
// found.
type AuthService struct {
	URL  string // the service's base URL, http(s)://host[:port][/path]
	From string // "the master's /config" or "the master's Content-Security-Policy"
}

// Where the service was found.
const (
	FromConfig = "the master's /config"
	FromPolicy = "the master's Content-Security-Policy"
)

// configServiceFields are the /config fields that may name the identity
// service, in the order tried (the master's own setting is
// master:security:authServiceUrl).
var configServiceFields = []string{"authServiceUrl", "authUrl", "auth"}

// ConnectSources returns the http(s) origins (or URLs) a Content-Security-
// Policy's connect-src names, in order, lower-cased and without a trailing
// slash: keywords ('self', 'none'), scheme sources (wss:, data:) and
// wildcard hosts are skipped. A policy given as several headers (or joined
// with commas) is read whole; the first connect-src of each policy counts,
// as a browser reads it.
func ConnectSources(policies ...string) []string {
	var out []string
	seen := map[string]bool{}
	size := 0
	for _, header := range policies {
		size += len(header)
		if size > maxPolicyLen {
			break
		}
		for policy := range strings.SplitSeq(header, ",") {
			for _, src := range connectSrc(policy) {
				if len(out) >= maxPolicySources {
					return out
				}
				if u, ok := serviceOrigin(src); ok && !seen[u] {
					seen[u] = true
					out = append(out, u)
				}
			}
		}
	}
	return out
}

// connectSrc is the source list of one policy's first connect-src.
func connectSrc(policy string) []string {
	for directive := range strings.SplitSeq(policy, ";") {
		f := strings.Fields(directive)
		if len(f) > 0 && strings.EqualFold(f[0], "connect-src") {
			return f[1:]
		}
	}
	return nil
}

// serviceOrigin reads one CSP source as the base URL of a service: an
// absolute http(s) URL with a concrete host (no wildcard, no credentials).
func serviceOrigin(src string) (string, bool) {
	if len(src) > maxServiceURLLen || strings.ContainsAny(src, "'*") {
		return "", false
	}
	u, err := url.Parse(src)
	if err != nil || u.Hostname() == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	return (&url.URL{Scheme: scheme, Host: strings.ToLower(u.Host), Path: strings.TrimRight(u.Path, "/")}).String(), true
}

// IdentityServiceOf picks the identity service out of what a master's
// /config answered: a field of its body naming it, else the one origin
// its policy allows besides the master's own (home, an origin). ok is
// false when neither names one.
func IdentityServiceOf(configBody []byte, header http.Header, home string) (AuthService, bool) {
	var cfg map[string]json.RawMessage
	if json.Unmarshal(configBody, &cfg) == nil {
		for _, k := range configServiceFields {
			var s string
			if json.Unmarshal(cfg[k], &s) != nil {
				continue
			}
			if u, ok := serviceOrigin(strings.TrimSpace(s)); ok {
				return AuthService{URL: u, From: FromConfig}, true
			}
		}
	}
	if header == nil {
		return AuthService{}, false
	}
	for _, u := range ConnectSources(header.Values("Content-Security-Policy")...) {
		if pu, err := url.Parse(u); err == nil && sameorigin.Of(pu) != home {
			return AuthService{URL: u, From: FromPolicy}, true
		}
	}
	return AuthService{}, false
}

// ErrNoAuthService reports a master that names no identity service.
var ErrNoAuthService = errors.New("the master names no identity service (neither its /config nor its Content-Security-Policy): give -auth URL")

// IdentityService asks the master which identity service its players sign
// in with (GET /config: its body, then its Content-Security-Policy).
func (m *Master) IdentityService(ctx context.Context) (AuthService, error) {
	body, header, err := m.getWithHeader(ctx, "/config", nil, nil)
	if err != nil {
		return AuthService{}, err
	}
	s, ok := IdentityServiceOf(body, header, m.Home())
	if !ok {
		return AuthService{}, ErrNoAuthService
	}
	return s, nil
}

// FromFlag and FromStoredSignIn name the other places a service comes from.
const (
	FromFlag         = "-auth"
	FromStoredSignIn = "the stored sign-in"
)

// FindAuthService is the identity service to sign in with for m: the one
// given (-auth) overrides; else the one the master publishes; else the
// one the last stored sign-in came from (stored, "" when none).
func FindAuthService(ctx context.Context, m *Master, given, stored string) (AuthService, error) {
	if given != "" {
		return AuthService{URL: strings.TrimSuffix(given, "/"), From: FromFlag}, nil
	}
	s, err := m.IdentityService(ctx)
	if err == nil {
		return s, nil
	}
	if stored != "" {
		return AuthService{URL: stored, From: FromStoredSignIn}, nil
	}
	return AuthService{}, fmt.Errorf("identity service of %s: %w", m.URL(), err)
}
