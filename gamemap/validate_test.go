package gamemap

import (
	"errors"
	"strings"
	"testing"
)

// TestValidationRules refuses one broken map per rule and checks that the
// error names the rule and, for the geometric rules, the cell.
func TestValidationRules(t *testing.T) {
	type edit func(t *testing.T, f obj)
	setLevel1 := func(lines ...string) edit {
		return func(t *testing.T, f obj) { f["levels"] = obj{"1": level(t, lines...)} }
	}
	cases := []struct {
		name     string
		rule     string
		edit     edit
		col, row int // the cell the error must name (-1: none)
		level    int
	}{
		{"levels key with a gap", RuleLevelKeys, func(t *testing.T, f obj) {
			f["levels"] = obj{"2": level(t, bridgeLevel1...)}
			f["ramps"] = nil
		}, -1, -1, 2},
		{"levels key zero", RuleLevelKeys, func(t *testing.T, f obj) { f["levels"] = obj{"0": level(t, bridgeLevel1...)} }, -1, -1, 0},
		{"levels key not a number", RuleLevelKeys, func(t *testing.T, f obj) { f["levels"] = obj{"one": level(t, bridgeLevel1...)} }, -1, -1, -1},
		{"level grid a row short", RuleLevelGrid, setLevel1(bridgeLevel1[:6]...), -1, -1, 1},
		{"level grid a cell short", RuleLevelGrid, setLevel1(append([]string{"........."}, bridgeLevel1[1:]...)...), -1, -1, 1},
		{"level grid too large", RuleLevelGrid, setLevel1(append(bridgeLevel1, "..........", "..........")...), -1, -1, 1},
		{"railing not part of floor", RuleRailingFloor, func(t *testing.T, f obj) {
			l := level(t, bridgeLevel1...)
			l["floor"] = []int{tSlab}
			f["levels"] = obj{"1": l}
		}, -1, -1, 1},
		{"volume of no layer", RuleVolumeLayer, func(t *testing.T, f obj) { f["volumes"] = obj{"9": 0.5} }, -1, -1, 0},
		{"volume of no height", RuleVolumeHeight, func(t *testing.T, f obj) { f["volumes"] = obj{"2": 0} }, -1, -1, 0},
		{"level height zero", RuleLevelHeight, func(t *testing.T, f obj) { f["levelHeight"] = 0 }, -1, -1, -1},
		{"level height negative", RuleLevelHeight, func(t *testing.T, f obj) { f["levelHeight"] = -3 }, -1, -1, -1},
		{"ramp to its own level", RuleRampLevels, func(t *testing.T, f obj) {
			f["ramps"] = []obj{{"tile": tRampEast, "dir": "east", "from": 0, "to": 0}}
		}, -1, -1, 0},
		{"ramp to a missing level", RuleRampLevels, func(t *testing.T, f obj) {
			f["ramps"] = []obj{{"tile": tRampEast, "dir": "east", "to": 3}}
		}, -1, -1, 0},
		{"ramp tile not in its grid", RuleRampTile, func(t *testing.T, f obj) {
			f["ramps"] = []obj{{"tile": tRampSouth, "dir": "south"}}
		}, -1, -1, 0},
		// Climbing west, the runs end at column 1, where level 1 has no slab.
		{"ramp arriving nowhere", RuleRampArrival, func(t *testing.T, f obj) {
			f["ramps"] = []obj{{"tile": tRampEast, "dir": "west"}}
		}, 1, 2, 1},
		// A slab on level 1 right over the runs of a ramp climbing 0 → 2.
		{"ramp through a slab", RuleRampThroughSlab, func(t *testing.T, f obj) {
			l1 := level(t,
				"..........",
				"..........",
				"..==......",
				"..==......",
				"..........",
				"..........",
				"..........")
			f["levels"] = obj{"1": l1, "2": level(t, bridgeLevel1...)}
			f["ramps"] = []obj{{"tile": tRampEast, "dir": "east", "to": 2}}
		}, 2, 2, 1},
		{"ramps sharing cells", RuleRampSharedCell, func(t *testing.T, f obj) {
			f["ramps"] = []obj{{"tile": tRampEast, "dir": "east"}, {"tile": tRampEast, "dir": "east", "from": 0, "to": 1}}
		}, 2, 2, -1},
		// The slab reaches column 8, whose east neighbour is the ground's
		// perimeter wall: a fall there lands inside a wall.
		{"slab edge over a wall", RuleSlabEdge, setLevel1(
			"..........",
			"....||||||",
			"....=====.",
			"....=====.",
			"....||||||",
			"..........",
			".........."), 8, 2, 1},
		// A slab at the grid border falls off the map.
		{"slab edge over the border", RuleSlabEdge, setLevel1(
			"=.........",
			"....||||..",
			"....===|..",
			"....===|..",
			"....||||..",
			"..........",
			".........."), 0, 0, 1},
		{"body on a missing level", RuleBodyLevel, func(t *testing.T, f obj) {
			f["physicsDynamic"] = []obj{{"position": []float64{10, 10}, "width": 8, "height": 8, "level": 2}}
		}, -1, -1, 2},
		{"spawn on a missing level", RuleSpawnLevel, func(t *testing.T, f obj) {
			f["respawns"] = obj{"team1": [][]float64{{15, 15, 0, 5}}}
		}, -1, -1, -1},
		{"spawn on a fractional level", RuleSpawnLevel, func(t *testing.T, f obj) {
			f["respawns"] = obj{"team1": [][]float64{{15, 15, 0, 0.5}}}
		}, -1, -1, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := bridgeMap(t)
			c.edit(t, f)
			_, err := parseObj(t, f)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("want a %s validation error, got %v", c.rule, err)
			}
			if ve.Rule != c.rule || ve.Col != c.col || ve.Row != c.row || ve.Level != c.level {
				t.Fatalf("got rule %s level %d cell (%d, %d): %v; want rule %s level %d cell (%d, %d)",
					ve.Rule, ve.Level, ve.Col, ve.Row, err, c.rule, c.level, c.col, c.row)
			}
			if !strings.Contains(err.Error(), "rule "+c.rule) {
				t.Fatalf("message %q does not name the rule", err)
			}
		})
	}
}

// The unbroken map passes, and so does a slab edge that drops onto a lower
// slab instead of the ground.
func TestValidMapsPass(t *testing.T) {
	mustParse(t, bridgeMap(t))
	f := bridgeMap(t)
	// Level 2 sits over the east half of level 1's slab with an open west
	// edge: its fall lands on level 1.
	f["levels"] = obj{"1": level(t, bridgeLevel1...), "2": level(t,
		"..........",
		".....|||..",
		".....==|..",
		".....==|..",
		".....|||..",
		"..........",
		"..........")}
	m := mustParse(t, f)
	if got := m.MapLevels().LandingLevel(2, 45, 25); got != 1 {
		t.Fatalf("landing from level 2 at column 4: %d, want 1", got)
	}
}
