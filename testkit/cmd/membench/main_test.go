package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	cases := []benchCase{{name: "empty Ebiten window"}, {name: "start screen"}}
	var b bytes.Buffer
	printTable(&b, cases, [][]float64{{120, 130, 125}, {150, 160, 140, 170}}, 3, 0)
	for _, want := range []string{
		"| empty Ebiten window | 120.0–130.0 | 125.0 | +0.0 |",
		"| start screen | 140.0–170.0 | 155.0 | +30.0 |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("got\n%s\nwant the row %s", b.String(), want)
		}
	}
}
