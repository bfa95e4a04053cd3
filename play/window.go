package play

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"vimpclient/assets"
	"vimpclient/browser"
	"vimpclient/demo"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/host/sounds"
	"vimpclient/hostlist"
	"vimpclient/hud/serverbrowser"
	"vimpclient/hud/settingsmenu"
	"vimpclient/hud/startscreen"
	"vimpclient/input"
	"vimpclient/lobby"
	"vimpclient/logs"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/render"
	"vimpclient/session"
	"vimpclient/settings"
	"vimpclient/window"
)

// Window plays in a window that opens at once: on the start screen, or
// (start set) on the connecting screen of what the command line named. Every
// match, server browser and demo the player opens from there is built in
// this window and torn down in it. It returns the exit status.
func Window(ctx context.Context, p *Config, start *startscreen.Choice, stdout, stderr io.Writer) int {
	stderr = p.redact(stderr)
	scenario := "start screen"
	if start != nil {
		scenario = start.Value
	}
	conn, err := newConnection(p, "window", scenario, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	log := conn.log
	defer conn.rec.Close()
	av, err := openAudio(ctx, p, log)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	defer av.close()
	renderer := render.New(ctx, render.Options{Log: log}) // each match's target brings its images
	mm := &matchMaker{p: p, conn: conn, textures: renderer.Textures(), setAssets: renderer.SetAssets, sounds: av.sounds,
		tokens: p.TokenSources()}
	off := &offlineHost{p: p, stderr: stderr}
	defer off.stop()
	room := p.Room       // joined at once in the first browser opened
	quick := p.QuickPlay // ... or, without -room, the room quick play finds there
	menu := startscreen.New(func(k startscreen.Kind) []startscreen.Entry {
		if k == startscreen.Offline {
			return offlineGames(p.Game, p.Map)
		}
		return browser.StartEntries(k)
	})
	menu.DemosDir, _ = browser.RecordingsDir()
	home := window.Home{
		Menu: menu,
		Connect: func(ctx context.Context, c startscreen.Choice) (window.Match, error) {
			if c.Kind == startscreen.Offline {
				return mm.offline(ctx, off, c.Value)
			}
			addr := c.Value
			if link, err := lobby.ParseJoinLink(addr); err == nil {
				// A pasted join link: its master's browser opens on the
				// room, joined at once.
				addr, room = link.Master, link.Room
			}
			return mm.join(ctx, serverbrowser.Choice{Address: addr, Name: addr})
		},
		Label: func(c startscreen.Choice) string {
			if c.Kind == startscreen.Offline {
				return fmt.Sprintf("the embedded host (%s, %d bots)", gameTitle(c.Value, p.Game), p.Bots)
			}
			return c.Value
		},
		Browse: func(ctx context.Context, master string) (window.Lobby, error) {
			l, err := mm.browser(ctx, master, room)
			if err == nil && room == "" && quick.On {
				l.Browser.PlayNowGame(quick.Game) // -quickplay [GAME] MASTER: the fullest room at once
			}
			room, quick = "", QuickPlay{}
			return l, err
		},
		Demo: func(ctx context.Context, path string) (*demo.Demo, error) {
			return openMenuDemo(ctx, path, p, renderer, av, conn)
		},
		Start:   start,
		Silence: av.sounds.Reset,
	}
	prefs, prefsPath, prefsNotice := loadSettings(log)
	setAside := browser.NewSetAsideNotices("", time.Now())
	home.Notice = func() string {
		n := setAside.Next()
		if prefsNotice != "" {
			n, prefsNotice = strings.TrimSpace(prefsNotice+" "+n), ""
		}
		return n
	}
	bindingsPath, _ := input.BindingsPath()
	wo := window.Options{
		Title: "vimpclient", Log: log, NetGraph: p.NetGraph,
		Fullscreen: p.Fullscreen, Screenshot: p.Screenshot, ScreenshotAfter: p.ScreenshotAfter, Width: p.Size.W, Height: p.Size.H,
		Settings: prefs, SettingsPath: prefsPath, BindingsPath: bindingsPath, Sound: av.sounds,
		Games: bindableGames(log),
	}
	if p.Summary {
		wo.Summary = stdout
	}
	win, err := window.NewHome(ctx, home, renderer, wo)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	if err := win.Run(); err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	return 0
}

// browser builds the server browser of the master a match found at an
// address (its target remembered by the match's resolve); room, if set,
// is joined at once.
func (mm *matchMaker) browser(ctx context.Context, addr, room string) (window.Lobby, error) {
	log := mm.conn.log
	t, ok := mm.master(addr)
	if !ok {
		return window.Lobby{}, fmt.Errorf("%s was not found to be a lobby master", addr)
	}
	master, err := lobby.NewMaster(t.Master, mm.conn.client)
	if err != nil {
		return window.Lobby{}, err
	}
	if mm.p.Nick != "" {
		log.Warn("-nick is ignored in lobby rooms: the nick comes from the identity token")
	}
	if tok, _, err := mm.tokens.Token(master); err == nil {
		mm.p.out.add(tok)
	}
	backend := browser.New(ctx, master, mm.conn.client, t.Origin, mm.tokens, log)
	backend.Auth, backend.Redact = mm.p.Auth, mm.p.out.add
	l := window.Lobby{Browser: serverbrowser.New(master.URL()), Backend: backend, Join: mm.join, Close: backend.Close}
	if mm.sounds != nil {
		l.Silence = mm.sounds.Reset
	}
	if room != "" {
		l.Start = &serverbrowser.Choice{Kind: hostlist.Lobby, Address: master.URL(), Room: room, Name: room}
	}
	return l, nil
}

// mastersFound keeps the targets of the lobby masters matches found at
// their addresses, for the browsers opened on them.
type mastersFound struct {
	mu sync.Mutex
	m  map[string]session.Target
}

func (f *mastersFound) add(t session.Target) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string]session.Target{}
	}
	f.m[t.Master] = t
}

