package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"vimpclient/host"
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
	fs.BoolVar(&p.Headless, "headless", false, "run without a window or sound device")
	fs.DurationVar(&p.For, "for", 0, "headless: leave after this long (0: until the host closes for good, Ctrl-C, or 5 attempts in a row fail to reach play)")
	fs.BoolVar(&p.Summary, "summary", false, "print a JSON summary on stdout when leaving (with a window: its latency and memory figures)")
	fs.StringVar(&p.Team, "team", "", "team to join when the host asks, again after every reconnect (default: headless the first team offered, in the window the player chooses)")
	fs.StringVar(&p.Script, "script", "", "headless: key script, lines of `<offset> <down|up> <command>` counted from reaching play")
	fs.StringVar(&p.Nick, "nick", "", "nick for the host's name field")
	fs.Var(p.Set, "set", "auth form value `field=value` (repeatable)")
	fs.StringVar(&p.Origin, "origin", "", "Origin header to send (default: derived from the address)")
	fs.StringVar(&p.CA, "ca", "", "PEM file with an extra CA to trust for https/wss hosts (and their images and sounds)")
	fs.StringVar(&p.AssetCache, "asset-cache", play.DefaultAssetCache(), "`dir`ectory keeping downloaded images and sounds between runs (\"-\" or empty: none)")
	fs.StringVar(&p.Record, "record", "", "write every message both ways to this JSON-lines file")
	fs.BoolVar(&p.Verbose, "v", false, "log connection details to stderr")
	fs.IntVar(&p.Bots, "bots", 5, "bots in the embedded host's match (when no address is given)")
	fs.StringVar(&p.BotSkill, "bot-skill", "easy", "the embedded host's bots' `skill`: easy, normal or hard (when no address is given)")
	fs.StringVar(&p.Game, "game", "", "the `game` the embedded host plays: "+gameList()+" (default "+host.DefaultGame+"; not with an address)")
	fs.StringVar(&p.Map, "map", "", "the embedded host plays only this `map` of the game (no rotation; not with an address)")
	fs.StringVar(&p.AudioOut, "audio-out", "", "also write the sound mix to this WAV file")
	fs.Var(&p.Interp, "interp", "how the world is drawn between frames: `adaptive` (a render clock that never steps back, a delay that follows the network, brief extrapolation) or fixed (the engine's: server time minus the host's delay)")
	fs.BoolVar(&p.NetGraph, "netgraph", false, "show the net graph from the start (F3 toggles it)")
	fs.BoolVar(&p.Fullscreen, "fullscreen", false, "start in fullscreen (F11 or Alt+Enter toggles it)")
	fs.StringVar(&p.Screenshot, "screenshot", "", "write a PNG of the window to this file after -screenshot-after, then quit")
	fs.DurationVar(&p.ScreenshotAfter, "screenshot-after", 10*time.Second, "when to take the -screenshot")
	fs.Var(&p.Size, "window", "the window's size `WxH` (default: its size when last closed, else 1280x720)")
	fs.Var(&p.QuickPlay, "quickplay", "play at once: -quickplay alone against the embedded host (window: skipping the start screen); -quickplay GAME with a lobby master's address joins its fullest room of GAME with space (with none, the embedded host plays GAME)")
	fs.StringVar(&p.Token, "token", "", "identity token for the rooms of the lobby master named on the command line, or by -token-master; sent to no other (default: -token-file, $VIMP_TOKEN, then the one vimpclient login stored)")
	fs.StringVar(&p.TokenFile, "token-file", "", "read the identity token from this file (for the same master as -token)")
	fs.StringVar(&p.TokenMaster, "token-master", "", "the lobby master `URL` that -token, -token-file and $VIMP_TOKEN are for (default: -token's the address argument, unless a join link gave it; $VIMP_TOKEN's $VIMP_TOKEN_MASTER)")
	fs.StringVar(&p.Room, "room", "", "lobby room to join: its id, or its exact name (any case)")
	fs.StringVar(&p.Auth, "auth", "", "the identity service the server browser's Sign in uses (default: the one the master names)")
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
		p.NamedMaster = addr
	}
	if (p.Token != "" || p.TokenFile != "") && p.NamedMaster == "" && p.TokenMaster == "" {
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
	case choosesPlay(fs):
		start = &startscreen.Choice{Kind: startscreen.Offline}
	}
	return play.Window(ctx, &p.Config, start, stdout, stderr)
}

// gameList names the games the embedded host can play, for the usage text.
func gameList() string {
	var ids []string
	for _, g := range host.Games() {
		ids = append(ids, g.ID)
	}
	return strings.Join(ids, ", ")
}

// startFlags are the flags that say what to play: any of them skips the
// start screen (the window plays against the embedded host at once).
var startFlags = []string{"nick", "room", "quickplay", "team", "game", "map", "bots", "bot-skill", "set", "script"}

// choosesPlay reports whether the command line set a flag that says what
// to play.
func choosesPlay(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || slices.Contains(startFlags, f.Name) })
	return set
}
