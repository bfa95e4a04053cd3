package gameloop

import (
	"math"
	"time"
)

// The engine's GAME_INFORM codes that mark a round: a team's victory
// (params: the team), the start of a round, and a game over (no winner).
const (
	informVictory    = 0
	informRoundStart = 1
	informGameOver   = 2
)

// rounds measures the match's rounds from what the host tells every
// player, so it works against any host: a round runs from its ROUND START
// inform to the victory or game over that ends it, or, when the host
// announces no end, to the next ROUND START if the round's time ran out
// (the engine's round clock, the panel's `t`, came down to its last
// seconds; a round the host restarts before, on a team change, is not
// measured). A round whose start was not seen (joined mid-round, or the
// first round of a new map, which starts while the player loads it) is
// not measured, and one cut by a new map or a lost connection is not
// either.
type rounds struct {
	started  int
	ended    int
	open     bool      // a round whose start was seen is running
	startAt  time.Time // when it started
	minLeft  int       // the least time left the panel showed in it, in seconds (-1: none)
	total    time.Duration
	shortest time.Duration
}

// timeOutLeft is the time left, in seconds, that the last panel before a
// new ROUND START shows at most when the round ran out of time: the clock
// is in whole seconds, sent as it changes.
const timeOutLeft = 2

// inform takes one GAME_INFORM code that arrived at at.
func (r *rounds) inform(code int, at time.Time) {
	switch code {
	case informRoundStart:
		if r.open && r.minLeft >= 0 && r.minLeft <= timeOutLeft {
			r.end(at) // the round still running ran out of time
		}
		r.started++
		r.open, r.startAt, r.minLeft = true, at, -1
	case informVictory, informGameOver:
		r.end(at)
	}
}

// timeLeft takes the round time left the panel shows, in seconds.
func (r *rounds) timeLeft(secs int) {
	if r.open && secs >= 0 && (r.minLeft < 0 || secs < r.minLeft) {
		r.minLeft = secs
	}
}

// end ends the running round, if one is, at at.
func (r *rounds) end(at time.Time) {
	if !r.open {
		return
	}
	r.open = false
	d := max(at.Sub(r.startAt), 0)
	r.ended++
	r.total += d
	if r.ended == 1 || d < r.shortest {
		r.shortest = d
	}
}

// cut drops the running round without measuring it: a new map or a new
// connection.
func (r *rounds) cut() { r.open = false }

// RoundsSummary is what the rounds of the session came to: the round
// starts seen, the rounds seen from start to end, and their mean and
// shortest length in seconds.
type RoundsSummary struct {
	Started         int     `json:"started"`
	Ended           int     `json:"ended"`
	MeanSeconds     float64 `json:"meanSeconds"`
	ShortestSeconds float64 `json:"shortestSeconds"`
}

// summary is the rounds' figures (nil: no round start was seen).
func (r *rounds) summary() *RoundsSummary {
	if r.started == 0 {
		return nil
	}
	s := &RoundsSummary{Started: r.started, Ended: r.ended}
	if r.ended > 0 {
		tenths := func(d time.Duration) float64 { return math.Round(d.Seconds()*10) / 10 }
		s.MeanSeconds = tenths(r.total / time.Duration(r.ended))
		s.ShortestSeconds = tenths(r.shortest)
	}
	return s
}
