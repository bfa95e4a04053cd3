package clientcore

import (
	"cmp"
	"slices"

	"vimpclient/internal/angle"
	"vimpclient/snapschema"
)

// Bounded extrapolation (Options.Adaptive): past the newest frame the hot
// entities are dead-reckoned from their last velocity — the change of each
// lerp and lerpAngle field between the frame before the newest and the
// newest — for at most maxExtrapolateMs, then held. When the next frame
// lands the world is drawn from it again, and the difference from what was
// last shown is blended away over blendMs instead of popping. Only hot
// records move: event frames are emitted when render time reaches them,
// never ahead of it, and the camera is held.

const (
	maxExtrapolateMs = 150.0
	blendMs          = 100.0
)

// blendState fades out the difference between the records an extrapolated
// sample showed and the records once frames land again.
type blendState struct {
	// shown is the records the last extrapolated sample showed, their
	// fields in shownVals; shownValid says they are kept, shownRef is the
	// slot.gen of the reference frame they were extrapolated from.
	shown      []blendEntry
	shownVals  []float32
	shownValid bool
	shownRef   uint64
	// diffs is the differences being faded out, their fields in diffVals,
	// since from (local ms); active while there are any.
	diffs    []blendEntry
	diffVals []float32
	active   bool
	from     float64
}

// blendEntry is one record shown by an extrapolated sample: its key and id
// (recKey), where its fields start in the values kept with it, and its width.
type blendEntry struct {
	key  uint64
	off  int32
	n    int32
	kind *KeySchema
}

func recKey(r *Record) uint64 { return uint64(r.Schema.ID)<<32 | uint64(r.ID) }

// extrapolate moves the hot records, holding ref's values, ext ms along
// the velocity from prev to ref.
func (c *Core) extrapolate(prev, ref *Frame, ext float64) {
	span := ref.ServerTime - prev.ServerTime
	if !(span > 0) || !(ext > 0) {
		return
	}
	k := float32(ext / span)
	h := &c.hot
	c.extrapolateGroup(prev, h.Actors, k)
	c.extrapolateGroup(prev, h.Dynamics, k)
}

func (c *Core) extrapolateGroup(prev *Frame, recs []Record, k float32) {
	var key *KeySchema
	var pb *Block
	for i := range recs {
		r := &recs[i]
		if r.Schema != key {
			key, pb = r.Schema, nil
			for j := range prev.Blocks {
				if prev.Blocks[j].Schema == key {
					pb = &prev.Blocks[j]
					break
				}
			}
			if pb != nil {
				c.ids.gen++
				for j := range pb.Rows {
					id := pb.Rows[j].ID & 0xff
					if c.ids.seen[id] != c.ids.gen {
						c.ids.seen[id], c.ids.pos[id] = c.ids.gen, int32(j)
					}
				}
			}
		}
		if pb == nil || r.ID > 0xff || c.ids.seen[r.ID] != c.ids.gen {
			continue
		}
		pr := &pb.Rows[c.ids.pos[r.ID]]
		if pr.Null || pr.ID != r.ID {
			continue
		}
		w := min(len(r.Fields), len(pr.Fields), len(key.lerped))
		for f, mode := range key.lerped[:w] {
			switch mode {
			case snapschema.InterpLerp:
				r.Fields[f] += float32((r.Fields[f] - pr.Fields[f]) * k)
			case snapschema.InterpLerpAngle:
				r.Fields[f] += float32(wrapAngle(r.Fields[f]-pr.Fields[f]) * k)
			}
		}
	}
}

// wrapAngle brings an angle difference into [-π, π].
func wrapAngle(d float32) float32 {
	if d > pi || d < -pi {
		return angle.Normalize(d)
	}
	return d
}

// keepShown copies the hot records as shown, for the blend when the next
// frame lands.
func (c *Core) keepShown() {
	c.blend.shown = c.blend.shown[:0]
	c.blend.shownVals = c.blend.shownVals[:0]
	h := &c.hot
	for _, group := range [2][]Record{h.Actors, h.Dynamics} {
		for i := range group {
			r := &group[i]
			c.blend.shown = append(c.blend.shown, blendEntry{key: recKey(r), off: int32(len(c.blend.shownVals)), n: int32(len(r.Fields)), kind: r.Schema})
			c.blend.shownVals = append(c.blend.shownVals, r.Fields...)
		}
	}
	slices.SortFunc(c.blend.shown, func(a, b blendEntry) int { return cmp.Compare(a.key, b.key) })
}

// startBlend sets the blend to the differences between the records kept
// by keepShown and the hot records now, to fade out from now. A record not
// shown then, or gone now, is not blended.
func (c *Core) startBlend(now float64) {
	c.blend.diffs = c.blend.diffs[:0]
	c.blend.diffVals = c.blend.diffVals[:0]
	h := &c.hot
	for _, group := range [2][]Record{h.Actors, h.Dynamics} {
		for i := range group {
			r := &group[i]
			e := findEntry(c.blend.shown, recKey(r))
			if e == nil || e.kind != r.Schema || int(e.n) != len(r.Fields) {
				continue
			}
			was := c.blend.shownVals[e.off : e.off+e.n]
			off := len(c.blend.diffVals)
			for f, v := range was {
				d := float32(0)
				if f < len(r.Schema.lerped) {
					switch r.Schema.lerped[f] {
					case snapschema.InterpLerp:
						d = v - r.Fields[f]
					case snapschema.InterpLerpAngle:
						d = wrapAngle(v - r.Fields[f])
					}
				}
				c.blend.diffVals = append(c.blend.diffVals, d)
			}
			c.blend.diffs = append(c.blend.diffs, blendEntry{key: e.key, off: int32(off), n: e.n, kind: r.Schema})
		}
	}
	// The records come in block order, not key order.
	slices.SortFunc(c.blend.diffs, func(a, b blendEntry) int { return cmp.Compare(a.key, b.key) })
	c.blend.active, c.blend.from = len(c.blend.diffs) > 0, now
}

// applyBlend adds what is left of the blend at now to the hot records;
// past blendMs the blend ends.
func (c *Core) applyBlend(now float64) {
	if !c.blend.active {
		return
	}
	left := 1 - (now-c.blend.from)/blendMs
	if !(left > 0) || left > 1 {
		c.blend.active = false
		return
	}
	k := float32(left)
	h := &c.hot
	for _, group := range [2][]Record{h.Actors, h.Dynamics} {
		for i := range group {
			r := &group[i]
			e := findEntry(c.blend.diffs, recKey(r))
			if e == nil || e.kind != r.Schema || int(e.n) != len(r.Fields) {
				continue
			}
			d := c.blend.diffVals[e.off : e.off+e.n]
			for f := range d {
				if d[f] != 0 {
					r.Fields[f] += float32(d[f] * k)
				}
			}
		}
	}
}

// findEntry finds a record's entry by key in entries sorted by key.
func findEntry(entries []blendEntry, key uint64) *blendEntry {
	i, ok := slices.BinarySearchFunc(entries, key, func(e blendEntry, k uint64) int { return cmp.Compare(e.key, k) })
	if !ok {
		return nil
	}
	return &entries[i]
}
