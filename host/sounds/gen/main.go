// Command gen encodes the project's synthesised effects (package
// audio/synth) into the sound files the embedded host serves: mp3 with
// LAME (its Info tag records the encoder delay and padding, so the client
// trims them and loops stay gapless) and webm (Opus) with FFmpeg. Both
// tools are Debian packages (lame, ffmpeg); the output is committed, so
// building and testing need neither. Run it from the module root:
//
//	go run ./host/sounds/gen
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"vimpclient/audio/synth"
)

// dir is where the files go, relative to the module root.
const dir = "host/sounds/files"

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	tmp, err := os.MkdirTemp("", "sounds")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, name := range synth.Names() {
		b, _ := synth.WAV(name)
		in := filepath.Join(tmp, name+".wav")
		if err := os.WriteFile(in, b, 0o644); err != nil {
			return err
		}
		// Mono at 48 kHz, constant 96 kbit/s, with the Info tag.
		mp3 := exec.CommandContext(ctx, "lame", "--quiet", "--noreplaygain", "-m", "m", "-b", "96", "--cbr", in,
			filepath.Join(dir, name+".mp3"))
		// Opus in WebM at 64 kbit/s, no metadata that would change per run.
		webm := exec.CommandContext(ctx, "ffmpeg", "-loglevel", "error", "-y", "-i", in, "-map_metadata", "-1",
			"-fflags", "+bitexact", "-flags:a", "+bitexact", "-c:a", "libopus", "-b:a", "64k",
			filepath.Join(dir, name+".webm"))
		for _, cmd := range []*exec.Cmd{mp3, webm} {
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%s %s: %w: %s", cmd.Path, name, err, out)
			}
		}
	}
	return nil
}
