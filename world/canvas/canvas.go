// Package canvas holds the canvas manager's pure arithmetic: the canvas set
// from CONFIG_DATA, adaptive sizing against the 1920 px reference width,
// the per-canvas stage transform and screen<->world conversion, as the
// browser client computes them. It draws nothing, so it is tested
// without a display. All sizes are logical pixels.
package canvas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ReferenceWidth is the design width the adaptive scale is measured against.
const ReferenceWidth = 1920

// MaxCanvases bounds the number of canvases a config may declare.
const MaxCanvases = 16

// Spec is one canvas as declared in modules.canvasManager.canvases.
type Spec struct {
	ID            string
	Width, Height float64 // initial size
	Fixed         bool    // fixSize present
	FixW, FixH    float64
	AspectA       float64 // 0 when no aspectRatio
	AspectB       float64
	BaseScale     float64
	Dynamic       bool // dynamicCamera
	Shake         bool // shakeCamera
}

type rawSpec struct {
	Width         *float64 `json:"width"`
	Height        *float64 `json:"height"`
	FixSize       *string  `json:"fixSize"`
	AspectRatio   *string  `json:"aspectRatio"`
	BaseScale     *string  `json:"baseScale"`
	DynamicCamera *bool    `json:"dynamicCamera"`
	ShakeCamera   *bool    `json:"shakeCamera"`
}

// ParseSpecs reads the canvases object, keeping declaration order.
func ParseSpecs(raw json.RawMessage) ([]Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("canvases: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("canvases: not an object")
	}
	var out []Spec
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("canvases: %w", err)
		}
		id, _ := kt.(string)
		var r rawSpec
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("canvas %q: %w", id, err)
		}
		if len(out) >= MaxCanvases {
			return nil, fmt.Errorf("canvases: more than %d", MaxCanvases)
		}
		s, err := r.spec(id)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (r rawSpec) spec(id string) (Spec, error) {
	s := Spec{ID: id, Width: 300, Height: 150, BaseScale: 1}
	if r.Width != nil && *r.Width > 0 && *r.Width < 1e5 {
		s.Width = *r.Width
	}
	if r.Height != nil && *r.Height > 0 && *r.Height < 1e5 {
		s.Height = *r.Height
	}
	if r.FixSize != nil && *r.FixSize != "" {
		w, h, ok := parsePair(*r.FixSize, true)
		if !ok || w <= 0 || h <= 0 || w > 1e4 || h > 1e4 {
			return s, fmt.Errorf("canvas %q: bad fixSize %q", id, *r.FixSize)
		}
		s.Fixed, s.FixW, s.FixH = true, w, h
	}
	if r.AspectRatio != nil && *r.AspectRatio != "" {
		a, b, ok := parsePair(*r.AspectRatio, false)
		if !ok || a <= 0 || b <= 0 {
			return s, fmt.Errorf("canvas %q: bad aspectRatio %q", id, *r.AspectRatio)
		}
		s.AspectA, s.AspectB = a, b
	}
	if r.BaseScale != nil {
		v, err := ParseBaseScale(*r.BaseScale)
		if err != nil {
			return s, fmt.Errorf("canvas %q: %w", id, err)
		}
		s.BaseScale = v
	}
	s.Dynamic = r.DynamicCamera != nil && *r.DynamicCamera
	s.Shake = r.ShakeCamera != nil && *r.ShakeCamera
	return s, nil
}

// parsePair reads "a:b" (or "a" when single is allowed, meaning a:a).
func parsePair(s string, single bool) (float64, float64, bool) {
	a, b, found := strings.Cut(s, ":")
	x, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, 0, false
	}
	if !found {
		return x, x, single
	}
	y, err := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err != nil || math.IsNaN(y) || math.IsInf(y, 0) {
		return 0, 0, false
	}
	return x, y, true
}

// ParseBaseScale reads "num:den" and rounds num/den to two decimals with
// ties rounded up on the exact double (JavaScript toFixed(2)), so "1:8"
// gives 0.13. An empty string means 1.
func ParseBaseScale(s string) (float64, error) {
	if s == "" {
		return 1, nil
	}
	n, d, ok := parsePair(s, true)
	if !strings.Contains(s, ":") {
		d = 1 // a bare number is num:1
	}
	if !ok || d == 0 {
		return 0, fmt.Errorf("bad baseScale %q", s)
	}
	v := n / d
	if !(v > 0) || math.IsInf(v, 0) || v > 1e6 {
		return 0, fmt.Errorf("bad baseScale %q", s)
	}
	return toFixed2(v), nil
}

