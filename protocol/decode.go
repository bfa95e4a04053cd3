package protocol

import (
	"encoding/json"
	"fmt"
)

// Opaque is a payload the client passes on without interpreting: CONSOLE
// and any port added by a later host.
type Opaque struct {
	Port int
	Raw  json.RawMessage
}

// Keyset is the decoded KEYSET_DATA index.
type Keyset int

// Sound is the decoded SOUND_DATA name.
type Sound string

// PingID is the decoded PING id token.
type PingID json.RawMessage

// Panel is the decoded PANEL_DATA list.
type Panel []PanelCell

// DecodePayload returns the typed form of a server-to-client JSON payload:
// *Config, *AuthForm, AuthVerdict, *MapInfo, *FirstShot, Sound, Inform (game),
// TechInform, MiscEntry, PingID, ClearScope, Opaque (console), Panel, *Stat,
// Chat, Vote, Keyset, *Accolades, SessionInfo, ResumeAnswer. A port outside 0-20 or 5 (binary only) is
// reported with ErrUnknownPort.
func DecodePayload(port int, raw json.RawMessage) (any, error) {
	switch port {
	case ConfigData:
		return ParseConfig(raw)
	case AuthData:
		return ParseAuthData(raw)
	case AuthResult:
		return ParseAuthResult(raw)
	case MapData:
		return ParseMapData(raw)
	case FirstShotData:
		return ParseFirstShot(raw)
	case SoundData:
		s, err := ParseSound(raw)
		return Sound(s), err
	case GameInformData:
		return ParseGameInform(raw)
	case TechInformData:
		return ParseTechInform(raw)
	case Misc:
		return ParseMisc(raw)
	case Ping:
		id, err := ParsePing(raw)
		return PingID(id), err
	case Clear:
		return ParseClear(raw)
	case AccoladesData:
		return ParseAccolades(raw)
	case Console:
		if !json.Valid(raw) {
			return nil, payloadErr(port, "invalid JSON")
		}
		return Opaque{Port: port, Raw: raw}, nil
	case PanelData:
		p, err := ParsePanel(raw)
		return Panel(p), err
	case StatData:
		return ParseStat(raw)
	case ChatData:
		return ParseChat(raw)
	case VoteData:
		return ParseVote(raw)
	case KeysetData:
		k, err := ParseKeyset(raw)
		return Keyset(k), err
	case SessionData:
		return ParseSessionData(raw)
	case ResumeResult:
		return ParseResumeResult(raw)
	}
	return nil, fmt.Errorf("%w: %d", ErrUnknownPort, port)
}

// ErrUnknownPort reports a JSON message on a port this client does not know
// (or on 5, which only carries binary frames).
var ErrUnknownPort = fmt.Errorf("unknown server port")
