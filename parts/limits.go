package parts

import "fmt"

// Limits bound what a host's rows can make a scene hold and do. A row
// naming a new entity past them is refused: an event frame that would go
// over any of them is not applied at all, a hot sample's new entities past
// them are not created; both are counted (Scene.Refused) so the game loop
// can say so. A zero field takes DefaultLimits' value.
//
// The defaults are far above the reference games: a tanks match keeps a
// few dozen tanks, crates and shells alive, a snakes arena some hundred
// segments and apples; the heaviest scene of the render benchmarks holds
// about 1,500 entries on its main canvas.
type Limits struct {
	// EntitiesPerKey bounds the live entities of one snapshot key and part
	// class (default 4096).
	EntitiesPerKey int
	// EntitiesPerCanvas bounds the entries of one canvas's stage (default
	// 16384): entities, effects and the map's parts together.
	EntitiesPerCanvas int
	// Effects bounds the live short-lived effects of list rows (default
	// 4096).
	Effects int
	// NewPerFrame bounds the entities and effects one event frame or one
	// hot sample may create (default 1024).
	NewPerFrame int
	// FramesPerTick bounds the event frames one tick applies (default 64)
	// and RowsPerTick their rows (default 65536; the first frame of a tick
	// is applied whatever its size). The rest wait, in order, for the next
	// tick: a flood slows the world down instead of freezing it.
	FramesPerTick, RowsPerTick int
}

// DefaultLimits returns the limits the client applies.
func DefaultLimits() Limits {
	return Limits{EntitiesPerKey: 4096, EntitiesPerCanvas: 16384, Effects: 4096, NewPerFrame: 1024,
		FramesPerTick: 64, RowsPerTick: 1 << 16}
}

// WithDefaults fills the zero (or negative) fields from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	for _, f := range [...]struct {
		v *int
		d int
	}{
		{&l.EntitiesPerKey, d.EntitiesPerKey}, {&l.EntitiesPerCanvas, d.EntitiesPerCanvas},
		{&l.Effects, d.Effects}, {&l.NewPerFrame, d.NewPerFrame},
		{&l.FramesPerTick, d.FramesPerTick}, {&l.RowsPerTick, d.RowsPerTick},
	} {
		if *f.v <= 0 {
			*f.v = f.d
		}
	}
	return l
}

// Refusals count what a scene refused under its Limits.
type Refusals struct {
	Frames uint64 // event frames not applied
	Rows   uint64 // rows whose new entity was not created (those frames' included)
	Reason string // the last limit reached
}

// LimitError says which limit a frame reached.
type LimitError struct {
	What  string // "entities of key k/part", "entries on canvas c", "effects", "new entities in one frame"
	Got   int    // what the frame would have made it
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%d %s, the limit is %d", e.Got, e.What, e.Limit)
}
