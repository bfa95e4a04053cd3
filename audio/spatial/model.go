package spatial

import "math"

// Listener is where the ears are in the world (the raw camera point) and the camera zoom
// multiplier that divides the virtual elevation and the inner radius (1 at rest, < 1 zoomed out).
type Listener struct {
	X, Y float64
	Zoom float64
}

// Placement is one source placed relative to the listener: the intermediate values of the model,
// kept so tests can check every step and callers can reuse them.
type Placement struct {
	DX, DY  float64 // world offset from the listener
	D2D     float64 // 2-D world distance
	Spread  float64 // smoothstep(0, R, D2D)
	X, Y, Z float64 // listener axes: +X right, +Y up, −Z in front
	D       float64 // 3-D distance
	Gain    float64 // distance gain (0 when D2D ≥ maxDistance)
	Az, El  float64 // azimuth and elevation, degrees
}

// Gains routes a source onto the two output channels:
//
//	L = LL·inL + LR·inR,  R = RL·inL + RR·inR.
//
// A mono source is fed as inL with inR = 0, so only LL and RL matter for it. DelayL and DelayR
// (seconds) hold back what reaches each output channel: the interaural time difference when the
// HRTF approximation has it enabled, zero otherwise.
type Gains struct {
	LL, LR, RL, RR float32
	DelayL, DelayR float32
}

// Scale multiplies every route by k; delays are unchanged.
func (g Gains) Scale(k float64) Gains {
	f := float32(k)
	return Gains{g.LL * f, g.LR * f, g.RL * f, g.RR * f, g.DelayL, g.DelayR}
}

// headRadius and soundSpeed give Woodworth's interaural time difference (≈0.66 ms at 90°).
const (
	headRadius = 0.0875 // m
	soundSpeed = 343.0  // m/s
)

// ITDSeconds is the far ear's delay for a lateral angle λ in degrees.
func ITDSeconds(lambda float64) float64 {
	a := math.Abs(rad(lambda))
	return headRadius / soundSpeed * (a + math.Sin(a))
}

// Dry is the routing of a sound that is not spatialised: a mono sample reaches both channels at
// gain 1 (Web Audio's up-mix), a stereo sample keeps its own channels.
func Dry(stereo bool) Gains {
	if stereo {
		return Gains{LL: 1, RR: 1}
	}
	return Gains{LL: 1, RL: 1}
}

// zoomOf guards against a zoom that would make the elevation infinite or negative.
func zoomOf(z float64) float64 {
	if !(z > 0) || math.IsInf(z, 0) {
		return 1
	}
	return z
}

// Smoothstep is t²(3 − 2t) with t = clamp((x − e0)/(e1 − e0), 0, 1).
func Smoothstep(e0, e1, x float64) float64 {
	if e1 == e0 {
		if x < e0 {
			return 0
		}
		return 1
	}
	t := (x - e0) / (e1 - e0)
	t = math.Max(0, math.Min(1, t))
	return t * t * (3 - 2*t)
}

// Place runs the geometry of one source at world (x, y).
func (c Config) Place(l Listener, x, y float64) Placement {
	var p Placement
	p.DX, p.DY = x-l.X, y-l.Y
	p.D2D = math.Hypot(p.DX, p.DY)
	z := zoomOf(l.Zoom)
	h := c.VirtualElevation / z
	r := c.InnerRadius / z
	if r <= 0 {
		p.Spread = 1
	} else {
		p.Spread = Smoothstep(0, r, p.D2D)
	}
	sx, sy := p.DX*p.Spread, p.DY*p.Spread
	switch c.Mode {
	case SideScroller:
		p.X, p.Y, p.Z = sx, -sy*c.VerticalFactor, -h
	case Cockpit:
		p.X, p.Y, p.Z = sx, -sy, -h
	default:
		p.X, p.Y, p.Z = sx, -h, sy
	}
	p.D = math.Sqrt(p.X*p.X + p.Y*p.Y + p.Z*p.Z)
	if p.D2D >= c.MaxDistance {
		p.Gain = 0
	} else {
		p.Gain = c.DistanceGain(p.D)
	}
	p.Az, p.El = direction(p.X, p.Y, p.Z, p.D)
	return p
}

