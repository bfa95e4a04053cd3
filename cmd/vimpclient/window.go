package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/gameloop"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/render"
	"vimpclient/session"
	"vimpclient/settings"
	"vimpclient/window"
)

// windowConnect plays in a window: the session runs on its own goroutine,
// the game loop on the window's.
func windowConnect(ctx context.Context, p *playFlags, addr string, stdout, stderr io.Writer) int {
	conn, err := newConnection(p, "window", addr, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	log := conn.log
	defer conn.rec.Close()
	// A lobby master opens on its server browser.
	pctx, pcancel := context.WithTimeout(ctx, 15*time.Second)
	t, err := session.Resolve(pctx, conn.client, addr, p.origin)
	pcancel()
	if err == nil && t.Lobby {
		return windowBrowse(ctx, p, conn, t, stderr)
	}
	// The player fills the auth form and answers the team vote in the
	// window, unless flags already say what to answer.
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: p.nick, Set: p.set, Store: conn.store},
		AutoTeam: p.team != "", Team: p.team, Recorder: conn.rec, Logger: log,
	})
	// The window is built for the first host the runner resolves (its game
	// and assets); later targets reach the loop and the renderer directly
	// (a new game version brings a new asset downloader).
	var loopRef atomic.Pointer[gameloop.Loop]
	var rendererRef atomic.Pointer[render.Renderer]
	targets := make(chan session.Target, 1)
	runner := &session.Runner{Session: sess, Addr: addr, Origin: p.origin, Client: conn.client,
		OnTarget: func(t session.Target) {
			log.Info("connecting", "ws", t.WSURL, "origin", t.Origin, "game", t.GameID, "version", t.GameVersion)
			if l := loopRef.Load(); l != nil {
				l.SetTarget(t)
			}
			if r := rendererRef.Load(); r != nil {
				d, err := conn.assets.For(t)
				if err != nil {
					log.Warn("no host images", "err", err)
				}
				r.SetAssets(d)
			}
			select {
			case targets <- t:
			default:
			}
		}}
	closeLobby, code := joinLobby(ctx, p, runner, log, stderr)
	if code != 0 {
		return code
	}
	defer closeLobby()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		info, err := runner.Run(ctx)
		if info != nil && !info.Local {
			fmt.Fprintf(stderr, "vimpclient: closed (%d): %s\n", info.Code, info.Reason)
		} else if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		}
	}()
	var target session.Target
	select {
	case target = <-targets:
	case <-runDone:
		return 1
	case <-ctx.Done():
		return 1
	}

	mx := mix.New(mix.Options{})
	out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{WAVPath: p.audioOut, Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	defer out.Close()
	sounds := audio.NewManager(mx, audio.Options{Logger: log})
	defer sounds.Destroy()
	dl, err := conn.assets.For(target)
	if err != nil {
		log.Warn("no host images or sounds", "err", err) // the parts draw their fallbacks
	}
	renderer := render.New(ctx, render.Options{Assets: dl, Log: log})
	rendererRef.Store(renderer)
	var hudStore hud.Store // nil when values cannot be remembered
	if conn.store != nil {
		hudStore = conn.store
	}
	opts := gameloop.Options{Session: sess, Log: log, LogOnce: conn.once, Start: time.Now(), Context: ctx,
		Textures: renderer.Textures(), Sounds: sounds, SoundFetcher: conn.assets.SoundFetcher,
		Store: hudStore, Interactive: true, AutoTeam: p.team != "", Team: p.team,
		OnGiveUp: cancel} // giving up reconnecting ends the runner, then the window
	if path, err := input.BindingsPath(); err == nil {
		if b, err := input.LoadBindings(path, target.GameID); err != nil {
			log.Warn("key bindings", "file", path, "err", err)
		} else {
			opts.Bindings = b
		}
	}
	loop := gameloop.New(opts)
	loop.SetTarget(target)
	loopRef.Store(loop)
	prefs, prefsPath := loadSettings(log)
	bindingsPath, _ := input.BindingsPath()
	win, err := window.New(ctx, loop, renderer, window.Options{
		Title: "vimpclient — " + target.Host, Log: log, NetGraph: p.netGraph,
		Fullscreen: p.fullscreen, Screenshot: p.screenshot, ScreenshotAfter: p.screenshotAfter, Width: p.size.w, Height: p.size.h,
		Settings: prefs, SettingsPath: prefsPath, BindingsPath: bindingsPath, Sound: sounds,
	})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	err = win.Run()
	cancel()
	<-runDone
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	return 0
}

// loadSettings reads the player's settings from the user config dir: the
// defaults when there are none, each damaged value replaced by its default
// and said. path is "" when there is no config dir to save into.
func loadSettings(log *slog.Logger) (*settings.Settings, string) {
	path, err := settings.Path()
	if err != nil {
		log.Warn("settings will not be saved", "err", err)
		s := settings.Default()
		return &s, ""
	}
	s, problems, err := settings.Load(path)
	if err != nil {
		log.Warn("settings not read", "file", path, "err", err)
	}
	for _, p := range problems {
		log.Warn("settings", "file", path, "problem", p)
	}
	return &s, path
}
