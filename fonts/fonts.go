// Package fonts is the client's font chain for Ebiten's text: the bundled Go
// fonts, the system's fonts behind them for the runes they lack, and lines
// prepared once (control and invisible characters dropped, right-to-left runs
// in visual order) and laid out into glyphs kept for the frames that draw
// them. The HUD's views and the renderer's name tags both draw with it.
package fonts

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"

	"vimpclient/termtext"
)

// Bounds of the text caches: window resizes create new sizes, chat and
// nicks new strings; a full cache is cleared and refilled by the frames
// that follow, so steady drawing never allocates.
const (
	maxFaces   = 128
	maxLines   = 1024
	maxMissing = 4096
	maxGlyphs  = 2048
)

// glyphKey names the laid-out glyphs of one line at one size.
type glyphKey struct {
	line *Line
	bold bool
	px   float64
	gen  uint32
}

// Options choose where glyphs come from.
type Options struct {
	// System puts the system's fonts (the directories fontconfig's
	// configuration names, and the standard font directories) behind the
	// bundled Go fonts, so nicks and chat in any script are drawn. Without
	// it, a rune the bundled fonts lack is drawn as a box.
	System bool
	// CacheDir keeps the index of the system fonts between runs; "" uses
	// the user cache directory.
	CacheDir string
	// Log receives the font scan's notes at debug level (nil: discarded).
	Log *slog.Logger
	// Background loads the system font a rune needs on a goroutine: the
	// line is drawn with a box for it until a later Poll puts the font in
	// the chain, instead of the frame that first draws it waiting for the
	// file to be read and parsed. Without it, the font is loaded at once.
	Background bool
}

type faceKey struct {
	bold    bool
	px      float64
	primary int8 // fallback drawn first (an RTL run's own font), -1 for none
	gen     uint32
}

// Fonts hold the font chain: the bundled Go fonts, then the system fonts
// loaded as runes need them, then the bundled font again so a rune no font
// has is drawn as its box (the .notdef glyph) instead of being dropped. It
// caches faces by device size and prepared lines by string; it is used on
// the game loop's goroutine.
type Fonts struct {
	regular, bold *text.GoTextFaceSource
	cover         *sfnt.Font // the bundled fonts' coverage
	buf           sfnt.Buffer

	sys       *systemFonts
	fallbacks []fallback
	gen       uint32

	faces   map[faceKey]*text.MultiFace
	single  map[faceKey]*text.GoTextFace
	lines   map[string]*Line
	glyphs  map[glyphKey][]text.Glyph
	lay     text.LayoutOptions
	missing map[rune]struct{}
	sb      strings.Builder
}

// New parses the bundled Go fonts, without the system's behind them.
func New() (*Fonts, error) { return NewWith(Options{}) }

// NewWith parses the bundled Go fonts and, with opts.System, puts the
// system's fonts behind them: they are indexed in the background once a
// rune first needs them (or SystemReady is asked), and used from then on.
func NewWith(opts Options) (*Fonts, error) {
	r, err := text.NewGoTextFaceSource(bytes.NewReader(goregular.TTF))
	if err != nil {
		return nil, fmt.Errorf("go regular font: %w", err)
	}
	b, err := text.NewGoTextFaceSource(bytes.NewReader(gobold.TTF))
	if err != nil {
		return nil, fmt.Errorf("go bold font: %w", err)
	}
	cover, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("go regular font: %w", err)
	}
	f := &Fonts{
		regular: r, bold: b, cover: cover,
		faces: map[faceKey]*text.MultiFace{}, single: map[faceKey]*text.GoTextFace{},
		lines: map[string]*Line{}, missing: map[rune]struct{}{}, glyphs: map[glyphKey][]text.Glyph{},
	}
	if opts.System {
		f.sys = scanSystemFonts(opts)
	}
	return f, nil
}

// SystemReady starts indexing the system fonts if no rune has yet, and
// is closed once they are indexed and in use (at once when they were not
// asked for).
func (f *Fonts) SystemReady() <-chan struct{} {
	if f.sys == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	f.sys.scan()
	return f.sys.ready
}

// Poll takes the system font index once it is ready; lines prepared before
// are prepared again so their missing runes get a font. Call once a frame.
func (f *Fonts) Poll() {
	if f.sys == nil || !f.sys.scanning {
		return
	}
	f.pollLoad(false)
	if f.sys.taken {
		return
	}
	select {
	case <-f.sys.ready:
		f.sys.taken = true
		f.sys.log.Debug("system fonts indexed", "fonts", len(f.sys.list), "err", f.sys.err)
		clear(f.lines)
		clear(f.missing)
		clear(f.glyphs)
	default:
	}
}

