package assets

import (
	"errors"
	"net/url"
	"path"
	"strings"
	"testing"
)

func mustBase(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := ParseBase(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestParseBase(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://host:3002/games/tanks/", "https://host:3002/games/tanks/"},
		{"http://host/games/tanks", "http://host/games/tanks/"},
		{"http://host", "http://host/"},
	} {
		u, err := ParseBase(c.in)
		if err != nil || u.String() != c.want {
			t.Errorf("ParseBase(%q) = %v, %v; want %s", c.in, u, err, c.want)
		}
	}
	for _, bad := range []string{"", "/games/tanks/", "ftp://host/", "file:///etc/", "http:///x/",
		"http://user:pw@host/", "http://host/?q=1", "http://host/#f", "mailto:x@y", "http://host/%zz/"} {
		if u, err := ParseBase(bad); err == nil {
			t.Errorf("ParseBase(%q) = %v, want an error", bad, u)
		}
	}
}

func TestResolveConfinesPaths(t *testing.T) {
	base := mustBase(t, "https://host:3002/games/tanks/")
	for _, c := range []struct{ in, want string }{
		{"img/tiles3.png", "https://host:3002/games/tanks/img/tiles3.png"},
		{"maps/pool mini", "https://host:3002/games/tanks/maps/pool%20mini"},
		{"sounds/bomb-has-been-planted.mp3", "https://host:3002/games/tanks/sounds/bomb-has-been-planted.mp3"},
		{"img/sub/a+b;c=d.png", "https://host:3002/games/tanks/img/sub/a+b;c=d.png"},
		{"img/ü.png", "https://host:3002/games/tanks/img/%C3%BC.png"},
	} {
		u, err := Resolve(base, c.in)
		if err != nil || u.String() != c.want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", c.in, u, err, c.want)
		}
	}
	for _, bad := range []string{"", "/etc/passwd", "../x.png", "img/../../x", "img/./x.png", "img//x.png",
		"img/", "http://evil/x.png", "//evil/x.png", "img\\..\\x", "img/x.png?q", "img/x.png#f",
		"%2e%2e/x", "img/%2F", "img/x\x00.png", "img/x\n.png", "img/\x7f", "\xff.png",
		strings.Repeat("a", maxPathBytes+1)} {
		if u, err := Resolve(base, bad); !errors.Is(err, ErrRefused) {
			t.Errorf("Resolve(%q) = %v, %v; want refused", bad, u, err)
		}
	}
}

func TestWithin(t *testing.T) {
	base := mustBase(t, "https://host:3002/games/tanks/")
	for s, want := range map[string]bool{
		"https://host:3002/games/tanks/img/a.png":      true,
		"https://HOST:3002/games/tanks/img/a.png":      true,
		"https://host:3002/games/snakes/img/a.png":     false,
		"https://host:3002/games/tanks/../x":           false,
		"https://host:3002/games/tanks/img/%2e%2e/x":   false,
		"http://host:3002/games/tanks/img/a.png":       false,
		"https://other:3002/games/tanks/img/a.png":     false,
		"https://u@host:3002/games/tanks/img/a.png":    false,
		"https://host:3002/games/tanksextra/img/a.png": false,
	} {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := within(base, u); got != want {
			t.Errorf("within(%s) = %v, want %v", s, got, want)
		}
	}
}

// Whatever the path, a resolved URL stays on the base's host, under its
// path, with no dot segment once a server unescapes and cleans it.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"img/tiles3.png", "maps/pool mini", "../x", "img/..", "a/./b", "%2e%2e",
		"http://evil/", "//evil", "img/ü.png", "a;b=c", "a\\b", "a:b/c"} {
		f.Add("https://host:3002/games/tanks/", s)
	}
	f.Add("http://127.0.0.1/", "x")
	f.Add("http://h/a%20b/", "c")
	f.Fuzz(func(t *testing.T, baseStr, p string) {
		base, err := ParseBase(baseStr)
		if err != nil {
			return
		}
		u, err := Resolve(base, p)
		if err != nil {
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("Resolve(%q) error %v does not wrap ErrRefused", p, err)
			}
			return
		}
		back, err := url.Parse(u.String())
		if err != nil {
			t.Fatalf("Resolve(%q) = %q, which does not parse: %v", p, u, err)
		}
		if back.Scheme != base.Scheme || back.Host != base.Host || back.User != nil || back.RawQuery != "" || back.Fragment != "" {
			t.Fatalf("Resolve(%q) = %q leaves %s", p, u, base)
		}
		if !strings.HasPrefix(back.Path, base.Path) || hasDotSegment(back.Path) {
			t.Fatalf("Resolve(%q) = %q: path %q not under %q", p, u, back.Path, base.Path)
		}
		if clean := path.Clean(back.Path); !strings.HasPrefix(clean+"/", base.Path) {
			t.Fatalf("Resolve(%q) = %q cleans to %q, outside %q", p, u, clean, base.Path)
		}
		if !within(base, back) {
			t.Fatalf("Resolve(%q) = %q, which within refuses", p, u)
		}
	})
}

// A base whose path has dot or empty segments is refused: a server cleaning it would
// serve another folder than the one the client confines downloads to.
func TestParseBaseRefusesDotAndEmptySegments(t *testing.T) {
	for _, s := range []string{"http://0/.", "http://h/a/../b/", "https://h/games/./tanks/", "http://0//", "https://h/games//tanks/"} {
		if u, err := ParseBase(s); err == nil {
			t.Errorf("ParseBase(%q) = %v, want an error", s, u)
		}
	}
	if _, err := ParseBase("https://h/games/tanks"); err != nil {
		t.Errorf("a plain base refused: %v", err)
	}
}
