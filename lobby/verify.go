package lobby

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// JWKS cache: keys are reused for jwksTTL; a token naming an unknown key id
// refetches, at most once per jwksRefetch.
const (
	jwksTTL     = 10 * time.Minute
	jwksRefetch = 30 * time.Second
	maxJWKSKeys = 32
)

// ErrTokenInvalid reports a token a host must refuse.
var ErrTokenInvalid = errors.New("identity token refused")

// ParseJWKS decodes a JSON Web Key Set, keeping its RSA public keys (at
// most 32); a set with none is an error.
func ParseJWKS(b []byte) (*jose.JSONWebKeySet, error) {
	var raw struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	set := &jose.JSONWebKeySet{}
	for _, k := range raw.Keys {
		if len(set.Keys) == maxJWKSKeys {
			break
		}
		var key jose.JSONWebKey
		if key.UnmarshalJSON(k) != nil || !key.Valid() || !key.IsPublic() {
			continue
		}
		if _, ok := key.Key.(*rsa.PublicKey); !ok {
			continue
		}
		set.Keys = append(set.Keys, key)
	}
	if len(set.Keys) == 0 {
		return nil, errors.New("jwks: no usable RSA public key")
	}
	return set, nil
}

// Verifier checks identity tokens the way a lobby host must: RS256 signed
// by a key of the master's /auth/jwks, iss "vimp-auth", exp in the future,
// a non-empty nick.
type Verifier struct {
	// Fetch returns the JWKS document (Master.JWKS).
	Fetch  func(ctx context.Context) ([]byte, error)
	Issuer string           // default Issuer
	Now    func() time.Time // default time.Now

	mu        sync.Mutex
	set       *jose.JSONWebKeySet
	fetchedAt time.Time
}

// keys returns the cached key set, refetching when stale or when force is
// set and the last fetch is old enough.
func (v *Verifier) keys(ctx context.Context, force bool) (*jose.JSONWebKeySet, error) {
	now := v.now()
	v.mu.Lock()
	set, at := v.set, v.fetchedAt
	v.mu.Unlock()
	age := now.Sub(at)
	if set != nil && age < jwksTTL && (!force || age < jwksRefetch) {
		return set, nil
	}
	b, err := v.Fetch(ctx)
	if err != nil {
		if set != nil && !force {
			return set, nil // a stale set beats none while the service is down
		}
		return nil, fmt.Errorf("identity keys: %w", err)
	}
	set, err = ParseJWKS(b)
	if err != nil {
		return nil, fmt.Errorf("identity keys: %w", err)
	}
	v.mu.Lock()
	v.set, v.fetchedAt = set, now
	v.mu.Unlock()
	return set, nil
}

func (v *Verifier) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

// Verify checks token and returns its claims.
func (v *Verifier) Verify(ctx context.Context, token string) (Claims, error) {
	if token == "" {
		return Claims{}, fmt.Errorf("%w: no token", ErrTokenInvalid)
	}
	if len(token) > maxTokenLen {
		return Claims{}, fmt.Errorf("%w: over %d bytes", ErrTokenInvalid, maxTokenLen)
	}
	t, err := jwt.ParseSigned(token, signatureAlgs)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrTokenInvalid, err)
	}
	if len(t.Headers) != 1 {
		return Claims{}, fmt.Errorf("%w: one signature expected", ErrTokenInvalid)
	}
	kid := t.Headers[0].KeyID
	set, err := v.keys(ctx, false)
	if err != nil {
		return Claims{}, err
	}
	found := set.Key(kid)
	if len(found) == 0 {
		if set, err = v.keys(ctx, true); err != nil {
			return Claims{}, err
		}
		found = set.Key(kid)
	}
	if len(found) == 0 {
		return Claims{}, fmt.Errorf("%w: unknown key id %q", ErrTokenInvalid, kid)
	}
	var std jwt.Claims
	var n nickClaim
	if err := t.Claims(found[0].Key, &std, &n); err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrTokenInvalid, err)
	}
	iss := v.Issuer
	if iss == "" {
		iss = Issuer
	}
	if std.Expiry == nil {
		return Claims{}, fmt.Errorf("%w: no exp", ErrTokenInvalid)
	}
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: iss, Time: v.now()}, 0); err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrTokenInvalid, err)
	}
	if n.Nick == "" {
		return Claims{}, fmt.Errorf("%w: no nick", ErrTokenInvalid)
	}
	return claimsOf(t, std, n), nil
}
