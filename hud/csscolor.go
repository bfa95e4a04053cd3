package hud

import (
	"image/color"
	"strconv"
	"strings"
)

// ParseCSSColor reads a colour as a host's CSS names it: #rgb, #rgba,
// #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (channels 0–255 or
// percentages, alpha 0–1 or a percentage), or one of a few colour names.
// Anything else is not a colour (ok false): the caller keeps its own.
func ParseCSSColor(s string) (c color.RGBA, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if strings.HasPrefix(s, "#") {
		return parseHexColor(s[1:])
	}
	if inner, found := strings.CutPrefix(s, "rgba("); found {
		return parseRGBFunc(inner)
	}
	if inner, found := strings.CutPrefix(s, "rgb("); found {
		return parseRGBFunc(inner)
	}
	if c, ok := cssNames[s]; ok {
		return c, true
	}
	return color.RGBA{}, false
}

// cssNames are the colour names a game is likely to write; read-only.
var cssNames = map[string]color.RGBA{
	"white": {255, 255, 255, 255}, "black": {0, 0, 0, 255}, "red": {255, 0, 0, 255},
	"green": {0, 128, 0, 255}, "lime": {0, 255, 0, 255}, "blue": {0, 0, 255, 255},
	"yellow": {255, 255, 0, 255}, "orange": {255, 165, 0, 255}, "gold": {255, 215, 0, 255},
	"cyan": {0, 255, 255, 255}, "aqua": {0, 255, 255, 255}, "magenta": {255, 0, 255, 255},
	"fuchsia": {255, 0, 255, 255}, "purple": {128, 0, 128, 255}, "pink": {255, 192, 203, 255},
	"grey": {128, 128, 128, 255}, "gray": {128, 128, 128, 255}, "silver": {192, 192, 192, 255},
}

func parseHexColor(h string) (color.RGBA, bool) {
	if len(h) == 3 || len(h) == 4 {
		var b strings.Builder
		for _, r := range h {
			b.WriteRune(r)
			b.WriteRune(r)
		}
		h = b.String()
	}
	if len(h) == 6 {
		h += "ff"
	}
	if len(h) != 8 {
		return color.RGBA{}, false
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return color.RGBA{}, false
	}
	return color.RGBA{R: uint8(v >> 24), G: uint8(v >> 16), B: uint8(v >> 8), A: uint8(v)}, true
}

func parseRGBFunc(inner string) (color.RGBA, bool) {
	inner, ok := strings.CutSuffix(inner, ")")
	if !ok {
		return color.RGBA{}, false
	}
	f := strings.FieldsFunc(inner, func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(f) != 3 && len(f) != 4 {
		return color.RGBA{}, false
	}
	var ch [4]uint8
	ch[3] = 255
	for i, s := range f {
		scale := 255.0
		if i == 3 {
			scale = 1
		}
		v, pct := strings.CutSuffix(s, "%")
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n != n {
			return color.RGBA{}, false
		}
		if pct {
			n = n / 100 * scale
		}
		if i == 3 {
			n *= 255
		}
		ch[i] = uint8(min(max(n, 0), 255) + 0.5)
	}
	return color.RGBA{R: ch[0], G: ch[1], B: ch[2], A: ch[3]}, true
}
