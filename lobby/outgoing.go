package lobby

import (
	"encoding/json"
	"strconv"
)

// marshal encodes an outgoing message; every value below is made of strings,
// numbers and booleans, so it cannot fail.
func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("lobby: marshal outgoing message: " + err.Error())
	}
	return b
}

// Caps are the capabilities a member announces in join_room. A native
// client cannot run a game's host code, so it never offers to host.
type Caps struct {
	CanHost bool `json:"canHost"`
}

// OfferMsg is a joining client's webrtc_offer. Both room ids go out: the
// older master reads hostId, the newer one roomId.
func OfferMsg(room string, sdp SDP, memberID string, resume bool) []byte {
	return marshal(struct {
		Type     string `json:"type"`
		RoomID   string `json:"roomId"`
		HostID   string `json:"hostId"`
		SDP      SDP    `json:"sdp"`
		MemberID string `json:"memberId,omitempty"`
		Resume   bool   `json:"resume,omitempty"`
	}{TypeOffer, room, room, sdp, memberID, resume})
}

// CandidateMsg is an ice_candidate for targetID: the room id from a client,
// the client's session id from a host.
func CandidateMsg(targetID string, c Candidate) []byte {
	return marshal(struct {
		Type      string    `json:"type"`
		TargetID  string    `json:"targetId"`
		Candidate Candidate `json:"candidate"`
	}{TypeCandidate, targetID, c})
}

// PingHostMsg is a latency probe of a listed room.
func PingHostMsg(room string, pingID int64) []byte {
	return marshal(struct {
		Type   string `json:"type"`
		RoomID string `json:"roomId"`
		HostID string `json:"hostId"`
		PingID int64  `json:"pingId"`
	}{TypePingHost, room, room, pingID})
}

// RateMsg is like_host (like true) or unlike_host for the room's hoster.
func RateMsg(like bool, room, reason, token string) []byte {
	t := TypeUnlikeHost
	if like {
		t = TypeLikeHost
	}
	return marshal(struct {
		Type   string `json:"type"`
		HostID string `json:"hostId"`
		Reason string `json:"reason"`
		Token  string `json:"token"`
	}{t, room, reason, token})
}

// JoinRoomMsg makes this session a member of the room (newer masters; the
// older one ignores it).
func JoinRoomMsg(room, memberID, token string) []byte {
	return marshal(struct {
		Type     string `json:"type"`
		RoomID   string `json:"roomId"`
		MemberID string `json:"memberId"`
		Token    string `json:"token"`
		Caps     Caps   `json:"caps"`
	}{TypeJoinRoom, room, memberID, token, Caps{CanHost: false}})
}

// LeaveRoomMsg ends the membership at once.
func LeaveRoomMsg(room string) []byte {
	return marshal(struct {
		Type   string `json:"type"`
		RoomID string `json:"roomId"`
	}{TypeLeaveRoom, room})
}

// HostUnreachableMsg reports data channels that died mid-match.
func HostUnreachableMsg(room string, epoch int) []byte {
	return marshal(struct {
		Type   string `json:"type"`
		RoomID string `json:"roomId"`
		Epoch  int    `json:"epoch"`
	}{TypeHostUnreachable, room, epoch})
}

// HostVoteStartMsg proposes to change the room's host (/changehost).
func HostVoteStartMsg(room string) []byte {
	return marshal(struct {
		Type   string `json:"type"`
		RoomID string `json:"roomId"`
	}{TypeHostVoteStart, room})
}

// HostVoteAnswerMsg answers the "Change host" vote with "yes" or "no".
func HostVoteAnswerMsg(room, voteID, value string) []byte {
	return marshal(struct {
		Type   string `json:"type"`
		RoomID string `json:"roomId"`
		VoteID string `json:"voteId"`
		Value  string `json:"value"`
	}{TypeHostVoteAnswer, room, voteID, value})
}

// RegisterHost is what a host announces about its room.
type RegisterHost struct {
	Name        string
	MaxPlayers  int
	MapName     string
	GameID      string
	GameVersion string
	Token       string
}

// RegisterHostMsg creates the room. The name goes out as name (older
// masters) and as info, the newer masters' card line.
func RegisterHostMsg(r RegisterHost) []byte {
	return marshal(struct {
		Type        string `json:"type"`
		Name        string `json:"name"`
		Info        string `json:"info"`
		MaxPlayers  int    `json:"maxPlayers"`
		MapName     string `json:"mapName"`
		GameID      string `json:"gameId"`
		GameVersion string `json:"gameVersion,omitempty"`
		Token       string `json:"token"`
		Caps        Caps   `json:"caps"`
	}{TypeRegisterHost, r.Name, r.Name, r.MaxPlayers, r.MapName, r.GameID, r.GameVersion, r.Token, Caps{CanHost: true}})
}

// UpdateHostMsg reports the player count and map (and is a heartbeat). The
// card line goes with it: a newer master would otherwise show the map name.
func UpdateHostMsg(info string, currentPlayers int, mapName string) []byte {
	return marshal(struct {
		Type           string `json:"type"`
		Info           string `json:"info"`
		CurrentPlayers int    `json:"currentPlayers"`
		MapName        string `json:"mapName"`
	}{TypeUpdateHost, info, currentPlayers, mapName})
}

// HeartbeatMsg keeps a registered room listed.
func HeartbeatMsg() []byte { return []byte(`{"type":"heartbeat"}`) }

// AnswerMsg is a host's webrtc_answer to the client clientID.
func AnswerMsg(clientID string, sdp SDP) []byte {
	return marshal(struct {
		Type     string `json:"type"`
		ClientID string `json:"clientId"`
		SDP      SDP    `json:"sdp"`
	}{TypeAnswer, clientID, sdp})
}

// PongHostMsg answers a ping_host, echoing its id as it came.
func PongHostMsg(clientID string, pingID json.RawMessage) []byte {
	if len(pingID) == 0 {
		pingID = json.RawMessage("null")
	}
	return marshal(struct {
		Type     string          `json:"type"`
		ClientID string          `json:"clientId"`
		PingID   json.RawMessage `json:"pingId"`
	}{TypePongHost, clientID, pingID})
}

// pingIDOf reads a pong's id as this client sent it (an integer).
func pingIDOf(raw json.RawMessage) (int64, bool) {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil
}
