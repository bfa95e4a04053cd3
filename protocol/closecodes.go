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

// Codes a lobby transport reports for the end of a peer connection. A data
// channel closes without a code, so these never travel on any wire: they
// carry the reason into the same close policy the WebSocket codes use.
const (
	// CloseHostMigrating: the master announced a host change; the client
	// offers again to the room's next host without waiting.
	CloseHostMigrating = 4900
	// CloseRoomClosed: the master closed the room; nothing to reconnect to.
	CloseRoomClosed = 4901
	// CloseAnotherDevice: TECH_INFORM 1, a newer login took the seat.
	CloseAnotherDevice = 4902
	// CloseServerFull: TECH_INFORM 0, the legacy queue of a full server.
	CloseServerFull = 4903
	// CloseHostLost: the room's host stopped sending anything; the room
	// is still listed, so it is joined again at once.
	CloseHostLost = 4904
)

// TechCloseCode maps the terminal TECH_INFORM a lobby host sent before
// closing the peer connection to the close code a WebSocket host would have
// sent with it, so one close policy serves both transports. ok is false for
// a code that carries no disconnect reason (2, loading) or is unknown.
func TechCloseCode(tech int) (code int, ok bool) {
	switch tech {
	case 0:
		return CloseServerFull, true
	case 1:
		return CloseAnotherDevice, true
	case 3:
		return CloseKickIdle, true
	case 4:
		return CloseKickMaxLatency, true
	case 5:
		return CloseKickMissedPings, true
	case 6:
		return CloseRoomFull, true
	}
	return 0, false
}

// ClosePolicyStays reports whether a client must stay disconnected after the
// host closed with code: reconnecting would burn the same limit again. Every
// other code, and a drop with no code, is followed by a reconnect.
func ClosePolicyStays(code int) bool {
	switch code {
	case CloseInvalidOrigin, CloseRoomFull, CloseHandshakeTimeout, CloseTooManyConnections,
		CloseRoomClosed, CloseAnotherDevice, CloseServerFull:
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
	case CloseHostMigrating:
		return "The room's host is changing…"
	case CloseRoomClosed:
		return "The room was closed."
	case CloseAnotherDevice:
		return "Connection closed due to a new login from another device."
	case CloseServerFull:
		return "The server is full: try again later."
	case CloseHostLost:
		return "The room's host stopped responding."
	}
	return "Connection closed (code " + strconv.Itoa(code) + ")."
}
