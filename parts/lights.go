package parts

// Light is one light source of a night scene, in world units: a round
// pool of light (a lamp, a tank's glow, a flash) or, when Length > 0, a
// cone (a headlight) from (X, Y) towards Angle, Spread radians to each
// side. It lights only the level it is on: a lamp under a bridge does not
// light the bridge's deck.
type Light struct {
	X, Y   float64
	Level  int     // the level whose light map it adds to
	H      float64 // its height in levels: where it is drawn (Project)
	Radius float64 // a pool's radius
	// Colour is the light's colour; Intensity scales it (0..maxIntensity).
	Colour    Color
	Intensity float64
	// A cone: its direction, half-angle and length (0: a round pool).
	Angle, Spread, Length float64
}

// LightMap is the darkness of one level of a night map: the scene drawn so
// far is multiplied by a light map of the ambient colour plus the level's
// lights. On the ground (level 0) the ambient colour covers everything; on
// a level above it covers only that level's floor (Floor, world
// rectangles at the level's height), so what lies below, already darkened
// by its own level's map, is not darkened twice. The tops of the level's
// raised layers (Tops: a wall's top, a roof) stay in the ambient colour
// over the lights: a light on the floor does not reach up onto them.
type LightMap struct {
	Level   int
	Ambient Color
	Floor   []Rect
	Tops    []Top
}

// Top is a rectangle of a raised layer's top, H levels above the ground.
type Top struct {
	Rect
	H float64
}

// Lighter is implemented by a drawing backend that lights scenes: a Gfx
// that is not one draws every scene as by day. A part asks for it with a
// type assertion on the Gfx it draws with.
type Lighter interface {
	// AddLight adds a light to the light map of its level in the current
	// drawing pass; lights past the backend's bound are left out.
	AddLight(l Light)
	// DrawLightMap multiplies what has been drawn so far by the light map
	// m and the lights added for its level since the canvas began.
	DrawLightMap(m *LightMap)
	// Lit reports whether the backend lights night maps now: the player
	// may turn the lighting off, and a night map is then drawn as by day.
	Lit() bool
}

// maxIntensity bounds a light's intensity.
const maxIntensity = 4

// ClampIntensity bounds an intensity read from data to [0, 4] (NaN: 0).
func ClampIntensity(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, maxIntensity)
}

// Sky is what the parts of one scene share about the light of its map:
// whether it is night. A map's part says so when it is built; parts that
// glow by themselves (tracers) then draw above the darkness.
type Sky struct{ night bool }

// SetNight records whether the current map is a night map.
func (s *Sky) SetNight(on bool) {
	if s != nil {
		s.night = on
	}
}

// Night reports whether the current map is a night map (a nil Sky: day).
func (s *Sky) Night() bool { return s != nil && s.night }

// EmissiveZ is the base draw order of what glows on a night map: above
// the light map of its level (LightZ), so that the darkness does not dim it.
const EmissiveZ = 45

// LightZ is the base draw order of a level's light map: above every
// part and map layer of its level, below what glows (EmissiveZ).
const LightZ = 40
