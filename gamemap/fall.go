package gamemap

// DefaultFallTime is the seconds a fall takes per level of height (the
// engine's mapFallTime).
const DefaultFallTime = 0.35

// FallModel is the one trajectory of a body falling off a slab edge: its
// height moves linearly from the level it left to the level it lands on,
// and the fall lasts longer the higher it is. A game adds its own rules on
// top (blocked input, damage) but takes the trajectory from here, so a
// crate and a tank fall alike on the host and in prediction.
type FallModel struct {
	// TimePerLevel is the duration of a fall of one level in seconds (a
	// fall of three levels lasts three times as long).
	TimePerLevel float32
}

// DefaultFall is the fall with DefaultFallTime.
func DefaultFall() FallModel { return FallModel{TimePerLevel: DefaultFallTime} }

// Duration is the time a fall of height levels takes.
func (f FallModel) Duration(height float32) float32 {
	if height < 0 {
		height = -height
	}
	return height * max(f.TimePerLevel, 0)
}

// ZAt is the height, in levels, elapsed seconds after leaving level from
// for level to.
func (f FallModel) ZAt(from, to, elapsed float32) float32 {
	d := f.Duration(from - to)
	t := float32(1)
	if d > 0 {
		t = min(max(elapsed/d, 0), 1)
	}
	return from + (to-from)*t
}

// ElapsedAt is the inverse of ZAt: how long a fall from level from to level
// to has lasted when the body is at height z. A client restores the phase
// of a fall from an authoritative frame, which carries only z.
func (f FallModel) ElapsedAt(from, to, z float32) float32 {
	span := from - to
	d := f.Duration(span)
	if d <= 0 || span == 0 {
		return 0
	}
	return min(max((from-z)/span, 0), 1) * d
}
