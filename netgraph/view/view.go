// Package view draws the net graph (package netgraph) with Ebiten: a strip
// of per-tick columns — frames received, interpolation buffer depth,
// prediction error, late and dropped frames, freezes — under text lines
// with ping, jitter, frames/s, the counts and the interpolation delay,
// which always fit the box. A key toggles it.
package view

import (
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"vimpclient/netgraph"
)

// DefaultKey toggles the net graph.
const DefaultKey = ebiten.KeyF3

// Width and Height are the graph's size in pixels at scale 1; the HUD
// layout places a box of this size (hud.ScreenLayout.NetGraph).
const (
	Width  = netgraph.History
	Height = textHeight + stripHeight
)

// Layout of the strip, in screen pixels.
const (
	stripHeight = 64
	textHeight  = TextLines * lineHeight
	textEvery   = 250.0
	// Scales: a frame in a tick is 8 px, a buffered frame 6 px, a world
	// unit of prediction error 16 px; bars are capped at the strip.
	frameScale  = 8
	bufferScale = 6
	errorScale  = 16
)

// The text is drawn in Ebiten's debug font: glyphs of glyphW×lineHeight px.
const (
	glyphW     = 6
	lineHeight = 16
	// TextLines is how many lines Format writes; TextColumns is how many
	// glyphs fit a line of the box, with a 2 px margin each side.
	TextLines   = 6
	TextColumns = (Width - 4) / glyphW
)

// View draws a netgraph.Graph. It is used on the game loop's goroutine.
type View struct {
	g       *netgraph.Graph
	Visible bool
	Key     ebiten.Key

	pix      *ebiten.Image
	off      *ebiten.Image // DrawAt draws here first, then scales it
	text     string
	buf      []byte
	textAt   float64
	hasText  bool
	drawOpts ebiten.DrawImageOptions
}

// New returns a view of g, shown when visible is set (the command-line
// flag); the key toggles it.
func New(g *netgraph.Graph, visible bool) *View {
	pix := ebiten.NewImage(1, 1)
	pix.Fill(whiteColor{})
	return &View{g: g, Visible: visible, Key: DefaultKey, pix: pix, buf: make([]byte, 0, 160)}
}

type whiteColor struct{}

func (whiteColor) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

// Update toggles the view when its key was pressed this tick.
func (v *View) Update() {
	if inpututil.IsKeyJustPressed(v.Key) {
		v.Visible = !v.Visible
	}
}

// Format appends the TextLines text lines for s. Every line fits the
// box's TextColumns glyphs whatever the values: each figure is clamped to
// the widest it is printed at (a ping over 99999 ms reads 99999), and no
// line holds more than two of them.
func Format(dst []byte, s netgraph.Summary) []byte {
	// A figure not measured yet (no round trip reported for a spectator,
	// fewer than three PINGs) reads "-", not 0.
	dst = append(dst, "ping "...)
	if s.HasPing {
		dst = strconv.AppendFloat(dst, clamp(s.PingMs, 99999), 'f', 0, 64)
	} else {
		dst = append(dst, '-')
	}
	dst = append(dst, " ms  jitter "...)
	if s.HasJitter {
		dst = strconv.AppendFloat(dst, clamp(s.JitterMs, 9999.9), 'f', 1, 64)
	} else {
		dst = append(dst, '-')
	}
	dst = append(dst, " ms\nframes "...)
	dst = strconv.AppendFloat(dst, clamp(s.FramesPerSec, 999.9), 'f', 1, 64)
	dst = append(dst, "/s  buffer "...)
	dst = strconv.AppendInt(dst, int64(min(max(s.Buffered, 0), 99999)), 10)
	dst = append(dst, "\nlate "...)
	dst = strconv.AppendUint(dst, min(s.LateTotal, 999999999), 10)
	dst = append(dst, " ("...)
	dst = strconv.AppendFloat(dst, clamp(s.LatePerSec, 999.9), 'f', 1, 64)
	dst = append(dst, "/s)\ndropped "...)
	dst = strconv.AppendUint(dst, min(s.DroppedTotal, 999999999), 10)
	dst = append(dst, " ("...)
	dst = strconv.AppendFloat(dst, clamp(s.DroppedPerSec, 999.9), 'f', 1, 64)
	dst = append(dst, "/s)\ndelay "...)
	dst = strconv.AppendFloat(dst, clamp(s.DelayMs, 9999), 'f', 0, 64)
	dst = append(dst, " ms  freezes "...)
	dst = strconv.AppendUint(dst, min(s.FreezesTotal, 999999999), 10)
	dst = append(dst, '\n')
	if s.Predicting {
		dst = append(dst, "pred err "...)
		dst = strconv.AppendFloat(dst, clamp(s.ErrorNow, 9999.99), 'f', 2, 64)
		dst = append(dst, " max "...)
		dst = strconv.AppendFloat(dst, clamp(s.ErrorMax, 9999.99), 'f', 2, 64)
	} else {
		dst = append(dst, "no prediction"...)
	}
	return dst
}

