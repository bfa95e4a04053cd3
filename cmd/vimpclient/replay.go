package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
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

// maxRecordingLines bounds a recording read into memory.
const maxRecordingLines = 4 << 20

// runReplay plays a recording back through the same session and loop code
// as a live connection: in a window, as the match looked (pause, speed,
// seek, follow a player), or with -headless at once, printing the summary.
func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	headless := fs.Bool("headless", false, "run without a window: replay at -speed (0: at once) and print what happened")
	conn := fs.String("conn", "", "connection label to replay (default: the first one in the file)")
	speed := fs.Float64("speed", 0, "headless: play at this multiple of the recorded pace (0: as fast as possible; the window starts at 1 and changes it with the arrow keys)")
	nick := fs.String("nick", "", "nick to answer the recorded auth form with (default: the recorded answer)")
	team := fs.String("team", "", "team to answer the recorded team vote with (default: the first offered)")
	sum := fs.Bool("summary", false, "headless: print a JSON summary on stdout")
	script := fs.String("script", "", "headless: key script, as for a live host")
	record := fs.String("record", "", "headless: re-record what the client sends during the replay")
	assetsBase := fs.String("assets", "", "window: the game's assets base URL, for its images and sounds (default: drawn and sounded by the client itself)")
	ca := fs.String("ca", "", "window: PEM file with an extra CA to trust for an https -assets host")
	cacheDir := fs.String("asset-cache", defaultAssetCache(), "window: the asset cache the recorded match's images and sounds are read from when -assets is not given (\"-\" or empty: none)")
	verbose := fs.Bool("v", false, "log details to stderr")
	var shot screenshotFlags
	shot.register(fs)
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
	if *speed < 0 || *speed > 64 {
		fmt.Fprintln(stderr, "vimpclient replay: -speed must be between 0 and 64")
		return 2
	}
	if !*headless {
		if err := window.Available(); err != nil {
			fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
			return 2
		}
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	lines, err := session.ReadRecording(f, maxRecordingLines)
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log, once := logs.New(stderr, *verbose)
	if !*headless {
		var dl *assets.Downloader
		switch t, ok := session.RecordedTarget(lines, *conn); {
		case *assetsBase != "":
			if dl, err = demoAssets(*assetsBase, *ca, log); err != nil {
				fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
				return 2
			}
		case ok:
			dl = cachedAssets(t, *cacheDir, *ca, log, stderr)
		}
		return watchDemo(ctx, lines, *conn, *nick, *team, dl, shot, log, stderr)
	}
	rp, err := session.NewReplay(lines, *conn)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	rp.Speed = *speed
	steps, err := loadScript(*script)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 2
	}
	rec, err := openRecorder(*record, "replay "+fs.Arg(0), rp.Now)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 2
	}
	// The whole recording may be queued before the loop catches up: size the
	// queue to it so a fast replay loses nothing.
	queue := session.NewQueue(len(lines) + 64)
	queue.SetByteLimit(session.RecordingBytes(lines))
	sess := session.New(session.Options{
		Auth:     session.ReplayAuth(lines, *conn, *nick),
		AutoTeam: true, Team: *team, Recorder: rec, Now: rp.Now,
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
	return finishHeadless(loop, ents, info, runErr, time.Since(start), *sum, stdout, stderr)
}

// watchDemo plays a recording in a window.
func watchDemo(ctx context.Context, lines []session.RecordedLine, conn, nick, team string, dl *assets.Downloader, shot screenshotFlags, log *slog.Logger, stderr io.Writer) int {
	mx := mix.New(mix.Options{})
	out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	defer out.Close()
	renderer := render.New(ctx, render.Options{Assets: dl, Log: log})
	assetsBase := ""
	if dl != nil {
		assetsBase = dl.Base()
	}
	soundFetcher := func(session.Target) (audio.Fetcher, error) { return demoSounds(dl), nil }
	var sounds *audio.Manager
	vols := &demoVolumes{master: 1, effects: 1, sounds: &sounds}
	d, err := demo.New(demo.Options{Lines: lines, Conn: conn, Nick: nick, Team: team, Log: log, AssetsBase: assetsBase,
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
	if shot.seek > 0 {
		d.Seek(shot.seek)
	}
	d.SetPaused(shot.paused)
	prefs, prefsPath := loadSettings(log)
	win, err := window.NewDemo(ctx, d, renderer, window.Options{Title: "vimpclient — demo", Log: log,
		Screenshot: shot.path, ScreenshotAfter: shot.after, Width: shot.size.w, Height: shot.size.h, Settings: prefs, SettingsPath: prefsPath, Sound: vols})
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

// cachedAssets is the downloader of the recorded match's assets, keyed as
// the match's own was, so that the asset cache gives back the very images
// and sounds the match drew with; the recorded host is asked for what the
// cache lacks, and a file neither has is logged as unavailable. nil (the
// client's own drawings) when there is no cache to read.
func cachedAssets(t session.Target, dir, ca string, log *slog.Logger, stderr io.Writer) *assets.Downloader {
	if dir == "" || dir == "-" {
		return nil
	}
	cache, err := assets.OpenCache(dir, 0)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: the asset cache: %v; drawing without the game's images\n", err)
		return nil
	}
	client, err := session.HTTPClient(ca)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return nil
	}
	d, err := assets.New(assets.Options{Client: client, Base: t.AssetsBase, Host: t.Host, Version: t.GameVersion, Cache: cache, Log: log})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: recorded assets base: %v\n", err)
		return nil
	}
	fmt.Fprintf(stderr, "vimpclient replay: the game's images and sounds from the asset cache %s (recorded from %s)\n", cache.Dir(), t.AssetsBase)
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

// screenshotFlags take a picture of the demo window and close it: for a
// person checking what a demo looks like at a point.
type screenshotFlags struct {
	path   string
	after  time.Duration
	seek   time.Duration
	paused bool
	size   windowSize
}

func (s *screenshotFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.path, "screenshot", "", "window: write a PNG of the window after -screenshot-after, then quit")
	fs.DurationVar(&s.after, "screenshot-after", 3*time.Second, "when to take the -screenshot")
	fs.DurationVar(&s.seek, "seek", 0, "window: start at this point of the recording")
	fs.BoolVar(&s.paused, "paused", false, "window: start paused")
	fs.Var(&s.size, "window", "window: its size `WxH` (default: its size when last closed, else 1280x720)")
}
