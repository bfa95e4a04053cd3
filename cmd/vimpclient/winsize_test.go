package main

import "testing"

func TestWindowSizeFlag(t *testing.T) {
	var s windowSize
	if err := s.Set("1366x768"); err != nil || s.w != 1366 || s.h != 768 || s.String() != "1366x768" {
		t.Fatalf("1366x768: %+v %v", s, err)
	}
	for _, bad := range []string{"", "1366", "x768", "10x10", "1366x768x2", "99999x768", "-5x-5", "axb"} {
		var s windowSize
		if err := s.Set(bad); err == nil {
			t.Errorf("%q accepted as %+v", bad, s)
		}
	}
}
