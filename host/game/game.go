// Package game is what the embedded host needs from the match it runs:
// the room loop drives any Match through these calls, whichever game it
// plays (tanks in package match, snakes in package snakesmatch), and asks
// for the optional roles a game may have. It also holds what the matches
// keep alike: the roster of participants, the seat of a connected user,
// the meta fan-out of each send tick, and the chat and key lines.
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

// Match is one room's game as the host's room loop sees it: the calls
// every game answers. What only some games have is an optional interface
// the room discovers by a type assertion (Catalog, Authenticator,
// LatencyRecorder, Spectators, Chatter, Voter, Resumer); a Match without
// one gets the plain behaviour its doc names. A Match is owned by one
// goroutine and has no locks.
type Match interface {
	// SetOut connects the match to its transport.
	SetOut(o Out)
	// ConfigData is the CONFIG_DATA payload.
	ConfigData() json.RawMessage
	// MapName is the map being played.
	MapName() string
	// Join creates the participant of an authenticated user and returns
	// its final name, or false when there is no room; Leave removes it.
	Join(uid int, name string) (string, bool)
	Leave(uid int)
	Handshake
	// Keys applies a KEYS_DATA payload.
	Keys(uid int, payload string)
	// Step runs one 120 Hz simulation step at host wall time nowMs.
	Step(nowMs float64)
}

// Handshake is the loading sequence of a joined user, in the order the
// room loop reports it: MODULES_READY (the match sends its map),
// MAP_READY (the first shot) and FIRST_SHOT_READY (frames flow).
type Handshake interface {
	ModulesReady(uid int)
	MapReady(uid int)
	FirstShotReady(uid int)
}

// Catalog is a Match with a map catalog for the HTTP map endpoints:
// MapNames lists it, MapText gives a map's JSON. Without it the catalog
// is the one map being played, whose JSON is not served.
type Catalog interface {
	MapNames() []string
	MapText(name string) ([]byte, bool)
}

// Authenticator is a Match with auth fields of its own. AuthParams are
// the fields (the host puts its guest name field first), AuthTexts the
// auth screen's text block, and ValidateAuth returns the names of the
// fields that are not valid. Without it the form has the host's fields
// only and no text block.
type Authenticator interface {
	AuthParams() []AuthParam
	AuthTexts() any
	ValidateAuth(fields map[string]string) []string
}

// LatencyRecorder is a Match that shows round-trip times: SetLatency
// records a user's smoothed one in ms.
type LatencyRecorder interface {
	SetLatency(uid int, ms int)
}

// Spectators is a Match whose users may watch instead of play: Playing
// reports whether the user is in a playing team, and only those are
// kicked for idling. Without it every user plays.
type Spectators interface {
	Playing(uid int) bool
}

// Chatter is a Match with chat: Chat takes a CHAT_DATA line. Without it
// chat lines are dropped.
type Chatter interface {
	Chat(uid int, text string)
}

// Voter is a Match with votes: Vote takes a VOTE_DATA payload. Without it
// votes are dropped.
type Voter interface {
	Vote(uid int, raw json.RawMessage)
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
