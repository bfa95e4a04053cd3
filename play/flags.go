package play

import (
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"vimpclient/host"
	"vimpclient/settings"
)

// RegisterFlags defines the play commands' flags on fs, each writing its
// field of p: the flags of the default command and of open, which joins
// the same way.
func (p *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.BoolVar(&p.Headless, "headless", false, "run without a window or sound device")
	fs.DurationVar(&p.For, "for", 0, "headless: leave after this long (0: until the host closes for good, Ctrl-C, or 5 attempts in a row fail to reach play)")
	fs.BoolVar(&p.Summary, "summary", false, "print a JSON summary on stdout when leaving (with a window: its latency and memory figures)")
	fs.StringVar(&p.Team, "team", "", "team to join when the host asks, again after every reconnect (default: headless the first team offered, in the window the player chooses)")
	fs.StringVar(&p.Script, "script", "", "headless: key script, lines of `<offset> <down|up> <command>` counted from reaching play")
	fs.StringVar(&p.Nick, "nick", "", "nick for the host's name field")
	fs.Var(p.Set, "set", "auth form value `field=value` (repeatable)")
	fs.StringVar(&p.Origin, "origin", "", "Origin header to send (default: derived from the address)")
	fs.StringVar(&p.CA, "ca", "", "PEM file with an extra CA to trust for https/wss hosts (and their images and sounds)")
	fs.StringVar(&p.AssetCache, "asset-cache", DefaultAssetCache(), "`dir`ectory keeping downloaded images and sounds between runs (\"-\" or empty: none)")
	fs.StringVar(&p.Record, "record", "", "write every message both ways to this JSON-lines file")
	fs.BoolVar(&p.Verbose, "v", false, "log connection details to stderr")
	fs.IntVar(&p.Bots, "bots", 5, "bots in the embedded host's match (when no address is given)")
	fs.StringVar(&p.BotSkill, "bot-skill", "easy", "the embedded host's bots' `skill`: easy, normal or hard (when no address is given)")
	fs.StringVar(&p.Game, "game", "", "the `game` the embedded host plays: "+GameList()+" (default "+host.DefaultGame+"; not with an address)")
	fs.StringVar(&p.Map, "map", "", "the embedded host plays only this `map` of the game (no rotation; not with an address)")
	fs.StringVar(&p.AudioOut, "audio-out", "", "also write the sound mix to this WAV file")
	fs.Var(&p.Interp, "interp", "how the world is drawn between frames: `adaptive` (a render clock that never steps back, a delay that follows the network, brief extrapolation) or fixed (the engine's: server time minus the host's delay)")
	fs.BoolVar(&p.NetGraph, "netgraph", false, "show the net graph from the start (F3 toggles it)")
	fs.BoolVar(&p.Fullscreen, "fullscreen", false, "start in fullscreen (F11 or Alt+Enter toggles it)")
	fs.StringVar(&p.Screenshot, "screenshot", "", "write a PNG of the window to this file after -screenshot-after, then quit")
	fs.DurationVar(&p.ScreenshotAfter, "screenshot-after", 10*time.Second, "when to take the -screenshot")
	fs.Var(&p.Size, "window", "the window's size `WxH` (default: its size when last closed, else 1280x720)")
	fs.Var(&p.QuickPlay, "quickplay", "play at once: -quickplay alone against the embedded host (window: skipping the start screen); -quickplay GAME with a lobby master's address joins its fullest room of GAME with space (with none, the embedded host plays GAME)")
	fs.StringVar(&p.Tokens.Token, "token", "", "identity token for the rooms of the lobby master named on the command line, or by -token-master; sent to no other (default: -token-file, $VIMP_TOKEN, then the one vimpclient login stored)")
	fs.StringVar(&p.Tokens.File, "token-file", "", "read the identity token from this file (for the same master as -token)")
	fs.StringVar(&p.Tokens.Master, "token-master", "", "the lobby master `URL` that -token, -token-file and $VIMP_TOKEN are for (default: -token's the address argument, unless a join link gave it; $VIMP_TOKEN's $VIMP_TOKEN_MASTER)")
	fs.StringVar(&p.Room, "room", "", "lobby room to join: its id, or its exact name (any case)")
	fs.StringVar(&p.Auth, "auth", "", "the identity service the server browser's Sign in uses (default: the one the master names)")
}

