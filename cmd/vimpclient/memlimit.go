package main

import (
	"os"
	"runtime/debug"
	"strings"
)

// headlessMemoryLimit is the Go runtime's soft memory limit for a run with
// no window: the client's own bounds (the session's queue, the core's
// frames, the scene's entities) keep the live heap well below it, and the
// limit makes the collector return what a burst of hostile traffic left
// behind instead of letting the heap grow to twice its live size. A window
// keeps the runtime's default: its textures and baked images are live
// memory a collector cannot shrink.
const headlessMemoryLimit = 24 << 20

// setMemoryLimit applies headlessMemoryLimit when args ask for no window,
// unless GOMEMLIMIT says otherwise.
func setMemoryLimit(args []string) {
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok || !runsWithoutWindow(args) {
		return
	}
	debug.SetMemoryLimit(headlessMemoryLimit)
}

// runsWithoutWindow reports whether args run without a window: -headless (or
// its -headless=true form), or a subcommand that never opens one.
func runsWithoutWindow(args []string) bool {
	if len(args) > 0 {
		switch args[0] {
		case "frames", "servers", "login", "serve":
			return true
		}
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		a = strings.TrimLeft(a, "-")
		if a == "headless" || a == "headless=true" {
			return true
		}
	}
	return false
}
