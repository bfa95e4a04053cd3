package tanks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"vimpclient/gamemap"
	"vimpclient/internal/jsonobj"
)

// CoreParams are the rules a tanks 0.22 host hands its simulation core and
// its clients (prediction.coreParams): the levels' flight rules and the
// map surfaces' meaning. A 0.13 host sends none, and the zero CoreParams
// changes nothing: falls keep the linear FallModel, surfaces are ignored.
type CoreParams struct {
	// Levels is set when the config has a levels block.
	Levels *LevelParams
	// Surfaces is set when the config has a surfaces block.
	Surfaces *SurfaceRules
	// Props are the destructible body types, by name (none: no props).
	Props []PropType
}

// LevelParams are the numbers of coreParams.levels the rules read. Absent
// numbers take the tanks game's own values (DefaultLevelParams).
type LevelParams struct {
	FallTime         float32 // seconds a fall from rest takes for one level
	ClimbGravity     float32
	ClimbSpeedLoss   float32 // climbMaxSpeedFactor
	EntryRise        float32 // maxSideEntryRise
	RampLaunchFactor float32
	MinLaunchVZ      float32 // levels/s
	MaxLaunchVZ      float32 // levels/s, 0: no cap
	JumpClearance    float32 // levels above the take-off level where walls stop counting
	// FallDamage is the health a landing costs per level of its arc's
	// height above FreeHeight, at most MaxFallDamage.
	FallDamage, FreeHeight, MaxFallDamage float32
	// Tilt is how the hull leans on a slope and in the air.
	Tilt Tilt
}

// DefaultLevelParams are the tanks game's levels numbers.
func DefaultLevelParams() LevelParams {
	return LevelParams{FallTime: 0.35, ClimbGravity: 500, ClimbSpeedLoss: 0.5, EntryRise: 0.5,
		RampLaunchFactor: 0.35, MinLaunchVZ: 0.35, MaxLaunchVZ: 3.5, JumpClearance: 0.45,
		FallDamage: 30, FreeHeight: 0.5, MaxFallDamage: 100,
		Tilt: Tilt{Gain: 2, AirGain: 0.12, Response: 12, Max: 0.6}}
}

// Apply makes r follow the params: the ramp rules, and ballistic flight
// with gravity 2/fallTime², so that a fall from rest off one level lasts
// fallTime as the linear fall did.
func (p *LevelParams) Apply(r *LevelRules) {
	r.Fall.TimePerLevel = p.FallTime
	r.ClimbGravity, r.ClimbSpeedLoss, r.EntryRise = p.ClimbGravity, p.ClimbSpeedLoss, p.EntryRise
	t := max(p.FallTime, 1e-3)
	r.Air = AirRules{On: true, Gravity: 2 / (t * t), LaunchFactor: p.RampLaunchFactor,
		MinLaunchVZ: p.MinLaunchVZ, MaxLaunchVZ: p.MaxLaunchVZ, Clearance: p.JumpClearance,
		FallDamage: p.FallDamage, FreeHeight: p.FreeHeight, MaxFallDamage: p.MaxFallDamage}
}

// Limits on coreParams: more surface types than a cell can name, or
// numbers outside these bounds, are refused.
const (
	maxSurfaceTypes = 32
	maxParamValue   = 1e6
	maxTypeName     = 64
)

