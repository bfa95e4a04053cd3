package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/audio/synth"
	"vimpclient/host"
	"vimpclient/session"
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
	record   string
	verbose  bool
	bots     int
	// window mode
	audioOut        string
	netGraph        bool
	fullscreen      bool
	screenshot      string
	screenshotAfter time.Duration
	lobby           lobbyFlags
}

func (p *playFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&p.headless, "headless", false, "run without a window or sound device")
	fs.DurationVar(&p.dur, "for", 0, "headless: leave after this long (0: until the host closes for good or Ctrl-C)")
	fs.BoolVar(&p.summary, "summary", false, "headless: print a JSON summary on stdout when leaving")
	fs.StringVar(&p.team, "team", "", "headless: team to join when the host asks (default: the first team offered)")
	fs.StringVar(&p.script, "script", "", "headless: key script, lines of `<offset> <down|up> <command>` counted from reaching play")
	fs.StringVar(&p.nick, "nick", "", "nick for the host's name field")
	fs.Var(p.set, "set", "auth form value `field=value` (repeatable)")
	fs.StringVar(&p.origin, "origin", "", "Origin header to send (default: derived from the address)")
	fs.StringVar(&p.ca, "ca", "", "PEM file with an extra CA to trust for https/wss hosts")
	fs.StringVar(&p.record, "record", "", "write every message both ways to this JSON-lines file")
	fs.BoolVar(&p.verbose, "v", false, "log connection details to stderr")
	fs.IntVar(&p.bots, "bots", 5, "bots in the embedded host's match (when no address is given)")
	fs.StringVar(&p.audioOut, "audio-out", "", "also write the sound mix to this WAV file")
	fs.BoolVar(&p.netGraph, "netgraph", false, "show the net graph from the start (F3 toggles it)")
	fs.BoolVar(&p.fullscreen, "fullscreen", false, "start in fullscreen (F11 or Alt+Enter toggles it)")
	fs.StringVar(&p.screenshot, "screenshot", "", "write a PNG of the window to this file after -screenshot-after, then quit")
	fs.DurationVar(&p.screenshotAfter, "screenshot-after", 10*time.Second, "when to take the -screenshot")
	p.lobby.register(fs)
}

func usagePlay(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "usage: vimpclient [flags] ADDRESS      (http://host:port, or ws://host:port/path)")
	fmt.Fprintln(w, "       vimpclient replay [flags] FILE  (play a recording back)")
	fmt.Fprintln(w, "       vimpclient frames -schema SCHEMA.json FILE...")
	fmt.Fprintln(w, "       vimpclient -room NAME|ID MASTER  (a lobby room; see also: servers, login, serve -master)")
	fs.PrintDefaults()
}

// runPlay is the default command: connect to the host at the address argument.
func runPlay(args []string, stdout, stderr io.Writer) int {
	p := &playFlags{set: setFlag{}}
	fs := flag.NewFlagSet("vimpclient", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p.register(fs)
	fs.Usage = func() { usagePlay(stderr, fs) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "vimpclient: one address expected, got %q\n", fs.Args())
		return 2
	}
	p.lobby.out = newRedactor(stderr) // identity tokens never reach the logs
	stderr = p.lobby.out
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !p.headless && !haveDisplay() {
		fmt.Fprintln(stderr, "vimpclient: no display (DISPLAY is not set); use -headless, or run under a desktop session or xvfb-run")
		return 2
	}
	addr := fs.Arg(0)
	if addr == "" {
		// No address: a match against the embedded host, on a free loopback
		// port, reached through the same WebSocket path a remote host uses.
		hostCtx, stopHost := context.WithCancel(ctx)
		srv, err := host.Start(hostCtx, host.Config{Addr: "127.0.0.1:0", Bots: p.bots,
			Sound: synth.WAV, Log: newLogger(stderr, p.verbose)})
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: embedded host: %v\n", err)
			stopHost()
			return 1
		}
		defer func() {
			stopHost()
			<-srv.Done()
		}()
		addr = srv.URL()
	}
	if !p.headless {
		return windowConnect(ctx, p, addr, stdout, stderr)
	}
	return headlessConnect(ctx, p, addr, stdout, stderr)
}

// haveDisplay reports whether a window can be opened: on Linux and the BSDs
// a display server must be named in the environment; elsewhere the system
// always has one.
func haveDisplay() bool {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
	}
	return true
}

