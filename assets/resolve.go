package assets

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// maxPathBytes bounds one path under the assets base.
const maxPathBytes = 512

// ParseBase checks an assets base: an absolute http(s) URL with a host, no
// user, query or fragment. The path gains a final "/" when it lacks one.
func ParseBase(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("assets base %q: %w", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return nil, fmt.Errorf("assets base %q: not an absolute http(s) URL", s)
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return nil, fmt.Errorf("assets base %q: a user, query or fragment has no place in it", s)
	}
	if hasDotSegment(u.Path) {
		// A base with "." or ".." in it names a folder only once a server
		// cleans it: what lies under it could not be told from the URL.
		return nil, fmt.Errorf("assets base %q: a \".\" or \"..\" segment has no place in it", s)
	}
	if strings.Contains(u.Path, "//") {
		// An empty segment is one a server may merge with its neighbour,
		// which moves what lies under the base up a folder.
		return nil, fmt.Errorf("assets base %q: an empty path segment has no place in it", s)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		if u.RawPath != "" {
			u.RawPath += "/"
		}
	}
	return u, nil
}

// CheckPath accepts a path relative to the assets base: segments separated
// by "/", none empty, "." or "..", no backslash, "?", "#" or "%" (the path
// is escaped here, never by the caller) and no control characters. Map data
// and sound catalogs name files this way; anything else is refused before a
// URL exists.
func CheckPath(p string) error {
	if p == "" || len(p) > maxPathBytes {
		return fmt.Errorf("path of %d bytes: %w (1 to %d)", len(p), ErrRefused, maxPathBytes)
	}
	if !utf8.ValidString(p) {
		return fmt.Errorf("path %q is not UTF-8: %w", p, ErrRefused)
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '\\' || r == '?' || r == '#' || r == '%' {
			return fmt.Errorf("path %q: character %q %w", p, r, ErrRefused)
		}
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("path %q: segment %q %w", p, seg, ErrRefused)
		}
	}
	return nil
}

// Resolve returns the URL of the file at path p under base (from
// ParseBase). The result always has base's scheme and host and a path
// under base's: there is no way out through p.
func Resolve(base *url.URL, p string) (*url.URL, error) {
	if err := CheckPath(p); err != nil {
		return nil, err
	}
	u := *base
	u.Path = base.Path + p
	u.RawPath = ""
	if !strings.HasPrefix(u.EscapedPath(), base.EscapedPath()) {
		return nil, fmt.Errorf("path %q leaves the assets base: %w", p, ErrRefused)
	}
	return &u, nil
}

// within reports whether u is at or under base: same scheme and host, path
// below base's. Redirects are held to it.
func within(base, u *url.URL) bool {
	return u.Scheme == base.Scheme && strings.EqualFold(u.Host, base.Host) && u.User == nil &&
		strings.HasPrefix(u.EscapedPath(), base.EscapedPath()) && !hasDotSegment(u.Path)
}

func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