func (f *mastersFound) get(master string) (session.Target, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.m[master]
	return t, ok
}

// offlineHost is the embedded host the start screen's "Play offline vs
// bots" plays against: started at the first such match, on a free loopback
// port, and kept until the window closes.
type offlineHost struct {
	p      *Config
	stderr io.Writer
	srv    *host.Server
	game   string // the game srv plays
	cancel context.CancelFunc
}

// url starts the host for game ("": the one -game named, else the
// default) if it is not running that game, and says where it listens. A
// -map that is not one of the game's maps is refused with the game's list.
func (o *offlineHost) url(ctx context.Context, game string) (string, error) {
	if game == "" {
		game = o.p.Game
	}
	if game == "" {
		game = host.DefaultGame
	}
	if o.srv != nil && o.game != game {
		o.stop()
	}
	if o.srv == nil {
		hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		p := *o.p
		p.Game = game
		srv, err := startEmbedded(hctx, &p, o.stderr)
		if err != nil {
			cancel()
			return "", err
		}
		o.srv, o.game, o.cancel = srv, game, cancel
	}
	return o.srv.URL(), nil
}

// offline starts a match against the embedded host playing game ("": the
// one -game named, else the default).
func (mm *matchMaker) offline(ctx context.Context, off *offlineHost, game string) (window.Match, error) {
	addr, err := off.url(ctx, game)
	if err != nil {
		return nil, err
	}
	label := "Offline (" + off.game + ")"
	return mm.joinAt(ctx, serverbrowser.Choice{Address: addr, Name: label, GameID: off.game}, true)
}

func (o *offlineHost) stop() {
	if o.srv != nil {
		o.cancel()
		<-o.srv.Done()
		o.srv = nil
	}
}

// offlineGames are the start screen's offline page: the games the built-in
// host plays, by name, the one -game named first; each says its maps, or
// the one -map picks.
func offlineGames(game, mapName string) []startscreen.Entry {
	var first, rest []startscreen.Entry
	for _, g := range host.Games() {
		e := startscreen.Entry{Label: g.Title, Detail: "maps: " + strings.Join(g.Maps, ", "), Value: g.ID}
		if mapName != "" && slices.Contains(g.Maps, mapName) {
			e.Detail = "map " + mapName
		}
		if g.ID == game {
			first = append(first, e)
		} else {
			rest = append(rest, e)
		}
	}
	return append(first, rest...)
}

