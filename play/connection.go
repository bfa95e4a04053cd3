// Package play connects a window or a headless run to what the player
// asked for: a host at an address, a lobby master's room (its token, its
// WebRTC dialer), or the embedded host started in-process; and plays a
// recording back. In the window every match the start screen or the
// server browser opens is built here (a session, its runner and its game
// loop) and torn down when the player leaves it; headless, one run is
// played to its end and summed up in its exit status.
package play

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"vimpclient/host"
	"vimpclient/input"
	"vimpclient/internal/localfile"
	"vimpclient/lobby"
	"vimpclient/logs"
	"vimpclient/session"
)

// Config is what the play commands ask for: the flags of the default
// command (join a host, a lobby room, or play against the embedded host),
// which RegisterFlags defines.
type Config struct {
	Headless bool
	For      time.Duration // headless: leave after this long (0: see Headless)
	Summary  bool          // print a JSON summary on stdout when leaving (a window: its latency figures)
	Team     string        // the team to join when the host asks
	Script   string        // headless: the key script's file
	Nick     string
	Set      Values // auth form values
	Origin   string // the Origin header ("": derived from the address)
	CA       string // a PEM file with an extra CA to trust
	// AssetCache is the directory keeping downloaded images and sounds
	// between runs ("" or "-": none).
	AssetCache string
	Record     string // write every message both ways to this file
	Verbose    bool
	// The embedded host's match, when no address is given.
	Bots      int
	BotSkill  string // the bots' preset ("": easy)
	Game, Map string
	// Interp is how the world is drawn between frames (-interp).
	Interp Interp
	// Window mode.
	AudioOut        string // also write the sound mix to this WAV file
	NetGraph        bool
	Fullscreen      bool
	Screenshot      string
	ScreenshotAfter time.Duration
	Size            Size
	QuickPlay       QuickPlay
	// Lobby rooms: the room, and the identity service the server
	// browser's Sign in uses ("": the one the master names).
	Room, Auth string
	// Tokens are the identity token's flags. Tokens.Master (-token-master)
	// names the master the tokens of -token, -token-file and VIMP_TOKEN are
	// for. Without it -token and -token-file are for Tokens.Named, the
	// address the player wrote on the command line ("" when it came from a
	// join link), and VIMP_TOKEN for the master VIMP_TOKEN_MASTER names.
	Tokens lobby.TokenFlags

	// out is stderr with identity tokens redacted.
	out *redactor
}

// Prepare checks p against the address it plays ("": the embedded host)
// and settles the embedded host's game: -quickplay GAME with no address
// plays GAME there. The embedded host's game and map are not for a host at
// an address, which plays its own.
func (p *Config) Prepare(addr string) error {
	if p.Map != "" && addr != "" {
		return errors.New("-map picks the embedded host's map; a host at an address plays its own")
	}
	if q := p.QuickPlay.Game; q != "" && addr == "" {
		if p.Game != "" && p.Game != q {
			return fmt.Errorf("-quickplay %s and -game %s name two games", q, p.Game)
		}
		p.Game = q // no address: the embedded host plays the game asked for
	}
	if p.Game != "" && addr != "" {
		return errors.New("-game picks the embedded host's game; a host at an address plays its own")
	}
	if err := host.CheckBotSkill(p.BotSkill); err != nil {
		return fmt.Errorf("-bot-skill: %w", err)
	}
	return host.CheckMap(p.Game, p.Map)
}

// maxScriptBytes bounds a key script: a long one is a few KiB.
const maxScriptBytes = 1 << 20

// loadScript reads the key script at path: a regular file (a FIFO or a
// device is refused at once) of at most maxScriptBytes.
func loadScript(path string) ([]input.ScriptStep, error) {
	if path == "" {
		return nil, nil
	}
	f, size, err := localfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	defer f.Close()
	if size > maxScriptBytes {
		return nil, fmt.Errorf("script %s: %d bytes, over the %s a key script may hold", path, size, localfile.Size(maxScriptBytes))
	}
	return input.ParseScript(localfile.LimitReader(f, maxScriptBytes, path, "key script"))
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

func newConnection(p *Config, mode, addr string, stderr io.Writer) (*connection, error) {
	c := &connection{}
	c.log, c.once = logs.New(stderr, p.Verbose)
	var err error
	if c.client, err = session.HTTPClient(p.CA); err != nil {
		return nil, err
	}
	c.assets = newTargetAssets(c.client, p.AssetCache, c.log)
	if c.store, err = session.DefaultAuthStore(); err != nil {
		c.log.Warn("auth values will not be remembered", "err", err)
		c.store = nil
	}
	if c.rec, err = openRecorder(p.Record, mode+" "+addr, nil); err != nil {
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
