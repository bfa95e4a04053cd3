package lobby

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"vimpclient/sameorigin"
	"vimpclient/termtext"
)

// LoginPort is the fixed loopback port the sign-in returns to. An identity
// service accepts a return address only when its operator allow-listed the
// exact origin, so a native client needs one well-known port:
// http://127.0.0.1:53682.
const LoginPort = 53682

// loginTimeout bounds the whole sign-in, browser round trip included.
const loginTimeout = 10 * time.Minute

// Login signs in through the identity service in the system browser, with
// a pasted token as the fallback.
//
// The return address carries a random state that only this sign-in knows
// (the identity service keeps the return address whole and adds the token
// to its query): a callback without it, or with another, is refused, so no
// page the browser visits can hand the client a token of its choosing.
// The service sends the token itself back, with no code to exchange, so
// there is nothing for PKCE to bind; the state does that job.
type Login struct {
	Auth string       // the identity service's base URL
	Port int          // loopback port of the return address (LoginPort when 0)
	HTTP *http.Client // for POST /nick
	// Open shows a URL in the system browser.
	Open func(url string) error
	// Lines are what the player types, one per line: a pasted token while
	// waiting for the browser, then a nick when the service asks for one.
	Lines <-chan string
	Out   io.Writer // prompts and progress
	Now   func() time.Time
}

// callback is what the identity service's redirect brought back: a token
// already read and checked (nick set), a pending token, or a refusal.
type callback struct {
	token, pending, authErr string
	nick                    string
	err                     error // the token that came back is not usable
}

// ReturnURL is the loopback address the identity service redirects to.
func (l *Login) ReturnURL() string {
	return "http://127.0.0.1:" + strconv.Itoa(l.port()) + "/callback"
}

func (l *Login) port() int {
	if l.Port == 0 {
		return LoginPort
	}
	return l.Port
}

// StartURL is where the browser begins the sign-in whose callback must
// bring state back.
func (l *Login) StartURL(state string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(l.Auth, "/") + "/oauth/github/start")
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("identity service address %q: want http(s)://host[:port]", l.Auth)
	}
	ret := l.ReturnURL() + "?" + url.Values{"state": {state}}.Encode()
	u.RawQuery = url.Values{"returnUrl": {ret}}.Encode()
	return u.String(), nil
}

// Pages of the loopback callback.
const (
	pageSignedIn   = "Signed in as %s: you can close this tab and return to vimpclient."
	pageChooseNick = "Almost done: choose your nick in vimpclient."
	pageFailed     = "The sign-in failed (%s): see vimpclient."
	pageBadToken   = "The sign-in brought back a token vimpclient cannot use: see vimpclient."
	pageNothing    = "The sign-in brought nothing back: see vimpclient."
	pageNotOurs    = "This sign-in was not started by this vimpclient (its state is missing or wrong): ignored."
	pageDone       = "This sign-in is already complete."
)

// callbackHandler serves the loopback return address: it refuses a
// callback without this sign-in's state, reads and checks a token before
// its page says "Signed in", and hands the first result to results.
func (l *Login) callbackHandler(state string, results chan<- callback) http.Handler {
	var taken atomic.Bool // a result was handed over: later callbacks are too late
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		page := func(status int, msg string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(status)
			fmt.Fprintf(w, "<!doctype html><title>vimpclient</title><p>%s</p>", html.EscapeString(msg))
		}
		if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
			page(http.StatusBadRequest, pageNotOurs)
			return
		}
		cb := callback{token: q.Get("token"), pending: q.Get("pendingToken"), authErr: q.Get("authError")}
		status, msg := http.StatusOK, ""
		switch {
		case cb.authErr != "":
			msg = fmt.Sprintf(pageFailed, cb.authErr)
		case cb.token != "":
			c, err := l.check(cb.token)
			cb.nick, cb.err = c.Nick, err
			msg = fmt.Sprintf(pageSignedIn, c.Nick)
			if err != nil {
				status, msg = http.StatusBadRequest, pageBadToken
			}
		case cb.pending != "":
			msg = pageChooseNick
		default:
			status, msg = http.StatusBadRequest, pageNothing
		}
		if !taken.CompareAndSwap(false, true) {
			status, msg = http.StatusConflict, pageDone
		} else {
			results <- cb // buffered for the one result
		}
		page(status, msg)
	})
}

