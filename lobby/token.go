package lobby

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"vimpclient/internal/localfile"
	"vimpclient/sameorigin"
)

// Issuer is the iss claim of the identity service's tokens.
const Issuer = "vimp-auth"

// maxTokenLen bounds a token read from a flag, a file, the environment or
// the store (a 2048-bit RS256 token with its claims is under 1 KiB).
const maxTokenLen = 8 << 10

// expiryMargin refuses a token about to expire: joining takes a moment,
// and a host checks exp when the answer arrives.
const expiryMargin = time.Minute

// Claims are the identity token claims this client reads.
type Claims struct {
	Subject string
	Nick    string
	Issuer  string
	Expiry  time.Time // zero when the token has no exp
	KeyID   string
}

type nickClaim struct {
	Nick string `json:"nick"`
}

var signatureAlgs = []jose.SignatureAlgorithm{jose.RS256}

// ErrBadToken reports a token that is not an RS256 JWT with readable claims.
var ErrBadToken = errors.New("not a vimp identity token")

// ParseClaims reads a token's claims without checking its signature: the
// client only needs exp (to ask for a new sign-in in time) and nick (to say
// who it plays as). Hosts verify the signature.
func ParseClaims(token string) (Claims, error) {
	token = strings.TrimSpace(token)
	if token == "" || len(token) > maxTokenLen {
		return Claims{}, fmt.Errorf("%w: empty or over %d bytes", ErrBadToken, maxTokenLen)
	}
	t, err := jwt.ParseSigned(token, signatureAlgs)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	var std jwt.Claims
	var n nickClaim
	if err := t.UnsafeClaimsWithoutVerification(&std, &n); err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrBadToken, err)
	}
	return claimsOf(t, std, n), nil
}

func claimsOf(t *jwt.JSONWebToken, std jwt.Claims, n nickClaim) Claims {
	c := Claims{Subject: std.Subject, Nick: n.Nick, Issuer: std.Issuer}
	if std.Expiry != nil {
		c.Expiry = std.Expiry.Time()
	}
	if len(t.Headers) > 0 {
		c.KeyID = t.Headers[0].KeyID
	}
	return c
}

// ErrTokenExpired reports a token past (or about to pass) its exp.
var ErrTokenExpired = errors.New("your sign-in has expired: sign in again")

// ErrNoToken reports that no token was found for a master.
var ErrNoToken = errors.New("this room needs a sign-in")

// CheckFresh refuses a token that expires within a minute of now, or that
// has no exp at all (hosts refuse those).
func CheckFresh(c Claims, now time.Time) error {
	if c.Expiry.IsZero() {
		return fmt.Errorf("%w (the token has no expiry)", ErrTokenExpired)
	}
	if !now.Add(expiryMargin).Before(c.Expiry) {
		return fmt.Errorf("%w (it expired at %s)", ErrTokenExpired, c.Expiry.Local().Format("2006-01-02 15:04"))
	}
	return nil
}

// TokenSources are the places a token may come from, in the order tried:
// the -token flag, the -token-file flag, the VIMP_TOKEN environment
// variable, and the token stored for the master. A token given by a flag
// or the environment is for the one master named with it (FlagMaster,
// EnvMaster), and is not even looked at for another: a master a link or a
// list leads to never gets a token the player meant for another.
type TokenSources struct {
	Flag string
	File string
	// FlagMaster names the master -token and -token-file are for, as the
	// player gave it (http(s)://host[:port], or a bare host[:port]); ""
	// sends them to no master.
	FlagMaster string
	Env        string // the value of VIMP_TOKEN
	// EnvMaster names the master VIMP_TOKEN is for, as FlagMaster.
	EnvMaster string
	Store     *TokenStore
}

// fromStore names the token store as a token's source.
const fromStore = FromStoredSignIn

// Token is an identity token bound to the one master it may be sent to.
// The binding is fixed once: a stored sign-in belongs to the master it was
// stored for; a token from -token, -token-file or VIMP_TOKEN to the master
// whose /config was asked first (the address the player gave: the probe
// follows no redirect to another origin). Every message that carries it
// checks the binding first (CheckSend, Signal.SendToken).
type Token struct {
	Value string
	From  string // where it was found ("-token", "the stored sign-in", ...)
	Home  string // its master's origin (Master.Home)
}

// ErrTokenElsewhere refuses to send a token to a master other than its own.
var ErrTokenElsewhere = errors.New("the identity token belongs to another master: not sent")

