// Package rtc is the lobby's WebRTC transport for a joining client: a peer
// connection with the engine's two data channels (rtcpeer.Pair), offered to
// a room's host through the master's signaling, watched for a host that
// stops responding, and presented to the session as one more
// session.Transport.
package rtc