// pollLoad puts a system font loaded in the background in the chain once
// it is done (wait: waiting for it) and starts the next load; it reports
// whether one was done.
func (f *Fonts) pollLoad(wait bool) bool {
	l, ok := f.sys.take(wait)
	if !ok {
		return false
	}
	switch {
	case l.ok:
		f.fallbacks = append(f.fallbacks, l.fb)
		f.gen++
		clear(f.faces)
		clear(f.glyphs)
		clear(f.lines) // prepared with a box for the rune, or for its run's font
	default:
		f.miss(l.r)
	}
	f.sys.next(f.Has)
	return true
}

// AwaitFonts waits for the system fonts being loaded in the background
// and puts them in the chain (a test, a picture of a known state); the
// frames never wait: Poll takes each once it is done.
func (f *Fonts) AwaitFonts() {
	for f.pollLoad(true) {
	}
}

func roundPx(px float64) float64 { return math.Max(4, math.Round(px*2)/2) }

// goFace is the bundled face at px (regular or bold).
func (f *Fonts) goFace(bold bool, px float64) *text.GoTextFace {
	k := faceKey{bold: bold, px: px, primary: -2}
	if fc, ok := f.single[k]; ok {
		return fc
	}
	src := f.regular
	if bold {
		src = f.bold
	}
	fc := &text.GoTextFace{Source: src, Size: px}
	if len(f.single) >= maxFaces {
		clear(f.single)
	}
	f.single[k] = fc
	return fc
}

// Face returns the face chain for a size in device pixels (rounded to
// 0.5 px): the bundled font, the loaded system fonts, and the bundled font
// last for its box.
func (f *Fonts) Face(bold bool, px float64) text.Face { return f.chain(bold, roundPx(px), -1) }

func (f *Fonts) chain(bold bool, px float64, primary int8) *text.MultiFace {
	k := faceKey{bold: bold, px: px, primary: primary, gen: f.gen}
	if fc, ok := f.faces[k]; ok {
		return fc
	}
	faces := make([]text.Face, 0, len(f.fallbacks)+3)
	if primary >= 0 && int(primary) < len(f.fallbacks) {
		faces = append(faces, f.fallbacks[primary].face(bold, px))
	}
	faces = append(faces, f.goFace(bold, px))
	for i := range f.fallbacks {
		if int8(i) != primary {
			faces = append(faces, f.fallbacks[i].face(bold, px))
		}
	}
	faces = append(faces, f.goFace(false, px)) // its .notdef box for runes no font has
	mf, err := text.NewMultiFace(faces...)
	if err != nil { // every face is horizontal left-to-right: not reached
		mf, _ = text.NewMultiFace(f.goFace(bold, px))
	}
	if len(f.faces) >= maxFaces {
		clear(f.faces)
	}
	f.faces[k] = mf
	return mf
}

// Line is a string prepared for drawing: what cannot be drawn (control
// and invisible formatting characters) removed, fonts found for its runes,
// and its right-to-left runs put in visual order.
type Line struct {
	Text   string // the printable text, logical order
	pieces []piece
}

// piece is one run of a line in visual order; rtl runs are shaped right to
// left by the face.
type piece struct {
	text    string
	primary int8
}

// Line prepares s, cached until the cache fills up.
func (f *Fonts) Line(s string) *Line {
	if l, ok := f.lines[s]; ok {
		return l
	}
	l := f.Prepare(s)
	if len(f.lines) >= maxLines {
		clear(f.lines)
	}
	f.lines[s] = l
	return l
}

// Prepare prepares s as Line does, without keeping it: for a string that is
// only measured (a candidate of wrapping or an ellipsis).
func (f *Fonts) Prepare(s string) *Line {
	p := f.Printable(s)
	l := &Line{Text: p}
	rtl := false
	for _, r := range p {
		f.resolve(r)
		if isRTL(r) {
			rtl = true
		}
	}
	if !rtl {
		l.pieces = []piece{{text: p, primary: -1}}
		return l
	}
	l.pieces = f.visualPieces(p)
	return l
}

// Printable drops what is never drawn as a glyph: terminal escape
// sequences whole (termtext.SequenceLen: no "[2J" is left of a screen
// clear), control characters and the invisible formatting characters
// (variation selectors, joiners, direction marks, tags), which would
// otherwise show as boxes. Every other rune stays, drawn by some font or
// as a box.
func (f *Fonts) Printable(s string) string {
	ok := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		// A byte that is not UTF-8 may be an 8-bit C1 control.
		if invisible(r) || r == utf8.RuneError && size == 1 {
			ok = false
			break
		}
		i += size
	}
	if ok {
		return s
	}
	f.sb.Reset()
	for i := 0; i < len(s); {
		if n := termtext.SequenceLen(s[i:]); n > 0 {
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !invisible(r) {
			f.sb.WriteRune(r)
		}
		i += size
	}
	return f.sb.String()
}

