package tanks

import (
	"vimpclient/parts"
)

// signature are the part classes every tanks host has declared since the
// first release: a CONFIG_DATA naming them is tanks, whatever classes a
// newer release adds beside them.
var signature = []string{"Map", "Tank", "ShotEffect", "Bomb"}

// Game returns the tanks part set. Its bakers take the random source
// their irregularity comes from when they run (parts.Game.Bake): the
// world's is not theirs to share, and the argument is unused.
func Game(func() float64) *parts.Game {
	return &parts.Game{
		ID: "tanks",
		Parts: map[string]parts.Factory{
			"Tank": TankFactory{}, "TankRadar": TankRadarFactory{}, "Smoke": SmokeFactory{},
			"Tracks": TracksFactory{}, "Bomb": BombFactory{}, "ShotEffect": ShotEffectFactory{},
			"ExplosionEffect": ExplosionEffectFactory{}, "Map": MapFactory{}, "MapRadar": MapRadarFactory{},
			"WreckFire": WreckFireFactory{},
		},
		Styles: map[string]parts.CanvasStyle{
			"vimp": {Background: parts.RGB(0x222222)},
			"radar": {
				Background: parts.Color{R: 0, G: 190.0 / 255, B: 90.0 / 255, A: 0.8},
				RightFrac:  0.01, Top: 35, Circle: true,
				Ring: parts.RGB(0x005544), RingWidth: 3,
				Glow: parts.RGB(0xeeee66), GlowWidth: 47,
			},
		},
		Bake:      Bake,
		BakeTeams: BakeTeams,
		Recognise: func(eoc map[string]string) bool { return parts.HasClasses(eoc, signature...) },
	}
}
