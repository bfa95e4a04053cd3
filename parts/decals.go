package parts

import "math"

// Decal is one mark painted onto a DecalLayer: the source rectangle Src of
// Tex with its top-left corner mapped by M from texture pixels to world
// units, tinted by C, as Gfx.Image draws it.
type Decal struct {
	Tex Tex
	Src Rect
	M   Affine
	C   Color
	// Born is the layer's clock (ms) when the mark was painted.
	Born float64
}

// maxPendingDecals bounds the marks a layer holds for its backend: a
// canvas that is never drawn (a headless session) keeps only the newest.
const maxPendingDecals = 8192

// DecalLayer is ground that keeps what is painted onto it: the marks a
// part leaves once (track marks, scorch) instead of drawing them every
// frame. A drawing backend paints each mark once into images covering the
// ground and draws those; what the layer holds then fades as a whole, each
// pixel losing FadeRate of alpha per millisecond, so a mark painted at
// alpha a is gone a/FadeRate ms after it was painted, colour unchanged
// while it fades. Marks on top of each other add up as drawn marks do and
// fade together.
//
// A held layer (Hold > 0, made by Stage.HeldDecals) fades each mark on
// its own clock instead: a mark shows whole for Hold ms, and over the
// FadeOut ms after that its every pixel is scaled down to nothing, so a
// soft edge keeps its shape while the mark fades (craters). A backend may
// group the marks painted within a short while of each other and fade
// them as one, up to DecalHeldGrain ms early or late.
//
// A layer draws at one height (H, in levels) and one draw order on its
// stage, so only marks left at that height belong on it; Stage.Decals
// makes one per height and order. Its clock runs with the scene's steps.
type DecalLayer struct {
	// H is the height, in levels, the layer lies at.
	H float64
	// FadeRate is the alpha a pixel loses per millisecond (a layer that
	// is not held).
	FadeRate float64
	// Hold and FadeOut are a held layer's times (ms): how long a mark
	// shows whole, then how long it takes to fade out.
	Hold, FadeOut float64
	z             int
	now           float64
	pending       []Decal
	dropped       int
}

// Paint leaves a mark on the layer at the layer's current time. The
// backend paints it the next time the layer is drawn, faded by the time
// that passed since.
func (l *DecalLayer) Paint(tex Tex, src Rect, m Affine, c Color) {
	if !(c.A > 0) || tex == NoTex {
		return
	}
	if len(l.pending) >= maxPendingDecals {
		l.shed()
	}
	l.pending = append(l.pending, Decal{Tex: tex, Src: src, M: m, C: c, Born: l.now})
}

// shed makes room in a full queue: the marks that have faded out go, and
// if that is not enough the older half, whose marks are the faintest.
func (l *DecalLayer) shed() {
	n := 0
	for _, d := range l.pending {
		if l.Alpha(d) > 0 {
			l.pending[n] = d
			n++
		}
	}
	if n > maxPendingDecals/2 {
		k := n - maxPendingDecals/2
		copy(l.pending, l.pending[k:n])
		n -= k
	}
	l.dropped += len(l.pending) - n
	l.pending = l.pending[:n]
}

// DecalHeldGrain is how far apart in time (ms) the marks of a held layer
// may be painted and still be faded by a backend as one.
const DecalHeldGrain = 250

// Alpha is the alpha mark d shows now: its tint's alpha less what it has
// faded since it was painted (0 once it is gone).
func (l *DecalLayer) Alpha(d Decal) float64 {
	if l.Held() {
		return float64(d.C.A) * l.Scale(l.now-d.Born)
	}
	return math.Max(0, float64(d.C.A)-l.FadeRate*(l.now-d.Born))
}

// Held reports whether the layer fades each mark on its own clock.
func (l *DecalLayer) Held() bool { return l.Hold > 0 }

// Scale is the share of its alpha a mark of a held layer shows age ms
// after it was painted: 1 for Hold ms, then down to 0 over FadeOut ms.
func (l *DecalLayer) Scale(age float64) float64 {
	switch {
	case age <= l.Hold:
		return 1
	case !(l.FadeOut > 0) || !(age < l.Hold+l.FadeOut): // NaN too
		return 0
	}
	return 1 - (age-l.Hold)/l.FadeOut
}

// Advance moves the layer's clock on by dtMs.
func (l *DecalLayer) Advance(dtMs float64) {
	if dtMs > 0 && !math.IsInf(dtMs, 0) {
		l.now += dtMs
	}
}

// Now is the layer's clock in milliseconds.
func (l *DecalLayer) Now() float64 { return l.now }

// Take hands the marks painted since the last Take to the backend, oldest
// first; the slice is valid until the next Paint.
func (l *DecalLayer) Take() []Decal {
	p := l.pending
	l.pending = l.pending[:0]
	return p
}

// Pending is how many marks wait for the backend.
func (l *DecalLayer) Pending() int { return len(l.pending) }

// Dropped is how many marks were dropped unpainted because the layer was
// not drawn for long.
func (l *DecalLayer) Dropped() int { return l.dropped }

// Draw implements Drawable: the layer at its height.
func (l *DecalLayer) Draw(g Gfx) {
	g.Elevate(l.H)
	g.Decals(l)
}

// OnLevel reports whether height h (levels) lies on a level, so that what
// is left there may go on that level's decal layer, and which level. A
// height between levels (a ramp, a fall) is not on one.
func OnLevel(h float64) (int, bool) {
	r := math.Round(h)
	if !(math.Abs(h-r) <= 1e-3) || r < 0 || r > MaxHeight {
		return 0, false
	}
	return int(r), true
}
