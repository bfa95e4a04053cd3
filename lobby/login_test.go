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
	start, err := l.StartURL()
	if err != nil || !strings.Contains(start, "returnUrl=http%3A%2F%2F127.0.0.1%3A53682%2Fcallback") {
		t.Errorf("%s %v", start, err)
	}
}
