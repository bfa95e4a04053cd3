package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"vimpclient/internal/localfile"
	"vimpclient/protocol"
)

// AuthValues answers AUTH_DATA. Explicit values win: Set (field=value) by
// field name, then Nick for the identity field ("name"), then the value
// remembered under the field's storage key for this host and game, then the
// host's default. Every value is a string.
type AuthValues struct {
	Nick  string
	Set   map[string]string
	Store *AuthStore // nil: nothing remembered, nothing saved
	// GuestNick fills a required identity field that nothing else filled
	// (headless runs have no form to ask with); "" leaves it to a player.
	GuestNick string
}

// ErrAuthIncomplete reports a required field with no value to send.
var ErrAuthIncomplete = errors.New("auth form needs a value")

// NickField is the identity field of the dedicated contour's guest form.
const NickField = "name"

// Answer builds the AUTH_RESPONSE values for form.
func (a AuthValues) Answer(form *protocol.AuthForm, host, gameID string) (map[string]string, error) {
	var remembered map[string]string
	if a.Store != nil {
		remembered = a.Store.Load(host, gameID)
	}
	out := make(map[string]string, len(form.Params))
	for _, p := range form.Params {
		v := p.Value
		if s := p.Options.Storage; s != "" {
			if r, ok := remembered[s]; ok {
				v = r
			}
		}
		if p.Name == NickField && a.Nick != "" {
			v = a.Nick
		}
		if s, ok := a.Set[p.Name]; ok {
			v = s
		}
		if v == "" && p.Name == NickField && a.GuestNick != "" {
			v = a.GuestNick
		}
		if v == "" && p.Options.Required {
			hint := "-set " + p.Name + "=VALUE"
			if p.Name == NickField {
				hint = "-nick NAME"
			}
			return nil, fmt.Errorf("%w: field %q (%s); give it with %s", ErrAuthIncomplete, p.Name, p.Options.Label, hint)
		}
		out[p.Name] = v
	}
	return out, nil
}

// Remember saves the accepted values under each field's storage key.
func (a AuthValues) Remember(form *protocol.AuthForm, values map[string]string, host, gameID string) error {
	if a.Store == nil {
		return nil
	}
	upd := map[string]string{}
	for _, p := range form.Params {
		if s := p.Options.Storage; s != "" && p.Name != TokenField {
			upd[s] = values[p.Name] // an identity token is never kept with form values
		}
	}
	if len(upd) == 0 {
		return nil
	}
	return a.Store.Save(host, gameID, upd)
}

// AuthStore keeps remembered form values in a JSON file, per host and game id,
// by the storage keys the host names (as a browser keeps them per origin).
type AuthStore struct {
	path string
	mu   *sync.Mutex // shared by the stores Under makes
	// host, when set, is the host every value is kept under, whatever
	// host a form came from (see Under).
	host string
}

// DefaultAuthStore is the store in the user config directory.
func DefaultAuthStore() (*AuthStore, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("auth store: %w", err)
	}
	return NewAuthStore(filepath.Join(dir, "vimpclient", "auth.json")), nil
}

// NewAuthStore uses the file at path (created on first save).
func NewAuthStore(path string) *AuthStore { return &AuthStore{path: path, mu: new(sync.Mutex)} }

// Under is the same store keeping the values of every host under host, per
// game: for a host that is the same one to the player whatever its
// address, as the embedded offline host, listening on a new port every
// time it starts.
func (s *AuthStore) Under(host string) *AuthStore {
	return &AuthStore{path: s.path, mu: s.mu, host: host}
}

func (s *AuthStore) storeKey(host, gameID string) string {
	if s.host != "" {
		host = s.host
	}
	return hostKey(host) + "|" + gameID
}

// maxAuthValue bounds one remembered value: a nickname or a form answer.
const maxAuthValue = 4 << 10

// readAll reads the store: the values that could be read, and why the
// file could not be read in full ("" when it could). A damaged value (not
// a string) or host entry is left out, the others kept.
func (s *AuthStore) readAll() (map[string]map[string]string, string) {
	b, err := localfile.ReadStore(s.path, localfile.StoreLimit, "auth store")
	if errors.Is(err, os.ErrNotExist) {
		return map[string]map[string]string{}, ""
	}
	if err != nil {
		return map[string]map[string]string{}, err.Error()
	}
	return parseAuthStore(b)
}

// parseAuthStore decodes an auth store's file, value by value.
func parseAuthStore(b []byte) (map[string]map[string]string, string) {
	all := map[string]map[string]string{}
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		// A host entry that is not an object fails the whole decode:
		// read the hosts one by one to keep the others.
		var hosts map[string]json.RawMessage
		if json.Unmarshal(b, &hosts) != nil {
			return all, "not an auth store: " + err.Error()
		}
		raw = map[string]map[string]json.RawMessage{}
		for k, v := range hosts {
			var vals map[string]json.RawMessage
			if json.Unmarshal(v, &vals) == nil && vals != nil {
				raw[k] = vals
			} else {
				raw[k] = nil
			}
		}
	}
	total, bad := 0, 0
	for k, vals := range raw {
		total++
		if k == "" || vals == nil {
			bad++
			continue
		}
		kept := map[string]string{}
		for n, v := range vals {
			total++
			var str string
			if n == "" || json.Unmarshal(v, &str) != nil || len(str) > maxAuthValue {
				bad++
				continue
			}
			kept[n] = str
		}
		all[k] = kept
	}
	if bad > 0 {
		return all, fmt.Sprintf("%d of %d entries could not be read", bad, total)
	}
	return all, ""
}

// Load returns the values remembered for host and game (never nil).
func (s *AuthStore) Load(host, gameID string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, _ := s.readAll()
	if v := all[s.storeKey(host, gameID)]; v != nil {
		return v
	}
	return map[string]string{}
}

// Save merges values into what is remembered for host and game.
func (s *AuthStore) Save(host, gameID string, values map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, damage := s.readAll()
	k := s.storeKey(host, gameID)
	if all[k] == nil {
		all[k] = map[string]string{}
	}
	for n, v := range values {
		all[k][n] = v
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return fmt.Errorf("auth store: %w", err)
	}
	// A file read with damage is set aside before it is written over, so
	// the answers it held for other hosts are still on disk.
	if _, err := localfile.Replace(s.path, append(b, '\n'), 0o600, damage != "", time.Now()); err != nil {
		return fmt.Errorf("auth store: %w", err)
	}
	return nil
}