// clamp keeps v in [0, hi] (NaN reads 0) so its printed width is bounded.
func clamp(v, hi float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, hi)
}

// rect fills a rectangle with a colour through the 1×1 white image.
func (v *View) rect(dst *ebiten.Image, x, y, w, h float64, r, g, b, a float32) {
	if w <= 0 || h <= 0 {
		return
	}
	o := &v.drawOpts
	o.GeoM.Reset()
	o.GeoM.Scale(w, h)
	o.GeoM.Translate(x, y)
	o.ColorScale.Reset()
	o.ColorScale.Scale(r*a, g*a, b*a, a)
	dst.DrawImage(v.pix, o)
}

// Draw draws the graph with its top-left corner at (x, y). The text is
// rebuilt at most four times a second.
func (v *View) Draw(dst *ebiten.Image, x, y float64) {
	if !v.Visible {
		return
	}
	n := v.g.Len()
	if n > 0 {
		if now := v.g.At(n - 1).At; !v.hasText || now-v.textAt >= textEvery || now < v.textAt {
			v.buf = Format(v.buf[:0], v.g.Summary())
			v.text, v.textAt, v.hasText = string(v.buf), now, true
		}
	}
	w := float64(netgraph.History)
	v.rect(dst, x, y, w, textHeight+stripHeight, 0, 0, 0, 0.55)
	ebitenutil.DebugPrintAt(dst, v.text, int(x)+2, int(y))
	base := y + textHeight + stripHeight
	for i := 0; i < n; i++ {
		t := v.g.At(i)
		cx := x + w - float64(n-i)
		fh := min(float64(t.Frames)*frameScale, stripHeight)
		v.rect(dst, cx, base-fh, 1, fh, 0.3, 0.9, 0.3, 0.8)
		by := min(float64(t.Buffered)*bufferScale, stripHeight)
		v.rect(dst, cx, base-by, 1, 1, 0.4, 0.6, 1, 1)
		if t.Error > 0 {
			eh := min(t.Error*errorScale, stripHeight)
			v.rect(dst, cx, base-eh, 1, eh, 1, 0.3, 0.3, 0.7)
		}
		if t.Late > 0 {
			v.rect(dst, cx, base-stripHeight, 1, 6, 1, 0.9, 0.2, 1)
		}
		if t.Dropped > 0 {
			v.rect(dst, cx, base-stripHeight+6, 1, 6, 1, 0.2, 1, 1)
		}
		if t.Freezes > 0 {
			v.rect(dst, cx, base-stripHeight+12, 1, 6, 0.2, 0.9, 1, 1)
		}
	}
}

// DrawAt draws the graph with its top-left corner at (x, y) in logical px
// on a screen of scale device pixels per logical pixel, scaled with it, so
// it fills the Width×Height box the HUD layout reserved for it (at
// hud/view's View.Layout().NetGraph).
func (v *View) DrawAt(dst *ebiten.Image, x, y, scale float64) {
	if !v.Visible {
		return
	}
	if scale <= 0 {
		scale = 1
	}
	if v.off == nil {
		v.off = ebiten.NewImage(Width, Height)
	}
	v.off.Clear()
	v.Draw(v.off, 0, 0)
	o := &v.drawOpts
	o.GeoM.Reset()
	o.GeoM.Scale(scale, scale)
	o.GeoM.Translate(x*scale, y*scale)
	o.ColorScale.Reset()
	o.Filter = ebiten.FilterNearest
	dst.DrawImage(v.off, o)
}
