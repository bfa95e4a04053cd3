package play

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/audio/synth"
	"vimpclient/demo"
	"vimpclient/gameloop"
	"vimpclient/host/sounds"
	"vimpclient/logs"
	"vimpclient/render"
	"vimpclient/session"
	"vimpclient/window"
)

// ReplayConfig is what `vimpclient replay` asks for: its flags, parsed.
type ReplayConfig struct {
	File     string // the recording
	Headless bool
	Conn     string  // the connection label to replay ("": the first)
	Speed    float64 // headless: the multiple of the recorded pace (0: at once)
	Nick     string  // answers the recorded auth form ("": the recorded answer)
	Team     string  // answers the recorded team vote ("": the first offered)
	Summary  bool    // headless: print a JSON summary on stdout
	Script   string  // headless: the key script's file
	Record   string  // headless: re-record what the client sends
	// Assets is the game's assets base URL, for the window's images and
	// sounds ("": the asset cache's, else drawn and sounded by the client).
	Assets     string
	CA         string // a PEM file with an extra CA to trust
	AssetCache string // the asset cache read when Assets is not given
	Verbose    bool
	Shot       Screenshot
}

// Replay plays a recording back through the same session and loop code
// as a live connection: in a window, as the match looked (pause, speed,
// seek, follow a player), or headless at once, printing the summary. It
// returns the exit status.
func Replay(ctx context.Context, r ReplayConfig, stdout, stderr io.Writer) int {
	read, err := session.LoadRecording(r.File)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	lines := read.Lines
	log, once := logs.New(stderr, r.Verbose)
	log.Debug("recording read", "file", r.File, "lines", read.Read, "kept", len(lines), "skipped", read.Skipped, "bytes", read.Kept)
	if !r.Headless {
		media, err := recordedMedia(lines, r.Conn, r.Assets, r.AssetCache, r.CA, log)
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
			return 2
		}
		return watchDemo(ctx, lines, r.Conn, r.Nick, r.Team, media, r.Shot, log, stderr)
	}
	rp, err := session.NewReplay(lines, r.Conn)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	rp.Speed = r.Speed
	steps, err := loadScript(r.Script)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 2
	}
	rec, err := openRecorder(r.Record, "replay "+r.File, rp.Now)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 2
	}
	// The whole recording may be queued before the loop catches up: size the
	// queue to it so a fast replay loses nothing.
	queue := session.NewQueue(len(lines) + 64)
	queue.SetByteLimit(session.RecordingBytes(lines))
	sess := session.New(session.Options{
		Auth:     session.ReplayAuth(lines, r.Conn, r.Nick),
		AutoTeam: true, Team: r.Team, Recorder: rec, Now: rp.Now,
		Queue:  queue,
		Logger: log,
	})
	ents := gameloop.NewEntities()
	loop := gameloop.New(gameloop.Options{Session: sess, Log: log, Start: rp.Now(), Context: ctx, AutoTeam: true, Observer: ents, LogOnce: once})
	if steps != nil {
		loop.SetInput(gameloop.NewScript(steps))
	}
	target := session.Target{Host: "replay"}
	loop.SetTarget(target)
	start := time.Now()
	info, runErr := gameloop.RunHeadless(ctx, loop, func(ctx context.Context) (*session.CloseInfo, error) {
		return sess.Run(ctx, rp, target), nil
	}, 60, rp.Now)
	if err := rec.Close(); err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
	}
	return finishHeadless(loop, ents, info, runErr, time.Since(start), r.Summary, stdout, stderr)
}

// watchDemo plays a recording in a window.
func watchDemo(ctx context.Context, lines []session.RecordedLine, conn, nick, team string, media demoMedia, shot Screenshot, log *slog.Logger, stderr io.Writer) int {
	mx := mix.New(mix.Options{})
	out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	defer out.Close()
	renderer := render.New(ctx, render.Options{Assets: media.dl, Log: log})
	soundFetcher := media.soundFetcher()
	var sounds *audio.Manager
	vols := &demoVolumes{master: 1, effects: 1, sounds: &sounds}
	d, err := demo.New(demo.Options{Lines: lines, Conn: conn, Nick: nick, Team: team, Log: log, AssetsBase: media.assetsBase(),
		NewLoop: func(sess *session.Session) *gameloop.Loop {
			// Each pass through the recording starts with silence.
			if sounds != nil {
				sounds.Destroy()
			}
			sounds = audio.NewManager(mx, audio.Options{Logger: log})
			vols.apply()
			return gameloop.New(gameloop.Options{Session: sess, Log: log, Context: ctx, NoPrediction: true,
				Textures: renderer.Textures(), Sounds: sounds, SoundFetcher: soundFetcher, Interactive: true, AutoTeam: true})
		}})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	defer d.Close()
	defer func() {
		if sounds != nil {
			sounds.Destroy()
		}
	}()
	if shot.Seek > 0 {
		d.Seek(shot.Seek)
	}
	d.SetPaused(shot.Paused)
	prefs, prefsPath, _ := loadSettings(log)
	win, err := window.NewDemo(ctx, d, renderer, window.Options{Title: "vimpclient — demo", Log: log,
		Screenshot: shot.Path, ScreenshotAfter: shot.After, Width: shot.Size.W, Height: shot.Size.H, Settings: prefs, SettingsPath: prefsPath, Sound: vols})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	if err := win.Run(); err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	return 0
}

