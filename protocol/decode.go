package protocol

import (
	"encoding/json"
)

// ConsoleLog is CONSOLE: the host's debug log, which the client passes on
// without interpreting.
type ConsoleLog json.RawMessage

// Unknown is a JSON message on a port this client does not know: one a
// later host added, or 5, which carries only binary frames. Ports are
// never reused, so it is ignored and counted, not treated as an error.
type Unknown struct {
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

// DecodePayload returns the typed form of a server-to-client JSON payload,
// one Message type per port (MessageKinds lists them): Unknown for a port
// this client does not know, an error for a payload its port's parser
// refuses.
func DecodePayload(port int, raw json.RawMessage) (Message, error) {
	switch port {
	case ConfigData:
		return nilOr(ParseConfig(raw))
	case AuthData:
		return nilOr(ParseAuthData(raw))
	case AuthResult:
		return nilOr(ParseAuthResult(raw))
	case MapData:
		return nilOr(ParseMapData(raw))
	case FirstShotData:
		return nilOr(ParseFirstShot(raw))
	case SoundData:
		s, err := ParseSound(raw)
		return nilOr(Sound(s), err)
	case GameInformData:
		return nilOr(ParseGameInform(raw))
	case TechInformData:
		return nilOr(ParseTechInform(raw))
	case Misc:
		return nilOr(ParseMisc(raw))
	case Ping:
		id, err := ParsePing(raw)
		return nilOr(PingID(id), err)
	case Clear:
		return nilOr(ParseClear(raw))
	case AccoladesData:
		return nilOr(ParseAccolades(raw))
	case Console:
		if !json.Valid(raw) {
			return nil, payloadErr(port, "invalid JSON")
		}
		return ConsoleLog(raw), nil
	case PanelData:
		p, err := ParsePanel(raw)
		return nilOr(Panel(p), err)
	case StatData:
		return nilOr(ParseStat(raw))
	case ChatData:
		return nilOr(ParseChat(raw))
	case VoteData:
		return nilOr(ParseVote(raw))
	case KeysetData:
		k, err := ParseKeyset(raw)
		return nilOr(Keyset(k), err)
	case SessionData:
		return nilOr(ParseSessionData(raw))
	case ResumeResult:
		return nilOr(ParseResumeResult(raw))
	}
	return Unknown{Port: port, Raw: raw}, nil
}

// nilOr is a parser's result as a Message: nil when it failed, so a
// refused payload is never a typed nil or a zero value that a consumer
// could mistake for a message.
func nilOr[M Message](m M, err error) (Message, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}