// direction is the azimuth (0 ahead, positive right) and elevation (negative below) in degrees
// of a point in listener axes, as Web Audio derives them for a listener facing −Z with +Y up.
func direction(x, y, z, d float64) (az, el float64) {
	if d == 0 {
		return 0, 0
	}
	if x != 0 || z != 0 {
		az = deg(math.Atan2(x, -z))
	}
	el = deg(math.Asin(math.Max(-1, math.Min(1, y/d))))
	return az, el
}

// DistanceGain is the Web Audio PannerNode attenuation at 3-D distance d.
func (c Config) DistanceGain(d float64) float64 {
	ref, f := c.RefDistance, c.RolloffFactor
	switch c.Distance {
	case Linear:
		f = math.Max(0, math.Min(1, f))
		lo, hi := math.Min(ref, c.MaxDistance), math.Max(ref, c.MaxDistance)
		if lo == hi {
			return 1 - f
		}
		dc := math.Max(lo, math.Min(hi, d))
		return 1 - f*(dc-lo)/(hi-lo)
	case Exponential:
		if ref == 0 {
			return 0
		}
		return math.Pow(math.Max(d, ref)/ref, -f)
	default:
		if ref == 0 {
			return 0
		}
		return ref / (ref + f*(math.Max(d, ref)-ref))
	}
}

// Lateral is the angle from the median plane (degrees) the HRTF approximation pans by.
func (c Config) Lateral(p Placement) float64 {
	if c.Variant == HRTFBrowser {
		el := math.Max(-45, math.Min(90, p.El))
		elq := -45 + 15*math.Floor((el+45)/15)
		return deg(math.Asin(math.Cos(rad(elq)) * math.Sin(rad(p.Az))))
	}
	if p.D == 0 {
		return 0
	}
	return deg(math.Asin(math.Max(-1, math.Min(1, p.X/p.D))))
}

// Pan is the routing of a placed source without its distance gain.
func (c Config) Pan(p Placement, stereo bool) Gains {
	if c.Panning == EqualPower {
		return equalPower(p.Az, stereo)
	}
	lambda := c.Lateral(p)
	gl, gr := equalPowerLaw(lambda)
	g := Gains{LL: float32(gl), RL: float32(gr)}
	if stereo {
		g = Gains{LL: float32(gl), RR: float32(gr)}
	}
	if c.ITD {
		if d := float32(ITDSeconds(lambda)); lambda > 0 {
			g.DelayL = d // the source is on the right: the left ear hears it later
		} else if lambda < 0 {
			g.DelayR = d
		}
	}
	return g
}

// Voice is the full routing of a spatial voice: pan times distance gain (zero beyond maxDistance).
func (c Config) Voice(l Listener, x, y float64, stereo bool) Gains {
	p := c.Place(l, x, y)
	if p.Gain == 0 {
		return Gains{}
	}
	return c.Pan(p, stereo).Scale(p.Gain)
}

// equalPowerLaw maps an angle in [−90°, 90°] to left/right gains cos/sin of (a+90)/180·π/2.
func equalPowerLaw(a float64) (gl, gr float64) {
	x := (a + 90) / 180
	return math.Cos(x * math.Pi / 2), math.Sin(x * math.Pi / 2)
}

// equalPower is Web Audio's equal-power panner for azimuth az (degrees).
func equalPower(az float64, stereo bool) Gains {
	if az < -90 {
		az = -180 - az
	} else if az > 90 {
		az = 180 - az
	}
	if !stereo {
		gl, gr := equalPowerLaw(az)
		return Gains{LL: float32(gl), RL: float32(gr)}
	}
	if az <= 0 {
		x := (az + 90) / 90
		gl, gr := math.Cos(x*math.Pi/2), math.Sin(x*math.Pi/2)
		return Gains{LL: 1, LR: float32(gl), RR: float32(gr)}
	}
	x := az / 90
	gl, gr := math.Cos(x*math.Pi/2), math.Sin(x*math.Pi/2)
	return Gains{LL: float32(gl), RL: float32(gr), RR: 1}
}

func deg(r float64) float64 { return r * 180 / math.Pi }
func rad(d float64) float64 { return d * math.Pi / 180 }
