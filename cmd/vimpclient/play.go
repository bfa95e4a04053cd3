package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"vimpclient/host"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/internal/version"
	"vimpclient/logs"
	"vimpclient/session"
	"vimpclient/window"
)

// setFlag collects repeated -set field=value flags.
type setFlag map[string]string

func (s setFlag) String() string { return fmt.Sprint(map[string]string(s)) }

func (s setFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("-set wants field=value, got %q", v)
	}
	s[k] = val
	return nil
}

// playFlags are the flags of the default command (connect to a host).
type playFlags struct {
	headless bool
	dur      time.Duration
	summary  bool
	team     string
	script   string
	nick     string
	set      setFlag
	origin   string
	ca       string
	cache    string
	record   string
	verbose  bool
	bots     int
	game     string
	mapName  string
	// window mode
	audioOut        string
	netGraph        bool
	fullscreen      bool
	screenshot      string
	screenshotAfter time.Duration
	size            windowSize
	lobby           lobbyFlags
	quickplay       quickplayFlag
	version         bool
}

func (p *playFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&p.headless, "headless", false, "run without a window or sound device")
	fs.DurationVar(&p.dur, "for", 0, "headless: leave after this long (0: until the host closes for good, Ctrl-C, or 5 attempts in a row fail to reach play)")
	fs.BoolVar(&p.summary, "summary", false, "headless: print a JSON summary on stdout when leaving")
	fs.StringVar(&p.team, "team", "", "team to join when the host asks, again after every reconnect (default: headless the first team offered, in the window the player chooses)")
	fs.StringVar(&p.script, "script", "", "headless: key script, lines of `<offset> <down|up> <command>` counted from reaching play")
	fs.StringVar(&p.nick, "nick", "", "nick for the host's name field")
	fs.Var(p.set, "set", "auth form value `field=value` (repeatable)")
	fs.StringVar(&p.origin, "origin", "", "Origin header to send (default: derived from the address)")
	fs.StringVar(&p.ca, "ca", "", "PEM file with an extra CA to trust for https/wss hosts (and their images and sounds)")
	fs.StringVar(&p.cache, "asset-cache", defaultAssetCache(), "`dir`ectory keeping downloaded images and sounds between runs (\"-\" or empty: none)")
	fs.StringVar(&p.record, "record", "", "write every message both ways to this JSON-lines file")
	fs.BoolVar(&p.verbose, "v", false, "log connection details to stderr")
	fs.IntVar(&p.bots, "bots", 5, "bots in the embedded host's match (when no address is given)")
	fs.StringVar(&p.game, "game", "", "the `game` the embedded host plays: "+gameList()+" (default "+host.DefaultGame+"; not with an address)")
	fs.StringVar(&p.mapName, "map", "", "the embedded host plays only this `map` of the game (no rotation; not with an address)")
	fs.StringVar(&p.audioOut, "audio-out", "", "also write the sound mix to this WAV file")
	fs.BoolVar(&p.netGraph, "netgraph", false, "show the net graph from the start (F3 toggles it)")
	fs.BoolVar(&p.fullscreen, "fullscreen", false, "start in fullscreen (F11 or Alt+Enter toggles it)")
	fs.StringVar(&p.screenshot, "screenshot", "", "write a PNG of the window to this file after -screenshot-after, then quit")
	fs.DurationVar(&p.screenshotAfter, "screenshot-after", 10*time.Second, "when to take the -screenshot")
	fs.Var(&p.size, "window", "the window's size `WxH` (default: its size when last closed, else 1280x720)")
	fs.Var(&p.quickplay, "quickplay", "play at once: -quickplay alone against the embedded host (window: skipping the start screen); -quickplay GAME with a lobby master's address joins its fullest room of GAME with space (with none, the embedded host plays GAME)")
	p.lobby.register(fs)
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
	p := &playFlags{set: setFlag{}}
	fs := flag.NewFlagSet("vimpclient", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p.register(fs)
	fs.Usage = func() { usagePlay(stderr, fs) }
	if err := fs.Parse(joinQuickplayArg(args)); err != nil {
		return parseStatus(err)
	}
	if p.version {
		fmt.Fprintln(stdout, version.Get())
		return 0
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "vimpclient: one address expected, got %q\n", fs.Args())
		return 2
	}
	p.lobby.out = newRedactor(stderr) // identity tokens never reach the logs
	stderr = p.lobby.out
	if p.mapName != "" && fs.Arg(0) != "" {
		fmt.Fprintln(stderr, "vimpclient: -map picks the embedded host's map; a host at an address plays its own")
		return 2
	}
	if q := p.quickplay.game; q != "" && fs.Arg(0) == "" {
		if p.game != "" && p.game != q {
			fmt.Fprintf(stderr, "vimpclient: -quickplay %s and -game %s name two games\n", q, p.game)
			return 2
		}
		p.game = q // no address: the embedded host plays the game asked for
	}
	if p.game != "" && fs.Arg(0) != "" {
		fmt.Fprintln(stderr, "vimpclient: -game picks the embedded host's game; a host at an address plays its own")
		return 2
	}
	if err := host.CheckMap(p.game, p.mapName); err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	if !p.headless {
		if err := window.Available(); err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 2
		}
	}
	addr := fs.Arg(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !p.headless {
		// The window opens at once: on the start screen when nothing on
		// the command line says what to play, else on the connecting
		// screen of the address (or of the embedded host).
		var start *hud.StartChoice
		switch {
		case addr != "":
			start = &hud.StartChoice{Kind: hud.StartJoin, Value: addr}
		case choosesPlay(fs):
			start = &hud.StartChoice{Kind: hud.StartOffline}
		}
		return windowHome(ctx, p, start, stderr)
	}
	if addr == "" {
		// No address: a match against the embedded host.
		hostCtx, stopHost := context.WithCancel(ctx)
		srv, err := startEmbedded(hostCtx, p, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			stopHost()
			return 1
		}
		defer func() {
			stopHost()
			<-srv.Done()
		}()
		addr = srv.URL()
	}
	return headlessConnect(ctx, p, addr, stdout, stderr)
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
var startFlags = []string{"nick", "room", "quickplay", "team", "game", "map", "bots", "set", "script"}

// choosesPlay reports whether the command line set a flag that says what
// to play.
func choosesPlay(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || slices.Contains(startFlags, f.Name) })
	return set
}

