package gamemap

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
)

// Parse reads MAP_DATA under DefaultLimits.
func Parse(b []byte) (*Map, error) { return ParseLimits(b, DefaultLimits()) }

// ParseLimits reads MAP_DATA. It returns a *LimitError for a map beyond
// lim, a *ValidationError for a map that breaks a layered-map rule, and a
// plain error for anything else it cannot read; unknown keys are ignored.
// It allocates nothing that lim does not bound.
func ParseLimits(b []byte, lim Limits) (*Map, error) {
	lim.Levels = min(max(lim.Levels, 1), MaxLevels)
	if len(b) > lim.Bytes {
		return nil, overLimit("MAP_DATA", "bytes", len(b), lim.Bytes)
	}
	if !json.Valid(b) {
		return nil, errors.New("map data: not valid JSON")
	}
	p := &parser{lim: lim, m: &Map{Scale: DefaultScale}}
	if err := p.top(b); err != nil {
		return nil, err
	}
	return p.m, nil
}

type parser struct {
	lim   Limits
	m     *Map
	cells int // grid cells of all levels so far
}

// topFields are the raw values of the keys MAP_DATA may carry.
type topFields struct {
	setID, scale, step, grid, layers, volumes, levelHeight, levels, ramps,
	sheet, static, dynamic, respawns, game []byte
}

func (p *parser) top(b []byte) error {
	var f topFields
	slots := map[string]*[]byte{
		"setId": &f.setID, "scale": &f.scale, "step": &f.step, "map": &f.grid,
		"layers": &f.layers, "volumes": &f.volumes, "levelHeight": &f.levelHeight,
		"levels": &f.levels, "ramps": &f.ramps, "spriteSheet": &f.sheet,
		"physicsStatic": &f.static, "physicsDynamic": &f.dynamic,
		"respawns": &f.respawns, "game": &f.game,
	}
	err := members(b, "MAP_DATA", "keys", 4096, func(key string, v []byte) error {
		if s := slots[key]; s != nil {
			*s = v // a repeated key: the last one wins, as in encoding/json
		}
		return nil
	})
	if err != nil {
		return err
	}
	m, lim := p.m, p.lim
	if !isNull(f.setID) {
		if m.SetID, err = text(f.setID, "setId", lim.String); err != nil {
			return err
		}
	}
	if !isNull(f.scale) {
		if m.Scale, err = number(f.scale, "scale"); err != nil {
			return err
		}
	}
	if !(m.Scale > lim.MinScale && m.Scale <= lim.MaxScale) {
		return outOfRange("scale", m.Scale, fmt.Sprintf("(%g, %g]", lim.MinScale, lim.MaxScale))
	}
	if isNull(f.step) {
		return errors.New("map data: step: missing")
	}
	if m.Step, err = number(f.step, "step"); err != nil {
		return err
	}
	if !(m.Step > lim.MinStep && m.Step <= lim.MaxStep) {
		return outOfRange("step", m.Step, fmt.Sprintf("(%g, %g]", lim.MinStep, lim.MaxStep))
	}
	if c := m.CellWorld(); !(c >= lim.MinCell && c <= lim.MaxCell) {
		return outOfRange("step×scale", c, fmt.Sprintf("[%g, %g]", lim.MinCell, lim.MaxCell))
	}
	ground, err := p.grid(f.grid, "map", 0, -1, -1)
	if err != nil {
		return err
	}
	if m.Static, err = intList(f.static, "physicsStatic", lim.TileList); err != nil {
		return err
	}
	ground.Solid = m.Static
	if ground.Layers, err = p.layers(f.layers, "layers"); err != nil {
		return err
	}
	if err := p.volumes(f.volumes, "volumes", 0, ground.Layers); err != nil {
		return err
	}
	m.Levels = append(m.Levels, ground)
	m.LevelHeight = m.CellWorld()
	if !isNull(f.levelHeight) {
		h, err := number(f.levelHeight, "levelHeight")
		if err != nil || !(h > 0) {
			return &ValidationError{Rule: RuleLevelHeight, Level: -1, Col: -1, Row: -1,
				Msg: "levelHeight must be a finite number greater than 0"}
		}
		m.LevelHeight = h
	}
	if !isNull(f.levels) {
		if err := p.levels(f.levels); err != nil {
			return err
		}
	}
	if !isNull(f.ramps) {
		if err := p.ramps(f.ramps); err != nil {
			return err
		}
	}
	if !isNull(f.sheet) {
		if err := p.sheet(f.sheet); err != nil {
			return err
		}
	}
	if !isNull(f.dynamic) {
		if err := p.bodies(f.dynamic); err != nil {
			return err
		}
	}
	if !isNull(f.respawns) {
		if err := p.respawns(f.respawns); err != nil {
			return err
		}
	}
	if m.Game, err = p.opaque(f.game, "game"); err != nil {
		return err
	}
	if m.geo, err = newMapLevels(m, lim); err != nil {
		return err
	}
	return validateGeometry(m)
}

