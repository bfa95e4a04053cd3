package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"vimpclient/play"
	"vimpclient/window"
)

// runReplay plays a recording back (see play.Replay): `vimpclient replay
// [flags] FILE`.
func runReplay(args []string, stdout, stderr io.Writer) int {
	var r play.ReplayConfig
	fs := flagSet("replay", stderr)
	r.RegisterFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vimpclient replay [flags] FILE.jsonl")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if r.Speed < 0 || r.Speed > 64 {
		fmt.Fprintln(stderr, "vimpclient replay: -speed must be between 0 and 64")
		return 2
	}
	if !r.Headless {
		if err := window.Available(); err != nil {
			fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
			return 2
		}
	}
	r.File = fs.Arg(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return play.Replay(ctx, r, stdout, stderr)
}
