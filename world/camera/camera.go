// Package camera implements the engine's dynamic camera (look-ahead, speed
// zoom, smoothing) and camera shake as one "camera update" per application.
//
// The formulas are applied per call, not per unit of time, exactly as the
// browser client does: speed is measured in world units per call, so the
// renderer must call Update once per camera application (every event frame's
// camera, then the hot camera) to match the reference behaviour at 60 Hz.
package camera

import (
	"math"
	"strconv"
	"strings"
)

// Tuning holds the sanitised dynamicCamera settings.
type Tuning struct {
	LookAheadFactor    float64
	ZoomOutFactor      float64
	MaxZoomOut         float64
	SmoothnessPosition float64
	SmoothnessZoom     float64
	SmoothnessVelocity float64
}

// DefaultTuning returns the engine defaults (clientDefaults.js).
func DefaultTuning() Tuning {
	return Tuning{
		LookAheadFactor:    30,
		ZoomOutFactor:      0.5,
		MaxZoomOut:         0.6,
		SmoothnessPosition: 0.008,
		SmoothnessZoom:     0.005,
		SmoothnessVelocity: 0.15,
	}
}

// RawTuning carries the keys as they appear in CONFIG_DATA; a nil pointer
// means the key is absent from the merged config.
type RawTuning struct {
	LookAheadFactor    *float64 `json:"lookAheadFactor"`
	ZoomOutFactor      *float64 `json:"zoomOutFactor"`
	MaxZoomOut         *float64 `json:"maxZoomOut"`
	SmoothnessPosition *float64 `json:"smoothnessPosition"`
	SmoothnessZoom     *float64 `json:"smoothnessZoom"`
	SmoothnessVelocity *float64 `json:"smoothnessVelocity"`
}

// Sanitize applies the client's fallbacks and clamps to the raw keys:
// missing keys take the fallback (not the engine default), values out of
// range are clamped.
func (r RawTuning) Sanitize() Tuning {
	get := func(p *float64, fallback float64) float64 {
		if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
			return fallback
		}
		return *p
	}
	t := Tuning{
		LookAheadFactor:    get(r.LookAheadFactor, 0),
		ZoomOutFactor:      clamp(get(r.ZoomOutFactor, 0), 0, 1),
		MaxZoomOut:         get(r.MaxZoomOut, 1),
		SmoothnessPosition: clamp(get(r.SmoothnessPosition, 0.1), 0, 1),
		SmoothnessZoom:     clamp(get(r.SmoothnessZoom, 0.005), 0, 1),
		SmoothnessVelocity: clamp(get(r.SmoothnessVelocity, 0.1), 0, 1),
	}
	if t.MaxZoomOut == 0 {
		t.MaxZoomOut = 1
	}
	return t
}

// DeadZone is the per-call movement below which the camera counts as still.
func (t Tuning) DeadZone() float64 { return 0.5 / math.Max(t.LookAheadFactor, 1) }

// Rand returns a uniform number in [0, 1); injected so tests are repeatable.
type Rand func() float64

// Camera is the state shared by every canvas: position, zoom and shake.
type Camera struct {
	tune Tuning
	rnd  Rand
	// maxOff bounds the look-ahead's length (0: no bound): see SetMaxOffset.
	maxOff float64

	px, py             float64
	ox, oy             float64
	zm                 float64
	avgDx, avgDy, avgV float64

	shakeI, shakeT, shakeR float64
	lastShake              float64

	// Result of the last update.
	x, y           float64 // raw camera point
	shakeX, shakeY float64
}

// New returns a camera at rest at the origin.
func New(t Tuning, rnd Rand) *Camera {
	return &Camera{tune: t, rnd: rnd, zm: 1}
}

// Tuning returns the settings in use.
func (c *Camera) Tuning() Tuning { return c.tune }

