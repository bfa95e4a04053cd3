package main

import (
	"fmt"
	"strconv"
	"strings"

	"vimpclient/settings"
)

// windowSize is the -window flag: the window's size as WxH in logical
// pixels; zero leaves it to the size remembered from the last run.
type windowSize struct{ w, h int }

func (s *windowSize) String() string {
	if s == nil || s.w == 0 {
		return ""
	}
	return fmt.Sprintf("%dx%d", s.w, s.h)
}

func (s *windowSize) Set(v string) error {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(v)), "x")
	w, werr := strconv.Atoi(ws)
	h, herr := strconv.Atoi(hs)
	if !ok || werr != nil || herr != nil || !(settings.Geometry{W: w, H: h}).Valid() {
		return fmt.Errorf("want WIDTHxHEIGHT, %d to %d px a side (for example 1366x768), got %q",
			settings.MinWindowSide, settings.MaxWindowSide, v)
	}
	s.w, s.h = w, h
	return nil
}
