// Package game is what the embedded host needs from the match it runs:
// the room loop drives any Match through these calls, whichever game it
// plays (tanks in package match, snakes in package snakesmatch).
package game

import "encoding/json"

// Out receives everything a match sends to one connected user.
type Out interface {
	// JSON sends [port, payload] as a text message.
	JSON(uid int, port int, payload any)
	// Frame sends a binary snapshot frame; b is only valid during the
	// call. Unreliable frames may be dropped under backpressure.
	Frame(uid int, b []byte, reliable bool)
}

// AuthParam is one auth form field descriptor.
type AuthParam struct {
	Name    string         `json:"name"`
	Value   string         `json:"value"`
	Options map[string]any `json:"options"`
}

// Match is one room's game as the host's room loop sees it. A Match is
// owned by one goroutine and has no locks.
type Match interface {
	// SetOut connects the match to its transport.
	SetOut(o Out)
	// ConfigData is the CONFIG_DATA payload.
	ConfigData() json.RawMessage
	// MapNames is the map catalog; MapText a catalog map's JSON (for the
	// HTTP map endpoints); MapName the map being played.
	MapNames() []string
	MapText(name string) ([]byte, bool)
	MapName() string
	// AuthParams are the game's own auth fields (the host puts its guest
	// name field first), AuthTexts the auth screen's text block, and
	// ValidateAuth returns the names of the fields that are not valid.
	AuthParams() []AuthParam
	AuthTexts() any
	ValidateAuth(fields map[string]string) []string
	// Join creates the participant of an authenticated user and returns
	// its final name, or false when there is no room; Leave removes it.
	Join(uid int, name string) (string, bool)
	Leave(uid int)
	// SetLatency records a user's smoothed round-trip time.
	SetLatency(uid int, ms int)
	// Playing reports whether the user is in a playing team (idle kicks).
	Playing(uid int) bool
	// ModulesReady, MapReady and FirstShotReady follow the handshake.
	ModulesReady(uid int)
	MapReady(uid int)
	FirstShotReady(uid int)
	// Keys applies a KEYS_DATA payload, Chat a chat line, Vote a VOTE_DATA.
	Keys(uid int, payload string)
	Chat(uid int, text string)
	Vote(uid int, raw json.RawMessage)
	// Step runs one 120 Hz simulation step at host wall time nowMs.
	Step(nowMs float64)
}

// Resumer is a Match that can hold a player's seat while its connection is
// away: the participant stays (team, score, tank), and a new connection
// takes it over. A Match without it never offers resume.
type Resumer interface {
	// SeatID is the user's game id as its client knows it (the id of its
	// scoreboard row); false when the user has no participant.
	SeatID(uid int) (string, bool)
	// Detach: the user's connection is gone but the seat is held. Its keys
	// are released and nothing is sent to it until Resume.
	Detach(uid int)
	// Resume sends a new connection of the user what it needs to go on
	// with the match: the key set, the scoreboard, the panel and frames
	// again (or the map, when another map is being played now).
	Resume(uid int)
}