func newLogger(w io.Writer, verbose bool) *slog.Logger {
	lvl := slog.LevelWarn
	if verbose {
		lvl = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lvl}))
}

func loadScript(path string) ([]scriptStep, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	defer f.Close()
	return parseScript(f)
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
// the HTTP client (with -ca), the remembered auth values and the recorder.
type connection struct {
	log    *slog.Logger
	client *http.Client
	store  *session.AuthStore // nil when values cannot be remembered
	rec    *session.Recorder  // nil without -record
}

func newConnection(p *playFlags, mode, addr string, stderr io.Writer) (*connection, error) {
	c := &connection{log: newLogger(stderr, p.verbose)}
	var err error
	if c.client, err = session.HTTPClient(p.ca); err != nil {
		return nil, err
	}
	if c.store, err = session.DefaultAuthStore(); err != nil {
		c.log.Warn("auth values will not be remembered", "err", err)
		c.store = nil
	}
	if c.rec, err = openRecorder(p.record, mode+" "+addr, nil); err != nil {
		return nil, err
	}
	return c, nil
}

// headlessConnect joins a live host with no window and no sound.
func headlessConnect(ctx context.Context, p *playFlags, addr string, stdout, stderr io.Writer) int {
	script, err := loadScript(p.script)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	conn, err := newConnection(p, "headless", addr, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	log, client, store, rec := conn.log, conn.client, conn.store, conn.rec
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: p.nick, Set: p.set, Store: store, GuestNick: guestNick(time.Now())},
		AutoTeam: true, Team: p.team, Recorder: rec, Logger: log,
	})
	var snd *headlessSound
	runner := &session.Runner{Session: sess, Addr: addr, Origin: p.origin, Client: client,
		OnTarget: func(t session.Target) {
			log.Info("connecting", "ws", t.WSURL, "origin", t.Origin, "game", t.GameID, "version", t.GameVersion)
			if snd != nil {
				snd.target.Store(&t)
			}
		}}
	closeLobby, code := joinLobby(ctx, p, runner, log, stderr)
	if code != 0 {
		return code
	}
	defer closeLobby()
	if p.dur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.dur)
		defer cancel()
	}
	start := time.Now()
	g := newGameLoop(sess, newClientCore, time.Now, script, log)
	if p.audioOut != "" {
		// Sound without a device: the mix runs in real time into the WAV.
		mx := mix.New(mix.Options{})
		out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{WAVPath: p.audioOut, Silent: true, Logger: log})
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 1
		}
		defer func() {
			if err := out.Close(); err != nil {
				fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			}
		}()
		sounds := audio.NewManager(mx, audio.Options{Logger: log})
		defer sounds.Destroy()
		snd = &headlessSound{ctx: ctx, log: log, loop: g, sounds: sounds, snd: newPartSounds(sounds)}
		g.sink = snd.event
	}
	info, runErr := driveHeadless(ctx, g, runner.Run, 60)
	if err := rec.Close(); err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
	}
	return finishHeadless(g, info, runErr, time.Since(start), p.summary, stdout, stderr)
}

// finishHeadless prints the closing note and the summary and picks the exit status.
func finishHeadless(g *gameLoop, info *session.CloseInfo, runErr error, d time.Duration, wantSummary bool, stdout, stderr io.Writer) int {
	s := g.summary(d)
	switch {
	case info != nil && !info.Local:
		fmt.Fprintf(stderr, "vimpclient: closed (%d): %s\n", info.Code, info.Reason)
	case runErr != nil && !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, context.DeadlineExceeded):
		fmt.Fprintf(stderr, "vimpclient: %v\n", runErr)
	}
	if g.fatal != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", g.fatal)
	}
	fmt.Fprintf(stderr, "vimpclient: reached %q, %d frames (%d decoded, %d dropped), %d pongs\n",
		s.State, s.Frames.Received, s.Frames.Decoded, s.Frames.Dropped, s.Pings)
	if wantSummary {
		if err := writeSummary(stdout, s); err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 1
		}
	}
	if s.State != session.StatePlaying.String() {
		return 1
	}
	return 0
}

// guestNick is the nick a headless run uses when neither -nick nor a
// remembered value gives one: "Guest" and four digits (the host's name rule
// allows it; a clash is renamed by the host).
func guestNick(now time.Time) string {
	return fmt.Sprintf("Guest%04d", now.UnixNano()/1e6%10000)
}