// CheckSend returns nil when the token may be sent to dest, an origin
// (scheme://host:port); a token bound to nothing goes nowhere.
func (t Token) CheckSend(dest string) error {
	if t.Home == "" || t.Home != dest {
		return fmt.Errorf("%w (its master is %q, the message would go to %q)", ErrTokenElsewhere, t.Home, dest)
	}
	return nil
}

// String keeps the token itself out of anything that prints a Token.
func (t Token) String() string { return "identity token of " + t.Home }

// LogValue keeps the token itself out of logs.
func (t Token) LogValue() slog.Value { return slog.StringValue(t.String()) }

// For finds the token for m and binds it to m's origin. A sign-in stored
// for another origin of the same host and port (http against https) is
// refused: it was given to that master, not this one.
func (s TokenSources) For(m *Master) (Token, error) {
	value, from, err := s.Token(m)
	if err != nil {
		return Token{}, err
	}
	home := m.Home()
	if from == fromStore {
		if stored := s.Store.home(m.Key()); stored != "" && stored != home {
			return Token{}, fmt.Errorf("the sign-in stored for %s is not for %s (sign in for it): %w", stored, home, ErrTokenElsewhere)
		}
	}
	return Token{Value: value, From: from, Home: home}, nil
}

// Token returns the token for m and where it came from. A token from a
// flag or the environment named for another master is passed over (a
// stored sign-in for m may still be found); when none is found, the error
// says which were passed over and how to send one to m.
func (s TokenSources) Token(m *Master) (token, from string, err error) {
	var elsewhere []string
	flag := "-token"
	if strings.TrimSpace(s.Flag) == "" {
		flag = "-token-file"
	}
	switch {
	case (strings.TrimSpace(s.Flag) != "" || s.File != "") && !NamesMaster(s.FlagMaster, m):
		elsewhere = append(elsewhere, passedOver(flag, s.FlagMaster))
	case strings.TrimSpace(s.Flag) != "":
		return strings.TrimSpace(s.Flag), "-token", nil
	case s.File != "":
		b, err := readTokenFile(s.File)
		if err != nil {
			return "", "", err
		}
		return b, "-token-file", nil
	}
	if t := strings.TrimSpace(s.Env); t != "" {
		if NamesMaster(s.EnvMaster, m) {
			return t, "VIMP_TOKEN", nil
		}
		elsewhere = append(elsewhere, passedOver("VIMP_TOKEN", s.EnvMaster))
	}
	if s.Store != nil {
		if t := s.Store.Load(m.Key()); t != "" {
			return t, fromStore, nil
		}
	}
	if len(elsewhere) > 0 {
		return "", "", fmt.Errorf("%w (not sent to %s: %s; -token-master %s sends it there)", ErrNoToken, m.Home(), strings.Join(elsewhere, ", "), m.URL())
	}
	return "", "", ErrNoToken
}

// passedOver says why a token from source was not sent.
func passedOver(source, master string) string {
	if master == "" {
		return "the token of " + source + " names no master"
	}
	return "the token of " + source + " is for " + master
}

// NamesMaster reports whether named, a master's address as a player gave
// it, names m. An address with a scheme names one origin (ws and wss
// stand for http and https); a bare host[:port] names that host over
// either, on that port when one is given.
func NamesMaster(named string, m *Master) bool {
	named = strings.TrimSpace(named)
	if named == "" || m == nil {
		return false
	}
	if strings.Contains(named, "://") {
		u, err := url.Parse(named)
		return err == nil && u.Host != "" && sameorigin.Of(u) == m.Home()
	}
	u, err := url.Parse("http://" + named)
	if err != nil || u.Hostname() == "" || !strings.EqualFold(u.Hostname(), m.base.Hostname()) {
		return false
	}
	if u.Port() == "" {
		return true
	}
	_, port, err := net.SplitHostPort(m.Key())
	return err == nil && port == u.Port()
}

func readTokenFile(path string) (string, error) {
	// A FIFO or a device named as the token file is refused, not waited on.
	b, err := localfile.Read(path, localfile.TokenFileLimit, "token file")
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", fmt.Errorf("token file %s is empty", path)
	}
	return t, nil
}

// TokenStore keeps one token per master in a JSON file readable only by
// its owner.
type TokenStore struct {
	path string
	mu   sync.Mutex
}