// bindableGames are the games whose keys the start screen's Settings
// binds: the embedded host's, with the keys their CONFIG_DATA gives (the
// same a host of the game sends). A game whose keys cannot be read is
// left out, said in the log.
func bindableGames(log *slog.Logger) []settingsmenu.OfferedGame {
	var out []settingsmenu.OfferedGame
	for _, g := range host.Games() {
		m, err := g.New(host.MatchOptions{Seed: 1, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			log.Warn("keys not bindable before a match", "game", g.ID, "err", err)
			continue
		}
		cfg, err := protocol.ParseConfig(m.ConfigData())
		if err != nil {
			log.Warn("keys not bindable before a match", "game", g.ID, "err", err)
			continue
		}
		keys, _ := input.ConfigFrom(cfg)
		out = append(out, settingsmenu.OfferedGame{ID: g.ID, Title: g.Title, Keys: keys})
	}
	return out
}

// gameTitle is the name of game ("": fallback, then the default).
func gameTitle(game, fallback string) string {
	if game == "" {
		game = fallback
	}
	if game == "" {
		game = host.DefaultGame
	}
	for _, g := range host.Games() {
		if g.ID == game {
			return g.Title
		}
	}
	return game
}

// startEmbedded starts the embedded host for a match without an address,
// on a free loopback port, reached through the same WebSocket path a
// remote host uses.
func startEmbedded(ctx context.Context, p *Config, stderr io.Writer) (*host.Server, error) {
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Game: p.Game, Bots: p.Bots, BotSkill: p.BotSkill, Map: p.Map,
		Sound: sounds.File, Log: logs.NewQuiet(stderr, p.Verbose)})
	if err != nil {
		return nil, fmt.Errorf("embedded host: %w", err)
	}
	return srv, nil
}

// demoRenderer is what a demo opened in the window draws with: the
// window's renderer, pointed at the demo's images.
type demoRenderer interface {
	Textures() parts.Textures
	SetAssets(d *assets.Downloader)
}

// openMenuDemo opens a recording chosen on the start screen as a demo in
// the window, with the images and sounds replay finds for it (without
// -assets): the recorded match's from the asset cache, else the client's
// own.
func openMenuDemo(ctx context.Context, path string, p *Config, renderer demoRenderer, av *audioOut, conn *connection) (*demo.Demo, error) {
	read, err := session.LoadRecording(path)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	log := conn.log
	media, err := recordedMedia(read.Lines, "", "", p.AssetCache, p.CA, log)
	if err != nil {
		return nil, fmt.Errorf("demo %s: %w", filepath.Base(path), err)
	}
	renderer.SetAssets(media.dl) // the next match points it at its own
	d, err := demo.New(demo.Options{Lines: read.Lines, Log: log, AssetsBase: media.assetsBase(),
		NewLoop: func(sess *session.Session) *gameloop.Loop {
			av.sounds.Reset() // each pass through the recording starts with silence
			return gameloop.New(gameloop.Options{Session: sess, Log: log, Context: ctx, NoPrediction: true,
				Textures: renderer.Textures(), Sounds: av.sounds, SoundFetcher: media.soundFetcher(),
				Interactive: true, AutoTeam: true})
		}})
	if err != nil {
		return nil, fmt.Errorf("demo %s: %w", filepath.Base(path), err)
	}
	return d, nil
}

// loadSettings reads the player's settings from the user config dir: the
// defaults when there are none, each damaged value replaced by its default
// and said. path is "" when there is no config dir to save into; notice is
// the sentence the start screen shows when the file was not read in full.
func loadSettings(log *slog.Logger) (_ *settings.Settings, path, notice string) {
	path, err := settings.Path()
	if err != nil {
		log.Warn("settings will not be saved", "err", err)
		s := settings.Default()
		return &s, "", ""
	}
	s, problems, err := settings.Load(path)
	if err != nil {
		log.Warn("settings not read", "file", path, "err", err)
		notice = fmt.Sprintf("settings.json could not be read (%v): the defaults are in use, and the file is set aside when a setting changes.", err)
	}
	for _, p := range problems {
		log.Warn("settings", "file", path, "problem", p)
	}
	if len(problems) > 0 {
		notice = fmt.Sprintf("settings.json: %s. The file is set aside when a setting changes.", strings.Join(problems, "; "))
	}
	return &s, path, notice
}
