package snakesmatch

import (
	"math/rand/v2"
	"slices"
)

// tier is a crystal size: what it is worth and how far it reaches.
type tier struct {
	Value  int     `json:"value"`
	Radius float32 `json:"radius"`
}

// worldRules are the crystal field's and the boost's figures (the model's
// "world" block and boostDrainPerSecond in CONFIG_DATA.prediction).
type worldRules struct {
	MaxCrystals   int       `json:"maxCrystals"`
	SpawnInterval float32   `json:"spawnInterval"`
	TierWeights   []float32 `json:"tierWeights"`
	Tiers         []tier    `json:"tiers"`
	DropRatio     float32   `json:"dropRatio"`
	EdgeMargin    float32   `json:"edgeMargin"`
	StartCrystals int       `json:"startCrystals"`
	// SpawnGrace is the game's declared spawn grace (seconds); the older
	// game declares none and plays spawnGrace.
	SpawnGrace *float32 `json:"spawnGraceSeconds"`
	BoostDrain float32  `json:"-"`
}

func (w *worldRules) tier(i uint8) tier {
	if int(i) < len(w.Tiers) {
		return w.Tiers[i]
	}
	return w.Tiers[0]
}

// rollTier picks a tier by the weights.
func (w *worldRules) rollTier(rng *rand.Rand) uint8 {
	var total float32
	for _, v := range w.TierWeights {
		total += v
	}
	pick := rng.Float32() * total
	for i, v := range w.TierWeights {
		if pick < v {
			return uint8(i)
		}
		pick -= v
	}
	return uint8(len(w.TierWeights) - 1)
}

type crystal struct {
	id    uint32
	x, y  float32
	tier  uint8
	color uint8 // free-running; the client takes it modulo its palette
}

// field is the crystal field and its delta stream: the cr block carries a
// row when a crystal appears and a null row when it is eaten, and the
// whole field after a resync request (someone who has seen none of the
// deltas joined). Ids only count up.
type field struct {
	crystals []crystal // in the order they appeared
	nextID   uint32
	timer    float32
	spawned  []uint32
	removed  []uint32
	resync   bool
}

func (f *field) clear() {
	f.crystals, f.spawned, f.removed = f.crystals[:0], f.spawned[:0], f.removed[:0]
	f.timer, f.resync = 0, false
}

// tick spawns one crystal per spawn interval while the field is below its cap.
func (f *field) tick(dt float32, a *arena, rng *rand.Rand, w *worldRules) {
	if len(f.crystals) >= w.MaxCrystals {
		f.timer = 0 // refill at once when something is eaten
		return
	}
	f.timer += dt
	for f.timer >= w.SpawnInterval {
		f.timer -= w.SpawnInterval
		x, y := a.randomPoint(rng, w.EdgeMargin)
		f.insert(x, y, w.rollTier(rng), rng)
		if len(f.crystals) >= w.MaxCrystals {
			f.timer = 0
			break
		}
	}
}

// dropAt puts a crystal at an exact spot (the boost's tax, a crash's
// pile); refused once the field is full.
func (f *field) dropAt(x, y float32, t uint8, rng *rand.Rand, w *worldRules) bool {
	if len(f.crystals) >= w.MaxCrystals {
		return false
	}
	f.insert(x, y, t, rng)
	return true
}

func (f *field) insert(x, y float32, t uint8, rng *rand.Rand) {
	f.crystals = append(f.crystals, crystal{id: f.nextID, x: x, y: y, tier: t, color: uint8(rng.IntN(256))})
	f.spawned = append(f.spawned, f.nextID)
	f.nextID++
}

// takeAt eats the first crystal whose disc reaches within reach of (x, y)
// and returns its value.
func (f *field) takeAt(x, y, reach float32, w *worldRules) (int, bool) {
	for i, c := range f.crystals {
		l := reach + w.tier(c.tier).Radius
		dx, dy := c.x-x, c.y-y
		if dx*dx+dy*dy <= l*l {
			f.crystals = slices.Delete(f.crystals, i, i+1)
			f.removed = append(f.removed, c.id)
			if int(c.tier) < len(w.Tiers) {
				return w.Tiers[c.tier].Value, true
			}
			return 1, true
		}
	}
	return 0, false
}

func (f *field) find(id uint32) (crystal, bool) {
	for _, c := range f.crystals {
		if c.id == id {
			return c, true
		}
	}
	return crystal{}, false
}

// crRow is one row of the cr block; gone marks a null row.
type crRow struct {
	c    crystal
	gone bool
}

// drain appends the frame's cr rows to dst. A crystal both spawned and
// eaten since the last frame is never sent.
func (f *field) drain(dst []crRow) []crRow {
	resync := f.resync
	f.resync = false
	removed := f.removed[:0]
	for _, id := range f.removed {
		if !slices.Contains(f.spawned, id) {
			removed = append(removed, id)
		}
	}
	if resync {
		for _, c := range f.crystals {
			dst = append(dst, crRow{c: c})
		}
	} else {
		for _, id := range f.spawned {
			if c, ok := f.find(id); ok {
				dst = append(dst, crRow{c: c})
			}
		}
	}
	for _, id := range removed {
		dst = append(dst, crRow{c: crystal{id: id}, gone: true})
	}
	f.spawned, f.removed = f.spawned[:0], removed[:0]
	return dst
}
