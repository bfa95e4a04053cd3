package clientcore

import "math"

// How far remote entities jump on screen: after a stall the frames that
// were held back land together, and a world drawn from them would move
// every remote tank by the stall's worth of its motion in one sample. The
// figure compares each remote actor's move from one sample to the next
// with what its recent speed gives for the sample, and counts a jump when
// the excess is more than one host frame's worth of that motion.

// Bounds of the jump figures.
const (
	// maxJumpKeys bounds the keys watched (a game has a handful of actor
	// keys); maxJumpIDs is an indexed8 key's ids.
	maxJumpKeys = 16
	maxJumpIDs  = 256
	// jumpSlack (world units) is forgiven on top of a frame's worth: an
	// entity that barely moves does not jump by rounding.
	jumpSlack = 0.5
	// teleportUnits is a move no drive makes in a sample: a respawn or a
	// new map, not a jump.
	teleportUnits = 50
	// jumpSpeedKeep is the part of the speed estimate each sample keeps.
	jumpSpeedKeep = 0.8
	// maxJumpSampleMs: a sample further from the last is a stalled loop,
	// whose long move is no jump of the drawing.
	maxJumpSampleMs = 50.0
	// defaultFrameMs is a host frame when no interval is known (30 Hz).
	defaultFrameMs = 1000.0 / 30
	// jumpWarmup is the samples an actor is followed before its moves are
	// judged: its speed is known by then.
	jumpWarmup = 4
)

// JumpStats are the remote actors' jumps since the core was built.
type JumpStats struct {
	// Jumps counts the samples in which a remote actor moved more than its
	// recent speed gives for the sample plus one host frame's worth of it;
	// MaxJumpFrames is the largest excess seen, in host frames of motion.
	Jumps         uint64
	MaxJumpFrames float64
}

type jumpEntity struct {
	x, y  float32
	speed float64 // units per ms, smoothed
	at    uint64  // the sample it was last seen in
	runs  uint8   // timed samples in a row it was seen in, up to jumpWarmup
}

type jumpKey struct {
	k      *KeySchema
	xi, yi int
	ents   *[maxJumpIDs]jumpEntity
}

// jumpWatch follows the remote actors sample by sample.
type jumpWatch struct {
	keys   []jumpKey
	sample uint64
	last   float64 // localNow of the last sample looked at
	s      JumpStats
	held   bool
}

// keyOf is k's watch, nil for a key without x and y or past maxJumpKeys.
func (w *jumpWatch) keyOf(k *KeySchema) *jumpKey {
	for i := range w.keys {
		if w.keys[i].k == k {
			if w.keys[i].ents == nil {
				return nil
			}
			return &w.keys[i]
		}
	}
	if len(w.keys) == maxJumpKeys {
		return nil
	}
	jk := jumpKey{k: k, xi: k.Index("x"), yi: k.Index("y")}
	if jk.xi >= 0 && jk.yi >= 0 {
		jk.ents = new([maxJumpIDs]jumpEntity)
	}
	w.keys = append(w.keys, jk)
	if jk.ents == nil {
		return nil
	}
	return &w.keys[len(w.keys)-1]
}

// observe looks at the actors of the sample at local time now, the own
// actor (own, when hasOwn) left out; frameMs is the host's frame interval.
func (w *jumpWatch) observe(actors []Record, now float64, own uint32, hasOwn bool, frameMs float64) {
	w.sample++
	dt := now - w.last
	w.last = now
	if w.held {
		return
	}
	if !(frameMs > 0) || frameMs > 1000 {
		frameMs = defaultFrameMs
	}
	timed := dt > 0 && dt <= maxJumpSampleMs
	var lastK *KeySchema
	var jk *jumpKey
	for i := range actors {
		r := &actors[i]
		if r.ID >= maxJumpIDs || (hasOwn && r.ID == own) {
			continue
		}
		if r.Schema != lastK { // a key's rows come together
			lastK, jk = r.Schema, w.keyOf(r.Schema)
		}
		if jk == nil || jk.xi >= len(r.Fields) || jk.yi >= len(r.Fields) {
			continue
		}
		x, y := r.Fields[jk.xi], r.Fields[jk.yi]
		e := &jk.ents[r.ID]
		seenLast := e.at == w.sample-1 && w.sample > 1
		switch {
		case seenLast && timed:
			dx, dy := float64(x-e.x), float64(y-e.y)
			d := math.Sqrt(dx*dx + dy*dy)
			if !(d < teleportUnits) { // a respawn, a new map, not a number
				e.runs = 0
				break
			}
			if e.runs >= jumpWarmup {
				excess := d - e.speed*dt
				frame := e.speed * frameMs
				if excess > frame+jumpSlack {
					w.s.Jumps++
					w.s.MaxJumpFrames = max(w.s.MaxJumpFrames, excess/max(frame, jumpSlack))
				}
			}
			if e.runs == 0 {
				e.speed = d / dt
			} else {
				e.speed = jumpSpeedKeep*e.speed + (1-jumpSpeedKeep)*d/dt
			}
			e.runs = min(e.runs+1, jumpWarmup)
		case !seenLast:
			e.speed, e.runs = 0, 0
		}
		e.x, e.y, e.at = x, y, w.sample
	}
}

// forget starts every actor afresh: the world is gone (a reset, a map).
func (w *jumpWatch) forget() { w.sample += 2 }
