package match

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// BotSkill is a bots' difficulty preset. The zero value is BotEasy: the
// game ships its bots on easy, and a new player meets them first.
type BotSkill int

// The presets, easiest first.
const (
	BotEasy BotSkill = iota
	BotNormal
	BotHard
)

// botSkillNames names the presets, in the order ParseBotSkill lists them.
var botSkillNames = [...]string{BotEasy: "easy", BotNormal: "normal", BotHard: "hard"}

func (s BotSkill) String() string {
	if s < 0 || int(s) >= len(botSkillNames) {
		return fmt.Sprintf("BotSkill(%d)", int(s))
	}
	return botSkillNames[s]
}

// ParseBotSkill reads a preset name ("" is easy, the game's default).
func ParseBotSkill(name string) (BotSkill, error) {
	if name == "" {
		return BotEasy, nil
	}
	for i, n := range botSkillNames {
		if n == name {
			return BotSkill(i), nil
		}
	}
	return 0, fmt.Errorf("no bot skill %q (the skills: %s)", name, strings.Join(botSkillNames[:], ", "))
}

// botPreset is one difficulty preset: how a bot of that skill perceives,
// aims, fires, keeps its distance and retreats. Times in seconds, angles in
// radians, distances in world units, health in points.
type botPreset struct {
	reactionTime   float32    // from seeing a new target to moving the turret
	aimError       float32    // the initial aim error when a target is acquired
	aimSettleTime  float32    // the time constant over which that error settles
	aimTremor      float32    // the amplitude of the aim's steady wobble
	fireTolerance  float32    // × the target's angular half length: how far off the gun may be to fire
	burstShots     [2]int     // shots in a burst, inclusive
	burstPause     [2]float32 // the pause between bursts
	shotInterval   float32    // between shots of a burst
	radarInterval  float32    // between radar updates of enemies out of sight
	radarNoise     float32    // the radar's position error
	preferredRange [2]float32 // the distance the bot fights at; its combat range is 1.3 × the far end
	aggression     float32    // 0..1: the bolder ones do not back off from a close enemy
	retreatHealth  float32    // at or under this health a hurt bot retreats
	// retreatAdvantage: under this ratio of own to enemy strength nearby
	// (and under 70 health) a bot retreats.
	retreatAdvantage float32
	steerNoise       float32 // the wander of the bot's heading
	// edgeRisk is the chance to take a ledge; the flat maps of this host
	// have none, so no rule reads it yet.
	edgeRisk   float32
	hesitation float32 // per second: the chance of pausing to look around while hunting
	panicFire  float32 // the chance of one more shot where a target just disappeared
}

// botPresets are tanks' coreParams.bots presets as 0.22 ships them (the
// kinder numbers of its patch releases: later reactions, worse aim,
// shorter bursts and a closer preferred range than 0.22.13's), one row
// per skill.
var botPresets = [...]botPreset{
	BotEasy: {
		reactionTime: 0.55, aimError: 0.34, aimSettleTime: 1.1, aimTremor: 0.05, fireTolerance: 1.8,
		burstShots: [2]int{1, 2}, burstPause: [2]float32{0.9, 1.6}, shotInterval: 0.4,
		radarInterval: 2.0, radarNoise: 40, preferredRange: [2]float32{100, 240}, aggression: 0.35,
		retreatHealth: 45, retreatAdvantage: 0.6, steerNoise: 0.1, edgeRisk: 0.25, hesitation: 0.08, panicFire: 0.3,
	},
	BotNormal: {
		reactionTime: 0.45, aimError: 0.3, aimSettleTime: 1.0, aimTremor: 0.04, fireTolerance: 1.25,
		burstShots: [2]int{1, 2}, burstPause: [2]float32{0.8, 1.4}, shotInterval: 0.35,
		radarInterval: 1.4, radarNoise: 25, preferredRange: [2]float32{120, 300}, aggression: 0.5,
		retreatHealth: 35, retreatAdvantage: 0.5, steerNoise: 0.05, edgeRisk: 0.12, hesitation: 0.04, panicFire: 0.15,
	},
	BotHard: {
		reactionTime: 0.28, aimError: 0.18, aimSettleTime: 0.7, aimTremor: 0.025, fireTolerance: 0.9,
		burstShots: [2]int{1, 3}, burstPause: [2]float32{0.7, 1.2}, shotInterval: 0.3,
		radarInterval: 0.9, radarNoise: 12, preferredRange: [2]float32{140, 340}, aggression: 0.65,
		retreatHealth: 25, retreatAdvantage: 0.4, steerNoise: 0.02, edgeRisk: 0.04, hesitation: 0.01, panicFire: 0.05,
	},
}

// botVariance is how much bots of one preset differ: each scalar is scaled
// by 1 ± botVariance/2.
const botVariance = 0.3

// rollProfile draws one bot's character from the preset: the preset with
// each value varied, so that bots of one skill do not act in lockstep.
func rollProfile(s BotSkill, rng *rand.Rand) botPreset {
	p := botPresets[s]
	factor := func() float32 { return 1 + botVariance*(rng.Float32()-0.5) }
	clamp01 := func(v float32) float32 { return min(max(v, 0), 1) }
	p.reactionTime *= factor()
	p.aimError *= factor()
	p.aimSettleTime *= factor()
	p.aimTremor *= factor()
	p.fireTolerance *= factor()
	f := factor()
	p.burstPause = [2]float32{p.burstPause[0] * f, p.burstPause[1] * f}
	p.shotInterval *= factor()
	p.radarInterval *= factor()
	p.radarNoise *= factor()
	f = factor()
	p.preferredRange = [2]float32{p.preferredRange[0] * f, p.preferredRange[1] * f}
	p.aggression = clamp01(p.aggression + botVariance*(rng.Float32()*0.6-0.3))
	p.retreatHealth = min(max(p.retreatHealth*factor(), 5), 90)
	p.retreatAdvantage *= factor()
	p.steerNoise *= factor()
	p.edgeRisk = clamp01(p.edgeRisk * factor())
	p.hesitation = clamp01(p.hesitation * factor())
	p.panicFire = clamp01(p.panicFire * factor())
	return p
}
