package session

import (
	"time"

	"vimpclient/protocol"
	"vimpclient/termtext"
)

// State is how far the handshake got; it only moves forward within a connection.
type State uint8

const (
	StateConnecting State = iota // socket not open yet
	StateConfig                  // CONFIG_DATA received
	StateAuth                    // AUTH_DATA received
	StateMap                     // AUTH_RESULT null received
	StatePlaying                 // TECH_INFORM null after FIRST_SHOT_READY
)

func (s State) String() string {
	return [...]string{"connecting", "config", "auth", "map", "playing"}[s]
}

// EventKind tells what an Event carries.
type EventKind uint8

const (
	EventOpen     EventKind = iota // transport open: a new connection, all state discarded
	EventMessage                   // a decoded JSON message: Port and Msg
	EventFrame                     // a binary snapshot frame: Data
	EventState                     // the handshake reached State
	EventClosed                    // the connection ended: Close
	EventPlatform                  // a lobby notice, migration step or engine vote: Platform
	// EventRefused: what the run asked for cannot be had on this
	// connection (the -team is not offered); Err says why, for the player.
	EventRefused
	// EventRetry: the runner waits before its next attempt; Retry says
	// when and why.
	EventRetry
	// EventResumed: a lobby room's host gave the seat back after a lost
	// connection. No EventOpen came before it: the map, the world and the
	// HUD go on; the host sends the key set, scoreboard, panel and frames.
	EventResumed
	// EventPing: a PING arrived (and was answered) at At; the host sends
	// them on a fixed timer, so their arrivals time the host-to-client
	// delay's variation.
	EventPing
)

// Event is one item for the game loop, stamped with its arrival time.
type Event struct {
	At   time.Time
	Kind EventKind
	Port int
	// Msg is the message of an EventMessage, decoded once by the session
	// (protocol.DecodePayload): a consumer type-switches on its kinds.
	Msg  protocol.Message
	Data []byte // frame bytes for EventFrame, owned by the receiver
	// Size is the wire size of a message event: what its parsed value
	// costs the queue, which bounds bytes as well as events.
	Size  int
	State State
	Close *CloseInfo
	// Platform is set for EventPlatform.
	Platform *PlatformEvent
	// Retry is set for EventRetry.
	Retry *RetryInfo
	// Err is set on the AUTH_DATA message when the session could not answer
	// the form itself (a required value is missing): a player must fill it.
	Err error
	// Answer is set on the AUTH_DATA message the session answered itself:
	// the values it sent (from flags or memory), which the form shows again
	// if the host rejects them.
	Answer map[string]string
}

// CloseInfo is how and why a connection ended, and what the policy does next.
type CloseInfo struct {
	Code      int
	Reason    string // player-facing: the terminal TECH_INFORM text, else the close code's text
	Reconnect bool   // false for the policy codes 4001/4006/4008/4009 and for a local stop
	Local     bool   // the client ended it (context cancelled)
	// Rejoin: the host refused to give the seat back; the next attempt,
	// at once, is a fresh join (Reason says why).
	Rejoin bool
}

// RetryInfo is the runner's next attempt after a connection ended or could
// not be made.
type RetryInfo struct {
	At      time.Time     // when the attempt starts
	Wait    time.Duration // the back-off before it
	Attempt int           // the attempt's number since the run last played, from 1
	// Reason is why the connection was lost: the last close's reason, or
	// when no connection was made yet why the last attempt failed.
	Reason string
	// Failed is why the last attempt failed to connect, in words ("" when
	// it connected).
	Failed string
}

// techText fills a TECH_INFORM template from CONFIG_DATA's list, or the
// built-in defaults before CONFIG_DATA arrived.
func techText(list []string, inf protocol.Inform) string {
	if len(list) == 0 {
		list = protocol.DefaultTechInform()
	}
	if inf.Code < 0 || inf.Code >= len(list) {
		return "Unknown error"
	}
	// A rune takes at most 4 bytes: past that many bytes the text has more
	// than maxTechText runes, and Truncate cuts it with an ellipsis.
	return termtext.Truncate(protocol.FillTemplate(list[inf.Code], inf.Params, 4*maxTechText), maxTechText)
}

// maxTechText bounds a filled TECH_INFORM text, in runes: a template of
// many placeholders and long parameters would otherwise multiply them.
// The text keeps its newlines for the black screen; wherever it reaches a
// terminal it is escaped (termtext).
const maxTechText = 1000
