package gameloop

import (
	"slices"
	"time"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/session"
)

// maxLoopErrors bounds the errors kept for the summary.
const maxLoopErrors = 64

// report is what the loop observes for the summary over every connection
// of a run: the errors, each once; the totals of the cores a reconnect
// retired; the snapshot frames that could not be decoded and the rows the
// scene refused, each said once per connection; how the last connection
// got on (play, CONFIG_DATA, its close); and the lobby room's story.
type report struct {
	errs []string
	// retired counts what replaced cores decoded, and keeps the last
	// prediction statistics, so the session's totals survive reconnects.
	retired    uint64
	interp     clientcore.InterpStats // the retired cores' render clock figures, summed
	prediction *clientcore.PredictionSummary
	local      *clientcore.LocalActor
	// Snapshot frames dropped for their format, the last reason, and
	// whether this connection already said so.
	badFrames      uint64
	badFrameReason string
	badFramesSaid  bool
	// The scene's refusals seen so far, and whether this connection
	// already said so.
	refusedRows uint64
	refusedSaid bool
	close       *session.CloseInfo
	playAt      time.Time // when this connection reached play (zero: not yet)
	configAt    time.Time // when this connection's CONFIG_DATA arrived
	roomClosed  string    // why the lobby room was closed
	story       lobbyStory
	rounds      rounds // the match's rounds, from the host's informs
}

func newReport() report { return report{story: lobbyStory{gapFor: -1}} }

// note keeps an error for the summary, each once, at most maxLoopErrors
// of them.
func (r *report) note(msg string) {
	if slices.Contains(r.errs, msg) {
		return // a host repeating itself says it once
	}
	if len(r.errs) < maxLoopErrors {
		r.errs = append(r.errs, msg)
	}
}

// opened starts a new connection: what it says once, it says again.
func (r *report) opened() {
	r.close = nil
	r.rounds.cut()
	r.badFramesSaid, r.refusedSaid = false, false
	r.configAt = time.Time{}
}

// configured notes a connection's CONFIG_DATA at at, the run having started
// at start: the first of a connection counts.
func (r *report) configured(start, at time.Time) {
	if r.configAt.IsZero() {
		r.configAt = at
		r.story.configured(start, at)
	}
}

// playing notes when the connection reached play (the first time counts).
func (r *report) playing(at time.Time) {
	if r.playAt.IsZero() {
		r.playAt = at
	}
}

// undecodable counts a snapshot frame this client cannot read; the first of
// a connection returns what to say, later ones "".
func (r *report) undecodable(reason string) (say string) {
	r.badFrames++
	r.badFrameReason = reason
	if r.badFramesSaid {
		return ""
	}
	r.badFramesSaid = true
	return "frames from this host cannot be decoded: " + reason
}

// refused follows the scene's refusals; the first new ones of a connection
// return what to say, anything else "".
func (r *report) refused(now parts.Refusals) (say string) {
	if now.Rows == r.refusedRows {
		return ""
	}
	r.refusedRows = now.Rows
	if r.refusedSaid {
		return ""
	}
	r.refusedSaid = true
	return "entities from this host refused: " + now.Reason
}

// retire keeps the totals of a core that is replaced.
func (r *report) retire(c *clientcore.Core) {
	r.retired += c.Stats().Decoded
	r.interp = addInterp(r.interp, c.InterpStats())
	if p, ok := c.Prediction(); ok {
		r.prediction = &p.Summary
		if p.HasLocal {
			r.local = &p.Local
		}
	}
}

// addInterp adds the figures of a later core b to a.
func addInterp(a, b clientcore.InterpStats) clientcore.InterpStats {
	s := a
	s.FrozenMs += b.FrozenMs
	s.Freezes += b.Freezes
	s.FreezesOver100ms += b.FreezesOver100ms
	s.BackSteps += b.BackSteps
	s.MaxBackStepMs = max(a.MaxBackStepMs, b.MaxBackStepMs)
	s.MaxStepMs = max(a.MaxStepMs, b.MaxStepMs)
	s.Jumps += b.Jumps
	s.MaxJumpFrames = max(a.MaxJumpFrames, b.MaxJumpFrames)
	s.LateFrames += b.LateFrames
	s.DelayMsMax = max(a.DelayMsMax, b.DelayMsMax)
	s.ExtrapolatedMs += b.ExtrapolatedMs
	s.Samples += b.Samples
	if b.Samples > 0 {
		s.DelayMs, s.DelayMsP50 = b.DelayMs, b.DelayMsP50
	}
	return s
}

// Stats are the loop's totals over every connection of the session.
type Stats struct {
	Decoded uint64 // frames the cores decoded
	Dropped uint64 // frames the cores could not decode
	// Prediction is the last prediction statistics (nil: no game predicted).
	Prediction *clientcore.PredictionSummary
	// Local is where the own actor was on the map's levels (nil: the game
	// does not say).
	Local  *clientcore.LocalActor
	Errors []string
	// Undecodable counts the snapshot frames dropped for their format (a
	// wrong version, not a frame, a schema mismatch); Reason is the last why.
	Undecodable       uint64
	UndecodableReason string
	// Refused is what the scene refused under its limits.
	Refused parts.Refusals
	// Interp is the render clock's figures over every core: counts and
	// times summed, maxima the largest; the delay now and its median are
	// the current core's (the last retired one's before it sampled).
	Interp clientcore.InterpStats
	Close  *session.CloseInfo // how the last connection ended (nil: open)
	PlayAt time.Time          // when the last connection reached play
}

// stats are the totals with the current core's (nil: none).
func (r *report) stats(c *clientcore.Core, refused parts.Refusals) Stats {
	s := Stats{Decoded: r.retired, Prediction: r.prediction, Local: r.local, Errors: r.errs, Close: r.close, PlayAt: r.playAt,
		Undecodable: r.badFrames, UndecodableReason: r.badFrameReason, Refused: refused, Interp: r.interp}
	if c != nil {
		s.Interp = addInterp(r.interp, c.InterpStats())
		st := c.Stats()
		s.Decoded += st.Decoded
		s.Dropped = st.Dropped
		if p, ok := c.Prediction(); ok {
			s.Prediction = &p.Summary
			if p.HasLocal {
				s.Local = &p.Local
			}
		}
	}
	return s
}

// Stats returns the loop's totals.
func (l *Loop) Stats() Stats { return l.rep.stats(l.core, l.world.Refused()) }

// RoomClosed is the reason the lobby room was closed ("" while it is open,
// or for a dedicated host): the run is over.
func (l *Loop) RoomClosed() string { return l.rep.roomClosed }

// ConfigAt is when the current connection's CONFIG_DATA arrived (zero
// before it).
func (l *Loop) ConfigAt() time.Time { return l.rep.configAt }