func outOfRange(field string, got float64, want string) error {
	return &LimitError{Field: field, Got: strconv.FormatFloat(got, 'g', -1, 64), Limit: want}
}

// grid reads a level grid. Level 0 sets the dimensions every other level
// must have (cols, rows < 0 for the ground). The grid is counted and checked
// in full before its one slice is allocated.
func (p *parser) grid(v []byte, field string, level, cols, rows int) (Level, error) {
	lv := Level{Index: level}
	mismatch := func(msg string, a ...any) error {
		return &ValidationError{Rule: RuleLevelGrid, Level: level, Col: -1, Row: -1, Msg: fmt.Sprintf(msg, a...)}
	}
	if isNull(v) {
		if level > 0 && rows > 0 {
			return lv, mismatch("level %d has no grid, map has %d rows", level, rows)
		}
		return lv, nil
	}
	maxRows, maxCols := p.lim.Rows, p.lim.Cols
	if level > 0 {
		maxRows, maxCols = rows+1, cols+1
	}
	nCols := -1
	n, err := p.countRows(v, field, maxRows, maxCols, func(y, rowCells int) error {
		if nCols < 0 {
			nCols = rowCells
		}
		switch {
		case level > 0 && rowCells != cols:
			return mismatch("level %d row %d has %d cells, map has %d", level, y, rowCells, cols)
		case rowCells != nCols:
			return fmt.Errorf("map data: %s: row %d has %d cells, row 0 has %d (a grid is rectangular)", field, y, rowCells, nCols)
		}
		if (y+1)*nCols > p.lim.Cells {
			return &LimitError{Field: field, What: "cells", Got: fmt.Sprintf("%d or more", (y+1)*nCols), Limit: fmt.Sprint(p.lim.Cells)}
		}
		return nil
	})
	var le *LimitError
	if level > 0 && errors.As(err, &le) {
		return lv, mismatch("level %d grid is larger than the map's %d×%d", level, cols, rows)
	}
	if err != nil {
		return lv, err
	}
	if level > 0 && n != rows {
		return lv, mismatch("level %d grid has %d rows, map has %d", level, n, rows)
	}
	lv.Rows, lv.Cols = n, max(nCols, 0)
	cells := lv.Rows * lv.Cols
	if p.cells+cells > p.lim.TotalCells {
		return lv, overLimit(field, "cells of all levels", p.cells+cells, p.lim.TotalCells)
	}
	p.cells += cells
	lv.Grid = make([]int32, cells)
	_, err = gridRows(v, field, lv.Rows, func(y, start int) (int, error) {
		_, end, err := intArrayAt(v, start, field, "columns", lv.Cols, lv.Grid[y*lv.Cols:(y+1)*lv.Cols])
		return end, err
	})
	return lv, err
}

// countRows walks a grid's rows, counting the cells of each without storing
// them, and stops at the first row check fails.
func (p *parser) countRows(v []byte, field string, maxRows, maxCols int, check func(y, cells int) error) (int, error) {
	return gridRows(v, field, maxRows, func(y, start int) (int, error) {
		cells, end, err := intArrayAt(v, start, field, "columns", maxCols, nil)
		if err != nil {
			return end, err
		}
		return end, check(y, cells)
	})
}

// layers reads a layers object keeping its key order; a repeated key keeps
// its first position and its last tiles.
func (p *parser) layers(v []byte, field string) ([]Layer, error) {
	if isNull(v) {
		return nil, nil
	}
	var out []Layer
	err := members(v, field, "layers", p.lim.Layers, func(key string, val []byte) error {
		if len(key) > p.lim.String {
			return overLimit(field, "bytes in a key", len(key), p.lim.String)
		}
		tiles, err := intList(val, field+"."+key, p.lim.TileList)
		if err != nil {
			return err
		}
		for i := range out {
			if out[i].Key == key {
				out[i].Tiles = tiles
				return nil
			}
		}
		z, err := strconv.Atoi(key)
		if err != nil {
			z = 0
		}
		out = append(out, Layer{Key: key, Z: z, Tiles: tiles})
		return nil
	})
	return out, err
}

// volumes reads a volumes object onto the level's layers.
func (p *parser) volumes(v []byte, field string, level int, layers []Layer) error {
	if isNull(v) {
		return nil
	}
	return members(v, field, "volumes", p.lim.Layers, func(key string, val []byte) error {
		var layer *Layer
		for i := range layers {
			if layers[i].Key == key {
				layer = &layers[i]
			}
		}
		if layer == nil {
			return &ValidationError{Rule: RuleVolumeLayer, Level: level, Col: -1, Row: -1,
				Msg: fmt.Sprintf("volumes names layer %q, which is not a layers key of level %d", key, level)}
		}
		h, err := number(val, field+"."+key)
		if err != nil || !(h > 0 && h <= MaxLevels) {
			return &ValidationError{Rule: RuleVolumeHeight, Level: level, Col: -1, Row: -1,
				Msg: fmt.Sprintf("volume of layer %q must be a height in (0, %d] levels", key, MaxLevels)}
		}
		layer.Volume = h
		return nil
	})
}

