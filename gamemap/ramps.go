package gamemap

// buildRuns cuts every ramp declaration into runs: for a climb along x one
// run per row and stretch of the ramp's tile in the level it starts from,
// for a climb along y one per column. A cell belongs to the first run that
// claims it; a cell claimed twice is remembered for validation, which
// refuses it.
func (l *MapLevels) buildRuns(ramps []Ramp, maxRuns int) error {
	if len(ramps) == 0 {
		return nil
	}
	l.runOf = make([]int16, l.cols*l.rows)
	for i := range l.runOf {
		l.runOf[i] = -1
	}
	// lanes maps the far cross edge of a run to it, so the next lane of the
	// same wide ramp joins its block.
	type laneKey struct{ ramp, c0, c1, cross int }
	lanes := map[laneKey]int{}
	blocks := 0
	push := func(ri int, r Ramp, axis, sign, c0, c1, cross int) error {
		if len(l.runs) >= maxRuns {
			return countOver("ramps", "runs", len(l.runs)+1, maxRuns)
		}
		idx := len(l.runs)
		run := RampRun{Axis: axis, Sign: sign, From: r.From, To: r.To,
			Cell0: c0, Cell1: c1, Cross0: cross, Cross1: cross + 1, Ramp: ri,
			Min: float32(c0) * l.tile, Max: float32(c1) * l.tile,
			CrossMin: float32(cross) * l.tile, CrossMax: float32(cross+1) * l.tile}
		if j, ok := lanes[laneKey{ri, c0, c1, cross}]; ok {
			run.Block = l.runs[j].Block
		} else {
			run.Block = blocks
			blocks++
		}
		lanes[laneKey{ri, c0, c1, cross + 1}] = idx
		for main := c0; main < c1; main++ {
			col, row := main, cross
			if axis == 1 {
				col, row = cross, main
			}
			cell := &l.runOf[row*l.cols+col]
			if *cell >= 0 {
				if l.shared == nil {
					l.shared = &sharedCell{col: col, row: row, first: l.runs[*cell].Ramp, second: ri}
				}
				continue
			}
			*cell = int16(idx)
		}
		l.runs = append(l.runs, run)
		return nil
	}
	for ri, r := range ramps {
		axis, sign := r.Dir.AxisSign()
		grid := l.levels[r.From].grid
		at := func(col, row int) bool { return int(grid[row*l.cols+col]) == r.Tile }
		lines, length := l.rows, l.cols
		if axis == 1 {
			lines, length = l.cols, l.rows
		}
		for line := 0; line < lines; line++ {
			is := func(main int) bool {
				if axis == 1 {
					return at(line, main)
				}
				return at(main, line)
			}
			for main := 0; main < length; {
				if !is(main) {
					main++
					continue
				}
				start := main
				for main < length && is(main) {
					main++
				}
				if err := push(ri, r, axis, sign, start, main, line); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// GuardThicknessRatio is the thickness of a ramp guard as a share of the
// cell size.
const GuardThicknessRatio = 0.1

// RampGuard is one guard of a ramp block: an axis-aligned box that stops
// bodies of level Low (the level the block starts from) that are not
// legally climbing it. A body climbing the run passes through, bodies of
// other levels never meet it.
type RampGuard struct {
	X, Y         float32 // centre in world units
	HalfW, HalfH float32
	Low          int
}

// RampGuards returns the guards of every ramp block of a layered map: a rail
// along each side of the block, over the rail span of its runs
// (RampRailSpan), and a cap across its far (upper) end, in that order block
// by block. A flat map has none. The host builds its colliders and a
// client's prediction its contacts from this one list.
func RampGuards(l *MapLevels) []RampGuard {
	if !l.Layered() || len(l.runs) == 0 {
		return nil
	}
	type block struct {
		run      RampRun
		min, max float32 // cross bounds of all lanes
	}
	var blocks []block
	for _, r := range l.runs {
		if r.Block < len(blocks) {
			b := &blocks[r.Block]
			b.min, b.max = min(b.min, r.CrossMin), max(b.max, r.CrossMax)
			continue
		}
		blocks = append(blocks, block{run: r, min: r.CrossMin, max: r.CrossMax})
	}
	t := l.tile * GuardThicknessRatio
	var out []RampGuard
	for _, b := range blocks {
		r := b.run
		low := min(r.From, r.To)
		box := func(main, cross, halfMain, halfCross float32) RampGuard {
			if r.Axis == 0 {
				return RampGuard{X: main, Y: cross, HalfW: halfMain, HalfH: halfCross, Low: low}
			}
			return RampGuard{X: cross, Y: main, HalfW: halfCross, HalfH: halfMain, Low: low}
		}
		if lo, hi, ok := RampRailSpan(r, l.tile); ok {
			mid, half := (lo+hi)/2, (hi-lo)/2
			out = append(out, box(mid, b.min, half, t/2), box(mid, b.max, half, t/2))
		}
		far := r.Max
		if r.Sign < 0 {
			far = r.Min
		}
		out = append(out, box(far, (b.min+b.max)/2, t/2, (b.max-b.min)/2))
	}
	return out
}

// RampRailSpan returns the stretch of a run its side rails hold, along the
// run's axis in world units: from one cell past the foot to the top end.
// The foot cell stays open from every side, so a body may drive onto the
// hill head-on, at an angle or from the side, and the game judges whether
// that entry is a climb; a one-cell run is all foot and has no rails. tile
// is the world size of a cell. A renderer drawing the run's skirt takes its
// bounds from here, so the picture never grows a wall the physics lacks.
func RampRailSpan(run RampRun, tile float32) (lo, hi float32, ok bool) {
	if run.Cell1-run.Cell0 < 2 {
		return 0, 0, false
	}
	if run.Sign > 0 {
		return run.Min + tile, run.Max, true
	}
	return run.Min, run.Max - tile, true
}
