package gameloop

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"vimpclient/clientcore"
	"vimpclient/internal/version"
	"vimpclient/session"
	"vimpclient/snapschema"
	"vimpclient/termtext"
)

// maxIDsPerKey bounds each distinct-id set of the summary, and maxIDs all
// of them together: a host naming new ids on every key of a 256-key schema
// must not make the count the memory hog. Past them a count is a floor.
const (
	maxIDsPerKey = 1 << 14
	maxIDs       = 1 << 16
)

// Summary is the headless session's report (-summary): how far the
// handshake got, the frames and what they carried, prediction, errors.
type Summary struct {
	State      string                        `json:"state"`
	Player     bool                          `json:"player"`
	Frames     FrameCounts                   `json:"frames"`
	Pings      int                           `json:"pings"`
	Ports      map[string]int                `json:"ports"`
	Entities   map[string]int                `json:"entities"`
	Prediction *clientcore.PredictionSummary `json:"prediction,omitempty"`
	// Local is where the own actor went on the map's levels.
	Local *clientcore.LocalActor `json:"local,omitempty"`
	// Undecodable is set when snapshot frames were dropped for their format.
	Undecodable *Undecodable `json:"undecodable,omitempty"`
	// Refused is set when the scene refused entities past its limits.
	Refused *Refused `json:"refused,omitempty"`
	// Game is the game the client recognised and what draws each of its
	// part classes (absent before CONFIG_DATA).
	Game *GameSummary `json:"game,omitempty"`
	// Lobby is the lobby room's story (absent for a dedicated host).
	Lobby *LobbySummary `json:"lobby,omitempty"`
	// Latency is how quickly the run answered its keys and what its frames
	// cost (absent when it never played).
	Latency *LatencySummary `json:"latency,omitempty"`
	// RTT is the round trip the host measured for this player (its own
	// scoreboard row) and the jitter of the host's PINGs (absent when
	// neither was seen).
	RTT *RTTSummary `json:"rtt,omitempty"`
	// Interp is how the render clock got on (absent when it never drew
	// a frame).
	Interp *InterpSummary `json:"interp,omitempty"`
	// Rounds is how long the match's rounds lasted, by the host's round
	// start and victory informs (absent when no round start was seen).
	Rounds     *RoundsSummary `json:"rounds,omitempty"`
	CloseCode  *int           `json:"closeCode"`
	Errors     []string       `json:"errors"`
	DurationMs int64          `json:"durationMs"`
	// Client is the build that played (vimpclient -version).
	Client string `json:"client"`
}

// InterpSummary is the render clock's figures (clientcore.InterpStats):
// the time and episodes the world stood frozen past the newest frame (the
// ones over 100 ms apart), the render time's steps back and the largest,
// the largest difference between a sample's move of render time and the
// wall time it took (maxStepMs), the remote actors' jumps on screen of
// more than one host frame's worth of their motion and the largest, in
// frames (jumps, maxJumpFrames),
// the frames that came behind render time, the delay's median and
// largest, and the time remote entities were extrapolated. Times in ms.
type InterpSummary struct {
	FrozenMs         float64 `json:"frozenMs"`
	Freezes          uint64  `json:"freezes"`
	FreezesOver100ms uint64  `json:"freezesOver100ms"`
	BackSteps        uint64  `json:"backSteps"`
	MaxBackStepMs    float64 `json:"maxBackStepMs"`
	MaxStepMs        float64 `json:"maxStepMs"`
	LateFrames       uint64  `json:"lateFrames"`
	DelayMsP50       float64 `json:"delayMsP50"`
	DelayMsMax       float64 `json:"delayMsMax"`
	ExtrapolatedMs   float64 `json:"extrapolatedMs"`
	Jumps            uint64  `json:"jumps"`
	MaxJumpFrames    float64 `json:"maxJumpFrames"`
}

// interpSummary rounds s to what the summary prints (nil: never sampled).
func interpSummary(s clientcore.InterpStats) *InterpSummary {
	if s.Samples == 0 {
		return nil
	}
	ms := func(v float64) float64 { return math.Round(v*10) / 10 }
	return &InterpSummary{FrozenMs: ms(s.FrozenMs), Freezes: s.Freezes, FreezesOver100ms: s.FreezesOver100ms,
		BackSteps: s.BackSteps, MaxBackStepMs: ms(s.MaxBackStepMs), MaxStepMs: ms(s.MaxStepMs), LateFrames: s.LateFrames,
		DelayMsP50: ms(s.DelayMsP50), DelayMsMax: ms(s.DelayMsMax), ExtrapolatedMs: ms(s.ExtrapolatedMs),
		Jumps: s.Jumps, MaxJumpFrames: ms(s.MaxJumpFrames)}
}

// GameSummary names the game recognised ("" when none: drawn generically),
// its version as the host's manifest gave it, and for each part class of
// CONFIG_DATA what draws it: the game's package, "generic" or "none".
type GameSummary struct {
	Name    string            `json:"name"`
	Version string            `json:"version,omitempty"`
	Parts   map[string]string `json:"parts"`
}

// Undecodable is how many snapshot frames could not be read, and why.
type Undecodable struct {
	Frames uint64 `json:"frames"`
	Reason string `json:"reason"`
}

// Refused is what the scene refused past its limits: the event frames not
// applied, the rows whose entities were not created, and the last limit.
type Refused struct {
	Frames uint64 `json:"frames"`
	Rows   uint64 `json:"rows"`
	Reason string `json:"reason"`
}

// FrameCounts are the snapshot frames of the summary.
type FrameCounts struct {
	Received int    `json:"received"`
	Decoded  uint64 `json:"decoded"`
	Dropped  uint64 `json:"dropped"`
}

