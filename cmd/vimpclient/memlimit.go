package main

import (
	"os"
	"runtime/debug"
	"strings"
)

// headlessMemoryLimit is the Go runtime's soft memory limit for a run with
// no window: the client's own bounds (the session's queue, the core's
// frames, the scene's entities, the sounds' budget) keep the live heap well
// below it, and the limit makes the collector return what a burst of
// hostile traffic left behind instead of letting the heap grow to twice its
// live size.
const headlessMemoryLimit = 24 << 20

// windowMemoryLimit is the soft limit with a window. Its Go heap lives at
// 30–50 MiB (fonts, the HUD, the baked atlases' sources, a host image while
// it becomes a texture); textures themselves are the driver's memory, not
// the heap's. Without a limit the heap grows to twice its live size between
// collections and keeps what it freed for minutes; with one it stays near
// its live size and returns the rest, tens of MiB under a software renderer
// where the driver's memory is the client's too.
const windowMemoryLimit = 64 << 20

// windowGCPercent is the collector's target with a window: the heap may
// grow half again over what is live before a collection, not twice. With
// a live heap of 30 MiB the limit alone lets it double to the limit; at 50
// a normal match at 1280×720 peaks about 17 MB lower in resident memory. A
// window allocates little a frame (the graphics driver's calls, about
// 40 KB), so this costs a couple more collections a minute.
const windowGCPercent = 50

// setMemoryLimit applies headlessMemoryLimit when args ask for no window and
// windowMemoryLimit otherwise, unless GOMEMLIMIT says otherwise; with a
// window, windowGCPercent too, unless GOGC says otherwise.
func setMemoryLimit(args []string) {
	headless := runsWithoutWindow(args)
	if _, ok := os.LookupEnv("GOGC"); !ok && !headless {
		debug.SetGCPercent(windowGCPercent)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		return
	}
	if headless {
		debug.SetMemoryLimit(headlessMemoryLimit)
		return
	}
	debug.SetMemoryLimit(windowMemoryLimit)
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
