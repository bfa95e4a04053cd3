// Package lobby speaks to a vimp lobby master: its HTTP discovery (the room
// list, the game catalog, the identity keys), its signaling WebSocket (the
// WebRTC offer/answer/candidate relay, room membership, host migration and
// the "Change host" vote), and the identity tokens a room asks for. It knows
// nothing of WebRTC itself: the transport above it hands it descriptions and
// candidates as opaque values.
//
// Two generations of the master exist and one client speaks both. The older
// one names a room by hostId; the newer one by roomId (hostId stays as an
// alias), tracks members, keeps a room alive across a change of host
// (epochs), and pings the signaling socket. Requests carry both ids, answers
// are read as roomId, else hostId.
package lobby

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxSignalMessage bounds one signaling message either way. An SDP with its
// candidates trickled separately is a few KiB; the limit leaves room for a
// long ICE server list while bounding memory per message.
const MaxSignalMessage = 64 << 10

// maxICEServers and maxURLsPerServer bound what a welcome may configure.
const (
	maxICEServers    = 16
	maxURLsPerServer = 8
)

// ICEServer is one entry of welcome's iceServers. URLs decodes from a single
// string or an array of strings (masters send both).
type ICEServer struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// UnmarshalJSON accepts "urls" as a string or an array of strings.
func (s *ICEServer) UnmarshalJSON(b []byte) error {
	var raw struct {
		URLs       json.RawMessage `json:"urls"`
		Username   string          `json:"username"`
		Credential string          `json:"credential"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	s.Username, s.Credential = raw.Username, raw.Credential
	u := bytes.TrimSpace(raw.URLs)
	switch {
	case len(u) == 0 || bytes.Equal(u, []byte("null")):
		s.URLs = nil
	case u[0] == '"':
		var one string
		if err := json.Unmarshal(u, &one); err != nil {
			return fmt.Errorf("ice server urls: %w", err)
		}
		s.URLs = []string{one}
	default:
		var many []string
		if err := json.Unmarshal(u, &many); err != nil {
			return fmt.Errorf("ice server urls: %w", err)
		}
		s.URLs = many
	}
	if len(s.URLs) > maxURLsPerServer {
		s.URLs = s.URLs[:maxURLsPerServer]
	}
	return nil
}

// SDP is a session description as the browser's RTCSessionDescription
// serialises it.
type SDP struct {
	Type string `json:"type"`
	SDP  string `json:"sdp"`
}

// Candidate is an ICE candidate as RTCIceCandidate.toJSON() gives it.
type Candidate struct {
	Candidate        string  `json:"candidate"`
	SDPMid           *string `json:"sdpMid,omitempty"`
	SDPMLineIndex    *uint16 `json:"sdpMLineIndex,omitempty"`
	UsernameFragment *string `json:"usernameFragment,omitempty"`
}

// Welcome is the master's first message: this session's id and ICE servers.
type Welcome struct {
	ID         string      `json:"id"`
	ICEServers []ICEServer `json:"iceServers"`
}

// Offer is a joining client's offer as the host receives it.
type Offer struct {
	ClientID string `json:"clientId"`
	SDP      SDP    `json:"sdp"`
	MemberID string `json:"memberId,omitempty"`
	Resume   bool   `json:"resume,omitempty"`
	Epoch    *int   `json:"epoch,omitempty"`
}

// Answer is the host's answer as the joining client receives it.
type Answer struct {
	RoomID string `json:"roomId"`
	HostID string `json:"hostId"`
	Epoch  *int   `json:"epoch"`
	SDP    SDP    `json:"sdp"`
}

// Room is the room the answer belongs to (roomId, else hostId).
func (a *Answer) Room() string { return roomOf(a.RoomID, a.HostID) }

// RemoteCandidate is a candidate relayed by the master, from the peer FromID
// (a host's room id for a client, a client's session id for a host).
type RemoteCandidate struct {
	FromID    string    `json:"fromId"`
	Epoch     *int      `json:"epoch"`
	Candidate Candidate `json:"candidate"`
}

// PingHost is a latency probe as a host receives it.
type PingHost struct {
	ClientID string          `json:"clientId"`
	PingID   json.RawMessage `json:"pingId"`
}

// PongHost answers a client's ping_host.
type PongHost struct {
	RoomID string          `json:"roomId"`
	HostID string          `json:"hostId"`
	PingID json.RawMessage `json:"pingId"`
}

// Room is the room that answered (roomId, else hostId).
func (p *PongHost) Room() string { return roomOf(p.RoomID, p.HostID) }

// Error is the master's refusal of a request. Re names the request type
// (newer masters only); Reason details some codes (voteRejected).
type Error struct {
	Code   string `json:"code"`
	Re     string `json:"re"`
	RoomID string `json:"roomId"`
	Reason string `json:"reason"`
	Alias  string `json:"alias"`
}

// HostRegistered confirms register_host.
type HostRegistered struct {
	HostID      string          `json:"hostId"`
	RoomID      string          `json:"roomId"`
	Epoch       int             `json:"epoch"`
	GameID      string          `json:"gameId"`
	MapsVersion json.RawMessage `json:"mapsVersion"`
	CodeVersion json.RawMessage `json:"codeVersion"`
	// The room secret is read and dropped: this host never reclaims a room.
}

// Room is the registered room's id (roomId, else hostId).
func (h *HostRegistered) Room() string { return roomOf(h.RoomID, h.HostID) }

// RoomJoined confirms join_room (newer masters).
type RoomJoined struct {
	RoomID string `json:"roomId"`
	Epoch  int    `json:"epoch"`
}

// HostMigrating announces that the room's host is being replaced.
type HostMigrating struct {
	RoomID string `json:"roomId"`
	Epoch  int    `json:"epoch"`
	Reason string `json:"reason"`
	WaitMs int64  `json:"waitMs"`
}

// HostChanged announces the room's new host: offer again.
type HostChanged struct {
	RoomID string `json:"roomId"`
	Epoch  int    `json:"epoch"`
	Mode   string `json:"mode"` // checkpoint, planned, reclaimed, cold
	Reason string `json:"reason"`
}

// RoomClosed announces the end of the room.
type RoomClosed struct {
	RoomID string `json:"roomId"`
	Reason string `json:"reason"`
}

// HostVote opens the "Change host" vote for a member who did not start it.
type HostVote struct {
	RoomID        string `json:"roomId"`
	VoteID        string `json:"voteId"`
	InitiatorNick string `json:"initiatorNick"`
	EndsAt        int64  `json:"endsAt"` // Unix milliseconds
	DurationMs    int64  `json:"durationMs"`
	EligibleCount int    `json:"eligibleCount"`
	// Started is true for host_vote_started: this client started the vote
	// and counts as yes.
	Started bool `json:"-"`
}

// HostVoteAccepted confirms host_vote_answer.
type HostVoteAccepted struct {
	RoomID string `json:"roomId"`
	VoteID string `json:"voteId"`
}

// HostVoteResult ends the vote.
type HostVoteResult struct {
	RoomID        string `json:"roomId"`
	VoteID        string `json:"voteId"`
	Passed        bool   `json:"passed"`
	Yes           int    `json:"yes"`
	No            int    `json:"no"`
	EligibleCount int    `json:"eligibleCount"`
	Cancelled     bool   `json:"cancelled"`
}

// Unknown is a message of a type this client does not handle (ignored).
type Unknown struct{ Type string }

// Message types, both directions.
const (
	TypeWelcome          = "welcome"
	TypeOffer            = "webrtc_offer"
	TypeAnswer           = "webrtc_answer"
	TypeCandidate        = "ice_candidate"
	TypePingHost         = "ping_host"
	TypePongHost         = "pong_host"
	TypeLikeHost         = "like_host"
	TypeUnlikeHost       = "unlike_host"
	TypeError            = "error"
	TypeRegisterHost     = "register_host"
	TypeHostRegistered   = "host_registered"
	TypeUpdateHost       = "update_host"
	TypeHeartbeat        = "heartbeat"
	TypeJoinRoom         = "join_room"
	TypeRoomJoined       = "room_joined"
	TypeLeaveRoom        = "leave_room"
	TypeHostUnreachable  = "host_unreachable"
	TypeHostMigrating    = "host_migrating"
	TypeHostChanged      = "host_changed"
	TypeRoomClosed       = "room_closed"
	TypeHostVoteStart    = "host_vote_start"
	TypeHostVoteStarted  = "host_vote_started"
	TypeHostVote         = "host_vote"
	TypeHostVoteAnswer   = "host_vote_answer"
	TypeHostVoteAccepted = "host_vote_accepted"
	TypeHostVoteResult   = "host_vote_result"
)

// ErrBadMessage reports a signaling message that is not a JSON object with
// a string type, or whose fields do not fit its type.
var ErrBadMessage = errors.New("bad signaling message")

// received makes the message struct each known type decodes into (the host
// votes, whose struct says which of two types it came as, aside).
var received = map[string]func() any{
	TypeWelcome: alloc[Welcome], TypeOffer: alloc[Offer], TypeAnswer: alloc[Answer],
	TypeCandidate: alloc[RemoteCandidate], TypePingHost: alloc[PingHost], TypePongHost: alloc[PongHost],
	TypeError: alloc[Error], TypeHostRegistered: alloc[HostRegistered], TypeRoomJoined: alloc[RoomJoined],
	TypeHostMigrating: alloc[HostMigrating], TypeHostChanged: alloc[HostChanged], TypeRoomClosed: alloc[RoomClosed],
	TypeHostVoteAccepted: alloc[HostVoteAccepted], TypeHostVoteResult: alloc[HostVoteResult],
}

func alloc[T any]() any { return new(T) }

// Parse decodes one signaling message into its typed value (a pointer to one
// of the message structs above, or Unknown).
func Parse(b []byte) (any, error) {
	if len(b) > MaxSignalMessage {
		return nil, fmt.Errorf("%w: %d bytes, over %d", ErrBadMessage, len(b), MaxSignalMessage)
	}
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	if head.Type == nil {
		return nil, fmt.Errorf("%w: no type", ErrBadMessage)
	}
	var v any
	switch t := *head.Type; t {
	case TypeHostVote, TypeHostVoteStarted:
		v = &HostVote{Started: t == TypeHostVoteStarted}
	default:
		alloc := received[t]
		if alloc == nil {
			return Unknown{Type: t}, nil
		}
		v = alloc()
	}
	if err := json.Unmarshal(b, v); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadMessage, *head.Type, err)
	}
	if err := validate(v); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadMessage, *head.Type, err)
	}
	return v, nil
}

// validate checks what the typed decode cannot: the fields a message is
// useless without.
func validate(v any) error {
	switch m := v.(type) {
	case *Welcome:
		if m.ID == "" {
			return errors.New("no session id")
		}
		if len(m.ICEServers) > maxICEServers {
			m.ICEServers = m.ICEServers[:maxICEServers]
		}
	case *Offer:
		if m.ClientID == "" || m.SDP.Type != "offer" || m.SDP.SDP == "" {
			return errors.New("no client id or no offer")
		}
	case *Answer:
		if m.Room() == "" || m.SDP.Type != "answer" || m.SDP.SDP == "" {
			return errors.New("no room id or no answer")
		}
	case *RemoteCandidate:
		if m.FromID == "" {
			return errors.New("no sender id")
		}
	case *PingHost:
		if m.ClientID == "" {
			return errors.New("no client id")
		}
	case *PongHost:
		if m.Room() == "" {
			return errors.New("no room id")
		}
	case *Error:
		if m.Code == "" {
			return errors.New("no code")
		}
	case *HostRegistered:
		if m.Room() == "" {
			return errors.New("no room id")
		}
	case *RoomJoined, *HostMigrating, *HostChanged, *RoomClosed:
		if roomField(m) == "" {
			return errors.New("no room id")
		}
	case *HostVote, *HostVoteAccepted, *HostVoteResult:
		if roomField(m) == "" {
			return errors.New("no room id")
		}
	}
	return nil
}

func roomField(v any) string {
	switch m := v.(type) {
	case *RoomJoined:
		return m.RoomID
	case *HostMigrating:
		return m.RoomID
	case *HostChanged:
		return m.RoomID
	case *RoomClosed:
		return m.RoomID
	case *HostVote:
		return m.RoomID
	case *HostVoteAccepted:
		return m.RoomID
	case *HostVoteResult:
		return m.RoomID
	}
	return ""
}

func roomOf(roomID, hostID string) string {
	if roomID != "" {
		return roomID
	}
	return hostID
}