// demoVolumes keeps the settings overlay's volumes for a demo, whose sound
// manager is new at every pass through the recording.
type demoVolumes struct {
	master, effects float64
	sounds          **audio.Manager
}

func (v *demoVolumes) SetMasterVolume(x float64)  { v.master = x; v.apply() }
func (v *demoVolumes) SetEffectsVolume(x float64) { v.effects = x; v.apply() }

func (v *demoVolumes) apply() {
	if m := *v.sounds; m != nil {
		m.SetMasterVolume(v.master)
		m.SetEffectsVolume(v.effects)
	}
}

// demoAssets is the downloader of a demo's -assets host. It keeps no disk
// cache: a recording does not say which version of the game it holds, so
// nothing would tell a stale entry from a fresh one.
func demoAssets(base, ca string, log *slog.Logger) (*assets.Downloader, error) {
	client, err := session.HTTPClient(ca)
	if err != nil {
		return nil, err
	}
	d, err := assets.New(assets.Options{Client: client, Base: base, Log: log})
	if err != nil {
		return nil, fmt.Errorf("-assets: %w", err)
	}
	return d, nil
}

// demoMedia is where a demo's images and sounds come from; every way of
// opening a recording (replay, the start screen's Demos page) finds them
// with recordedMedia, so a demo looks and sounds the same from each.
type demoMedia struct {
	dl *assets.Downloader // nil: the client draws and sounds the match itself
}

// recordedMedia finds a recording's images and sounds: the game's assets
// at base when given (-assets), else the recorded match's, from the asset
// cache at cacheDir (the recorded host asked for what it lacks), else none.
// Only a bad base is an error; a cache that cannot be used is logged and
// the client's own drawings are used.
func recordedMedia(lines []session.RecordedLine, conn, base, cacheDir, ca string, log *slog.Logger) (demoMedia, error) {
	if base != "" {
		dl, err := demoAssets(base, ca, log)
		return demoMedia{dl: dl}, err
	}
	t, ok := session.RecordedTarget(lines, conn)
	if !ok {
		return demoMedia{}, nil
	}
	return demoMedia{dl: cachedAssets(t, cacheDir, ca, log)}, nil
}

// assetsBase is the demo's assets base ("": none).
func (m demoMedia) assetsBase() string {
	if m.dl == nil {
		return ""
	}
	return m.dl.Base()
}

// soundFetcher is the demo loop's source of sound files.
func (m demoMedia) soundFetcher() func(session.Target) (audio.Fetcher, error) {
	f := demoSounds(m.dl)
	return func(session.Target) (audio.Fetcher, error) { return f, nil }
}

// cachedAssets is the downloader of the recorded match's assets, keyed as
// the match's own was, so that the asset cache gives back the very images
// and sounds the match drew with; the recorded host is asked for what the
// cache lacks, and a file neither has is logged as unavailable. nil (the
// client's own drawings) when there is no cache to read.
func cachedAssets(t session.Target, dir, ca string, log *slog.Logger) *assets.Downloader {
	if dir == "" || dir == "-" {
		return nil
	}
	cache, err := assets.OpenCache(dir, 0)
	if err != nil {
		log.Warn("demo: the asset cache cannot be read: drawing without the game's images", "err", err)
		return nil
	}
	client, err := session.HTTPClient(ca)
	if err != nil {
		log.Warn("demo: drawing without the game's images", "err", err)
		return nil
	}
	d, err := assets.New(assets.Options{Client: client, Base: t.AssetsBase, Host: t.Host, Version: t.GameVersion, Cache: cache, Log: log})
	if err != nil {
		log.Warn("demo: recorded assets base: drawing without the game's images", "err", err)
		return nil
	}
	log.Info("demo: the game's images and sounds from the asset cache", "cache", cache.Dir(), "recorded from", t.AssetsBase)
	return d
}

// demoSounds fetches a demo's sounds from the game's assets when given,
// else the client's own synthesised effects under the recorded names.
func demoSounds(dl *assets.Downloader) audio.Fetcher {
	if dl != nil {
		return dl.Sounds()
	}
	return audio.FetchFunc(func(_ context.Context, path string) ([]byte, error) {
		name, _ := strings.CutPrefix(path, "sounds/")
		if b, _, ok := sounds.File(name); ok {
			return b, nil
		}
		if b, ok := synth.WAV(strings.TrimSuffix(name, ".wav")); ok && strings.HasSuffix(name, ".wav") {
			return b, nil
		}
		return nil, fmt.Errorf("%s: no such sound", path)
	})
}

// Screenshot takes a picture of the demo window and closes it: for a
// person checking what a demo looks like at a point.
type Screenshot struct {
	Path   string        // the PNG to write ("": none)
	After  time.Duration // when to take it
	Seek   time.Duration // start at this point of the recording
	Paused bool          // start paused
	Size   Size          // the window's size (zero: remembered)
}
