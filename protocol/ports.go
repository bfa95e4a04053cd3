// Package protocol holds the vocabulary of the vimp host protocol shared by the
// client session and the embedded host: port numbers in both directions, close
// codes, and the limits both sides enforce. It imports only the standard library.
package protocol

// Server-to-client ports. Numbers are reserved by the engine and never reused,
// so an unknown number must be ignored, not treated as an error.
const (
	ConfigData     = 0  // CONFIG_DATA: game configuration and snapshot schema.
	AuthData       = 1  // AUTH_DATA: the login form the client must answer.
	AuthResult     = 2  // AUTH_RESULT: null on success, else field errors.
	MapData        = 3  // MAP_DATA: a map to load; answered by one MAP_READY.
	FirstShotData  = 4  // FIRST_SHOT_DATA: game-defined first state; answered by FIRST_SHOT_READY.
	ShotData       = 5  // SHOT_DATA: binary snapshot frame (format v5).
	SoundData      = 6  // SOUND_DATA: a system sound with no position.
	GameInformData = 7  // GAME_INFORM_DATA: round start, victory, game over.
	TechInformData = 8  // TECH_INFORM_DATA: connection state text, null to hide.
	Misc           = 9  // MISC: engine-internal.
	Ping           = 10 // PING: answered at once with PONG carrying the same id.
	Clear          = 11 // CLEAR: reset the world, fully or per key.
	Console        = 12 // CONSOLE: host debug log.
	PanelData      = 13 // PANEL_DATA: HUD panel deltas.
	StatData       = 14 // STAT_DATA: scoreboard deltas.
	ChatData       = 15 // CHAT_DATA: chat lines.
	VoteData       = 16 // VOTE_DATA: votes and vote lists.
	KeysetData     = 17 // KEYSET_DATA: 0 spectator, 1 player key set.
	AccoladesData  = 18 // ACCOLADES_DATA: the room's places in the game's global leaderboard.
	// SessionData (SESSION_DATA, lobby rooms): {resumeKey, gameId}, the
	// secret that gets the player's seat back after a lost connection.
	SessionData = 19
	// ResumeResult (RESUME_RESULT): {ok: true, gameId} or {ok: false,
	// reason}, the answer to RESUME_REQUEST.
	ResumeResult = 20

	// ServerPortCount is one past the highest server-to-client port known.
	ServerPortCount = 21
)

// Client-to-server ports. Note the collisions with the other direction:
// 5 is SHOT_DATA down but KEYS_DATA up, 8 is TECH_INFORM down but PONG up.
const (
	ConfigReady    = 0 // CONFIG_READY, payload null.
	AuthResponse   = 1 // AUTH_RESPONSE, an object of strings.
	ModulesReady   = 2 // MODULES_READY, payload null.
	MapReady       = 3 // MAP_READY, once per MAP_DATA.
	FirstShotReady = 4 // FIRST_SHOT_READY, once per FIRST_SHOT_DATA.
	KeysData       = 5 // KEYS_DATA, "seq:action:name" or "seq:aim:x:y:flags".
	ChatSend       = 6 // CHAT_DATA up, a string.
	VoteSend       = 7 // VOTE_DATA up, a string or [voteName, value].
	Pong           = 8 // PONG, the ping id as the same JSON number.
	// ResumeRequest (RESUME_REQUEST, lobby rooms) {v, gameId, resumeKey,
	// token}: the first message of a connection offered with resume, to
	// take back a held seat.
	ResumeRequest = 9
	// Leave (LEAVE), payload null: the player leaves on purpose; the host
	// removes the seat at once instead of holding it.
	Leave = 10

	// ClientPortCount is one past the highest client-to-server port.
	ClientPortCount = 11
)

// FrameFormatVersion is the snapshot frame format this client decodes.
const FrameFormatVersion = 5

// MaxClientMessage is the largest message a host accepts from a client
// (64 KiB); a larger one closes the connection with 1009.
const MaxClientMessage = 64 << 10
