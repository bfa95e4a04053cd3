package tanks

import (
	"encoding/json"
	"fmt"
	"math"
)

// rawModel is a model of CONFIG_DATA.prediction.models as the game writes
// it.
type rawModel struct {
	CurrentWeapon       string   `json:"currentWeapon"`
	Size                *float64 `json:"size"`
	AccelerationFactor  *float64 `json:"accelerationFactor"`
	BrakingFactor       *float64 `json:"brakingFactor"`
	MaxForwardSpeed     *float64 `json:"maxForwardSpeed"`
	MaxReverseSpeed     *float64 `json:"maxReverseSpeed"`
	BaseTurnTorque      *float64 `json:"baseTurnTorqueFactor"`
	LateralGrip         *float64 `json:"lateralGrip"`
	TurnSpeedThreshold  *float64 `json:"turnSpeedThreshold"`
	BaseTurnFactorRatio *float64 `json:"baseTurnFactorRatio"`
	ReverseTurn         *float64 `json:"reverseTurnMultiplier"`
	ThrottleUp          *float64 `json:"throttleIncreaseRate"`
	ThrottleDown        *float64 `json:"throttleDecreaseRate"`
	Strain              *float64 `json:"strainFactor"`
	MaxGunAngle         *float64 `json:"maxGunAngle"`
	GunSpeed            *float64 `json:"gunRotationSpeed"`
	GunCenterSpeed      *float64 `json:"gunCenterSpeed"`
	BarrelHeight        *float64 `json:"barrelHeight"`
	TurretTop           *float64 `json:"turretTop"`
	Damping             *struct {
		Linear  *float64 `json:"linear"`
		Angular *float64 `json:"angular"`
	} `json:"damping"`
	Fixture *struct {
		Density     *float64 `json:"density"`
		Friction    *float64 `json:"friction"`
		Restitution *float64 `json:"restitution"`
	} `json:"fixture"`
}

// ParseModel reads one model of CONFIG_DATA.prediction.models (the
// motion constants, by the game's names) over the m1 figures: a constant
// the model leaves out keeps its m1 value; a number out of range, a size or
// a density that is not positive is an error. It also returns the model's
// currentWeapon. The host and the predictor read their model through it,
// so that both step the tank the host announced.
func ParseModel(raw json.RawMessage) (Model, string, error) {
	var rm rawModel
	if err := json.Unmarshal(raw, &rm); err != nil {
		return Model{}, "", err
	}
	m := M1()
	var bad error
	set := func(dst *float32, v *float64) {
		if v == nil {
			return
		}
		if !finiteIn(*v, -1e7, 1e7) {
			bad = fmt.Errorf("value %v out of range", *v)
			return
		}
		*dst = float32(*v)
	}
	set(&m.Size, rm.Size)
	set(&m.Acceleration, rm.AccelerationFactor)
	set(&m.Braking, rm.BrakingFactor)
	set(&m.MaxForward, rm.MaxForwardSpeed)
	set(&m.MaxReverse, rm.MaxReverseSpeed)
	set(&m.TurnTorque, rm.BaseTurnTorque)
	set(&m.LateralGrip, rm.LateralGrip)
	set(&m.TurnSpeedThreshold, rm.TurnSpeedThreshold)
	set(&m.BaseTurnRatio, rm.BaseTurnFactorRatio)
	set(&m.ReverseTurn, rm.ReverseTurn)
	set(&m.ThrottleUp, rm.ThrottleUp)
	set(&m.ThrottleDown, rm.ThrottleDown)
	set(&m.Strain, rm.Strain)
	set(&m.MaxGunAngle, rm.MaxGunAngle)
	set(&m.GunSpeed, rm.GunSpeed)
	set(&m.GunCenterSpeed, rm.GunCenterSpeed)
	set(&m.BarrelHeight, rm.BarrelHeight)
	set(&m.TurretTop, rm.TurretTop)
	if rm.Damping != nil {
		set(&m.LinearDamping, rm.Damping.Linear)
		set(&m.AngularDamping, rm.Damping.Angular)
	}
	if rm.Fixture != nil {
		set(&m.Density, rm.Fixture.Density)
		set(&m.Friction, rm.Fixture.Friction)
		set(&m.Restitution, rm.Fixture.Restitution)
	}
	if bad != nil {
		return Model{}, "", bad
	}
	if m.Size <= 0 || m.Density <= 0 {
		return Model{}, "", fmt.Errorf("size and density must be positive")
	}
	if m.BarrelHeight < 0 || m.TurretTop < 0 {
		return Model{}, "", fmt.Errorf("barrelHeight and turretTop must not be negative")
	}
	return m, rm.CurrentWeapon, nil
}

func finiteIn(v, lo, hi float64) bool { return !math.IsNaN(v) && v >= lo && v <= hi }
