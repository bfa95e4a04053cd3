package snakes

import (
	"testing"

	"vimpclient/clientcore"
)

// stalledRun plays an exact host against the game, as TestReplayMatchesHost
// does (inputs and frames 40 ms each way, the same model on the same 120 Hz
// grid), while the client's loop stalls from stallFrom to stallTo ms: no
// update, no frame drained. At the end of the stall the frames that arrived
// meanwhile are drained in one go, each with the time it arrived (the
// network goroutine stamps them) or, with bunched, all with the stall's end
// (the whole process stood still). With updateFirst the first tick after
// the stall updates before it drains (frames held up on the way while the
// loop ran late). It returns the largest correction of the frames sent from
// shortly before the stall to shortly after it.
func stalledRun(t *testing.T, stallFrom, stallTo float64, bunched, updateFirst bool) (g *Game, maxCorr float64) {
	t.Helper()
	g = newGame(t)
	g.TrackFrame(2, true, ownRow(t, g, 2, 5, 7))
	m := S1()
	host := &Snake{X: 500, Y: 400, Length: 195, Crystals: 5, Alive: true}
	host.Path.Reset(host.X, host.Y)
	g.OnServerState(block(host.X, host.Y, 0, 5, 195, true, 0), 0, 0, 0)
	g.Update(0)
	type ev struct {
		at   float64
		name string
		down bool
	}
	// Boost held through the stall, a turn before it and one after it.
	evs := []ev{{100, "left", true}, {250, "left", false}, {300, "boost", true}, {1400, "right", true}, {1600, "right", false}}
	type key struct {
		at   float64
		seq  uint32
		name string
		down bool
	}
	type frame struct {
		at, t float64
		blk   *clientcore.PlayerBlock
	}
	var hostIn Controls
	var keys []key
	var inflight, arrived []frame
	seq, hostSeq := uint32(0), uint32(0)
	stepMs := 1000.0 / 120
	next := 0
	for tick := 1; tick <= 240; tick++ {
		now := float64(tick) * stepMs
		stalled := now >= stallFrom && now < stallTo
		for !stalled && next < len(evs) && evs[next].at <= now {
			seq++
			g.ApplyInput(seq, evs[next].down, evs[next].name, now)
			keys = append(keys, key{now + 40, seq, evs[next].name, evs[next].down})
			next++
		}
		for len(keys) > 0 && keys[0].at <= now {
			switch keys[0].name {
			case "left":
				hostIn.Left = keys[0].down
			case "right":
				hostIn.Right = keys[0].down
			case "boost":
				hostIn.Boost = keys[0].down
			}
			hostSeq = keys[0].seq
			keys = keys[1:]
		}
		m.Step(host, hostIn, dt)
		if tick%4 == 0 {
			inflight = append(inflight, frame{at: now + 40, t: now, blk: block(host.X, host.Y, host.Angle, 5, 195, true, hostSeq)})
		}
		for len(inflight) > 0 && inflight[0].at <= now {
			arrived = append(arrived, inflight[0])
			inflight = inflight[1:]
		}
		if stalled {
			continue
		}
		first := updateFirst && now-stepMs < stallTo && now-stepMs >= stallFrom
		if first {
			g.Update(now)
		}
		for _, f := range arrived {
			stamp := f.at
			if bunched {
				stamp = now
			}
			g.OnServerState(f.blk, f.t, -40, stamp)
			if c, _ := g.Predictor().LastCorrection(); c > maxCorr && f.t >= stallFrom-100 && f.t < stallTo+150 {
				maxCorr = c
			}
		}
		arrived = arrived[:0]
		if !first {
			g.Update(now)
		}
	}
	return g, maxCorr
}

// A loop that stalls for 400 ms while the snake boosts (about 200 world
// units of travel, past the snap distance) and then drains the frames of
// the stall in one go: the old prediction is stepped on to each frame's
// arrival before the comparison, so the motion during the stall is not
// taken for a correction. Nothing snaps, and the corrections stay the
// size of the exact host's (the prediction does not diverge).
//
// The update that comes first after a stall steps no more than the
// accumulator's cap, but the time past it is kept for the next steps (here
// the catch-up), not dropped: dropped, the state stood behind its time and
// the next reconciliation took the lag for a correction.
func TestStalledLoopDoesNotSnap(t *testing.T) {
	for _, c := range []struct{ bunched, updateFirst bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		g, maxCorr := stalledRun(t, 800, 1200, c.bunched, c.updateFirst)
		sum := g.Predictor().Summary()
		if sum.Snaps != 0 || maxCorr > 1 || sum.ErrorMax > 2 {
			t.Errorf("%+v: %+v, largest correction %.2f", c, sum, maxCorr)
		}
		if sum.Samples < 40 {
			t.Errorf("%+v: only %d time-aligned samples", c, sum.Samples)
		}
	}
}

// The catch-up does not hide a real divergence: here the host never applies
// the client's boost (as if it had lost the key), and the loop stalls for
// 300 ms on the way. The snake is predicted faster than it is, and the
// time-aligned error shows it.
func TestStalledLoopStillShowsDivergence(t *testing.T) {
	g := newGame(t)
	g.TrackFrame(2, true, ownRow(t, g, 2, 5, 7))
	m := S1()
	host := &Snake{X: 500, Y: 400, Length: 195, Crystals: 5, Alive: true}
	host.Path.Reset(host.X, host.Y)
	g.OnServerState(block(host.X, host.Y, 0, 5, 195, true, 0), 0, 0, 0)
	g.Update(0)
	g.ApplyInput(1, true, "boost", 10)
	stepMs := 1000.0 / 120
	for tick := 1; tick <= 120; tick++ {
		now := float64(tick) * stepMs
		m.Step(host, Controls{}, dt)
		if tick%4 == 0 && (now < 500 || now > 800) {
			g.OnServerState(block(host.X, host.Y, host.Angle, 5, 195, true, 1), now, 0, now)
		}
		if now < 500 || now > 800 {
			g.Update(now)
		}
	}
	if sum := g.Predictor().Summary(); sum.ErrorMax < 10 {
		t.Fatalf("a boost the host never applied went unseen: %+v", sum)
	}
}