// ParseCoreParams reads prediction.coreParams (absent or null: the zero
// CoreParams). Unknown members are ignored, as a newer host may add some;
// a known one that is not a finite number in its range is an error.
func ParseCoreParams(raw json.RawMessage) (CoreParams, error) {
	var out CoreParams
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return out, nil
	}
	var top struct {
		Levels   json.RawMessage `json:"levels"`
		Surfaces json.RawMessage `json:"surfaces"`
		Props    json.RawMessage `json:"props"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return CoreParams{}, fmt.Errorf("coreParams: %w", err)
	}
	if present(top.Props) {
		p, err := parsePropRules(top.Props)
		if err != nil {
			return CoreParams{}, fmt.Errorf("coreParams.props: %w", err)
		}
		out.Props = p
	}
	if present(top.Levels) {
		p, err := parseLevelParams(top.Levels)
		if err != nil {
			return CoreParams{}, fmt.Errorf("coreParams.levels: %w", err)
		}
		out.Levels = &p
	}
	if present(top.Surfaces) {
		s, err := parseSurfaceRules(top.Surfaces)
		if err != nil {
			return CoreParams{}, fmt.Errorf("coreParams.surfaces: %w", err)
		}
		out.Surfaces = s
	}
	return out, nil
}

// gameLevels reads the member name of a map's game data as an object keyed
// by level: its members, or nil when the map has no such member; malformed
// JSON, or more levels than a map may have, is an error.
func gameLevels(m *gamemap.Map, name string) ([]jsonobj.Member, error) {
	if !present(m.Game) {
		return nil, nil
	}
	var game map[string]json.RawMessage
	if err := json.Unmarshal(m.Game, &game); err != nil {
		return nil, fmt.Errorf("map game data: %w", err)
	}
	if !present(game[name]) {
		return nil, nil
	}
	levels, err := jsonobj.Members(game[name], gamemap.MaxLevels)
	if err != nil {
		return nil, fmt.Errorf("game.%s: %w", name, err)
	}
	return levels, nil
}

func present(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) != 0 && !bytes.Equal(raw, []byte("null"))
}

// num is one optional number of a params object and where it goes.
type num struct {
	name   string
	lo, hi float64
	dst    *float32
}

func readNums(raw json.RawMessage, nums []num) error {
	var vals map[string]json.RawMessage
	if err := json.Unmarshal(raw, &vals); err != nil {
		return err
	}
	for _, n := range nums {
		v, ok := vals[n.name]
		if !ok || !present(v) {
			continue
		}
		var f float64
		if err := json.Unmarshal(v, &f); err != nil {
			return fmt.Errorf("%s: %w", n.name, err)
		}
		if math.IsNaN(f) || f < n.lo || f > n.hi {
			return fmt.Errorf("%s: %v out of [%v, %v]", n.name, f, n.lo, n.hi)
		}
		*n.dst = float32(f)
	}
	return nil
}

func parseLevelParams(raw json.RawMessage) (LevelParams, error) {
	p := DefaultLevelParams()
	err := readNums(raw, []num{
		{"fallTime", 1e-3, 60, &p.FallTime},
		{"climbGravity", 0, maxParamValue, &p.ClimbGravity},
		{"climbMaxSpeedFactor", 0, 1, &p.ClimbSpeedLoss},
		{"maxSideEntryRise", 0, 8, &p.EntryRise},
		{"rampLaunchFactor", 0, 100, &p.RampLaunchFactor},
		{"minLaunchVz", 0, 1000, &p.MinLaunchVZ},
		{"maxLaunchVz", 0, 1000, &p.MaxLaunchVZ},
		{"jumpClearance", 0, 8, &p.JumpClearance},
		{"fallDamage", 0, maxParamValue, &p.FallDamage},
		{"fallDamageFreeHeight", 0, 8, &p.FreeHeight},
		{"maxFallDamage", 0, maxParamValue, &p.MaxFallDamage},
		{"tiltGain", 0, 100, &p.Tilt.Gain},
		{"tiltAirGain", 0, 100, &p.Tilt.AirGain},
		{"tiltResponse", 0, 1000, &p.Tilt.Response},
		{"tiltMax", 0, math.Pi / 2, &p.Tilt.Max},
	})
	return p, err
}

// SurfaceKind tells what a surface type does besides its multipliers.
type SurfaceKind uint8

// Surface kinds.
const (
	// SurfacePlain only scales traction, speed, grip, braking and turning.
	SurfacePlain SurfaceKind = iota
	// SurfaceConveyor moves the ground under the tracks at Belt along the
	// cell's direction.
	SurfaceConveyor
	// SurfaceBoost gives one push along the cell's direction on entry.
	SurfaceBoost
)

// SurfaceType is one entry of surfaces.types. Multipliers are 1 and
// additions 0 when absent.
type SurfaceType struct {
	Name                                     string
	Kind                                     SurfaceKind
	Accel, MaxSpeed, Drag, Grip, Brake, Turn float32
	AngularDrag                              float32
	// SlickTime > 0: leaving the surface, its traction, grip, braking and
	// turning fade back to neutral over this many seconds (oil on tracks).
	SlickTime float32
	// Belt is a conveyor's ground speed (world units/s).
	Belt float32
	// BoostDV, BoostMaxSpeed, MinEntrySpeed are a boost plate's push, the
	// speed along its arrow the push stops at, and the entry speed along
	// the arrow below which it does not fire.
	BoostDV, BoostMaxSpeed, MinEntrySpeed float32
	// BoostTime > 0: a push also holds the tank's top speed at
	// BoostSpeedFactor times its own and cancels its linear damping for
	// that many seconds.
	BoostTime, BoostSpeedFactor float32
}

// SurfaceRules is coreParams.surfaces: where the tracks are sampled, the
// yaw from the tracks' traction difference and the types by name, sorted
// by name (a cell names its type by that index).
type SurfaceRules struct {
	TrackYawGain  float32
	TrackSampleX  float32 // share of the hull's half length
	TrackSampleY  float32 // share of the hull's half width
	BodyBeltCoupl float32
	Types         []SurfaceType
}

// Type returns the index of the type named name.
func (r *SurfaceRules) Type(name string) (int, bool) {
	i := sort.Search(len(r.Types), func(i int) bool { return r.Types[i].Name >= name })
	return i, i < len(r.Types) && r.Types[i].Name == name
}

func parseSurfaceRules(raw json.RawMessage) (*SurfaceRules, error) {
	r := &SurfaceRules{TrackYawGain: 0.004, TrackSampleX: 0.6, TrackSampleY: 0.75, BodyBeltCoupl: 4}
	if err := readNums(raw, []num{
		{"trackYawGain", -1, 1, &r.TrackYawGain},
		{"trackSampleX", 0, 1, &r.TrackSampleX},
		{"trackSampleY", 0, 1, &r.TrackSampleY},
		{"bodyBeltCoupling", 0, 1000, &r.BodyBeltCoupl},
	}); err != nil {
		return nil, err
	}
	var top struct {
		Types json.RawMessage `json:"types"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	types, err := jsonobj.Unique(top.Types, maxSurfaceTypes)
	if err != nil {
		return nil, fmt.Errorf("types: %w", err)
	}
	for _, m := range types {
		if len(m.Name) == 0 || len(m.Name) > maxTypeName {
			return nil, fmt.Errorf("types: a name of %d bytes", len(m.Name))
		}
		t, err := parseSurfaceType(m.Name, m.Value)
		if err != nil {
			return nil, fmt.Errorf("types.%s: %w", m.Name, err)
		}
		r.Types = append(r.Types, t)
	}
	sort.Slice(r.Types, func(i, j int) bool { return r.Types[i].Name < r.Types[j].Name })
	return r, nil
}

