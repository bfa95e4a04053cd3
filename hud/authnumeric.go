package hud

import (
	"math"
	"strconv"
	"strings"
)

// Numeric fields: a text field holding a number, with optional bounds and
// a unit. With unit "s" the host's value is in ms and the player edits
// seconds. Left/Right step the number by one (PageUp/PageDown by ten),
// clamped to the bounds; empty or invalid input is refused on submit with
// the engine's messages.

// numericChars are what a number can be typed with.
const numericChars = "0123456789.-+eE"

func (fd *AuthField) toDisplay(v float64) float64 {
	if fd.Unit == "s" {
		return v / 1000
	}
	return v
}

func (fd *AuthField) toStored(v float64) float64 {
	if fd.Unit == "s" {
		return v * 1000
	}
	return v
}

func numberText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// parseNumber reads a typed number; ok is false for empty or invalid text.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// setupNumeric turns a text field into a numeric one: the label gets its
// range and unit, the value is shown in the unit the player edits.
func (fd *AuthField) setupNumeric() {
	o := fd.opts
	fd.Numeric, fd.Unit = true, o.Unit
	fd.Min, fd.Max, fd.HasMin, fd.HasMax = o.Min, o.Max, o.HasMin, o.HasMax
	if v, ok := parseNumber(fd.Value); ok {
		fd.Value = numberText(fd.toDisplay(v))
	}
	fd.def = 0
	if v, ok := parseNumber(fd.hostValue); ok {
		fd.def = fd.toDisplay(v)
	}
	fd.Label += numericSuffix(fd.Unit, o.Min, o.Max, o.HasMin, o.HasMax)
}

// numericSuffix is the label's hint: " (1–8)", " (s, 10–600)", " (s)".
func numericSuffix(unit string, lo, hi float64, hasLo, hasHi bool) string {
	if !hasLo && !hasHi {
		if unit == "s" {
			return " (s)"
		}
		return ""
	}
	a, b := "…", "…"
	if hasLo {
		a = numberText(lo)
	}
	if hasHi {
		b = numberText(hi)
	}
	if unit == "s" {
		return " (s, " + a + "–" + b + ")"
	}
	return " (" + a + "–" + b + ")"
}

// stepNumber adds delta to the field's number (its default when the text
// is not a number), clamped to the bounds.
func (fd *AuthField) stepNumber(delta float64) {
	v, ok := parseNumber(fd.Value)
	if !ok {
		v = fd.def
	}
	v += delta
	if fd.HasMin && v < fd.Min {
		v = fd.Min
	}
	if fd.HasMax && v > fd.Max {
		v = fd.Max
	}
	fd.Value = numberText(v)
}

// checkNumber is the engine's check of a numeric field: "" when valid.
func (fd *AuthField) checkNumber() string {
	if strings.TrimSpace(fd.Value) == "" {
		return "required"
	}
	v, ok := parseNumber(fd.Value)
	if !ok {
		return "must be a number"
	}
	if fd.HasMin && v < fd.Min {
		return "must be ≥ " + numberText(fd.Min)
	}
	if fd.HasMax && v > fd.Max {
		return "must be ≤ " + numberText(fd.Max)
	}
	return ""
}

// stored is the value sent for a numeric field: the number in the host's
// unit, as text (the host accepts only strings).
func (fd *AuthField) stored() string {
	v, ok := parseNumber(fd.Value)
	if !ok {
		v = fd.def
	}
	return numberText(fd.toStored(v))
}