// Update runs one camera update with the point (x, y), the force-reset flag
// and a shake string ("I:D" or ""); nowMs is a wall-clock time in ms.
func (c *Camera) Update(x, y float64, reset bool, shake string, nowMs float64) {
	t := &c.tune
	if reset {
		c.px, c.py = x, y
		c.ox, c.oy = 0, 0
		c.zm = 1
		c.avgDx, c.avgDy, c.avgV = 0, 0, 0
		c.shakeR = 0
	}
	if shake != "" {
		if i, d, ok := parseShake(shake); ok {
			c.shakeI, c.shakeT, c.shakeR = i, d, d
			c.lastShake = nowMs
		}
	}
	c.shakeX, c.shakeY = 0, 0
	if c.shakeR > 0 {
		dt := nowMs - c.lastShake
		c.lastShake = nowMs
		c.shakeR -= dt
		if c.shakeR > 0 && c.shakeT != 0 {
			cur := c.shakeI * c.shakeR / c.shakeT
			c.shakeX = (c.rnd()*2 - 1) * cur
			c.shakeY = (c.rnd()*2 - 1) * cur
		} else {
			c.shakeR = 0
		}
	} else {
		c.lastShake = nowMs
	}
	dx, dy := x-c.px, y-c.py
	speed := math.Hypot(dx, dy)
	if speed < t.DeadZone() {
		dx, dy, speed = 0, 0, 0
	}
	sv := t.SmoothnessVelocity
	c.avgDx = lerp(c.avgDx, dx, sv)
	c.avgDy = lerp(c.avgDy, dy, sv)
	c.avgV = lerp(c.avgV, speed, sv)
	tox := c.avgDx * t.LookAheadFactor
	toy := c.avgDy * t.LookAheadFactor
	if speed == 0 {
		// A point at rest looks ahead nowhere: the offset eases back at
		// once. Following the smoothed velocity instead, it would keep
		// growing for a dozen calls after a stop (the smoothed velocity
		// is still above it) and then come back: an overshoot past the
		// point where the player stopped.
		tox, toy = 0, 0
	}
	tz := math.Max(t.MaxZoomOut, 1-c.avgV*t.ZoomOutFactor)
	c.ox = lerp(c.ox, tox, t.SmoothnessPosition)
	c.oy = lerp(c.oy, toy, t.SmoothnessPosition)
	c.zm = lerp(c.zm, tz, t.SmoothnessZoom)
	if l := math.Hypot(c.ox, c.oy); c.maxOff > 0 && l > c.maxOff {
		c.ox, c.oy = c.ox*c.maxOff/l, c.oy*c.maxOff/l
	}
	c.px, c.py = x, y
	c.x, c.y = x, y
}

// SetMaxOffset bounds the look-ahead to r world units from the point (0 or
// less: no bound). The engine's look-ahead grows with the point's movement
// per update, so a fast actor, a frame rate below the display's or a
// stalled loop (one update carrying the motion of many) pushes the view
// far ahead of it; a game whose actor must stay near the middle of the view
// (a snake, whose head is all the player steers by) sets the bound.
func (c *Camera) SetMaxOffset(r float64) {
	c.maxOff = 0
	if r > 0 && !math.IsInf(r, 0) {
		c.maxOff = r
	}
}

// LimitOffset keeps the look-ahead from pointing further than the view's
// centre may go: the offset is held to [minX−x, maxX−x] (and likewise on y)
// around the last point, but never pushed past zero, so a point already
// beyond a limit keeps a zero offset. Held at a map's edge, the offset eases
// back as soon as the point slows instead of first spending seconds
// unwinding a look-ahead no one saw. A range with min > max (a map smaller
// than the view) holds that axis's offset at zero.
func (c *Camera) LimitOffset(minX, minY, maxX, maxY float64) {
	c.ox = limitAxis(c.ox, c.x, minX, maxX)
	c.oy = limitAxis(c.oy, c.y, minY, maxY)
}

func limitAxis(off, p, lo, hi float64) float64 {
	if lo > hi {
		return 0
	}
	return clamp(off, math.Min(0, lo-p), math.Max(0, hi-p))
}

// View is what one canvas needs from the last update.
type View struct {
	CamX, CamY float64 // the point shown at the canvas centre (world units)
	Zoom       float64 // multiplier on the canvas's current scale
}

// ViewFor returns the camera point and zoom for a canvas with the given
// dynamicCamera / shakeCamera flags.
func (c *Camera) ViewFor(dynamic, shake bool) View {
	v := View{CamX: c.x, CamY: c.y, Zoom: 1}
	if dynamic {
		v.CamX += c.ox
		v.CamY += c.oy
		v.Zoom = c.zm
	}
	if shake {
		v.CamX += c.shakeX
		v.CamY += c.shakeY
	}
	return v
}

// Point returns the raw camera point of the last update (the audio listener).
func (c *Camera) Point() (x, y float64) { return c.x, c.y }

// Zoom returns the zoom modifier zm (1 at rest).
func (c *Camera) Zoom() float64 { return c.zm }

// Offset returns the look-ahead offset.
func (c *Camera) Offset() (ox, oy float64) { return c.ox, c.oy }

// AvgDx returns the smoothed per-call x movement (for tests and diagnostics).
func (c *Camera) AvgDx() float64 { return c.avgDx }

// Shaking reports whether a shake is running and its current offset.
func (c *Camera) Shaking() (bool, float64, float64) { return c.shakeR > 0, c.shakeX, c.shakeY }

// parseShake reads "I:D" as two numbers like JavaScript's Number(): both
// must be finite and the duration positive for the shake to run.
func parseShake(s string) (intensity, duration float64, ok bool) {
	a, b, found := strings.Cut(s, ":")
	if !found {
		return 0, 0, false
	}
	i, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	d, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || math.IsNaN(i) || math.IsInf(i, 0) || !(d > 0) || math.IsInf(d, 0) {
		return 0, 0, false
	}
	return i, d, true
}

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
