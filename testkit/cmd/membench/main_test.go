package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	cases := []benchCase{{name: "empty Ebiten window"}, {name: "start screen"}}
	var b bytes.Buffer
	printTable(&b, cases, [][]peak{
		{{120, 40}, {130, 42}, {125, 41}},
		{{150, 50}, {160, 52}, {140, 49}, {170, 60}},
	}, 3, 0)
	for _, want := range []string{
		"| empty Ebiten window | 120.0–130.0 | 125.0 | +0.0 | 41.0 | +0.0 |",
		"| start screen | 140.0–170.0 | 155.0 | +30.0 | 51.0 | +10.0 |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("got\n%s\nwant the row %s", b.String(), want)
		}
	}
}

// The anonymous part of a running process's resident set is read from
// the kernel: this test's own is above zero and below its whole.
func TestRSSAnonOfThisProcess(t *testing.T) {
	a := rssAnon(os.Getpid())
	if !(a > 0) {
		t.Fatalf("anonymous resident set %v MB, want > 0", a)
	}
	if rssAnon(-1) != 0 {
		t.Fatal("a process that does not exist has a resident set")
	}
}
