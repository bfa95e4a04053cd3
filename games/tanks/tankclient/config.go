package tankclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"vimpclient/games/tanks"
	"vimpclient/internal/jsonobj"
	"vimpclient/predict"
)

// Weapon is one entry of prediction.weapons as the shot predictor uses it.
type Weapon struct {
	Name        string
	Explosive   bool    // type "explosive" (bomb); otherwise hitscan
	FireRate    float64 // seconds between shots
	Consumption int
	Range       float32 // hitscan
	Size        float32 // explosive: side of the bomb
	TimeMs      float32 // explosive: fuse
}

// ModelConfig is one entry of prediction.models.
type ModelConfig struct {
	Name          string
	CurrentWeapon string
	Motion        tanks.Model
}

// Config is CONFIG_DATA.prediction for tanks: the generic part, the models,
// the weapons in their configured order (the order weapon cycling uses) and
// the rules of a layered map's levels (a fall takes mapFallTime per level,
// gamemap.DefaultFallTime when the host does not say).
type Config struct {
	Predict predict.Config
	Models  []ModelConfig
	Weapons []Weapon
	Levels  tanks.LevelRules
	// Core is prediction.coreParams (tanks 0.22): its levels block is
	// applied to Levels, its surfaces are read against each map.
	Core tanks.CoreParams
}

// maxFallTime bounds mapFallTime: a fall of one level slower than this is
// not a game's.
const maxFallTime = 60

// Limits on the tables: more entries than any real game has are refused.
const (
	maxModels  = 16
	maxWeapons = 32
)

type rawWeapon struct {
	Type        string   `json:"type"`
	FireRate    *float64 `json:"fireRate"`
	Consumption *float64 `json:"consumption"`
	Range       *float64 `json:"range"`
	Size        *float64 `json:"size"`
	Time        *float64 `json:"time"`
}

// ParseConfig reads CONFIG_DATA.prediction. Motion constants a model leaves
// out take the m1 values; a non-finite number is an error.
func ParseConfig(raw []byte) (Config, error) {
	pc, err := predict.ParseConfig(raw)
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Predict: pc, Levels: tanks.DefaultLevelRules()}
	var top struct {
		Models      json.RawMessage `json:"models"`
		Weapons     json.RawMessage `json:"weapons"`
		MapFallTime *float64        `json:"mapFallTime"`
		CoreParams  json.RawMessage `json:"coreParams"`
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return cfg, nil
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return Config{}, fmt.Errorf("tanks prediction config: %w", err)
	}
	if v := top.MapFallTime; v != nil {
		if !finiteIn(*v, 0, maxFallTime) {
			return Config{}, fmt.Errorf("tanks prediction config: mapFallTime %v s out of [0, %d]", *v, maxFallTime)
		}
		cfg.Levels.Fall.TimePerLevel = float32(*v)
	}
	core, err := tanks.ParseCoreParams(top.CoreParams)
	if err != nil {
		return Config{}, fmt.Errorf("tanks prediction config: %w", err)
	}
	cfg.Core = core
	if core.Levels != nil {
		core.Levels.Apply(&cfg.Levels)
	}
	models, err := jsonobj.Unique(top.Models, maxModels)
	if err != nil {
		return Config{}, fmt.Errorf("tanks prediction config: models: %w", err)
	}
	for _, m := range models {
		motion, weapon, err := tanks.ParseModel(m.Value)
		if err != nil {
			return Config{}, fmt.Errorf("tanks prediction config: model %q: %w", m.Name, err)
		}
		cfg.Models = append(cfg.Models, ModelConfig{Name: m.Name, CurrentWeapon: weapon, Motion: motion})
	}
	weapons, err := jsonobj.Unique(top.Weapons, maxWeapons)
	if err != nil {
		return Config{}, fmt.Errorf("tanks prediction config: weapons: %w", err)
	}
	for _, w := range weapons {
		var rw rawWeapon
		if err := json.Unmarshal(w.Value, &rw); err != nil {
			return Config{}, fmt.Errorf("tanks prediction config: weapon %q: %w", w.Name, err)
		}
		wp := Weapon{Name: w.Name, Explosive: rw.Type == "explosive", Consumption: 1, Range: 1500, Size: 8, TimeMs: 300}
		for _, f := range []struct {
			v   *float64
			set func(float64)
		}{
			{rw.FireRate, func(v float64) { wp.FireRate = v }},
			{rw.Consumption, func(v float64) { wp.Consumption = int(v) }},
			{rw.Range, func(v float64) { wp.Range = float32(v) }},
			{rw.Size, func(v float64) { wp.Size = float32(v) }},
			{rw.Time, func(v float64) { wp.TimeMs = float32(v) }},
		} {
			if f.v == nil {
				continue
			}
			if !finiteIn(*f.v, 0, 1e7) {
				return Config{}, fmt.Errorf("tanks prediction config: weapon %q: value %v out of range", w.Name, *f.v)
			}
			f.set(*f.v)
		}
		cfg.Weapons = append(cfg.Weapons, wp)
	}
	return cfg, nil
}

func finiteIn(v, lo, hi float64) bool { return !math.IsNaN(v) && v >= lo && v <= hi }
