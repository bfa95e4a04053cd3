// Package spatial is the pure geometry of a world sound: where a source sits relative to a
// listener lifted to a virtual elevation, how loud it is at that distance and how it is spread
// over two ears. It reproduces the engine's spatial model (the `parts.sounds.spatial` block) with
// plain arithmetic so that the mixer never needs a browser audio graph, and so that every number
// can be checked in a table test.
package spatial

import (
	"encoding/json"
	"fmt"
	"math"
)

// Mode is a projection profile: how the world plane maps onto the listener's axes.
type Mode uint8

const (
	// TopDown looks down on the world plane: world y is front/back, the elevation is below.
	TopDown Mode = iota
	// SideScroller looks at the plane from the side: world y is (damped) up/down.
	SideScroller
	// Cockpit looks at the plane from the side with the full vertical offset.
	Cockpit
)

func (m Mode) String() string {
	switch m {
	case SideScroller:
		return "sideScroller"
	case Cockpit:
		return "cockpit"
	default:
		return "topDown"
	}
}

// PanningModel picks how a direction becomes two ear gains.
type PanningModel uint8

const (
	// HRTF is the native approximation of the browser's HRTF panner (equal-power law on the
	// lateral angle, per-ear routing of stereo sources).
	HRTF PanningModel = iota
	// EqualPower is Web Audio's equal-power panner on the azimuth, exactly.
	EqualPower
)

func (p PanningModel) String() string {
	if p == EqualPower {
		return "equalpower"
	}
	return "HRTF"
}

// HRTFVariant chooses between the two lateral-angle formulas of the HRTF approximation.
type HRTFVariant uint8

const (
	// HRTFGeometric uses the true angle from the median plane (the default: continuous everywhere).
	HRTFGeometric HRTFVariant = iota
	// HRTFBrowser copies the browser's elevation clamp and 15° row truncation, for comparison.
	HRTFBrowser
)

// DistanceModel is one of Web Audio's distance attenuation laws.
type DistanceModel uint8

const (
	// Inverse is dref / (dref + f·(D − dref)).
	Inverse DistanceModel = iota
	// Linear falls linearly between refDistance and maxDistance.
	Linear
	// Exponential is (D / dref)^(−f).
	Exponential
)

func (d DistanceModel) String() string {
	switch d {
	case Linear:
		return "linear"
	case Exponential:
		return "exponential"
	default:
		return "inverse"
	}
}

// Config is a validated spatial block. The zero value is not meaningful; start from Default.
type Config struct {
	Mode             Mode
	VirtualElevation float64 // world units: ear height above the plane
	InnerRadius      float64 // world units: the player's own size
	VerticalFactor   float64 // sideScroller only
	Panning          PanningModel
	Variant          HRTFVariant // client setting, not part of the block
	ITD              bool        // client setting: delay the far ear under HRTF (interaural time difference)
	Distance         DistanceModel
	RefDistance      float64
	MaxDistance      float64
	RolloffFactor    float64
}

// Default is the engine's block for a game that declares none.
func Default() Config {
	return Config{
		Mode:             TopDown,
		VirtualElevation: 180,
		InnerRadius:      40,
		VerticalFactor:   0.2,
		Panning:          HRTF,
		Distance:         Inverse,
		RefDistance:      200,
		MaxDistance:      1200,
		RolloffFactor:    0.9,
	}
}

// defaultPanning is each profile's panning model when the block does not name one.
func defaultPanning(m Mode) PanningModel {
	if m == SideScroller {
		return EqualPower
	}
	return HRTF
}

// ParseConfig validates a `parts.sounds.spatial` block key by key. A missing or null block gives
// the defaults. Every invalid value falls back to its default and adds a warning; unknown keys are
// ignored. Only a block that is not a JSON object at all is reported as an error (and the defaults
// are still returned with it).
func ParseConfig(raw json.RawMessage) (Config, []string, error) {
	c := Default()
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil, nil
	}
	var block map[string]json.RawMessage
	if err := json.Unmarshal(raw, &block); err != nil {
		return c, nil, fmt.Errorf("spatial block is not an object: %w", err)
	}
	var warns []string
	warn := func(key string, v json.RawMessage, want string) {
		warns = append(warns, fmt.Sprintf("spatial.%s: invalid value %s (want %s), using the default", key, clip(v), want))
	}

	if v, ok := block["mode"]; ok {
		switch s, _ := str(v); s {
		case "topDown":
			c.Mode = TopDown
		case "sideScroller":
			c.Mode = SideScroller
		case "cockpit":
			c.Mode = Cockpit
		default:
			warn("mode", v, "topDown, sideScroller or cockpit")
		}
	}
	c.Panning = defaultPanning(c.Mode)
	if v, ok := block["panningModel"]; ok {
		switch s, _ := str(v); s {
		case "HRTF":
			c.Panning = HRTF
		case "equalpower":
			c.Panning = EqualPower
		default:
			warn("panningModel", v, "HRTF or equalpower")
		}
	}
	if v, ok := block["distanceModel"]; ok {
		switch s, _ := str(v); s {
		case "inverse":
			c.Distance = Inverse
		case "linear":
			c.Distance = Linear
		case "exponential":
			c.Distance = Exponential
		default:
			warn("distanceModel", v, "linear, inverse or exponential")
		}
	}
	nonNeg := []struct {
		key      string
		dst      *float64
		positive bool
	}{
		{"virtualElevation", &c.VirtualElevation, false},
		{"innerRadius", &c.InnerRadius, false},
		{"verticalFactor", &c.VerticalFactor, false},
		{"refDistance", &c.RefDistance, false},
		{"maxDistance", &c.MaxDistance, true},
		{"rolloffFactor", &c.RolloffFactor, false},
	}
	for _, k := range nonNeg {
		v, ok := block[k.key]
		if !ok {
			continue
		}
		f, isNum := num(v)
		switch {
		case !isNum || math.IsNaN(f) || math.IsInf(f, 0):
			warn(k.key, v, "a finite number")
		case k.positive && f <= 0:
			warn(k.key, v, "a number > 0")
		case f < 0:
			warn(k.key, v, "a number ≥ 0")
		default:
			*k.dst = f
		}
	}
	return c, warns, nil
}

func str(v json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

func num(v json.RawMessage) (float64, bool) {
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		return 0, false
	}
	return f, true
}

// clip shortens a raw value for a warning so a hostile block cannot flood the log.
func clip(v json.RawMessage) string {
	const max = 40
	if len(v) > max {
		return string(v[:max]) + "…"
	}
	return string(v)
}
