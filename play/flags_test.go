package play

import (
	"flag"
	"slices"
	"strings"
	"testing"
)

func TestWindowSizeFlag(t *testing.T) {
	var s Size
	if err := s.Set("1366x768"); err != nil || s.W != 1366 || s.H != 768 || s.String() != "1366x768" {
		t.Fatalf("1366x768: %+v %v", s, err)
	}
	for _, bad := range []string{"", "1366", "x768", "10x10", "1366x768x2", "99999x768", "-5x-5", "axb"} {
		var s Size
		if err := s.Set(bad); err == nil {
			t.Errorf("%q accepted as %+v", bad, s)
		}
	}
}

func TestJoinQuickplayArg(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"-quickplay"}, []string{"-quickplay"}},
		{[]string{"-quickplay", "tanks", "-for", "3s", "http://m"}, []string{"-quickplay=tanks", "-for", "3s", "http://m"}},
		{[]string{"-quickplay", "http://m"}, []string{"-quickplay", "http://m"}},
		{[]string{"-quickplay", "127.0.0.1:3002"}, []string{"-quickplay", "127.0.0.1:3002"}},
		{[]string{"-quickplay", "-bots", "2"}, []string{"-quickplay", "-bots", "2"}},
		{[]string{"--", "-quickplay", "tanks"}, []string{"--", "-quickplay", "tanks"}},
	} {
		if got := JoinQuickplayArg(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
	var q QuickPlay
	for v, want := range map[string]QuickPlay{"true": {On: true}, "false": {}, "snakes": {On: true, Game: "snakes"}} {
		if err := q.Set(v); err != nil || q != want {
			t.Errorf("Set(%q): %+v %v", v, q, err)
		}
	}
	if err := q.Set("http://x"); err == nil {
		t.Error("an address taken for a game")
	}
}

func TestInterpFlag(t *testing.T) {
	var i Interp
	if i.String() != "adaptive" || i.Fixed {
		t.Fatalf("default %q", i.String())
	}
	if err := i.Set("fixed"); err != nil || !i.Fixed || i.String() != "fixed" {
		t.Fatalf("fixed: %v %+v", err, i)
	}
	if err := i.Set("adaptive"); err != nil || i.Fixed {
		t.Fatalf("adaptive: %v %+v", err, i)
	}
	if err := i.Set("smooth"); err == nil {
		t.Fatal("an unknown mode must be refused")
	}
}

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
		p := &Config{Set: Values{}}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		p.RegisterFlags(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		if got := ChoosesPlay(fs); got != want {
			t.Errorf("%q: skips the start screen %v, want %v", args, got, want)
		}
	}
}