// hostLogger is the embedded host's logger: its problems only, unless -v
// asks for everything.
func hostLogger(w io.Writer, verbose bool) *slog.Logger {
	lvl := slog.LevelWarn
	if verbose {
		lvl = slog.LevelDebug
	}
	return logs.NewText(w, lvl)
}

func loadScript(path string) ([]input.ScriptStep, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	defer f.Close()
	return input.ParseScript(f)
}

func openRecorder(path, scenario string, now func() time.Time) (*session.Recorder, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return session.NewRecorder(f, scenario, now), nil
}

// connection is what both play modes set up before connecting: the logger,
// the HTTP client (with -ca), the asset downloaders built from it, the
// remembered auth values and the recorder.
type connection struct {
	log    *slog.Logger
	once   *logs.Once // says each warning once per connection
	client *http.Client
	assets *targetAssets
	store  *session.AuthStore // nil when values cannot be remembered
	rec    *session.Recorder  // nil without -record
}

func newConnection(p *playFlags, mode, addr string, stderr io.Writer) (*connection, error) {
	c := &connection{}
	c.log, c.once = logs.New(stderr, p.verbose)
	var err error
	if c.client, err = session.HTTPClient(p.ca); err != nil {
		return nil, err
	}
	c.assets = newTargetAssets(c.client, p.cache, c.log)
	if c.store, err = session.DefaultAuthStore(); err != nil {
		c.log.Warn("auth values will not be remembered", "err", err)
		c.store = nil
	}
	if c.rec, err = openRecorder(p.record, mode+" "+addr, nil); err != nil {
		return nil, err
	}
	return c, nil
}

// guestNick is the nick a headless run uses when neither -nick nor a
// remembered value gives one: "Guest" and four digits (the host's name rule
// allows it; a clash is renamed by the host).
func guestNick(now time.Time) string {
	return fmt.Sprintf("Guest%04d", now.UnixNano()/1e6%10000)
}
