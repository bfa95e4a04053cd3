// Package rtcpeer is the WebRTC plumbing both ends of a lobby room share, on
// pion: the API with the settings a room needs, the engine's two data
// channels ("meta": ordered and reliable; "state": unordered, no
// retransmits) merged into one bounded receive queue (Pair), and the
// answering side of a joiner (Answer, for a lobby host). The joining
// client's offer, signaling and liveness watch build on it in session/rtc;
// the host's room in host/lobbyroom. It knows neither the session nor the
// host: what it hands up is messages and how the connection ended.
package rtcpeer

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/logging"
	"github.com/pion/webrtc/v4"

	"vimpclient/lobby"
)

// Channel labels and settings, as the engine's browser client makes them.
const (
	MetaLabel  = "meta"
	StateLabel = "state"
)

// MaxMessage bounds one data-channel message either way (a map is about
// 70 KiB; SCTP fragments it).
const MaxMessage = 1 << 20

// MaxCandidates bounds the ICE candidates kept per peer, each way: a peer
// trickling thousands is refused past it.
const MaxCandidates = 64

// ICE timeouts: "disconnected" is transient and may recover (the client
// says the host is not responding), "failed" ends the session. A binding
// request goes out every iceKeepAlive while the peer is quiet, and a live
// peer answers each, so 2 s without any packet is four answers missed.
const (
	iceDisconnected = 2 * time.Second
	iceFailed       = 8 * time.Second
	iceKeepAlive    = 500 * time.Millisecond
)

// NewAPI builds the pion API both sides use: channels detached (this
// package reads them into its own buffers), loopback host candidates on (a
// machine with only lo still connects, no STUN needed on loopback), no mDNS
// names for host candidates, and messages bounded by MaxMessage.
func NewAPI(log *slog.Logger) *webrtc.API {
	var se webrtc.SettingEngine
	se.DetachDataChannels()
	se.SetIncludeLoopbackCandidate(true)
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetSCTPMaxMessageSize(MaxMessage)
	se.SetICETimeouts(iceDisconnected, iceFailed, iceKeepAlive)
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	se.LoggerFactory = pionLogs{log}
	return webrtc.NewAPI(webrtc.WithSettingEngine(se))
}

// Configuration turns the master's ICE servers into pion's.
func Configuration(servers []lobby.ICEServer) webrtc.Configuration {
	var cfg webrtc.Configuration
	for _, s := range servers {
		if len(s.URLs) == 0 {
			continue
		}
		cfg.ICEServers = append(cfg.ICEServers, webrtc.ICEServer{URLs: s.URLs, Username: s.Username, Credential: s.Credential})
	}
	return cfg
}

// ToLobby converts a local candidate for signaling.
func ToLobby(c webrtc.ICECandidateInit) lobby.Candidate {
	return lobby.Candidate{Candidate: c.Candidate, SDPMid: c.SDPMid, SDPMLineIndex: c.SDPMLineIndex, UsernameFragment: c.UsernameFragment}
}

// FromLobby converts a relayed candidate for pion.
func FromLobby(c lobby.Candidate) webrtc.ICECandidateInit {
	return webrtc.ICECandidateInit{Candidate: c.Candidate, SDPMid: c.SDPMid, SDPMLineIndex: c.SDPMLineIndex, UsernameFragment: c.UsernameFragment}
}

// Description turns a signaling description into pion's, refusing an
// unknown type or an empty SDP.
func Description(s lobby.SDP) (webrtc.SessionDescription, error) {
	t := webrtc.NewSDPType(s.Type)
	if t == webrtc.SDPTypeUnknown || s.SDP == "" {
		return webrtc.SessionDescription{}, fmt.Errorf("session description of type %q", s.Type)
	}
	return webrtc.SessionDescription{Type: t, SDP: s.SDP}, nil
}

// pionLogs sends pion's own logs to slog at debug level: its warnings (an
// unreachable STUN server on a machine without internet) are not the
// player's business; what matters surfaces as this package's errors.
type pionLogs struct{ log *slog.Logger }

func (p pionLogs) NewLogger(scope string) logging.LeveledLogger {
	return pionLogger{p.log.With("pion", scope)}
}

type pionLogger struct{ log *slog.Logger }

func (l pionLogger) Trace(string)                   {}
func (l pionLogger) Tracef(string, ...any)          {}
func (l pionLogger) Debug(msg string)               { l.log.Debug(msg) }
func (l pionLogger) Debugf(format string, a ...any) { l.log.Debug(fmt.Sprintf(format, a...)) }
func (l pionLogger) Info(msg string)                { l.log.Debug(msg) }
func (l pionLogger) Infof(format string, a ...any)  { l.log.Debug(fmt.Sprintf(format, a...)) }
func (l pionLogger) Warn(msg string)                { l.log.Debug(msg) }
func (l pionLogger) Warnf(format string, a ...any)  { l.log.Debug(fmt.Sprintf(format, a...)) }
func (l pionLogger) Error(msg string)               { l.log.Debug(msg) }
func (l pionLogger) Errorf(format string, a ...any) { l.log.Debug(fmt.Sprintf(format, a...)) }