// RegisterFlags defines the replay command's flags on fs, each writing its
// field of r; the recording's file is the command's argument.
func (r *ReplayConfig) RegisterFlags(fs *flag.FlagSet) {
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
	fs.StringVar(&r.AssetCache, "asset-cache", DefaultAssetCache(), "window: the asset cache the recorded match's images and sounds are read from when -assets is not given (\"-\" or empty: none)")
	fs.BoolVar(&r.Verbose, "v", false, "log details to stderr")
	fs.StringVar(&r.Shot.Path, "screenshot", "", "window: write a PNG of the window after -screenshot-after, then quit")
	fs.DurationVar(&r.Shot.After, "screenshot-after", 3*time.Second, "when to take the -screenshot")
	fs.DurationVar(&r.Shot.Seek, "seek", 0, "window: start at this point of the recording")
	fs.BoolVar(&r.Shot.Paused, "paused", false, "window: start paused")
	fs.Var(&r.Shot.Size, "window", "window: its size `WxH` (default: its size when last closed, else 1280x720)")
}

// GameList names the games the embedded host can play, for the usage
// texts.
func GameList() string {
	var ids []string
	for _, g := range host.Games() {
		ids = append(ids, g.ID)
	}
	return strings.Join(ids, ", ")
}

// startFlags are the flags that say what to play: any of them skips the
// start screen (the window plays against the embedded host at once).
var startFlags = []string{"nick", "room", "quickplay", "team", "game", "map", "bots", "bot-skill", "set", "script"}

// ChoosesPlay reports whether the command line parsed into fs (whose flags
// RegisterFlags defined) set a flag that says what to play.
func ChoosesPlay(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || slices.Contains(startFlags, f.Name) })
	return set
}

// Values collects repeated -set field=value flags: auth form values.
type Values map[string]string

func (s Values) String() string { return fmt.Sprint(map[string]string(s)) }

// Set takes one field=value.
func (s Values) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("-set wants field=value, got %q", v)
	}
	s[k] = val
	return nil
}

// Interp is -interp: how the world is drawn between frames. The default,
// adaptive, runs the client core's adaptive render clock; fixed draws at
// the host's server time minus its interpolation delay as the engine
// does, with no extrapolation.
type Interp struct{ Fixed bool }

func (i *Interp) String() string {
	if i != nil && i.Fixed {
		return "fixed"
	}
	return "adaptive"
}

// Set takes adaptive or fixed.
func (i *Interp) Set(v string) error {
	switch v {
	case "adaptive":
		i.Fixed = false
	case "fixed":
		i.Fixed = true
	default:
		return fmt.Errorf("-interp wants adaptive or fixed, got %q", v)
	}
	return nil
}

// QuickPlay is -quickplay [GAME]: with no game (as the flag has always
// been written) it plays at once, against the embedded host when no
// address is given; with a game, the embedded host plays that game, and a
// lobby master's fullest room of that game with space is joined.
type QuickPlay struct {
	On   bool
	Game string
}

func (q *QuickPlay) String() string {
	if q == nil || !q.On {
		return "false"
	}
	if q.Game == "" {
		return "true"
	}
	return q.Game
}

// Set takes -quickplay (true), -quickplay=false, or -quickplay=GAME.
func (q *QuickPlay) Set(v string) error {
	if b, err := strconv.ParseBool(v); err == nil {
		q.On, q.Game = b, ""
		return nil
	}
	if !gameName.MatchString(v) {
		return fmt.Errorf("-quickplay wants a game id (tanks, snakes, …), got %q", v)
	}
	q.On, q.Game = true, v
	return nil
}

// IsBoolFlag lets -quickplay stand alone.
func (q *QuickPlay) IsBoolFlag() bool { return true }

// gameName is the shape of a game id: no address has it (an address has
// a ':', '.' or '/').
var gameName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// JoinQuickplayArg rewrites "-quickplay GAME" as "-quickplay=GAME" so the
// flags after it still parse: a bare -quickplay takes no value, and the
// flag package would stop at GAME. Only a game id's shape is taken, so
// "-quickplay http://master" keeps its address.
func JoinQuickplayArg(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-quickplay" || a == "--quickplay") && i+1 < len(args) && gameName.MatchString(args[i+1]) {
			out = append(out, "-quickplay="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// Size is the -window flag: the window's size as WxH in logical pixels;
// zero leaves it to the size remembered from the last run.
type Size struct{ W, H int }

func (s *Size) String() string {
	if s == nil || s.W == 0 {
		return ""
	}
	return fmt.Sprintf("%dx%d", s.W, s.H)
}

// Set takes WIDTHxHEIGHT.
func (s *Size) Set(v string) error {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(v)), "x")
	w, werr := strconv.Atoi(ws)
	h, herr := strconv.Atoi(hs)
	if !ok || werr != nil || herr != nil || !(settings.Geometry{W: w, H: h}).Valid() {
		return fmt.Errorf("want WIDTHxHEIGHT, %d to %d px a side (for example 1366x768), got %q",
			settings.MinWindowSide, settings.MaxWindowSide, v)
	}
	s.W, s.H = w, h
	return nil
}
