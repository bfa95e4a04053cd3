package fonts

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/bidi"
)

// isRTL reports whether r is a strong right-to-left character or a
// directional control that makes a line need bidi ordering.
func isRTL(r rune) bool {
	if r < 0x590 {
		return false
	}
	p, _ := bidi.LookupRune(r)
	switch p.Class() {
	case bidi.R, bidi.AL, bidi.AN, bidi.RLE, bidi.RLO, bidi.RLI:
		return true
	}
	return false
}

// visualPieces splits a line with right-to-left text into runs in visual
// order (left to right on screen), as the Unicode bidirectional algorithm
// orders them. The paragraph direction comes from the first strong
// character. Each right-to-left run is shaped right to left by its font;
// its leading and trailing spaces become pieces of their own on the side
// where they show.
func (f *Fonts) visualPieces(s string) []piece {
	var p bidi.Paragraph
	if _, err := p.SetString(s); err != nil {
		return []piece{{text: s, primary: -1}}
	}
	o, err := p.Order()
	if err != nil || o.NumRuns() == 0 {
		return []piece{{text: s, primary: -1}}
	}
	type run struct {
		text  string
		rtl   bool
		level int
	}
	ltrPara := p.IsLeftToRight()
	runs := make([]run, o.NumRuns())
	for i := range runs {
		r := o.Run(i)
		runs[i] = run{text: r.String(), rtl: r.Direction() == bidi.RightToLeft}
	}
	// Levels per run: right-to-left runs are odd; in a left-to-right
	// paragraph, numbers between two right-to-left runs sit inside them.
	for i := range runs {
		switch {
		case runs[i].rtl:
			runs[i].level = 1
		case !ltrPara:
			runs[i].level = 2
		case i > 0 && i < len(runs)-1 && runs[i-1].rtl && runs[i+1].rtl && !hasStrongL(runs[i].text):
			runs[i].level = 2
		}
	}
	// Rule L2: from the highest level down to 1, reverse every sequence of
	// runs at that level or above.
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	for level := 2; level >= 1; level-- {
		for i := 0; i < len(order); {
			if runs[order[i]].level < level {
				i++
				continue
			}
			j := i
			for j < len(order) && runs[order[j]].level >= level {
				j++
			}
			for a, b := i, j-1; a < b; a, b = a+1, b-1 {
				order[a], order[b] = order[b], order[a]
			}
			i = j
		}
	}
	var out []piece
	for _, i := range order {
		r := runs[i]
		if !r.rtl {
			out = append(out, piece{text: r.text, primary: -1})
			continue
		}
		body := strings.TrimRight(r.text, " ")
		trail := r.text[len(body):]
		core := strings.TrimLeft(body, " ")
		lead := body[:len(body)-len(core)]
		if trail != "" { // logically last, so leftmost on screen
			out = append(out, piece{text: trail, primary: -1})
		}
		if core != "" {
			out = append(out, piece{text: core, primary: f.primaryFor(core)})
		}
		if lead != "" {
			out = append(out, piece{text: lead, primary: -1})
		}
	}
	return out
}

func hasStrongL(s string) bool {
	for _, r := range s {
		if p, _ := bidi.LookupRune(r); p.Class() == bidi.L && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// primaryFor is the loaded fallback that has the run's first right-to-left
// letter: drawn first in the run's chain so the whole run, spaces and
// punctuation included, is shaped by one font in one direction.
func (f *Fonts) primaryFor(s string) int8 {
	for _, r := range s {
		if isRTL(r) {
			if i := f.fallbackFor(r); i >= 0 {
				return int8(i)
			}
			return -1
		}
	}
	return -1
}