// DefaultTokenStore is the store in the user config directory.
func DefaultTokenStore() (*TokenStore, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("token store: %w", err)
	}
	return NewTokenStore(filepath.Join(dir, "vimpclient", "tokens.json")), nil
}

// TokenFlags are a command line's token flags and the master it names.
type TokenFlags struct {
	Token, File string // -token, -token-file
	Master      string // -token-master
	// Named is the master address the player wrote on the command line
	// (the address argument, -master): "" when there is none, or when it
	// comes from a join link, which anyone may have written.
	Named string
}

// DefaultTokenSources are the sources of a command's token flags: -token
// and -token-file, for the master -token-master names, else the one the
// command line names; then VIMP_TOKEN, for the master -token-master names,
// else the one VIMP_TOKEN_MASTER names (the environment is not the command
// line: it names no master by itself); then the default store (none when
// there is no user config directory).
func DefaultTokenSources(f TokenFlags) TokenSources {
	src := TokenSources{Flag: f.Token, File: f.File, FlagMaster: cmp.Or(f.Master, f.Named),
		Env: os.Getenv("VIMP_TOKEN"), EnvMaster: cmp.Or(f.Master, os.Getenv("VIMP_TOKEN_MASTER"))}
	if store, err := DefaultTokenStore(); err == nil {
		src.Store = store
	}
	return src
}

// NewTokenStore uses the file at path (created on first save).
func NewTokenStore(path string) *TokenStore { return &TokenStore{path: path} }

type storedToken struct {
	Token string `json:"token"`
	Auth  string `json:"auth,omitempty"` // the identity service that issued it
	// Home is the origin of the master it was stored for (absent in files
	// written before origins were kept: the key, host and port, binds those).
	Home string `json:"master,omitempty"`
}

// readAll reads the store: the tokens that could be read, and why the file
// could not be read in full ("" when it could). A damaged entry (not a
// token, a key that is no master's) is left out, the others kept.
func (s *TokenStore) readAll() (map[string]storedToken, string) {
	all := map[string]storedToken{}
	b, err := localfile.ReadStore(s.path, localfile.StoreLimit, "token store")
	if errors.Is(err, os.ErrNotExist) {
		return all, ""
	}
	if err != nil {
		return all, err.Error()
	}
	return parseTokens(b)
}

// parseTokens decodes a token store's file, entry by entry.
func parseTokens(b []byte) (map[string]storedToken, string) {
	all := map[string]storedToken{}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return all, "not a token store: " + err.Error()
	}
	bad := 0
	for k, v := range raw {
		var t storedToken
		if k == "" || k != strings.ToLower(k) || json.Unmarshal(v, &t) != nil || t.Token == "" || len(t.Token) > maxTokenLen {
			bad++
			continue
		}
		all[k] = t
	}
	if bad > 0 {
		return all, fmt.Sprintf("%d of %d entries could not be read", bad, len(raw))
	}
	return all, ""
}

// Load returns the token stored for master ("" when none).
func (s *TokenStore) Load(master string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, _ := s.readAll()
	return all[strings.ToLower(master)].Token
}

// AuthURL returns the identity service the master's token came from.
func (s *TokenStore) AuthURL(master string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, _ := s.readAll()
	return all[strings.ToLower(master)].Auth
}

func (s *TokenStore) home(master string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, _ := s.readAll()
	return all[strings.ToLower(master)].Home
}

// Remove forgets the token stored for m (signing out); none stored is no
// error.
func (s *TokenStore) Remove(m *Master) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, damage := s.readAll()
	if _, ok := all[m.Key()]; !ok {
		return nil
	}
	delete(all, m.Key())
	return s.writeAll(all, damage)
}

// Save stores the token for m, replacing the previous one: it is bound to
// m's origin from then on.
func (s *TokenStore) Save(m *Master, token, auth string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, damage := s.readAll()
	all[m.Key()] = storedToken{Token: token, Auth: auth, Home: m.Home()}
	return s.writeAll(all, damage)
}

// writeAll replaces the file with all (atomically, readable by its owner
// only); callers hold s.mu. A file read with damage is set aside first,
// so the sign-ins it held that could not be read are still on disk.
func (s *TokenStore) writeAll(all map[string]storedToken, damage string) error {
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	if _, err := localfile.Replace(s.path, append(b, '\n'), 0o600, damage != "", time.Now()); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	return nil
}
