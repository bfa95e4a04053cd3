package lobby_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
)

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// identity is a stand-in identity service: the OAuth start redirects
// straight back with a pending token (a first sign-in), /nick refuses
// "taken" and issues a token for any other nick.
func identity(t *testing.T, first string) *httptest.Server {
	k := testKeys(t)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/oauth/github/start":
			ret, err := url.Parse(r.URL.Query().Get("returnUrl"))
			if err != nil || ret.Host != "127.0.0.1:"+ret.Port() {
				http.Error(w, `{"error":"returnUrlNotAllowed"}`, http.StatusBadRequest)
				return
			}
			q := ret.Query()
			q.Set(first, "pending-or-token")
			if first == "token" {
				q.Set("token", k.Token("9", "Trinity"))
			}
			ret.RawQuery = q.Encode()
			http.Redirect(w, r, ret.String(), http.StatusFound)
		case "/nick":
			var body struct{ Nick string }
			_ = json.NewDecoder(r.Body).Decode(&body)
			switch {
			case r.Header.Get("Authorization") != "Bearer pending-or-token":
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"error":"unauthorized"}`))
			case body.Nick == "taken":
				w.WriteHeader(http.StatusConflict)
				_, _ = w.Write([]byte(`{"error":"nickTaken"}`))
			default:
				_ = json.NewEncoder(w).Encode(map[string]string{"token": k.Token("9", body.Nick)})
			}
		}
	}))
}

// browser follows a URL the way the system browser would.
func browser(u string) error {
	go func() {
		resp, err := http.Get(u)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	return nil
}

func TestLoginFirstSignIn(t *testing.T) {
	id := identity(t, "pendingToken")
	defer id.Close()
	// A player answers each nick question as it appears.
	lines := make(chan string, 2)
	out := &prompter{lines: lines, answers: []string{"taken", "Neo"}}
	l := &lobby.Login{Auth: id.URL, Port: freePort(t), Open: browser, Lines: lines, Out: out}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tok, err := l.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := lobby.ParseClaims(tok)
	if err != nil || c.Nick != "Neo" {
		t.Fatalf("%+v %v", c, err)
	}
	if !strings.Contains(out.String(), "is taken") || !strings.Contains(l.ReturnURL(), "http://127.0.0.1:") {
		t.Errorf("output:\n%s", out.String())
	}
}

// prompter is a terminal whose player types the next answer whenever the
// program asks for a nick.
type prompter struct {
	strings.Builder
	lines   chan string
	answers []string
}

func (p *prompter) Write(b []byte) (int, error) {
	if strings.Contains(string(b), "choose a nick") && len(p.answers) > 0 {
		p.lines <- p.answers[0]
		p.answers = p.answers[1:]
	}
	return p.Builder.Write(b)
}

func TestLoginPastedToken(t *testing.T) {
	lines := make(chan string, 1)
	lines <- testKeys(t).Token("3", "Morpheus")
	var out strings.Builder
	l := &lobby.Login{Auth: "http://127.0.0.1:1", Port: freePort(t), Lines: lines, Out: &out}
	tok, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := lobby.ParseClaims(tok); c.Nick != "Morpheus" {
		t.Errorf("pasted token %+v", c)
	}
	lines = make(chan string, 1)
	lines <- "not a token"
	l = &lobby.Login{Auth: "http://127.0.0.1:1", Port: freePort(t), Lines: lines, Out: &out}
	if _, err := l.Run(context.Background()); err == nil {
		t.Error("garbage accepted as a token")
	}
}

func TestLoginDefaultPort(t *testing.T) {
	l := &lobby.Login{Auth: "https://auth.example"}
	start, err := l.StartURL("abc")
	if err != nil || !strings.Contains(start, "returnUrl=http%3A%2F%2F127.0.0.1%3A53682%2Fcallback%3Fstate%3Dabc") {
		t.Errorf("%s %v", start, err)
	}
}

// fetch GETs u and returns the status and the page.
func fetch(u string) (int, string) {
	resp, err := http.Get(u)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// visit is what a browser saw on one page of the sign-in.
type visit struct {
	what   string
	status int
	page   string
}

// The loopback callback takes only a callback that brings this sign-in's
// state back: one without it, or with another, is refused and the sign-in
// goes on; the page says "Signed in" only for a token read and checked.
func TestLoginState(t *testing.T) {
	id := identity(t, "token")
	defer id.Close()
	forged := testKeys(t).Token("666", "Mallory")
	var starts []string
	visits := make(chan visit, 8)
	open := func(start string) error {
		starts = append(starts, start)
		u, _ := url.Parse(start)
		ret, _ := url.Parse(u.Query().Get("returnUrl"))
		cb := *ret
		cb.RawQuery = ""
		go func() {
			// A hostile page sends the browser to the callback with a token
			// of its choosing, without the state and with a guessed one.
			for what, q := range map[string]url.Values{
				"no state":    {"token": {forged}},
				"wrong state": {"token": {forged}, "state": {"guessed"}},
				"empty state": {"token": {forged}, "state": {""}},
			} {
				c := cb
				c.RawQuery = q.Encode()
				s, p := fetch(c.String())
				visits <- visit{what, s, p}
			}
			s, p := fetch(start)
			visits <- visit{"the sign-in", s, p}
		}()
		return nil
	}
	for range 2 {
		var out strings.Builder
		l := &lobby.Login{Auth: id.URL, Port: freePort(t), Open: open, Lines: make(chan string), Out: &out}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		tok, err := l.Run(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := lobby.ParseClaims(tok); c.Nick != "Trinity" {
			t.Errorf("signed in as %q, want the identity service's Trinity", c.Nick)
		}
		for range 4 {
			v := <-visits
			switch v.what {
			case "the sign-in":
				if v.status != http.StatusOK || !strings.Contains(v.page, "Signed in as Trinity") {
					t.Errorf("sign-in page %d %q", v.status, v.page)
				}
			default:
				if v.status != http.StatusBadRequest || strings.Contains(v.page, "Signed in") {
					t.Errorf("%s: %d %q", v.what, v.status, v.page)
				}
			}
		}
	}
	state := func(start string) string {
		u, _ := url.Parse(start)
		ret, _ := url.Parse(u.Query().Get("returnUrl"))
		return ret.Query().Get("state")
	}
	if a, b := state(starts[0]), state(starts[1]); len(a) < 22 || a == b {
		t.Errorf("states %q and %q: want a fresh random one per sign-in", a, b)
	}
}

// A token that is not one, brought back with the right state, fails the
// sign-in, and its page does not say "Signed in".
func TestLoginUnusableToken(t *testing.T) {
	k := testKeys(t)
	expired := k.Sign(fakemaster.TokenClaims{Sub: "9", Nick: "Old", Expiry: time.Now().Add(-time.Hour)})
	for name, token := range map[string]string{"garbage": "not-a-token", "expired": expired} {
		t.Run(name, func(t *testing.T) {
			id := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ret, _ := url.Parse(r.URL.Query().Get("returnUrl"))
				q := ret.Query()
				q.Set("token", token)
				ret.RawQuery = q.Encode()
				http.Redirect(w, r, ret.String(), http.StatusFound)
			}))
			defer id.Close()
			pages := make(chan visit, 1)
			var out strings.Builder
			l := &lobby.Login{Auth: id.URL, Port: freePort(t), Lines: make(chan string), Out: &out, Open: func(start string) error {
				go func() {
					s, p := fetch(start)
					pages <- visit{"", s, p}
				}()
				return nil
			}}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, err := l.Run(ctx); err == nil || !strings.Contains(err.Error(), "not usable") {
				t.Errorf("sign-in with an unusable token: %v", err)
			}
			if v := <-pages; v.status != http.StatusBadRequest || strings.Contains(v.page, "Signed in") {
				t.Errorf("page %d %q", v.status, v.page)
			}
		})
	}
}
