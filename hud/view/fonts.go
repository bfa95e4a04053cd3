// Package view draws the overlays of package hud with Ebiten. Views only read
// the models; geometry is computed in logical pixels and multiplied by the
// device scale just before drawing, and faces are made at the device size so
// text stays sharp at any window size.
package view

import (
	"fmt"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// maxFaces bounds the face cache; window resizes create new sizes.
const maxFaces = 64

type faceKey struct {
	bold bool
	px   float64
}

// Fonts are the embedded Go fonts and a cache of faces by device size.
type Fonts struct {
	regular, bold *opentype.Font
	faces         map[faceKey]*text.GoXFace
	has           map[rune]bool
	printable     map[string]string // strings that needed filtering
	buf           sfnt.Buffer
	sb            strings.Builder
}

// NewFonts parses the embedded Go fonts.
func NewFonts() (*Fonts, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("go regular font: %w", err)
	}
	b, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("go bold font: %w", err)
	}
	return &Fonts{regular: r, bold: b, faces: map[faceKey]*text.GoXFace{}, has: map[rune]bool{}, printable: map[string]string{}}, nil
}

// Face returns the face for a size in device pixels (rounded to 0.5 px).
func (f *Fonts) Face(bold bool, px float64) *text.GoXFace {
	px = math.Max(4, math.Round(px*2)/2)
	k := faceKey{bold, px}
	if fc, ok := f.faces[k]; ok {
		return fc
	}
	src := f.regular
	if bold {
		src = f.bold
	}
	xf, err := opentype.NewFace(src, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil
	}
	if len(f.faces) >= maxFaces {
		clear(f.faces)
	}
	fc := text.NewGoXFace(xf)
	f.faces[k] = fc
	return fc
}

// Printable drops what the fonts cannot draw: control characters and runes
// without a glyph (emoji, CJK), so no box or control code is ever drawn.
func (f *Fonts) Printable(s string) string {
	ok := true
	for _, r := range s {
		if !f.hasGlyph(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	if p, ok := f.printable[s]; ok {
		return p
	}
	f.sb.Reset()
	for _, r := range s {
		if f.hasGlyph(r) {
			f.sb.WriteRune(r)
		}
	}
	p := f.sb.String()
	if len(f.printable) >= 512 {
		clear(f.printable)
	}
	f.printable[s] = p
	return p
}

func (f *Fonts) hasGlyph(r rune) bool {
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return false
	}
	if r == ' ' {
		return true
	}
	if v, ok := f.has[r]; ok {
		return v
	}
	idx, err := f.regular.GlyphIndex(&f.buf, r)
	v := err == nil && idx != 0
	if len(f.has) < 4096 {
		f.has[r] = v
	}
	return v
}
