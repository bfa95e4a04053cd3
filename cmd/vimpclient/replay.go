package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"vimpclient/gameloop"
	"vimpclient/logs"
	"vimpclient/session"
)

// maxRecordingLines bounds a recording read into memory.
const maxRecordingLines = 4 << 20

// runReplay plays a recording back through the same session and core code
// as a live connection, headless, and prints the summary.
func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	headless := fs.Bool("headless", true, "run without a window (the only mode in this build)")
	conn := fs.String("conn", "", "connection label to replay (default: the first one in the file)")
	realtime := fs.Bool("realtime", false, "keep the recorded spacing instead of replaying at once")
	nick := fs.String("nick", "", "nick to answer the recorded auth form with")
	team := fs.String("team", "", "team to answer the recorded team vote with (default: the first offered)")
	sum := fs.Bool("summary", false, "print a JSON summary on stdout")
	script := fs.String("script", "", "key script, as for a live host")
	record := fs.String("record", "", "re-record what the client sends during the replay")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vimpclient replay [flags] FILE.jsonl")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if !*headless {
		fmt.Fprintln(stderr, "vimpclient replay: the window is not available in this build")
		return 2
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
	rp, err := session.NewReplay(lines, *conn)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient replay: %v\n", err)
		return 1
	}
	rp.Realtime = *realtime
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// The whole recording may be queued before the loop catches up: size the
	// queue to it so a fast replay loses nothing.
	log, once := logs.New(stderr, false)
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: *nick},
		AutoTeam: true, Team: *team, Recorder: rec, Now: rp.Now,
		Queue:  session.NewQueue(len(lines) + 64),
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
