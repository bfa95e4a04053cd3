package gameloop

import (
	"time"

	"vimpclient/termtext"
)

// maxHostChanges bounds the host changes the summary lists (a room whose
// host changes every few seconds for hours must not grow it without end);
// past it they are only counted in Migrations.
const maxHostChanges = 64

// LobbySummary is the lobby room's story in the headless summary: where
// the run joined, how long the join took, how often the room's host
// changed and how long play stopped each time, and how long a host that
// died went unheard before it was given up.
type LobbySummary struct {
	Master string `json:"master"`
	Room   string `json:"room"`
	RoomID string `json:"roomId"`
	// JoinMs is from the run's start to the first host's CONFIG_DATA
	// (null: never joined).
	JoinMs *int64 `json:"joinMs"`
	// Migrations counts the host changes the master announced.
	Migrations  int          `json:"migrations"`
	HostChanges []HostChange `json:"hostChanges"`
	// HostLostMs is how long the last host given up had sent nothing
	// (null: none was).
	HostLostMs *int64 `json:"hostLostMs"`
}

// HostChange is one change of the room's host: its epoch, how the new host
// took over (checkpoint, planned, reclaimed, cold) and the gap in play,
// from the old host dropped to the new host's CONFIG_DATA (null: the new
// host never sent it).
type HostChange struct {
	Epoch int    `json:"epoch"`
	Mode  string `json:"mode"`
	GapMs *int64 `json:"gapMs"`
}

// lobbyStory is what the loop gathers for LobbySummary as the platform's
// events and the hosts' CONFIG_DATA arrive.
type lobbyStory struct {
	joinMs     *int64
	migrations int
	changes    []HostChange
	dropped    time.Time // the old host dropped, waiting for the next CONFIG_DATA
	gapFor     int       // the change waiting for its gap (-1: none)
	lostMs     *int64
}

// hostDropped notes when play stopped for a host change (the first of
// several announcements counts).
func (s *lobbyStory) hostDropped(at time.Time) {
	if s.dropped.IsZero() {
		s.dropped = at
	}
}

// hostChanged records a change of host; its gap ends at the next
// CONFIG_DATA.
func (s *lobbyStory) hostChanged(epoch int, mode string, at time.Time) {
	s.hostDropped(at)
	s.gapFor = -1
	if len(s.changes) < maxHostChanges {
		s.changes = append(s.changes, HostChange{Epoch: epoch, Mode: termtext.Name(mode)})
		s.gapFor = len(s.changes) - 1
	}
}

// configured notes a host's CONFIG_DATA at at, the run having started at
// start.
func (s *lobbyStory) configured(start, at time.Time) {
	if s.joinMs == nil {
		ms := at.Sub(start).Milliseconds()
		s.joinMs = &ms
	}
	if !s.dropped.IsZero() && s.gapFor >= 0 && s.gapFor < len(s.changes) {
		gap := at.Sub(s.dropped).Milliseconds()
		s.changes[s.gapFor].GapMs = &gap
	}
	s.dropped, s.gapFor = time.Time{}, -1
}

// hostLost notes a host given up after silent.
func (s *lobbyStory) hostLost(silent time.Duration) {
	ms := silent.Milliseconds()
	s.lostMs = &ms
}

// lobbySummary is the story of l's room (nil for a dedicated host).
func (l *Loop) lobbySummary() *LobbySummary {
	t := l.currentTarget()
	if !t.Lobby {
		return nil
	}
	s := &l.rep.story
	out := &LobbySummary{Master: termtext.Name(t.Master), Room: termtext.Name(t.RoomName), RoomID: termtext.Name(t.Room),
		JoinMs: s.joinMs, Migrations: s.migrations, HostChanges: append([]HostChange{}, s.changes...), HostLostMs: s.lostMs}
	return out
}
