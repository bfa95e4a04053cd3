package main

import (
	"flag"
	"strings"
	"testing"

	"vimpclient/play"
)

// The flags that say what to play skip the start screen; the window's own
// flags do not.
func TestChoosesPlay(t *testing.T) {
	for args, want := range map[string]bool{
		"":                               false,
		"-window 1280x720 -screenshot x": false,
		"-nick Probe -team team1":        true,
		"-quickplay":                     true,
		"-map bridge -bots 0":            true,
		"-fullscreen -netgraph -v":       false,
		"-room R":                        true,
		"-set name=x":                    true,
		"-record f.jsonl -asset-cache -": false,
	} {
		p := &playFlags{Config: play.Config{Set: play.Values{}}}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		p.register(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		if got := choosesPlay(fs); got != want {
			t.Errorf("%q: skips the start screen %v, want %v", args, got, want)
		}
	}
}
