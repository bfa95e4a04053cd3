//go:build !window

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// windowProgram is the window build of this program (go build -tags
// window), installed beside it. The window is a separate build because the
// graphics library opens the display while the program starts, so a binary
// that links it cannot run headless on a machine without one.
const windowProgram = "vimpclient-window"

// launchWindow runs the window build with this invocation's arguments and
// returns its exit status.
func launchWindow(ctx context.Context, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	name := windowProgram
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	win := filepath.Join(filepath.Dir(exe), name)
	if _, err := os.Stat(win); err != nil {
		fmt.Fprintf(stderr, "vimpclient: the window program %s is missing (make build installs it); use -headless to play without a window\n", win)
		return 2
	}
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(stderr, "vimpclient: no display (DISPLAY is not set); use -headless, or run under a desktop session or xvfb-run")
		return 2
	}
	cmd := exec.CommandContext(ctx, win, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	return 0
}

// windowBuild reports whether this binary links the window.
const windowBuild = false

// windowConnect exists only in the window build.
func windowConnect(context.Context, *playFlags, string, io.Writer, io.Writer) int { return 2 }
