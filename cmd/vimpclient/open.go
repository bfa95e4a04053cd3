package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"vimpclient/internal/desktop"
	"vimpclient/internal/icon"
	"vimpclient/lobby"
)

// runOpen joins the room a join link names, as `-room ROOM MASTER` does:
// `vimpclient open [flags] vimp://MASTER/ROOM` or `... https://MASTER/rooms/ID`.
// The play flags may come before the link. With no link (a launcher
// started without one) it plays against the embedded host.
func runOpen(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[len(args)-1], "-") {
		return runPlay(args, stdout, stderr)
	}
	link, err := lobby.ParseJoinLink(args[len(args)-1])
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	play := append(args[:len(args)-1:len(args)-1], "-room", link.Room, link.Master)
	return runPlay(play, stdout, stderr)
}

// runInstallDesktop registers the program with the player's desktop (or
// with -uninstall undoes it): on Linux and other freedesktop.org systems
// the desktop entry and icon under the data home and the vimp:// handler
// via xdg-mime; on Windows the vimp scheme under HKCU. A macOS app bundle
// declares its scheme itself.
func runInstallDesktop(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vimpclient install-desktop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	uninstall := fs.Bool("uninstall", false, "remove the desktop entry, icon and vimp:// registration")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: vimpclient install-desktop [-uninstall]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: where is this program: %v\n", err)
		return 1
	}
	switch runtime.GOOS {
	case "darwin":
		fmt.Fprintln(stdout, "vimpclient.app declares vimp:// itself: move it to Applications and open it once.")
		return 0
	case "windows":
		if *uninstall {
			err = desktop.UnregisterScheme()
		} else {
			err = desktop.RegisterScheme(exe)
		}
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, done(*uninstall, `HKCU\Software\Classes\vimp`))
		return 0
	}
	data, config, err := desktop.XDGDirs()
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	x := desktop.XDG{DataHome: data, ConfigHome: config, Exec: exe, Icon: icon.PNG}
	if *uninstall {
		if err := x.Uninstall(ctx); err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, done(true, x.EntryPath()))
		return 0
	}
	registered, err := x.Install(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, done(false, x.EntryPath()))
	if !registered {
		fmt.Fprintln(stderr, "vimpclient: xdg-mime not found: vimp:// links open the client only where the desktop reads the entry's MimeType")
	}
	return 0
}

func done(uninstall bool, where string) string {
	if uninstall {
		return "removed: " + where
	}
	return "installed: " + where + " (vimp:// links open vimpclient)"
}
