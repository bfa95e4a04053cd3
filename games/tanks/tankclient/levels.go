package tankclient

import (
	"math"

	"vimpclient/clientcore"
	"vimpclient/games/tanks"
)

// ownHeight is the own tank's level and height (world units) in the frame
// being reconciled.
type ownHeight struct {
	level, z float32
	ok       bool
}

// levelSample is the predicted level and height at a server time, with
// the whole level state (a flight's vertical speed, a slick residue).
type levelSample struct {
	t     float64
	level int
	z     float32 // world units
	st    tanks.LevelState
}

// levelTrackLen covers the steps between two player blocks many times over,
// and the steps of the longest input lead the predictor runs ahead by.
const levelTrackLen = 128

// levelCheck checks the predicted level against the host's rows: own is
// the level and height of the own row in the frame being reconciled, track
// the predicted level by server time, local the figures (Prediction's
// Local).
type levelCheck struct {
	own   ownHeight
	track levelTrack
	local clientcore.LocalActor
}

// levelTrack is the own tank's predicted level since the last
// reconciliation, by the server time each step's state stands for.
type levelTrack struct {
	s    [levelTrackLen]levelSample
	head int
	n    int
}

func (lt *levelTrack) reset() { lt.head, lt.n = 0, 0 }

func (lt *levelTrack) add(v levelSample) {
	if lt.n == levelTrackLen {
		lt.head = (lt.head + 1) % levelTrackLen
		lt.n--
	}
	lt.s[(lt.head+lt.n)%levelTrackLen] = v
	lt.n++
}

// levelTrackReach is how far, in steps, the last sample may lie before a
// time and still stand for it: the prediction stops at the render tick
// before a frame arrives, up to a few steps short of the frame's time.
const levelTrackReach = 3

// at returns the prediction for time t: the latest sample not after it
// (within half a step), if that is at most levelTrackReach steps before.
func (lt *levelTrack) at(t, stepMs float64) (levelSample, bool) {
	for i := lt.n - 1; i >= 0; i-- {
		v := lt.s[(lt.head+i)%levelTrackLen]
		if v.t <= t+stepMs/2 {
			return v, t-v.t <= levelTrackReach*stepMs
		}
	}
	return levelSample{}, false
}

// Tracked records the predicted level after each step (predict.Tracker).
func (g *Game) Tracked(serverTime float64) {
	if g.levels == nil && g.surfaces == nil {
		return
	}
	g.check.track.add(levelSample{t: serverTime, level: g.lv.Level, z: g.lv.WorldZ(g.levels), st: g.lv})
}

// rewindLevel sets the own tank's level state for the player block just
// taken: the prediction for the block's time is checked against the
// level and height of the tank's own row in the same frame, then the state
// is rebuilt from that row (a climb from the ramp under the block's
// position, a fall's phase from its height) so that the replay steps on
// from the host's state. Without the row the level the prediction had for
// that time stands.
func (g *Game) rewindLevel(serverTime float64) {
	pred, hasPred := g.check.track.at(serverTime, g.pred.StepMs())
	g.check.track.reset()
	if g.levels == nil {
		// A flat world has no level state; a slick residue is the
		// prediction's (the host steps it the same way and sends none).
		g.lv = tanks.LevelState{}
		if hasPred {
			g.lv.SlickLeft, g.lv.SlickType = pred.st.SlickLeft, pred.st.SlickType
		}
		return
	}
	level, z := pred.level, pred.z
	if g.check.own.ok {
		level, z = int(g.check.own.level), g.check.own.z
		if hasPred {
			g.check.local.LevelChecks++
			if pred.level != level {
				g.check.local.LevelMismatches++
			}
			g.check.local.ZErrorMax = max(g.check.local.ZErrorMax, math.Abs(float64(pred.z-z)))
		}
	} else if !hasPred {
		return // nothing to rebuild from: the state goes on as predicted
	}
	var hint *tanks.LevelState
	if hasPred {
		hint = &pred.st
	}
	g.lv = g.cfg.Levels.RestoreFrom(g.levels, g.st.X, g.st.Y, level, z, g.pred.DT(), true, hint)
}
