package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"vimpclient/internal/release"
)

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("release check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "release version the archives are named for")
	dir := fs.String("dist", "dist", "directory of the archives and SHA256SUMS")
	runBins := fs.Bool("run", false, "also run the binaries this machine can run: -version and a 5 s headless match")
	wine := fs.String("wine", "wine", "Wine program for the Windows binary (skipped when not found; \"\" never)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	names, err := release.VerifySums(*dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d archives, checksums match\n", release.SumsFile, len(names))
	seen := map[release.Target]bool{}
	for _, name := range names {
		t, err := release.TargetOf(name, *version)
		if err != nil {
			return err
		}
		seen[t] = true
		path := filepath.Join(*dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files, err := release.ReadArchive(name, bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		bin, info, err := release.CheckArchive(t, *version, files)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		extra := ""
		if t.OS == "windows" {
			extra = fmt.Sprintf(", resources: icon %v, DPI-aware manifest %v, version info %v", info.Icon, info.DPIAware, info.VersionInfo)
		}
		fmt.Fprintf(stdout, "%-45s %6.1f MB  %d files, %s %s/%s%s\n", name, float64(len(b))/1e6, len(files), info.Format, info.OS, info.Arch, extra)
		if !*runBins {
			continue
		}
		var launcher []string
		switch {
		case t.OS == runtime.GOOS && t.Arch == runtime.GOARCH:
		case t.OS == "windows" && t.Arch == "amd64" && *wine != "":
			p, err := exec.LookPath(*wine)
			if err != nil {
				fmt.Fprintf(stdout, "  %s: not run: %s not installed\n", t, *wine)
				continue
			}
			launcher = []string{p}
		default:
			continue
		}
		err = runBinary(ctx, t, *version, bin, launcher, stdout)
		if errors.Is(err, errWineTooOld) {
			fmt.Fprintf(stdout, "  %s: not run: %v\n", t, err)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	for _, t := range release.Targets {
		if !seen[t] {
			return fmt.Errorf("no archive for %s", t)
		}
	}
	return nil
}

// errWineTooOld is a Wine without bcryptprimitives.dll (Wine 8.0, Debian
// 12's): every program of Go 1.22 or later stops at start-up there, before
// any of its own code runs.
var errWineTooOld = errors.New("this Wine has no bcryptprimitives.dll, which every Go 1.22+ Windows program needs at start-up (Debian 12's Wine 8.0 lacks it)")

// runBinary runs the unpacked program (through launcher, when not empty):
// -version must name the release, and a 5 s headless match against the
// embedded host must reach play with a summary naming the same build.
func runBinary(ctx context.Context, t release.Target, version string, bin []byte, launcher []string, stdout io.Writer) error {
	dir, err := os.MkdirTemp("", "vimpclient-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, t.BinaryName())
	if err := os.WriteFile(exe, bin, 0o755); err != nil {
		return err
	}
	how := "natively"
	if len(launcher) > 0 {
		how = "under " + filepath.Base(launcher[0])
	}
	// A home of its own: the run keeps nothing of the player's. Wine keeps
	// one prefix under the user's cache, made on the first run only.
	env := append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "WINEDEBUG=-all")
	if len(launcher) > 0 {
		cache, err := os.UserCacheDir()
		if err != nil {
			return err
		}
		prefix := filepath.Join(cache, "vimpclient-dist-check", "wine")
		if err := os.MkdirAll(prefix, 0o755); err != nil {
			return err
		}
		env = append(env, "WINEPREFIX="+prefix)
	}
	// Wine's first start creates its prefix, which takes a while.
	timeout := 2 * time.Minute
	if len(launcher) > 0 {
		timeout = 5 * time.Minute
	}
	runOnce := func(args ...string) (out, errOut []byte, took time.Duration, err error) {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		argv := append(append(append([]string{}, launcher...), exe), args...)
		cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
		cmd.Dir, cmd.Env = dir, env
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		start := time.Now()
		err = cmd.Run()
		return o.Bytes(), e.Bytes(), time.Since(start), err
	}
	out, errOut, took, err := runOnce("-version")
	if err != nil && len(launcher) > 0 && bytes.Contains(errOut, []byte("bcryptprimitives.dll not found")) {
		return errWineTooOld
	}
	if err != nil {
		return fmt.Errorf("%s -version %s: %w\n%s", t, how, err, errOut)
	}
	line := strings.TrimSpace(string(out))
	if !strings.HasPrefix(line, "vimpclient "+version+" (commit ") {
		return fmt.Errorf("%s -version %s printed %q, want vimpclient %s (commit ...)", t, how, line, version)
	}
	fmt.Fprintf(stdout, "  %s -version %s (%.1fs): %s\n", t, how, took.Seconds(), line)
	out, errOut, took, err = runOnce("-headless", "-for", "5s", "-summary")
	if err != nil {
		return fmt.Errorf("%s headless run %s: %w\n%s", t, how, err, tail(errOut, 2000))
	}
	var sum struct {
		State  string `json:"state"`
		Client string `json:"client"`
		Frames struct {
			Received int `json:"received"`
			Decoded  int `json:"decoded"`
		} `json:"frames"`
		Pings    int            `json:"pings"`
		Entities map[string]int `json:"entities"`
	}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if err := json.Unmarshal(lines[len(lines)-1], &sum); err != nil {
		return fmt.Errorf("%s headless summary %s: %w\n%s", t, how, err, out)
	}
	if sum.State != "playing" || sum.Frames.Decoded == 0 || sum.Client != line {
		return errors.New(t.String() + " headless run " + how + ": summary " + string(lines[len(lines)-1]))
	}
	fmt.Fprintf(stdout, "  %s headless -for 5s %s (%.1fs): state %s, %d frames decoded, %d pongs, entities %v\n",
		t, how, took.Seconds(), sum.State, sum.Frames.Decoded, sum.Pings, sum.Entities)
	return nil
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