// Run waits for the browser's return (or a pasted token), asks for a nick
// on a first sign-in, and returns the identity token.
func (l *Login) Run(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, loginTimeout)
	defer cancel()
	state := rand.Text()
	start, err := l.StartURL(state)
	if err != nil {
		return "", err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:"+strconv.Itoa(l.port()))
	if err != nil {
		return "", fmt.Errorf("sign-in: listen on 127.0.0.1:%d (another program holds it? choose another with -port; the identity service must allow that origin): %w", l.port(), err)
	}
	results := make(chan callback, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: l.callbackHandler(state, results)}
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		// Shutdown lets the callback's page reach the browser first.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()

	fmt.Fprintf(l.Out, "Sign in in the browser: %s\n", start)
	if l.Open != nil {
		if err := l.Open(start); err != nil {
			fmt.Fprintf(l.Out, "Could not open a browser (%v): open the address above yourself.\n", err)
		}
	}
	fmt.Fprintln(l.Out, "Or paste a token here and press Enter:")
	for {
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("sign-in: %w", ctx.Err())
		case line, ok := <-l.Lines:
			if !ok {
				l.Lines = nil
				continue
			}
			if t := strings.TrimSpace(line); t != "" {
				return l.accept(t)
			}
		case cb := <-results:
			switch {
			case cb.authErr != "":
				return "", fmt.Errorf("sign-in failed: the identity service said %q", cb.authErr)
			case cb.err != nil:
				return "", fmt.Errorf("sign-in: the identity service returned a token that %w", cb.err)
			case cb.token != "":
				fmt.Fprintf(l.Out, "Signed in as %s.\n", termtext.Name(cb.nick))
				return cb.token, nil
			case cb.pending != "":
				return l.chooseNick(ctx, cb.pending)
			}
			return "", errors.New("sign-in: the identity service returned no token")
		}
	}
}

// check reads a token's claims and refuses one that is not a readable,
// unexpired identity token.
func (l *Login) check(token string) (Claims, error) {
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	return CheckToken(token, now())
}

// CheckToken reads a token a player brought (pasted, or returned by the
// sign-in) and refuses one that is not a readable identity token fresh at
// now; the error reads after "the token".
func CheckToken(token string, now time.Time) (Claims, error) {
	c, err := ParseClaims(token)
	if err != nil {
		return Claims{}, fmt.Errorf("is not usable: %w", err)
	}
	if err := CheckFresh(c, now); err != nil {
		return Claims{}, fmt.Errorf("is not usable: %w", err)
	}
	return c, nil
}

// accept checks a token and says who signed in.
func (l *Login) accept(token string) (string, error) {
	c, err := l.check(token)
	if err != nil {
		return "", fmt.Errorf("sign-in: the token %w", err)
	}
	fmt.Fprintf(l.Out, "Signed in as %s.\n", termtext.Name(c.Nick))
	return token, nil
}

// chooseNick asks for a nick until the service accepts one.
func (l *Login) chooseNick(ctx context.Context, pending string) (string, error) {
	for {
		fmt.Fprint(l.Out, "First sign-in: choose a nick: ")
		var nick string
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("sign-in: %w", ctx.Err())
		case line, ok := <-l.Lines:
			if !ok {
				return "", errors.New("sign-in: no nick given")
			}
			nick = strings.TrimSpace(line)
		}
		if nick == "" {
			continue
		}
		token, code, err := l.postNick(ctx, pending, nick)
		switch {
		case err != nil:
			return "", err
		case code == "nickTaken":
			fmt.Fprintf(l.Out, "The nick %q is taken; choose another.\n", nick)
		case code == "invalidNick":
			fmt.Fprintf(l.Out, "%q is not a valid nick; choose another.\n", nick)
		case code != "":
			return "", fmt.Errorf("sign-in: the identity service refused the nick: %s", code)
		default:
			return l.accept(token)
		}
	}
}

func (l *Login) postNick(ctx context.Context, pending, nick string) (token, code string, err error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	body, _ := json.Marshal(map[string]string{"nick": nick})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(l.Auth, "/")+"/nick", bytes.NewReader(body))
	if err != nil {
		return "", "", fmt.Errorf("sign-in: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+pending)
	req.Header.Set("Content-Type", "application/json")
	resp, err := sameorigin.Client(l.HTTP).Do(req)
	if err != nil {
		return "", "", fmt.Errorf("sign-in: identity service unreachable: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return "", "", fmt.Errorf("sign-in: %w", err)
	}
	var out struct {
		Token string `json:"token"`
		Error string `json:"error"`
	}
	if json.Unmarshal(b, &out) != nil {
		return "", "", fmt.Errorf("sign-in: the identity service answered HTTP %d with no JSON", resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK || out.Token == "" {
		if out.Error == "" {
			out.Error = "HTTP " + strconv.Itoa(resp.StatusCode)
		}
		return "", out.Error, nil
	}
	return out.Token, "", nil
}
