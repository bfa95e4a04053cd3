package gamemap

import "fmt"

// sheet reads the sprite sheet.
func (p *parser) sheet(v []byte) error {
	var img, frames []byte
	err := members(v, "spriteSheet", "keys", 16, func(key string, val []byte) error {
		switch key {
		case "img":
			img = val
		case "frames":
			frames = val
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !isNull(img) {
		s, err := text(img, "spriteSheet.img", p.lim.String)
		if err != nil {
			return err
		}
		if s != "" && !SafeName(s) {
			return fmt.Errorf("map data: spriteSheet.img: %q is not a plain file name", s)
		}
		p.m.Sheet = s
	}
	if isNull(frames) {
		return nil
	}
	side := p.lim.FrameSide
	return elements(frames, "spriteSheet.frames", "frames", p.lim.Frames, func(i int, e []byte) error {
		var f [4]float64
		n, err := numbers(e, "spriteSheet.frames", f[:])
		if err != nil || n != 4 {
			return fmt.Errorf("map data: spriteSheet.frames: frame %d is not [x, y, w, h]", i)
		}
		if !(abs(f[0]) <= side && abs(f[1]) <= side && f[2] >= 0 && f[2] <= side && f[3] >= 0 && f[3] <= side) {
			return outOfRange(fmt.Sprintf("spriteSheet.frames[%d]", i), max(abs(f[0]), abs(f[1]), f[2], f[3]), fmt.Sprintf("[0, %g]", side))
		}
		p.m.Frames = append(p.m.Frames, f)
		return nil
	})
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// coord checks a position or size against Limits.Coord.
func (p *parser) coord(field string, vs ...float64) error {
	for _, v := range vs {
		if abs(v) > p.lim.Coord {
			return outOfRange(field, v, fmt.Sprintf("[-%g, %g]", p.lim.Coord, p.lim.Coord))
		}
	}
	return nil
}

// bodies reads physicsDynamic.
func (p *parser) bodies(v []byte) error {
	count := len(p.m.Levels)
	return elements(v, "physicsDynamic", "bodies", p.lim.Bodies, func(i int, e []byte) error {
		field := fmt.Sprintf("physicsDynamic[%d]", i)
		b := Body{Layer: DefaultBodyLayer, AngularDamping: DefaultAngularDamping}
		hasPos := false
		err := members(e, field, "keys", 64, func(key string, val []byte) error {
			var err error
			f := field + "." + key
			switch key {
			case "position":
				var pos [2]float64
				var n int
				if n, err = numbers(val, f, pos[:]); err == nil && n != 2 {
					err = fmt.Errorf("map data: %s: not [x, y]", f)
				}
				b.X, b.Y, hasPos = pos[0], pos[1], true
			case "angle":
				b.AngleDeg, err = number(val, f)
			case "width":
				b.Width, err = number(val, f)
			case "height":
				b.Height, err = number(val, f)
			case "density":
				b.Density, err = number(val, f)
			case "linearDamping":
				b.LinearDamping, err = number(val, f)
			case "angularDamping":
				b.AngularDamping, err = number(val, f)
			case "img":
				if b.Img, err = text(val, f, p.lim.String); err == nil && b.Img != "" && !SafeName(b.Img) {
					err = fmt.Errorf("map data: %s: %q is not a plain file name", f, b.Img)
				}
			case "layer":
				if !isNull(val) {
					b.Layer, err = integer(val, f)
				}
			case "level":
				b.Level, err = integer(val, f)
			case "game":
				b.Game, err = p.opaque(val, f)
			}
			return err
		})
		if err != nil {
			return err
		}
		switch {
		case !hasPos:
			return fmt.Errorf("map data: %s: position missing", field)
		case !(b.Width > 0 && b.Height > 0):
			return fmt.Errorf("map data: %s: width and height must be greater than 0", field)
		case b.LinearDamping < 0 || b.AngularDamping < 0:
			return fmt.Errorf("map data: %s: damping must not be negative", field)
		case b.Level < 0 || b.Level >= count:
			return &ValidationError{Rule: RuleBodyLevel, Level: b.Level, Col: -1, Row: -1,
				Msg: fmt.Sprintf("%s rests on level %d; the map has levels 0..%d", field, b.Level, count-1)}
		}
		if err := p.coord(field, b.X, b.Y, b.Width, b.Height, b.AngleDeg, b.Density, b.LinearDamping, b.AngularDamping); err != nil {
			return err
		}
		p.m.Dynamic = append(p.m.Dynamic, b)
		return nil
	})
}

// respawns reads the teams' spawn points: [x, y, angleDeg] or
// [x, y, angleDeg, level].
func (p *parser) respawns(v []byte) error {
	count := len(p.m.Levels)
	return members(v, "respawns", "teams", p.lim.Teams, func(team string, val []byte) error {
		if len(team) > p.lim.String {
			return overLimit("respawns", "bytes in a team name", len(team), p.lim.String)
		}
		field := "respawns." + team
		t := Team{Name: team}
		err := elements(val, field, "points", p.lim.Spawns, func(i int, e []byte) error {
			var f [4]float64
			n, err := numbers(e, field, f[:])
			if err != nil || n < 3 {
				return fmt.Errorf("map data: %s[%d]: not [x, y, angle] or [x, y, angle, level]", field, i)
			}
			if err := p.coord(fmt.Sprintf("%s[%d]", field, i), f[0], f[1], f[2]); err != nil {
				return err
			}
			s := Spawn{X: f[0], Y: f[1], AngleDeg: f[2]}
			if n == 4 {
				if f[3] != float64(int(f[3])) || f[3] < 0 || int(f[3]) >= count {
					return &ValidationError{Rule: RuleSpawnLevel, Level: -1, Col: -1, Row: -1,
						Msg: fmt.Sprintf("%s[%d] names level %g; the map has levels 0..%d", field, i, f[3], count-1)}
				}
				s.Level, s.HasLevel = int(f[3]), true
			}
			t.Spawns = append(t.Spawns, s)
			return nil
		})
		if err != nil {
			return err
		}
		for i := range p.m.Respawns {
			if p.m.Respawns[i].Name == team {
				p.m.Respawns[i].Spawns = t.Spawns
				return nil
			}
		}
		p.m.Respawns = append(p.m.Respawns, t)
		return nil
	})
}

// opaque keeps game data as declared: an object, or nothing.
func (p *parser) opaque(v []byte, field string) ([]byte, error) {
	if isNull(v) {
		return nil, nil
	}
	if v[0] != '{' {
		return nil, fmt.Errorf("map data: %s: game data must be an object", field)
	}
	if len(v) > p.lim.GameBytes {
		return nil, overLimit(field, "bytes", len(v), p.lim.GameBytes)
	}
	return append([]byte(nil), v...), nil
}
