package fakemaster

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"vimpclient/lobby"
)

// Keys is a stand-in identity service's signing key and its JWKS.
type Keys struct {
	priv *rsa.PrivateKey
	kid  string
}

// NewKeys makes a fresh 2048-bit RS256 key under the key id kid.
func NewKeys(kid string) (*Keys, error) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("fakemaster: key: %w", err)
	}
	return &Keys{priv: priv, kid: kid}, nil
}

// JWKS is the public key set, as an identity service serves it.
func (k *Keys) JWKS() []byte {
	set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &k.priv.PublicKey, KeyID: k.kid, Algorithm: string(jose.RS256), Use: "sig"}}}
	b, err := json.Marshal(set)
	if err != nil {
		panic(err)
	}
	return b
}

// TokenClaims are what a signed token says.
type TokenClaims struct {
	Sub    string
	Nick   string
	Issuer string // lobby.Issuer when empty
	Expiry time.Time
	KeyID  string // the key's own id when empty
}

// Sign makes an identity token.
func (k *Keys) Sign(c TokenClaims) string {
	if c.Issuer == "" {
		c.Issuer = lobby.Issuer
	}
	if c.KeyID == "" {
		c.KeyID = k.kid
	}
	opts := (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", c.KeyID)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k.priv}, opts)
	if err != nil {
		panic(err)
	}
	std := jwt.Claims{Subject: c.Sub, Issuer: c.Issuer, IssuedAt: jwt.NewNumericDate(time.Now())}
	if !c.Expiry.IsZero() {
		std.Expiry = jwt.NewNumericDate(c.Expiry)
	}
	extra := map[string]any{}
	if c.Nick != "" {
		extra["nick"] = c.Nick
	}
	s, err := jwt.Signed(signer).Claims(std).Claims(extra).Serialize()
	if err != nil {
		panic(err)
	}
	return s
}

// Token is a valid token for nick, four hours long.
func (k *Keys) Token(sub, nick string) string {
	return k.Sign(TokenClaims{Sub: sub, Nick: nick, Expiry: time.Now().Add(4 * time.Hour)})
}

// Verifier checks tokens against this key as a master does.
func (k *Keys) Verifier() *lobby.Verifier {
	jwks := k.JWKS()
	return &lobby.Verifier{Fetch: func(context.Context) ([]byte, error) { return jwks, nil }}
}