// levels reads the overhead levels, keyed "1".."7" without gaps.
func (p *parser) levels(v []byte) error {
	type raw struct {
		n int
		v []byte
	}
	var raws []raw
	err := members(v, "levels", "overhead levels", p.lim.Levels-1, func(key string, val []byte) error {
		n, err := strconv.Atoi(key)
		switch {
		case err == nil && n == 0:
			return &ValidationError{Rule: RuleLevelKeys, Level: 0, Col: -1, Row: -1,
				Msg: "level 0 lives in map, physicsStatic and layers, not in levels"}
		case err != nil || n < 1 || n >= MaxLevels:
			return &ValidationError{Rule: RuleLevelKeys, Level: -1, Col: -1, Row: -1,
				Msg: fmt.Sprintf("levels key %.40q is not a level number 1..%d", key, MaxLevels-1)}
		}
		raws = append(raws, raw{n, val})
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(raws, func(i, j int) bool { return raws[i].n < raws[j].n })
	for i, r := range raws {
		if r.n != i+1 {
			return &ValidationError{Rule: RuleLevelKeys, Level: r.n, Col: -1, Row: -1,
				Msg: fmt.Sprintf("levels must run from 1 without gaps or repeats, got %d at position %d", r.n, i+1)}
		}
	}
	g := &p.m.Levels[0]
	for _, r := range raws {
		field := "levels." + strconv.Itoa(r.n)
		var grid, floor, walls, layers, volumes []byte
		err := members(r.v, field, "keys", 64, func(key string, val []byte) error {
			switch key {
			case "map":
				grid = val
			case "floor":
				floor = val
			case "walls":
				walls = val
			case "layers":
				layers = val
			case "volumes":
				volumes = val
			}
			return nil
		})
		if err != nil {
			return err
		}
		lv, err := p.grid(grid, field+".map", r.n, g.Cols, g.Rows)
		if err != nil {
			return err
		}
		if lv.Floor, err = intList(floor, field+".floor", p.lim.TileList); err != nil {
			return err
		}
		if lv.Solid, err = intList(walls, field+".walls", p.lim.TileList); err != nil {
			return err
		}
		for _, t := range lv.Solid {
			if !Contains(lv.Floor, t) {
				return &ValidationError{Rule: RuleRailingFloor, Level: r.n, Col: -1, Row: -1,
					Msg: fmt.Sprintf("wall tile %d is not part of floor: a railing must stand on the slab", t)}
			}
		}
		if lv.Layers, err = p.layers(layers, field+".layers"); err != nil {
			return err
		}
		if err := p.volumes(volumes, field+".volumes", r.n, lv.Layers); err != nil {
			return err
		}
		p.m.Levels = append(p.m.Levels, lv)
	}
	return nil
}

// ramps reads the ramp declarations.
func (p *parser) ramps(v []byte) error {
	count := len(p.m.Levels)
	return elements(v, "ramps", "declarations", p.lim.Ramps, func(i int, e []byte) error {
		field := fmt.Sprintf("ramps[%d]", i)
		r := Ramp{To: 1}
		hasTile, hasDir := false, false
		err := members(e, field, "keys", 16, func(key string, val []byte) error {
			var err error
			switch key {
			case "tile":
				r.Tile, err = integer(val, field+".tile")
				hasTile = true
			case "dir":
				var d string
				if d, err = text(val, field+".dir", 8); err == nil {
					r.Dir, err = parseDir(d, field)
					hasDir = true
				}
			case "from":
				r.From, err = integer(val, field+".from")
			case "to":
				r.To, err = integer(val, field+".to")
			}
			return err
		})
		if err != nil {
			return err
		}
		if !hasTile || !hasDir {
			return fmt.Errorf("map data: %s: a ramp needs tile and dir", field)
		}
		if r.From == r.To || r.From < 0 || r.To < 0 || r.From >= count || r.To >= count {
			return &ValidationError{Rule: RuleRampLevels, Level: r.From, Col: -1, Row: -1,
				Msg: fmt.Sprintf("ramp %d climbs from level %d to %d; both must differ and lie in 0..%d", i, r.From, r.To, count-1)}
		}
		found := false
		for _, t := range p.m.Levels[r.From].Grid {
			if int(t) == r.Tile {
				found = true
				break
			}
		}
		if !found {
			return &ValidationError{Rule: RuleRampTile, Level: r.From, Col: -1, Row: -1,
				Msg: fmt.Sprintf("ramp %d tile %d is missing from the level %d grid", i, r.Tile, r.From)}
		}
		p.m.Ramps = append(p.m.Ramps, r)
		return nil
	})
}

func parseDir(s, field string) (Dir, error) {
	switch s {
	case "north":
		return North, nil
	case "south":
		return South, nil
	case "west":
		return West, nil
	case "east":
		return East, nil
	}
	return 0, fmt.Errorf("map data: %s.dir: %q is not north, south, west or east", field, s)
}