// Entities is an Observer that counts, per snapshot key, the distinct
// entity ids the decoded frames carried (whatever render time reached).
// Optionally it also calls OnTick after every tick, for tests that watch a
// session.
type Entities struct {
	ids    map[string]map[uint32]struct{}
	total  int // ids in all the sets
	OnTick func(l *Loop, now time.Time)
}

// NewEntities returns an empty counter.
func NewEntities() *Entities { return &Entities{ids: map[string]map[uint32]struct{}{}} }

// Event implements Observer.
func (e *Entities) Event(*Loop, *session.Event) {}

// Tick implements Observer.
func (e *Entities) Tick(l *Loop, now time.Time) {
	if e.OnTick != nil {
		e.OnTick(l, now)
	}
}

// Frame implements Observer: list rows are positions, not entities, and a
// key repeated in one frame counts by its last block, as the core merges it.
func (e *Entities) Frame(f *clientcore.Frame) {
	for bi := range f.Blocks {
		bl := &f.Blocks[bi]
		if bl.Schema.Kind == snapschema.KindList16 || laterBlock(f.Blocks, bi) {
			continue
		}
		for _, r := range bl.Rows {
			if !r.Null {
				e.see(bl.Key(), r.ID)
			}
		}
	}
}

func laterBlock(blocks []clientcore.Block, i int) bool {
	for j := i + 1; j < len(blocks); j++ {
		if blocks[j].Schema == blocks[i].Schema {
			return true
		}
	}
	return false
}

func (e *Entities) see(key string, id uint32) {
	if e.total >= maxIDs {
		return
	}
	set := e.ids[key]
	if set == nil {
		set = map[uint32]struct{}{}
		e.ids[key] = set
	}
	if _, ok := set[id]; !ok && len(set) < maxIDsPerKey {
		set[id] = struct{}{}
		e.total++
	}
}

// Count is how many distinct ids of key were seen.
func (e *Entities) Count(key string) int { return len(e.ids[key]) }

// Summarize builds the summary of l's session after d, with the entity
// counts of e (nil: none).
func Summarize(l *Loop, e *Entities, d time.Duration) Summary {
	st := l.sess.Stats()
	ls := l.Stats()
	s := Summary{State: st.Furthest.String(), Player: st.Player, Pings: st.Pongs,
		Ports: map[string]int{}, Entities: map[string]int{}, DurationMs: d.Milliseconds(), Prediction: ls.Prediction, Local: ls.Local,
		Client: version.Get().String()}
	s.Frames = FrameCounts{Received: st.Frames, Decoded: ls.Decoded}
	if st.Frames > int(ls.Decoded) {
		s.Frames.Dropped = uint64(st.Frames) - ls.Decoded
	}
	for p, n := range st.Ports {
		s.Ports[strconv.Itoa(p)] = n
	}
	if e != nil {
		for k, set := range e.ids {
			s.Entities[k] = len(set)
		}
	}
	if ls.Undecodable > 0 {
		s.Undecodable = &Undecodable{Frames: ls.Undecodable, Reason: ls.UndecodableReason}
	}
	if r := ls.Refused; r.Rows > 0 {
		s.Refused = &Refused{Frames: r.Frames, Rows: r.Rows, Reason: r.Reason}
	}
	if ls.Close != nil && !ls.Close.Local {
		code := ls.Close.Code
		s.CloseCode = &code
	}
	s.Game = l.gameSummary()
	s.Lobby = l.lobbySummary()
	s.Latency = l.Latency()
	s.RTT = l.rtt.summary()
	s.Interp = interpSummary(ls.Interp)
	s.Rounds = l.rep.rounds.summary()
	s.Errors = append(append([]string{}, st.Errors...), ls.Errors...)
	if f := l.Fatal(); f != nil && len(s.Errors) == 0 {
		s.Errors = append(s.Errors, f.Error())
	}
	// Errors quote what the host or master said: escaped and bounded.
	for i, e := range s.Errors {
		s.Errors[i] = termtext.Message(e)
	}
	if s.Undecodable != nil {
		s.Undecodable.Reason = termtext.Message(s.Undecodable.Reason)
	}
	return s
}

// WriteSummary writes s as one JSON line, with the runes that would steer
// a terminal (in the host's schema keys, say) written as \u escapes.
func WriteSummary(w io.Writer, s Summary) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	_, err = w.Write(append(termtext.EscapeJSON(b), '\n'))
	return err
}

// WindowSummary is a window run's report (-summary with a window): the
// latency figures of the last match it showed, absent when none reached
// play.
type WindowSummary struct {
	Latency *LatencySummary `json:"latency,omitempty"`
	Memory  *MemorySummary  `json:"memory,omitempty"`
	Client  string          `json:"client"`
}

// MemorySummary is the most memory a window held, looked at about once a
// second: the GPU images its graphics library counts, what the Go runtime
// mapped and the live heap objects in it, and the process's peak resident
// set (0 where the platform does not tell it).
type MemorySummary struct {
	GPUImageBytesMax     int64  `json:"gpuImageBytesMax"`
	GoRuntimeBytesMax    uint64 `json:"goRuntimeBytesMax"`
	GoHeapObjectBytesMax uint64 `json:"goHeapObjectBytesMax"`
	PeakRSSBytes         uint64 `json:"peakRssBytes"`
}

// SummarizeWindow builds the window's report from the last loop it showed
// (nil: none).
func SummarizeWindow(l *Loop) WindowSummary {
	s := WindowSummary{Client: version.Get().String()}
	if l != nil {
		s.Latency = l.Latency()
	}
	return s
}

// WriteWindowSummary writes s as one JSON line.
func WriteWindowSummary(w io.Writer, s WindowSummary) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	_, err = w.Write(append(termtext.EscapeJSON(b), '\n'))
	return err
}
