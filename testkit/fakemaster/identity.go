package fakemaster

import (
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Identity is a stand-in identity service: the sign-in page a browser is
// sent to (GET /oauth/github/start?returnUrl=), whose form signs in with a
// nick and redirects to the return address with ?token= as the real
// service's callback does; the development-only GET /dev/login; and
// GET /jwks. The return address must be loopback, as the operators'
// allow-list of a native client is.
type Identity struct {
	keys *Keys
	srv  *httptest.Server

	mu      sync.Mutex
	returns []string // every returnUrl asked for
	nextSub int
}

// StartIdentity runs the service on a free loopback port, signing with keys.
func StartIdentity(keys *Keys) *Identity {
	id := NewIdentity(keys)
	id.srv = httptest.NewServer(id.Handler())
	return id
}

// NewIdentity is the service not yet serving: Handler serves it where a
// program chooses (URL and Close are StartIdentity's).
func NewIdentity(keys *Keys) *Identity { return &Identity{keys: keys} }

// Handler is the service's HTTP side.
func (id *Identity) Handler() http.Handler {
	keys := id.keys
	mux := http.NewServeMux()
	mux.HandleFunc("GET /oauth/github/start", id.start)
	mux.HandleFunc("POST /oauth/github/finish", id.finish)
	mux.HandleFunc("GET /dev/login", id.finish)
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(keys.JWKS())
	})
	return mux
}

// URL is the service's base URL.
func (id *Identity) URL() string { return id.srv.URL }

// Close stops the service.
func (id *Identity) Close() { id.srv.Close() }

// Returns lists the return addresses sign-ins were started with.
func (id *Identity) Returns() []string {
	id.mu.Lock()
	defer id.mu.Unlock()
	return append([]string(nil), id.returns...)
}

// returnOK accepts only a loopback return address over http.
func returnOK(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "http" && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost")
}

// start serves the sign-in page: a nick field and a Sign in button.
func (id *Identity) start(w http.ResponseWriter, r *http.Request) {
	ret := r.URL.Query().Get("returnUrl")
	if !returnOK(ret) {
		http.Error(w, "returnUrl not allowed", http.StatusBadRequest)
		return
	}
	id.mu.Lock()
	id.returns = append(id.returns, ret)
	id.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(`<!doctype html><title>Sign in</title><form method="post" action="/oauth/github/finish">` +
		`<input type="hidden" name="returnUrl" value="` + html.EscapeString(ret) + `">` +
		`<label>Nick <input name="nick" value="Pilot"></label> <button>Sign in</button></form>`))
}

// finish signs the nick in and sends the browser back with the token.
func (id *Identity) finish(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ret, nick := r.Form.Get("returnUrl"), strings.TrimSpace(r.Form.Get("nick"))
	if !returnOK(ret) || nick == "" {
		http.Error(w, "returnUrl and nick wanted", http.StatusBadRequest)
		return
	}
	u, _ := url.Parse(ret)
	id.mu.Lock()
	id.nextSub++
	sub := strconv.Itoa(id.nextSub)
	id.mu.Unlock()
	q := u.Query()
	q.Set("token", id.keys.Token(sub, nick))
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

// policy is a Content-Security-Policy of the shape the upstream master
// sends in production, allowing the identity service's origin.
func policy(authService string) string {
	return "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; " +
		"connect-src 'self' wss: data: " + authService + "; img-src 'self' data: blob:; " +
		"style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
}
