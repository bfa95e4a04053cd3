package host

import "vimpclient/host/game"

// The room loop's calls into a match's optional roles: each does what the
// role's doc in package game names for a match without it.

// mapNames is m's catalog, or the one map it plays.
func mapNames(m game.Match) []string {
	if c, ok := m.(game.Catalog); ok {
		return c.MapNames()
	}
	return []string{m.MapName()}
}

// mapText is a catalog map's JSON; false for a match without a catalog.
func mapText(m game.Match, name string) ([]byte, bool) {
	if c, ok := m.(game.Catalog); ok {
		return c.MapText(name)
	}
	return nil, false
}

// authParams are m's own auth fields, none without an Authenticator.
func authParams(m game.Match) []game.AuthParam {
	if a, ok := m.(game.Authenticator); ok {
		return a.AuthParams()
	}
	return nil
}

// authTexts is m's auth screen text block, nil without an Authenticator.
func authTexts(m game.Match) any {
	if a, ok := m.(game.Authenticator); ok {
		return a.AuthTexts()
	}
	return nil
}

// invalidAuth names the fields m finds not valid; none without an
// Authenticator.
func invalidAuth(m game.Match, fields map[string]string) []string {
	if a, ok := m.(game.Authenticator); ok {
		return a.ValidateAuth(fields)
	}
	return nil
}

// playing reports whether uid plays in m: always without Spectators.
func playing(m game.Match, uid int) bool {
	if s, ok := m.(game.Spectators); ok {
		return s.Playing(uid)
	}
	return true
}
