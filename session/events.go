package session

import (
	"time"

	"vimpclient/protocol"
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
	EventMessage                   // a typed JSON message: Port and Value
	EventFrame                     // a binary snapshot frame: Data
	EventState                     // the handshake reached State
	EventClosed                    // the connection ended: Close
	EventPlatform                  // a lobby notice, migration step or engine vote: Platform
)

// Event is one item for the game loop, stamped with its arrival time.
type Event struct {
	At    time.Time
	Kind  EventKind
	Port  int
	Value any    // protocol.DecodePayload result for EventMessage
	Data  []byte // frame bytes for EventFrame, owned by the receiver
	// Size is the wire size of a message event: what its parsed value
	// costs the queue, which bounds bytes as well as events.
	Size int
	State State
	Close *CloseInfo
	// Platform is set for EventPlatform.
	Platform *PlatformEvent
	// Err is set on the AUTH_DATA message when the session could not answer
	// the form itself (a required value is missing): a player must fill it.
	Err error
}

// CloseInfo is how and why a connection ended, and what the policy does next.
type CloseInfo struct {
	Code      int
	Reason    string // player-facing: the terminal TECH_INFORM text, else the close code's text
	Reconnect bool   // false for the policy codes 4001/4006/4008/4009 and for a local stop
	Local     bool   // the client ended it (context cancelled)
}

// techText fills a TECH_INFORM template from CONFIG_DATA's list, or the
// built-in defaults before CONFIG_DATA arrived.
func techText(list []string, inf protocol.Inform) string {
	if len(list) == 0 {
		list = defaultTechInform
	}
	if inf.Code < 0 || inf.Code >= len(list) {
		return "Unknown error"
	}
	return fillTemplate(list[inf.Code], inf.Params)
}

var defaultTechInform = []string{
	"Server is full! Please wait or try again later.\nMax players: {0}\nYou are #{1} in the queue.",
	"Connection closed due to a new login from another device!",
	"Loading...",
	"Kicked for inactivity.",
	"Connection terminated due to high network latency.",
	"Connection terminated due to missed network pings.",
	"Room is full! Max players: {0}. Try again later.",
}

func fillTemplate(t string, params []string) string {
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		if t[i] == '{' {
			j := i + 1
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(t) && t[j] == '}' {
				n := 0
				for _, c := range t[i+1 : j] {
					n = n*10 + int(c-'0')
					if n > 1<<16 {
						break
					}
				}
				if n < len(params) {
					out = append(out, params[n]...)
					i = j
					continue
				}
			}
		}
		out = append(out, t[i])
	}
	return string(out)
}
