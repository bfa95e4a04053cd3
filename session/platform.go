package session

import (
	"errors"
	"slices"
	"strings"
	"time"
)

// ChangeHostVote is the engine vote of the lobby's "Change host" vote.
const ChangeHostVote = "@changeHost"

// IsEngineVote reports whether a vote name is reserved for the platform:
// names starting with "@" are engine votes, never a host's, and are never
// answered on the host's vote port.
func IsEngineVote(name string) bool { return strings.HasPrefix(name, "@") }

// Platform is what a lobby adds to a session: engine votes and the chat
// commands that go to the master instead of the host (/like, /unlike,
// /changehost). A dedicated host has none.
type Platform interface {
	// AnswerVote answers an engine vote (name starts with "@").
	AnswerVote(name, value string) error
	// Command handles a chat line meant for the platform; handled false
	// leaves the line to the host.
	Command(line string) (handled bool, err error)
}

// PlatformKind tells what a PlatformEvent reports.
type PlatformKind uint8

const (
	// PlatformNotice: Text is a message for the player (a refused rating, a
	// vote answer accepted, a master error in words).
	PlatformNotice PlatformKind = iota
	// PlatformHostChanging: the room's host is being replaced; the old
	// peer is gone and input is off until the new host answers.
	PlatformHostChanging
	// PlatformHostChanged: the new host is being joined (a fresh
	// handshake follows: map and round come again).
	PlatformHostChanged
	// PlatformRoomClosed: the room is gone; Text is the reason.
	PlatformRoomClosed
	// PlatformVote: an engine vote opened (Vote).
	PlatformVote
	// PlatformVoteResult: an engine vote ended (Vote, with Result).
	PlatformVoteResult
	// PlatformHostStalled: nothing has come from the room's host for a
	// while (Silent), or its connection says it is unreachable: the match
	// is frozen until it answers again or is given up.
	PlatformHostStalled
	// PlatformHostResponding: the stalled host is heard again.
	PlatformHostResponding
	// PlatformHostLost: the host was given up after Silent without a word;
	// Text says what became of the room.
	PlatformHostLost
)

func (k PlatformKind) String() string {
	return [...]string{"notice", "host-changing", "host-changed", "room-closed", "vote", "vote-result",
		"host-stalled", "host-responding", "host-lost"}[k]
}

// PlatformEvent is a lobby notice for the game loop (EventPlatform).
type PlatformEvent struct {
	Kind PlatformKind
	Text string
	Vote *EngineVote
	// Epoch and Mode are the room's host generation and how the new host
	// took over (PlatformHostChanged: checkpoint, planned, reclaimed, cold).
	Epoch int
	Mode  string
	// Silent is how long the host had sent nothing (PlatformHostStalled,
	// PlatformHostLost).
	Silent time.Duration
}

// EngineVote is a vote the platform runs. Its window queues against host
// votes (whichever opens second waits); its answer goes back through
// Session.VoteAnswer, which hands it to the Platform.
type EngineVote struct {
	Name     string   // ChangeHostVote
	ID       string   // the master's vote id
	Params   []string // title parameters: the nick of who started it
	Values   []string // the answers offered: "yes", "no"
	Ends     time.Time
	Duration time.Duration
	Eligible int  // members who may answer
	Mine     bool // this client started it and counts as yes: nothing to ask
	Result   *EngineVoteResult
}

// EngineVoteResult is how an engine vote ended.
type EngineVoteResult struct {
	Passed    bool
	Cancelled bool
	Yes, No   int
	Eligible  int
}

// SetPlatform attaches the lobby side (nil detaches it).
func (s *Session) SetPlatform(p Platform) {
	s.mu.Lock()
	s.platform = p
	s.mu.Unlock()
}

// Notify queues a platform event for the game loop.
func (s *Session) Notify(p PlatformEvent) {
	s.queue.Push(Event{At: s.now(), Kind: EventPlatform, Platform: &p})
}

// errNoPlatform refuses an engine vote answer outside a lobby room.
var errNoPlatform = errors.New("engine vote: not in a lobby room")

// Redact hides secret (an identity token) from the errors kept for the
// summary and from the recording.
func (s *Session) Redact(secret string) {
	if len(secret) < 8 {
		return
	}
	s.mu.Lock()
	if !slices.Contains(s.secrets, secret) && len(s.secrets) < 8 {
		s.secrets = append(s.secrets, secret)
	}
	s.mu.Unlock()
	s.opts.Recorder.Redact(secret)
}

// Redacted is what a secret is replaced with.
const Redacted = "[redacted]"

func redact(msg string, secrets []string) string {
	for _, sec := range secrets {
		msg = strings.ReplaceAll(msg, sec, Redacted)
	}
	return msg
}
