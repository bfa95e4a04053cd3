package hud

import (
	"image/color"
	"testing"
)

func TestParseCSSColor(t *testing.T) {
	for in, want := range map[string]color.RGBA{
		"#e05a2a":            {0xe0, 0x5a, 0x2a, 255},
		"#FFF":               {255, 255, 255, 255},
		"#0f08":              {0, 255, 0, 0x88},
		" #11223344 ":        {0x11, 0x22, 0x33, 0x44},
		"rgb(10, 20, 30)":    {10, 20, 30, 255},
		"rgba(10,20,30,0.5)": {10, 20, 30, 128},
		"rgb(100% 0% 50%)":   {255, 0, 128, 255},
		"rgb(300, -5, 20)":   {255, 0, 20, 255},
		"Gold":               {255, 215, 0, 255},
		"rgba(1, 2, 3, 50%)": {1, 2, 3, 128},
	} {
		if got, ok := ParseCSSColor(in); !ok || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "#12", "#12345", "#ggg", "rgb(1,2)", "rgb(1,2,3", "rgb(a,b,c)", "hsl(1,2%,3%)", "notacolour", "rgb(NaN,1,2)"} {
		if c, ok := ParseCSSColor(bad); ok {
			t.Errorf("%q read as %v", bad, c)
		}
	}
}