func invisible(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r == unicode.ReplacementChar:
		return false
	}
	if unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r) {
		return true
	}
	// Format characters are invisible, except the Arabic number signs that
	// carry a glyph of their own.
	return unicode.Is(unicode.Cf, r) && !(r >= 0x600 && r <= 0x605)
}

// bundled reports whether the Go fonts have a glyph for r.
func (f *Fonts) bundled(r rune) bool {
	if r == ' ' {
		return true
	}
	idx, err := f.cover.GlyphIndex(&f.buf, r)
	return err == nil && idx != 0
}

// resolve makes sure some font in the chain has r, loading a system font
// that has it when none does yet (with Options.Background, asking for it:
// the rune is a box until it is in); a rune no font has is remembered as
// missing (it draws as a box).
func (f *Fonts) resolve(r rune) {
	if f.Has(r) {
		return
	}
	if _, ok := f.missing[r]; ok {
		return
	}
	f.sys.scan()
	if f.sys != nil && f.sys.background {
		if !f.sys.want(r, len(f.fallbacks)) {
			f.miss(r)
		}
		return // a box until the font is in (pollLoad)
	}
	if f.sys.canLoad(len(f.fallbacks)) {
		if fb, ok := f.sys.load(r); ok {
			f.fallbacks = append(f.fallbacks, fb)
			f.gen++
			clear(f.faces)
			clear(f.glyphs)
			return
		}
	}
	f.miss(r)
}

// miss remembers that no font has r: it is drawn as a box.
func (f *Fonts) miss(r rune) {
	if len(f.missing) >= maxMissing {
		clear(f.missing)
	}
	f.missing[r] = struct{}{}
}

// Has reports whether some font of the chain has a glyph for r: the
// bundled fonts, or a system font a prepared line loaded for it. A rune it
// has not is drawn as a box.
func (f *Fonts) Has(r rune) bool { return f.bundled(r) || f.fallbackFor(r) >= 0 }

// fallbackFor is the index of the first loaded system font with r, -1 when
// none has it.
func (f *Fonts) fallbackFor(r rune) int {
	for i := range f.fallbacks {
		if f.fallbacks[i].has(r) {
			return i
		}
	}
	return -1
}

// ascent is the bundled regular font's ascent at px: every line keeps the
// baseline the Go fonts give it, whatever fallback joins the chain.
func (f *Fonts) ascent(px float64) float64 { return f.goFace(false, px).Metrics().HAscent }

// Advance is the width of l in device pixels.
func (f *Fonts) Advance(l *Line, bold bool, px float64) float64 {
	px = roundPx(px)
	w := 0.0
	for _, p := range l.pieces {
		w += text.Advance(p.text, f.chain(bold, px, p.primary))
	}
	return w
}

// Glyphs are the glyphs of l at px, positioned from the line's top-left
// corner with the bundled font's baseline. They are laid out once and kept
// (the text package would build a fresh glyph list on every call), so a
// line drawn every frame costs no allocation; the slice must not be
// modified.
func (f *Fonts) Glyphs(l *Line, bold bool, px float64) []text.Glyph {
	px = roundPx(px)
	k := glyphKey{line: l, bold: bold, px: px, gen: f.gen}
	if gs, ok := f.glyphs[k]; ok {
		return gs
	}
	gs := f.AppendGlyphs(nil, l, bold, px, &f.lay)
	if len(f.glyphs) >= maxGlyphs {
		clear(f.glyphs)
	}
	f.glyphs[k] = gs
	return gs
}

// AppendGlyphs appends the glyphs of l at px, positioned from the line's
// top-left corner with the bundled font's baseline.
func (f *Fonts) AppendGlyphs(dst []text.Glyph, l *Line, bold bool, px float64, lay *text.LayoutOptions) []text.Glyph {
	px = roundPx(px)
	base := f.ascent(px)
	x := 0.0
	for _, p := range l.pieces {
		face := f.chain(bold, px, p.primary)
		start := len(dst)
		dst = text.AppendGlyphs(dst, p.text, face, lay)
		dy := math.Round(base - face.Metrics().HAscent)
		dx := math.Round(x)
		for i := start; i < len(dst); i++ {
			dst[i].X += dx
			dst[i].Y += dy
		}
		x += text.Advance(p.text, face)
	}
	return dst
}
