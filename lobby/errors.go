package lobby

import (
	"errors"
	"fmt"

	"vimpclient/termtext"
)

// MasterError is a refusal from the master, with the request it answered.
type MasterError struct {
	Code   string // the master's code, e.g. "unknownHost"
	Re     string // the refused request type, when the master said
	Reason string // a detail some codes carry (voteRejected)
}

func (e *MasterError) Error() string { return Words(e.Code, e.Reason) }

// ErrRoomGone is wrapped by every error that means the room does not exist
// (any more): unknownHost and unknownRoom alike.
var ErrRoomGone = errors.New("the room no longer exists")

// Is lets errors.Is(err, ErrRoomGone) match the codes that mean it.
func (e *MasterError) Is(target error) bool {
	return target == ErrRoomGone && (e.Code == "unknownHost" || e.Code == "unknownRoom")
}

// Words turns a master error code (and its reason) into a sentence a player
// understands.
func Words(code, reason string) string {
	switch code {
	case "unknownHost", "unknownRoom":
		return "The room no longer exists."
	case "rateLimited":
		return "Too many pings to the server list; latencies will update more slowly."
	case "tooManyRequests":
		return "Too many requests to the master; wait a moment."
	case "voteRejected":
		if w := voteRejectedWords(reason); w != "" {
			return w
		}
		return "The vote was not accepted: you can rate only a room you joined, and only with a reason."
	case "noSuccessor":
		return "No other player can take over as host right now."
	case "invalidToken":
		return "Your sign-in was not accepted: sign in again (vimpclient login)."
	case "authServiceUnavailable":
		return "The sign-in service is unavailable right now; try again later."
	case "blocked":
		return "Hosting is blocked for this account: its host rating is too low."
	case "hostLimit":
		return "This address already hosts a room (one room per address)."
	case "alreadyRegistered":
		return "This connection has already registered a room."
	case "gameUnavailable":
		return "The master does not offer this game right now."
	case "migrating":
		return "The room's host is changing; trying again."
	case "memberTaken":
		return "This room seat is in use by another account."
	case "invalidRoomSecret", "staleEpoch", "roomTaken", "invalidPromotion":
		return "The room cannot be taken back: it has a new host."
	case "badRequest":
		return "The master did not understand the request."
	}
	return fmt.Sprintf("The master refused the request (%s).", termtext.Name(code))
}

// ClosedWords is why a room was closed (room_closed's reason) in a
// sentence. A reason the client does not know is quoted, escaped and
// bounded.
func ClosedWords(reason string) string {
	switch reason {
	case "":
		return "The room was closed."
	case "noHost":
		return "The room was closed: its host left and no other player could take over."
	}
	return fmt.Sprintf("The room was closed (%s).", termtext.Reason(reason))
}

func voteRejectedWords(reason string) string {
	switch reason {
	case "migrating":
		return "No vote now: the host is already changing."
	case "host":
		return "The host cannot start a vote to replace itself."
	case "tooNew":
		return "You joined too recently to start a vote."
	case "active":
		return "A vote is already running."
	case "roomCooldown":
		return "This room voted recently; wait a little before the next vote."
	case "userCooldown":
		return "You started a vote recently; wait a little before the next one."
	}
	return ""
}

// Err is the refusal as an error.
func (e *Error) Err() *MasterError { return &MasterError{Code: e.Code, Re: e.Re, Reason: e.Reason} }
