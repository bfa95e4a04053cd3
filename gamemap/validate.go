package gamemap

import (
	"fmt"
	"strings"
)

// The rules a map must keep. At runtime every one of these mistakes would be
// silent (a tank falling through a slab, a prediction drifting from the
// host), so a map that breaks one is refused whole.
const (
	// RuleLevelKeys: levels is keyed "1".."7", from 1 without gaps.
	RuleLevelKeys = "level-keys"
	// RuleLevelGrid: every level's grid has the dimensions of map.
	RuleLevelGrid = "level-grid"
	// RuleRailingFloor: every wall tile of a level is part of its floor,
	// or the railing hangs in the air and does not shield the ray below.
	RuleRailingFloor = "railing-floor"
	// RuleVolumeLayer: volumes name layers keys of the same level.
	RuleVolumeLayer = "volume-layer"
	// RuleVolumeHeight: a volume is a finite height in (0, MaxLevels].
	RuleVolumeHeight = "volume-height"
	// RuleLevelHeight: levelHeight is finite and greater than 0.
	RuleLevelHeight = "level-height"
	// RuleRampLevels: a ramp climbs between two different existing levels.
	RuleRampLevels = "ramp-levels"
	// RuleRampTile: a ramp's tile occurs in the grid of its from level.
	RuleRampTile = "ramp-tile"
	// RuleRampArrival: the cell past the top of every run is drivable
	// surface of the level it climbs to, or the body reaches the top and
	// falls in the same step.
	RuleRampArrival = "ramp-arrival"
	// RuleRampThroughSlab: a run climbing more than one level passes under
	// no floor of a level in between.
	RuleRampThroughSlab = "ramp-through-slab"
	// RuleRampSharedCell: no cell belongs to two ramps (which one claims it
	// would be arbitrary).
	RuleRampSharedCell = "ramp-shared-cell"
	// RuleSlabEdge: a floor cell whose neighbour is neither floor nor
	// railing is a ledge, and the fall from it must land on drivable
	// surface of its landing level; over the border or a wall it is an
	// error.
	RuleSlabEdge = "slab-edge"
	// RuleBodyLevel: a dynamic body rests on an existing level.
	RuleBodyLevel = "body-level"
	// RuleSpawnLevel: a spawn point's level is an existing level.
	RuleSpawnLevel = "spawn-level"
)

// ValidationError reports a map that breaks one of the rules.
type ValidationError struct {
	Rule     string // one of the Rule constants
	Level    int    // the level concerned, -1 when none
	Col, Row int    // the cell concerned, -1 when none
	Msg      string
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("map data: rule ")
	b.WriteString(e.Rule)
	if e.Level >= 0 {
		fmt.Fprintf(&b, ", level %d", e.Level)
	}
	if e.Col >= 0 {
		fmt.Fprintf(&b, ", cell (%d, %d)", e.Col, e.Row)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// validateGeometry applies the rules that need the built geometry.
func validateGeometry(m *Map) error {
	l := m.geo
	if s := l.shared; s != nil {
		return &ValidationError{Rule: RuleRampSharedCell, Level: -1, Col: s.col, Row: s.row,
			Msg: fmt.Sprintf("ramps %d and %d both claim the cell", s.first, s.second)}
	}
	for i := range l.runs {
		r := &l.runs[i]
		exit := r.Cell1
		if r.Sign < 0 {
			exit = r.Cell0 - 1
		}
		col, row := r.cell(exit)
		if !l.DrivableCell(r.To, col, row) {
			return &ValidationError{Rule: RuleRampArrival, Level: r.To, Col: col, Row: row,
				Msg: fmt.Sprintf("ramp %d ends here, which is not drivable surface of level %d", r.Ramp, r.To)}
		}
		low, high := min(r.From, r.To), max(r.From, r.To)
		for lv := low + 1; lv < high; lv++ {
			for main := r.Cell0; main < r.Cell1; main++ {
				if col, row := r.cell(main); l.HasFloorCell(lv, col, row) {
					return &ValidationError{Rule: RuleRampThroughSlab, Level: lv, Col: col, Row: row,
						Msg: fmt.Sprintf("ramp %d climbs %d→%d under the floor of level %d", r.Ramp, r.From, r.To, lv)}
				}
			}
		}
	}
	return validateEdges(l)
}

// cell returns the cell of the run's lane at position main along its axis.
func (r *RampRun) cell(main int) (col, row int) {
	if r.Axis == 1 {
		return r.Cross0, main
	}
	return main, r.Cross0
}

// validateEdges checks every slab edge: railed, or with drivable ground
// where the fall lands.
func validateEdges(l *MapLevels) error {
	steps := [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	for li := 1; li < len(l.levels); li++ {
		lv := &l.levels[li]
		for row := 0; row < l.rows; row++ {
			for col := 0; col < l.cols; col++ {
				t := lv.grid[row*l.cols+col]
				if !lv.floor.has(t) || lv.solid.has(t) {
					continue // not slab, or a railing: it closes the edge itself
				}
				for _, s := range steps {
					nc, nr := col+s[0], row+s[1]
					if l.HasFloorCell(li, nc, nr) {
						continue
					}
					landing := l.landingCell(li, nc, nr)
					if l.DrivableCell(landing, nc, nr) {
						continue
					}
					return &ValidationError{Rule: RuleSlabEdge, Level: li, Col: col, Row: row,
						Msg: fmt.Sprintf("open edge towards (%d, %d) with no drivable surface of level %d below; close it with a wall tile", nc, nr, landing)}
				}
			}
		}
	}
	return nil
}
