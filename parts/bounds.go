package parts

import (
	"vimpclient/clientcore"
	"vimpclient/snapschema"
)

// checkScratch is what checkFrame counts, kept between frames so that the
// check allocates nothing in steady state.
type checkScratch struct {
	perRoute []int        // new instances per route index
	stages   []stageCount // new entries per canvas
	seen     map[instKey]struct{}
	rows     int // the frame's rows that would have created something
}

type stageCount struct {
	st *Stage
	n  int
}

func (c *checkScratch) addStage(st *Stage) int {
	for i := range c.stages {
		if c.stages[i].st == st {
			c.stages[i].n++
			return c.stages[i].n
		}
	}
	c.stages = append(c.stages, stageCount{st: st, n: 1})
	return 1
}

// checkFrame reports whether applying f would take the scene past its
// limits; it counts each new entity once, however many blocks name it.
func (s *Scene) checkFrame(f *clientcore.EventFrame) *LimitError {
	c := &s.check
	s.created = 0
	c.rows = 0
	if cap(c.perRoute) < len(s.live) {
		c.perRoute = make([]int, len(s.live))
	}
	c.perRoute = c.perRoute[:len(s.live)]
	clear(c.perRoute)
	clear(c.stages)
	c.stages = c.stages[:0]
	if c.seen == nil {
		c.seen = map[instKey]struct{}{}
	}
	clear(c.seen)
	var first *LimitError
	effects := 0
	for bi := range f.Blocks {
		blk := &f.Blocks[bi]
		if blk.Schema == nil {
			continue
		}
		list := blk.Schema.Kind == snapschema.KindList16
		for ri := range s.routes[blk.Schema.ID] {
			r := &s.routes[blk.Schema.ID][ri]
			for i := range blk.Rows {
				row := &blk.Rows[i]
				if row.Null {
					continue
				}
				if list {
					effects++
				} else {
					k := instKey{route: r.index, id: row.ID}
					if _, ok := s.inst[k]; ok {
						continue
					}
					if _, ok := c.seen[k]; ok {
						continue
					}
					c.seen[k] = struct{}{}
					c.perRoute[r.index]++
					if n := s.live[r.index] + c.perRoute[r.index]; n > s.lim.EntitiesPerKey && first == nil {
						first = &LimitError{What: "entities of " + r.ctx.Key + "/" + r.part, Got: n, Limit: s.lim.EntitiesPerKey}
					}
				}
				c.rows++
				if n := r.ctx.Stage.Len() + c.addStage(r.ctx.Stage); n > s.lim.EntitiesPerCanvas && first == nil {
					first = &LimitError{What: "entries on canvas " + r.ctx.Stage.ID, Got: n, Limit: s.lim.EntitiesPerCanvas}
				}
			}
		}
	}
	switch {
	case first != nil:
		return first
	case c.rows > s.lim.NewPerFrame:
		return &LimitError{What: "new entities in one frame", Got: c.rows, Limit: s.lim.NewPerFrame}
	case len(s.effects)+effects > s.lim.Effects:
		return &LimitError{What: "effects", Got: len(s.effects) + effects, Limit: s.lim.Effects}
	}
	return nil
}

// roomFor reports whether r may create one more instance now; it
// allocates nothing, as it runs for every refused row of every hot sample.
func (s *Scene) roomFor(r *route) bool {
	return s.created < s.lim.NewPerFrame && s.live[r.index] < s.lim.EntitiesPerKey &&
		r.ctx.Stage.Len() < s.lim.EntitiesPerCanvas
}

// refuseRow counts one row of r whose new entity was not created, saying
// which limit it reached when that changes.
func (s *Scene) refuseRow(r *route) {
	s.refused.Rows++
	var kind, got, limit int
	switch {
	case s.created >= s.lim.NewPerFrame:
		kind, got, limit = 1, s.created+1, s.lim.NewPerFrame
	case s.live[r.index] >= s.lim.EntitiesPerKey:
		kind, got, limit = 2, s.live[r.index]+1, s.lim.EntitiesPerKey
	default:
		kind, got, limit = 3, r.ctx.Stage.Len()+1, s.lim.EntitiesPerCanvas
	}
	if s.lastRefusal == [2]int{kind, r.index} {
		return
	}
	s.lastRefusal = [2]int{kind, r.index}
	what := [...]string{1: "new entities in one frame", 2: "entities of " + r.ctx.Key + "/" + r.part, 3: "entries on canvas " + r.ctx.Stage.ID}[kind]
	s.refused.Reason = (&LimitError{What: what, Got: got, Limit: limit}).Error()
}

// refuseFrame counts an event frame not applied for err.
func (s *Scene) refuseFrame(err *LimitError) {
	s.refused.Frames++
	s.refused.Rows += uint64(s.check.rows)
	s.refused.Reason = err.Error()
	s.lastRefusal = [2]int{}
}

// Refused reports what the scene refused under its Limits so far.
func (s *Scene) Refused() Refusals { return s.refused }

// Limits are the limits the scene applies.
func (s *Scene) Limits() Limits { return s.lim }
