package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"vimpclient/play"
	"vimpclient/window"
)

// runReplay plays a recording back (see play.Replay): `vimpclient replay
// [flags] FILE`.
func runReplay(args []string, stdout, stderr io.Writer) int {
	var r play.ReplayConfig
	fs := flagSet("replay", stderr)
	fs.BoolVar(&r.Headless, "headless", false, "run without a window: replay at -speed (0: at once) and print what happened")
	fs.StringVar(&r.Conn, "conn", "", "connection label to replay (default: the first one in the file)")
	fs.Float64Var(&r.Speed, "speed", 0, "headless: play at this multiple of the recorded pace (0: as fast as possible; the window starts at 1 and changes it with the arrow keys)")
	fs.StringVar(&r.Nick, "nick", "", "nick to answer the recorded auth form with (default: the recorded answer)")
	fs.StringVar(&r.Team, "team", "", "team to answer the recorded team vote with (default: the first offered)")
	fs.BoolVar(&r.Summary, "summary", false, "headless: print a JSON summary on stdout")
	fs.StringVar(&r.Script, "script", "", "headless: key script, as for a live host")
	fs.StringVar(&r.Record, "record", "", "headless: re-record what the client sends during the replay")
	fs.StringVar(&r.Assets, "assets", "", "window: the game's assets base URL, for its images and sounds (default: drawn and sounded by the client itself)")
	fs.StringVar(&r.CA, "ca", "", "window: PEM file with an extra CA to trust for an https -assets host")
	fs.StringVar(&r.AssetCache, "asset-cache", play.DefaultAssetCache(), "window: the asset cache the recorded match's images and sounds are read from when -assets is not given (\"-\" or empty: none)")
	fs.BoolVar(&r.Verbose, "v", false, "log details to stderr")
	fs.StringVar(&r.Shot.Path, "screenshot", "", "window: write a PNG of the window after -screenshot-after, then quit")
	fs.DurationVar(&r.Shot.After, "screenshot-after", 3*time.Second, "when to take the -screenshot")
	fs.DurationVar(&r.Shot.Seek, "seek", 0, "window: start at this point of the recording")
	fs.BoolVar(&r.Shot.Paused, "paused", false, "window: start paused")
	fs.Var(&r.Shot.Size, "window", "window: its size `WxH` (default: its size when last closed, else 1280x720)")
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
