package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"vimpclient/hud/startscreen"
	"vimpclient/internal/version"
	"vimpclient/play"
	"vimpclient/window"
)

// playFlags are the flags of the default command (connect to a host).
type playFlags struct {
	play.Config
	version bool
}

func (p *playFlags) register(fs *flag.FlagSet) {
	p.RegisterFlags(fs)
	fs.BoolVar(&p.version, "version", false, "print the version, commit, build date and Go version, then exit")
}

func usagePlay(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, version.Get())
	usageCommands(w)
	fmt.Fprintln(w, "flags of the play commands:")
	fs.PrintDefaults()
}

// runPlay is the default command: connect to the host at the address
// argument, or to the embedded host started in-process.
func runPlay(args []string, stdout, stderr io.Writer) int {
	return playArgs(args, false, stdout, stderr)
}

// parsePlay reads the play command's flags and address. fromLink says the
// address came from a join link, not from the player: the tokens of
// -token and -token-file are then for -token-master's master alone.
// code >= 0 when the program stops there with that status.
func parsePlay(args []string, fromLink bool, stdout, stderr io.Writer) (p *playFlags, fs *flag.FlagSet, addr string, code int) {
	p = &playFlags{Config: play.Config{Set: play.Values{}}}
	fs = flagSet("vimpclient", stderr)
	p.register(fs)
	fs.Usage = func() { usagePlay(stderr, fs) }
	if err := fs.Parse(play.JoinQuickplayArg(args)); err != nil {
		return nil, nil, "", parseStatus(err)
	}
	if p.version {
		fmt.Fprintln(stdout, version.Get())
		return nil, nil, "", 0
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "vimpclient: one address expected, got %q\n", fs.Args())
		return nil, nil, "", 2
	}
	addr = fs.Arg(0)
	if !fromLink {
		p.Tokens.Named = addr
	}
	if (p.Tokens.Token != "" || p.Tokens.File != "") && p.Tokens.Named == "" && p.Tokens.Master == "" {
		fmt.Fprintln(stderr, "vimpclient: -token and -token-file name no master here: they are sent to none (-token-master URL names the master they are for)")
	}
	return p, fs, addr, -1
}

func playArgs(args []string, fromLink bool, stdout, stderr io.Writer) int {
	p, fs, addr, code := parsePlay(args, fromLink, stdout, stderr)
	if code >= 0 {
		return code
	}
	if err := p.Prepare(addr); err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	if !p.Headless {
		if err := window.Available(); err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if p.Headless {
		return play.Headless(ctx, &p.Config, addr, stdout, stderr)
	}
	// The window opens at once: on the start screen when nothing on the
	// command line says what to play, else on the connecting screen of the
	// address (or of the embedded host).
	var start *startscreen.Choice
	switch {
	case addr != "":
		start = &startscreen.Choice{Kind: startscreen.Join, Value: addr}
	case play.ChoosesPlay(fs):
		start = &startscreen.Choice{Kind: startscreen.Offline}
	}
	return play.Window(ctx, &p.Config, start, stdout, stderr)
}
