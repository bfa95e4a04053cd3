// Package predict is the game-independent half of local prediction: the
// key rules of CONFIG_DATA prediction.playerKeys, the input history keyed by
// the wire seq, the fixed-step accumulator, rewind-and-replay on each
// authoritative player block (the seed rule with the time-based fallback),
// the visual error with its decay and snap, the resets, the divergence
// detector and the error statistics of the headless summary. The physics
// belong to the game, which implements Model.
//
// Deliberate deviations from the engine, which rewinds to the newest
// authoritative state and replays little more than nothing: the lead clock
// (the replay's time base follows the least delayed frames, not their
// average), and the input lead (the replay runs ahead of that state by the
// time the host takes to apply this client's inputs, estimated from its
// acknowledgements, so a key the host has not applied yet keeps its effect
// through every reconciliation). Both change where the replay ends and
// where it places inputs, never the motion: host and predictor step the
// same code, and the time-aligned error still compares the prediction with
// the host's state at the same server time.
package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// Engine constants of the visual error and the history.
const (
	DefaultStepMs   = 1000.0 / 120
	HistoryMaxAgeMs = 2000.0
	AccumulatorCap  = 100.0 // ms
	ErrorDecayRate  = 10.0  // per second
	SnapDistance    = 100.0 // world units, own actor
	// HistoryCap bounds the input history however fast keys arrive; the
	// oldest entry folds into the base input when it is full.
	HistoryCap = 256
	// MaxKeys bounds playerKeys: a mask has 32 bits.
	MaxKeys = 64
	// Step bounds: a step below 1 ms or above 1 s is not a game's step.
	minStepMs = 1
	maxStepMs = 1000
)

// KeyBit is one playerKeys entry: its bit and whether it is a one-shot key
// (type 1, consumed by exactly one step) rather than a held key (type 0).
type KeyBit struct {
	Bit     uint32
	OneShot bool
}

// Config is the generic part of CONFIG_DATA.prediction.
type Config struct {
	// StepMs is prediction.timeStep, the fixed step in milliseconds.
	StepMs float64
	// Keys maps a key command name to its bit.
	Keys map[string]KeyBit
}

// StepSeconds is the step the physics use: float32(stepMs / 1000).
func (c *Config) StepSeconds() float32 { return float32(c.StepMs / 1000) }

type rawKey struct {
	Key  *float64 `json:"key"`
	Type *float64 `json:"type"`
}

type rawConfig struct {
	TimeStep   *float64                   `json:"timeStep"`
	PlayerKeys map[string]json.RawMessage `json:"playerKeys"`
}

// ParseConfig reads the CONFIG_DATA "prediction" object. A missing timeStep
// takes the engine default (1000/120 ms); a missing playerKeys yields a
// predictor that records no input. Every other irregularity is an error.
func ParseConfig(raw []byte) (Config, error) {
	cfg := Config{StepMs: DefaultStepMs, Keys: map[string]KeyBit{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return cfg, nil
	}
	var rc rawConfig
	if err := json.Unmarshal(raw, &rc); err != nil {
		return Config{}, fmt.Errorf("prediction config: %w", err)
	}
	if rc.TimeStep != nil {
		v := *rc.TimeStep
		if math.IsNaN(v) || v < minStepMs || v > maxStepMs {
			return Config{}, fmt.Errorf("prediction config: timeStep %v ms out of [%d, %d]", v, minStepMs, maxStepMs)
		}
		cfg.StepMs = v
	}
	if len(rc.PlayerKeys) > MaxKeys {
		return Config{}, fmt.Errorf("prediction config: %d playerKeys, at most %d", len(rc.PlayerKeys), MaxKeys)
	}
	for name, r := range rc.PlayerKeys {
		var rk rawKey
		if err := json.Unmarshal(r, &rk); err != nil {
			return Config{}, fmt.Errorf("prediction config: playerKeys %q: %w", name, err)
		}
		if rk.Key == nil {
			return Config{}, fmt.Errorf("prediction config: playerKeys %q has no key bit", name)
		}
		b := *rk.Key
		if b != math.Trunc(b) || b < 1 || b > math.MaxUint32 {
			return Config{}, fmt.Errorf("prediction config: playerKeys %q: key %v is not a bit mask", name, b)
		}
		kb := KeyBit{Bit: uint32(b)}
		if rk.Type != nil {
			switch *rk.Type {
			case 0:
			case 1:
				kb.OneShot = true
			default:
				return Config{}, fmt.Errorf("prediction config: playerKeys %q: type %v is neither 0 nor 1", name, *rk.Type)
			}
		}
		cfg.Keys[name] = kb
	}
	return cfg, nil
}