// toFixed2 rounds a positive double to 2 decimals, exact ties up.
func toFixed2(v float64) float64 {
	x := new(big.Float).SetPrec(200).SetFloat64(v)
	x.Mul(x, big.NewFloat(100).SetPrec(200))
	x.Add(x, big.NewFloat(0.5).SetPrec(200))
	i, _ := x.Int(nil) // truncation == floor for positive values
	f, _ := strconv.ParseFloat(i.String()+"e-2", 64)
	return f
}

// Size is one canvas's computed size and scale after a resize.
type Size struct {
	W, H         float64 // logical size, at least 1x1
	CurrentScale float64 // world->screen scale before the camera zoom
}

// Resize computes a canvas's size for a window of (sw, sh) logical pixels:
// its share of the window, scaled against the reference width. ok is false for a non-finite or non-positive window
// (minimised), in which case nothing must change.
func (s Spec) Resize(sw, sh float64) (Size, bool) {
	if !(sw > 0) || !(sh > 0) || math.IsInf(sw, 0) || math.IsInf(sh, 0) {
		return Size{}, false
	}
	if s.Fixed {
		return Size{W: math.Max(1, s.FixW), H: math.Max(1, s.FixH), CurrentScale: s.BaseScale}, true
	}
	w, h := sw, sh
	if s.AspectA > 0 {
		h = w / s.AspectA * s.AspectB
		if h > sh {
			h = sh
			w = h / s.AspectB * s.AspectA
		}
		w, h = roundHalfUp(w), roundHalfUp(h)
	}
	return Size{W: math.Max(1, w), H: math.Max(1, h), CurrentScale: w / ReferenceWidth * s.BaseScale}, true
}

// Initial is the size before the first resize.
func (s Spec) Initial() Size {
	if s.Fixed {
		return Size{W: s.FixW, H: s.FixH, CurrentScale: s.BaseScale}
	}
	return Size{W: s.Width, H: s.Height, CurrentScale: s.Width / ReferenceWidth * s.BaseScale}
}

func roundHalfUp(v float64) float64 { return math.Floor(v + 0.5) }

// Stage is a canvas's world->screen transform: screen = world*S + (X, Y).
type Stage struct {
	X, Y, S float64
}

// StageFor centres the camera point (camX, camY) in a canvas of logical
// size (w, h) at scale s.
func StageFor(w, h, camX, camY, s float64) Stage {
	return Stage{X: w/2 - camX*s, Y: h/2 - camY*s, S: s}
}

// ToScreen maps a world point into canvas logical pixels.
func (st Stage) ToScreen(wx, wy float64) (float64, float64) {
	return wx*st.S + st.X, wy*st.S + st.Y
}

// ToWorld maps a canvas logical point back into the world; ok is false
// when the scale is zero.
func (st Stage) ToWorld(cx, cy float64) (float64, float64, bool) {
	if st.S == 0 || math.IsNaN(st.S) {
		return 0, 0, false
	}
	return (cx - st.X) / st.S, (cy - st.Y) / st.S, true
}

// Rect is a canvas's on-screen rectangle in window logical pixels.
type Rect struct{ Left, Top, W, H float64 }

// ScreenToWorld converts a window point to a world point for the pointer
// channel; (w, h) is the canvas's logical size.
func ScreenToWorld(clientX, clientY float64, r Rect, w, h float64, st Stage) (float64, float64, bool) {
	if r.W == 0 || r.H == 0 {
		return 0, 0, false
	}
	cx := (clientX - r.Left) * w / r.W
	cy := (clientY - r.Top) * h / r.H
	return st.ToWorld(cx, cy)
}

// Centered places a canvas of (w, h) centred in a window of (sw, sh).
func Centered(w, h, sw, sh float64) Rect {
	return Rect{Left: math.Floor((sw - w) / 2), Top: math.Floor((sh - h) / 2), W: w, H: h}
}