func parseSurfaceType(name string, raw json.RawMessage) (SurfaceType, error) {
	t := SurfaceType{Name: name, Accel: 1, MaxSpeed: 1, Grip: 1, Brake: 1, Turn: 1}
	belt, dv, top, entry := float32(math.NaN()), float32(math.NaN()), float32(math.NaN()), float32(math.NaN())
	hold, factor := float32(math.NaN()), float32(math.NaN())
	if err := readNums(raw, []num{
		{"accel", 0, 2, &t.Accel},
		{"maxSpeed", 1e-3, 2, &t.MaxSpeed},
		{"drag", 0, 100, &t.Drag},
		{"grip", 0, 100, &t.Grip},
		{"brake", 0, 100, &t.Brake},
		{"turn", 0, 100, &t.Turn},
		{"angularDrag", -1000, 1000, &t.AngularDrag},
		{"slickTime", 0, 60, &t.SlickTime},
		{"belt", -maxParamValue, maxParamValue, &belt},
		{"boostDv", 0, maxParamValue, &dv},
		{"boostMaxSpeed", 1e-3, maxParamValue, &top},
		{"minEntrySpeed", 0, maxParamValue, &entry},
		{"boostTime", 0, 60, &hold},
		{"boostSpeedFactor", 0, 100, &factor},
	}); err != nil {
		return SurfaceType{}, err
	}
	set := func(v float32) bool { return v == v }
	switch {
	case set(belt) && set(dv):
		return SurfaceType{}, fmt.Errorf("both belt and boostDv")
	case set(belt):
		t.Kind, t.Belt = SurfaceConveyor, belt
	case set(dv):
		if !set(top) || !set(entry) {
			return SurfaceType{}, fmt.Errorf("boostDv needs boostMaxSpeed and minEntrySpeed")
		}
		t.Kind, t.BoostDV, t.BoostMaxSpeed, t.MinEntrySpeed = SurfaceBoost, dv, top, entry
		if set(hold) {
			t.BoostTime, t.BoostSpeedFactor = hold, 1
			if set(factor) {
				t.BoostSpeedFactor = factor
			}
		}
	case set(top) || set(entry) || set(hold) || set(factor):
		return SurfaceType{}, fmt.Errorf("a boost field without boostDv")
	}
	return t, nil
}

// Tilt is how a hull leans (coreParams.levels tilt*): on a slope its pitch
// (nose up positive) and roll (right side down positive) follow the grade
// along and across its heading, atan(grade·Gain); in the air its pitch
// follows the vertical speed, vz·AirGain, without roll; both at most Max,
// approached at Response per second. It only draws the hull: motion does
// not read it.
type Tilt struct {
	Gain, AirGain, Response, Max float32
}

// Target is the lean of a hull heading (c, s) (cos, sin of its angle) in
// level state lv.
func (t *Tilt) Target(lv *LevelState, c, s float32) (pitch, roll float32) {
	if lv.Airborne() {
		return clamp(lv.VZ*t.AirGain, -t.Max, t.Max), 0
	}
	along := lv.Slope[0]*c + lv.Slope[1]*s
	across := -lv.Slope[0]*s + lv.Slope[1]*c
	pitch = clamp(float32(math.Atan(float64(along*t.Gain))), -t.Max, t.Max)
	roll = clamp(float32(math.Atan(float64(across*t.Gain))), -t.Max, t.Max)
	return pitch, roll
}

// Approach moves a lean one step of dt towards its target.
func (t *Tilt) Approach(cur, target, dt float32) float32 {
	return cur + (target-cur)*min(t.Response*dt, 1)
}
