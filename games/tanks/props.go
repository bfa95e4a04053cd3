package tanks

import (
	"encoding/json"
	"fmt"
	"sort"

	"vimpclient/gamemap"
	"vimpclient/internal/jsonobj"
)

// The state byte of a prop in the map dynamics rows (the engine's state
// role): intact, damaged, destroyed.
const (
	PropIntact    = 0
	PropDamaged   = 1
	PropDestroyed = 2
)

// Debris reports whether a body in state is a destroyed prop's debris: it
// stays where it broke, but nothing collides with it and shots pass it.
func Debris(state float32) bool { return state >= PropDestroyed }

// PropType is one entry of coreParams.props.
type PropType struct {
	Name string
	HP   float32
	// DamagedAt is the share of HP below which the prop shows damage (0:
	// no such stage).
	DamagedAt float32
	// BulletFactor and BlastFactor scale a shot's and a blast's damage.
	BulletFactor, BlastFactor float32
}

// maxPropTypes bounds coreParams.props.
const maxPropTypes = 32

func parsePropRules(raw json.RawMessage) ([]PropType, error) {
	ms, err := jsonobj.Unique(raw, maxPropTypes)
	if err != nil {
		return nil, err
	}
	out := make([]PropType, 0, len(ms))
	for _, m := range ms {
		if len(m.Name) == 0 || len(m.Name) > maxTypeName {
			return nil, fmt.Errorf("a name of %d bytes", len(m.Name))
		}
		p := PropType{Name: m.Name, BulletFactor: 1, BlastFactor: 1}
		hp := float32(-1)
		if err := readNums(m.Value, []num{
			{"hp", 0, maxParamValue, &hp},
			{"damagedAt", 0, 1, &p.DamagedAt},
			{"bulletFactor", 0, 1000, &p.BulletFactor},
			{"blastFactor", 0, 1000, &p.BlastFactor},
		}); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		if !(hp > 0) {
			return nil, fmt.Errorf("%s: no hp", m.Name)
		}
		p.HP = hp
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Props is the destructible bodies of a map: the dynamic bodies whose game
// data names a prop type (game.prop), by body index, with their hit points.
// The host damages them and sends each one's state byte; a client reads
// the byte (Debris).
type Props struct {
	types []PropType
	hp    []float32 // by body index; < 0: not a prop
	kind  []int
	state []uint8
}

// NewProps reads the props of a map's dynamic bodies under types (nil when
// the map has none or there are no types). A body naming an unknown type
// is not a prop.
func NewProps(m *gamemap.Map, types []PropType) *Props {
	if m == nil || len(types) == 0 {
		return nil
	}
	p := &Props{types: types, hp: make([]float32, len(m.Dynamic)), kind: make([]int, len(m.Dynamic)), state: make([]uint8, len(m.Dynamic))}
	any := false
	for i, b := range m.Dynamic {
		p.hp[i] = -1
		var g struct {
			Prop string `json:"prop"`
		}
		if !present(b.Game) || json.Unmarshal(b.Game, &g) != nil || g.Prop == "" {
			continue
		}
		k := sort.Search(len(types), func(j int) bool { return types[j].Name >= g.Prop })
		if k == len(types) || types[k].Name != g.Prop {
			continue
		}
		p.hp[i], p.kind[i], any = types[k].HP, k, true
	}
	if !any {
		return nil
	}
	return p
}

// State is body i's state byte (PropIntact for a body that is not a prop).
func (p *Props) State(i int) uint8 {
	if p == nil || i < 0 || i >= len(p.state) {
		return PropIntact
	}
	return p.state[i]
}

// Destroyed reports whether body i is debris.
func (p *Props) Destroyed(i int) bool { return p.State(i) == PropDestroyed }

// Damage hurts body i by amount, scaled by the type's BulletFactor (blast
// false) or BlastFactor: it is damaged once its hit points fall below
// DamagedAt of the whole, destroyed at zero. It returns the state after.
// A body that is not a prop, or already debris, takes nothing.
func (p *Props) Damage(i int, amount float32, blast bool) uint8 {
	if p == nil || i < 0 || i >= len(p.hp) || p.hp[i] < 0 || p.state[i] == PropDestroyed {
		return p.State(i)
	}
	t := &p.types[p.kind[i]]
	f := t.BulletFactor
	if blast {
		f = t.BlastFactor
	}
	if d := amount * f; d > 0 {
		p.hp[i] = max(p.hp[i]-d, 0)
	}
	switch {
	case p.hp[i] <= 0:
		p.state[i] = PropDestroyed
	case t.DamagedAt > 0 && p.hp[i] < t.HP*t.DamagedAt:
		p.state[i] = PropDamaged
	}
	return p.state[i]
}
