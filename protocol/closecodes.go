package protocol

import "strconv"

// WebSocket close codes used by vimp hosts.
const (
	CloseGoingAway          = 1001 // dedicated host shutdown
	CloseAbnormal           = 1006 // no close frame: network loss, refused origin before upgrade
	CloseTooBig             = 1009 // client message over MaxClientMessage
	CloseStaleHost          = 4000 // lobby signaling only
	CloseInvalidOrigin      = 4001
	CloseBlocked            = 4002 // lobby signaling only
	CloseKickMaxLatency     = 4003
	CloseKickMissedPings    = 4004
	CloseKickIdle           = 4005
	CloseRoomFull           = 4006
	CloseHandshakeTimeout   = 4008
	CloseTooManyConnections = 4009
)

// ClosePolicyStays reports whether a client must stay disconnected after the
// host closed with code: reconnecting would burn the same limit again. Every
// other code, and a drop with no code, is followed by a reconnect.
func ClosePolicyStays(code int) bool {
	switch code {
	case CloseInvalidOrigin, CloseRoomFull, CloseHandshakeTimeout, CloseTooManyConnections:
		return true
	}
	return false
}

// CloseReason is the player-facing text for a close code when the host sent no
// TECH_INFORM explaining it.
func CloseReason(code int) string {
	switch code {
	case CloseInvalidOrigin:
		return "The server does not accept this client's origin: check the address."
	case CloseRoomFull:
		return "The room is full: try again later."
	case CloseHandshakeTimeout:
		return "The idle connection was closed before the match started: reconnect when ready."
	case CloseTooManyConnections:
		return "Too many connections from this address: wait a minute."
	case CloseKickMaxLatency:
		return "Disconnected: the connection was too slow."
	case CloseKickMissedPings:
		return "Disconnected: the server stopped hearing from this client."
	case CloseKickIdle:
		return "Disconnected for being idle."
	case CloseGoingAway:
		return "The server is shutting down."
	}
	return "Connection closed (code " + strconv.Itoa(code) + ")."
}
