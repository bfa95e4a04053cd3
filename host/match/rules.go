package match

import (
	"encoding/json"
	"fmt"
	"math"

	"vimpclient/games/tanks"
	"vimpclient/internal/jsonobj"
)

// weaponRules are the figures the match fires its two weapons with, read
// from the CONFIG_DATA it sends (prediction.weapons), so that the shots the
// clients predict (their cooldowns, fuses and ranges) are the ones the
// match fires: a 0.13 config and a 0.22 one give different weapons.
type weaponRules struct {
	w1Damage, w1Range float32
	w1FireTicks       int64
	w1Push            float32 // the hit's velocity change times the body's mass
	w2Damage          float32
	w2Radius          float32
	w2FireTicks       int64
	w2FuseMs          uint32
	w2FuseTicks       int64
	w2Size            uint32
	w2Push            float32
}

// Impulses are scaled to velocity changes of the simulated bodies: a
// hitscan hit's impulse over 100, a blast's over 20.
const (
	w1PushScale = 100
	w2PushScale = 20
)

// defaultWeapons are tanks 0.13's, the figures of a config that names none.
func defaultWeapons() weaponRules {
	return weaponRules{
		w1Damage: 40, w1Range: 1500, w1FireTicks: fireTicks(0.01), w1Push: 7500000.0 / w1PushScale,
		w2Damage: 70, w2Radius: 50, w2FireTicks: fireTicks(0.1), w2FuseMs: 300, w2FuseTicks: fuseTicks(300),
		w2Size: 8, w2Push: 2000000.0 / w2PushScale,
	}
}

// fireTicks is a weapon's fire rate (seconds between shots) in whole ticks,
// rounded up: a shot is never let out sooner than the client predicts it.
func fireTicks(seconds float64) int64 { return int64(math.Ceil(seconds*TicksPerSecond - 1e-9)) }

// fuseTicks is a bomb's fuse in whole ticks.
func fuseTicks(ms uint32) int64 { return int64(ms) * TicksPerSecond / 1000 }

// maxWeaponFigure bounds every figure a config gives a weapon.
const maxWeaponFigure = 1e8

type rawWeaponRules struct {
	FireRate  *float64 `json:"fireRate"`
	Damage    *float64 `json:"damage"`
	Range     *float64 `json:"range"`
	Radius    *float64 `json:"radius"`
	Time      *float64 `json:"time"`
	Size      *float64 `json:"size"`
	Impulse   *float64 `json:"impulseMagnitude"`
	Explosive string   `json:"type"`
}

// parseWeapons reads prediction.weapons: w1 the hitscan gun, w2 the bomb,
// each figure over its 0.13 value; a figure out of range is an error.
func parseWeapons(raw json.RawMessage) (weaponRules, error) {
	w := defaultWeapons()
	if len(raw) == 0 {
		return w, nil
	}
	members, err := jsonobj.Unique(raw, 32)
	if err != nil {
		return w, fmt.Errorf("weapons: %w", err)
	}
	for _, mb := range members {
		if mb.Name != "w1" && mb.Name != "w2" {
			continue
		}
		var r rawWeaponRules
		if err := json.Unmarshal(mb.Value, &r); err != nil {
			return w, fmt.Errorf("weapon %s: %w", mb.Name, err)
		}
		var bad error
		get := func(v *float64) (float64, bool) {
			if v == nil {
				return 0, false
			}
			if math.IsNaN(*v) || *v < 0 || *v > maxWeaponFigure {
				bad = fmt.Errorf("weapon %s: %v out of range", mb.Name, *v)
				return 0, false
			}
			return *v, true
		}
		if mb.Name == "w1" {
			if v, ok := get(r.FireRate); ok {
				w.w1FireTicks = fireTicks(v)
			}
			if v, ok := get(r.Damage); ok {
				w.w1Damage = float32(v)
			}
			if v, ok := get(r.Range); ok {
				w.w1Range = float32(v)
			}
			if v, ok := get(r.Impulse); ok {
				w.w1Push = float32(v / w1PushScale)
			}
		} else {
			if v, ok := get(r.FireRate); ok {
				w.w2FireTicks = fireTicks(v)
			}
			if v, ok := get(r.Damage); ok {
				w.w2Damage = float32(v)
			}
			if v, ok := get(r.Radius); ok {
				w.w2Radius = float32(v)
			}
			if v, ok := get(r.Time); ok {
				w.w2FuseMs = uint32(v)
				w.w2FuseTicks = fuseTicks(w.w2FuseMs)
			}
			if v, ok := get(r.Size); ok && v <= 255 {
				w.w2Size = uint32(v)
			}
			if v, ok := get(r.Impulse); ok {
				w.w2Push = float32(v / w2PushScale)
			}
		}
		if bad != nil {
			return w, bad
		}
	}
	return w, nil
}

// parseModel reads the m1 model of prediction.models: the tank the match
// steps is the one its clients predict. A config without one keeps m1's
// 0.13 figures.
func parseModel(raw json.RawMessage) (tanks.Model, error) {
	if len(raw) == 0 {
		return tanks.M1(), nil
	}
	members, err := jsonobj.Unique(raw, 16)
	if err != nil {
		return tanks.Model{}, fmt.Errorf("models: %w", err)
	}
	for _, mb := range members {
		if mb.Name == "m1" {
			m, _, err := tanks.ParseModel(mb.Value)
			if err != nil {
				return tanks.Model{}, fmt.Errorf("model m1: %w", err)
			}
			return m, nil
		}
	}
	return tanks.M1(), nil
}

// muzzleOffset is how far ahead of a tank's centre its shots start: 0.55
// of the hull's length (4.4 units for a size-2 tank), as the clients place
// their own shots.
func muzzleOffset(m *tanks.Model) float32 {
	hw, _ := m.HalfSize()
	return 0.55 * 2 * hw
}
