package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Session resume of lobby rooms. A host that holds seats sends SESSION_DATA
// once the player is in the game (and again after every resume: the key may
// change). After a lost connection the client offers again with resume, and
// its first message is RESUME_REQUEST; the host answers RESUME_RESULT and,
// on success, the state of the match the player left (key set, scoreboard,
// panel, frames), without CONFIG_DATA, auth or map when the map is the same.
// LEAVE is sent on every deliberate exit, so the seat is not held.

// ResumeVersion is the RESUME_REQUEST format this client writes and the
// embedded host reads; a host answers another with the reason "version".
const ResumeVersion = 1

// Bounds of what a host may hand out: a resume key is an opaque token (the
// engine's are 32 hex digits), a game id a short string or number.
const (
	MaxResumeKey = 256
	MaxGameID    = 64
)

// Refusal reasons of RESUME_RESULT.
const (
	ResumeUnknown       = "unknown" // no such seat, a wrong key, or the seat was released
	ResumeAuth          = "auth"    // the token does not name the seat's player
	ResumeVersionReason = "version" // the host does not read this RESUME_REQUEST format
)

// SessionInfo is a decoded SESSION_DATA: the seat's key and the player's
// game id, kept verbatim (a JSON string or number) to be sent back as it came.
type SessionInfo struct {
	Key    string
	GameID json.RawMessage
}

// ResumeAnswer is a decoded RESUME_RESULT.
type ResumeAnswer struct {
	OK     bool
	GameID json.RawMessage // on success, when the host sent it
	Reason string          // on a refusal; "" when the host gave none
}

// ParseSessionData reads SESSION_DATA. The key must be a non-empty string of
// printable ASCII within MaxResumeKey; the game id a string or number within
// MaxGameID bytes.
func ParseSessionData(raw json.RawMessage) (SessionInfo, error) {
	if len(raw) > 2*MaxResumeKey+MaxGameID+64 {
		return SessionInfo{}, payloadErr(SessionData, "too long")
	}
	var w struct {
		Key    *string         `json:"resumeKey"`
		GameID json.RawMessage `json:"gameId"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return SessionInfo{}, payloadErr(SessionData, "not an object")
	}
	if w.Key == nil || *w.Key == "" || len(*w.Key) > MaxResumeKey || !printableASCII(*w.Key) {
		return SessionInfo{}, payloadErr(SessionData, "resumeKey missing, too long or not printable")
	}
	id, err := gameIDOf(w.GameID)
	if err != nil {
		return SessionInfo{}, payloadErr(SessionData, "%v", err)
	}
	return SessionInfo{Key: *w.Key, GameID: id}, nil
}

// ParseResumeResult reads RESUME_RESULT; a reason is cut to 64 bytes.
func ParseResumeResult(raw json.RawMessage) (ResumeAnswer, error) {
	if len(raw) > 1024 {
		return ResumeAnswer{}, payloadErr(ResumeResult, "too long")
	}
	var w struct {
		OK     *bool           `json:"ok"`
		GameID json.RawMessage `json:"gameId"`
		Reason any             `json:"reason"`
	}
	if err := json.Unmarshal(raw, &w); err != nil || w.OK == nil {
		return ResumeAnswer{}, payloadErr(ResumeResult, "not an object with ok")
	}
	a := ResumeAnswer{OK: *w.OK}
	if id, err := gameIDOf(w.GameID); err == nil {
		a.GameID = id
	}
	if s, ok := w.Reason.(string); ok && !a.OK {
		if len(s) > 64 {
			s = s[:64]
		}
		if printableASCII(s) {
			a.Reason = s
		}
	}
	return a, nil
}

// gameIDOf accepts a JSON string or number of at most MaxGameID bytes.
func gameIDOf(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || len(raw) > MaxGameID {
		return nil, fmt.Errorf("gameId missing or too long")
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, fmt.Errorf("gameId not JSON")
	}
	switch v.(type) {
	case string, float64:
		return bytes.Clone(raw), nil
	}
	return nil, fmt.Errorf("gameId neither a string nor a number")
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// ResumeRequestMsg builds RESUME_REQUEST {v, gameId, resumeKey, token}; the
// token is null when the room has none.
func ResumeRequestMsg(gameID json.RawMessage, key, token string) ([]byte, error) {
	if len(gameID) == 0 {
		gameID = json.RawMessage("null")
	}
	var tok any
	if token != "" {
		tok = token
	}
	b, err := json.Marshal([]any{ResumeRequest, map[string]any{
		"v": ResumeVersion, "gameId": gameID, "resumeKey": key, "token": tok}})
	if err != nil {
		return nil, fmt.Errorf("resume request: %w", err)
	}
	return b, nil
}

// ResumeWords says a refusal reason in words, for the player.
func ResumeWords(reason string) string {
	switch reason {
	case ResumeUnknown:
		return "the host no longer holds the seat (it was released or the key is not known)"
	case ResumeAuth:
		return "the host did not accept the identity token for the seat"
	case ResumeVersionReason:
		return "the host does not read this client's resume request"
	case "":
		return "the host gave no reason"
	}
	return "the host refused (" + reason + ")"
}
