package window

import (
	"context"
	"errors"
	"net"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// A window on an X server whose server goes away (the session ends, a
// virtual display is killed) is not told: the swap of every frame fails at
// once and the game loop spins on, a core busy and its memory held, with
// nobody to close it. The display watch connects to the server's socket
// now and then, and ends the window's context when the server stops taking
// connections. It never speaks X: a connection that sends nothing is
// closed again.

// Display watch timing: how often the server is tried, how long a try
// may take, and how many failed tries in a row mean it has gone.
const (
	displayProbeEvery = 2 * time.Second
	displayProbeFor   = time.Second
	displayFailures   = 2
)

// errDisplayLost ends a window whose X server has gone.
var errDisplayLost = errors.New("the display went away")

// displayAddrs are the sockets an X DISPLAY value names, in the order to
// try them: for a local display the abstract socket (which vanishes with
// the server, where a killed server leaves its socket file) and the file,
// for a remote one its TCP port. None for a value that is not an X
// display.
func displayAddrs(display string) []dialAddr {
	i := strings.LastIndexByte(display, ':')
	if i < 0 || strings.HasPrefix(display, "/") {
		return nil // not host:number (or a launchd path, not served here)
	}
	host, num := display[:i], display[i+1:]
	if j := strings.IndexByte(num, '.'); j >= 0 {
		num = num[:j] // the screen
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n > 65535-6000 {
		return nil
	}
	if host == "" || host == "unix" {
		path := "/tmp/.X11-unix/X" + strconv.Itoa(n)
		addrs := []dialAddr{{"unix", path}}
		if runtime.GOOS == "linux" {
			addrs = append([]dialAddr{{"unix", "@" + path}}, addrs...)
		}
		return addrs
	}
	return []dialAddr{{"tcp", net.JoinHostPort(strings.TrimPrefix(host, "tcp/"), strconv.Itoa(6000+n))}}
}

type dialAddr struct{ network, address string }

// watchesX reports whether windows on this system are X windows, so that
// DISPLAY names their server.
func watchesX() bool {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

// displayWatch tries the display's server every so often.
type displayWatch struct {
	addrs []dialAddr
	every time.Duration
	dial  func(ctx context.Context, network, address string) (net.Conn, error)
}

func newDisplayWatch(display string) *displayWatch {
	var d net.Dialer
	return &displayWatch{addrs: displayAddrs(display), every: displayProbeEvery, dial: d.DialContext}
}

// reachable reports whether one of the server's sockets takes a
// connection, and which (so that later tries go to it first).
func (w *displayWatch) reachable(ctx context.Context) bool {
	for i, a := range w.addrs {
		c, err := func() (net.Conn, error) {
			ctx, cancel := context.WithTimeout(ctx, displayProbeFor)
			defer cancel()
			return w.dial(ctx, a.network, a.address)
		}()
		if err == nil {
			c.Close()
			if i > 0 {
				w.addrs[0], w.addrs[i] = w.addrs[i], w.addrs[0]
			}
			return true
		}
	}
	return false
}

// run calls lost once the server has stopped taking connections, and
// returns then or when ctx ends. A server that cannot be reached at the
// start is not watched: the window opened on something this watch does not
// know how to reach.
func (w *displayWatch) run(ctx context.Context, lost func()) {
	if len(w.addrs) == 0 || !w.reachable(ctx) {
		return
	}
	t := time.NewTicker(w.every)
	defer t.Stop()
	failed := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if w.reachable(ctx) {
			failed = 0
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if failed++; failed >= displayFailures {
			lost()
			return
		}
	}
}
