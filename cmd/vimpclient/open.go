package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// with -uninstall undoes it): see desktop.Register.
func runInstallDesktop(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagSet("vimpclient install-desktop", stderr)
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
	done, warning, err := desktop.Register(ctx, exe, icon.PNG, *uninstall)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, done)
	if warning != "" {
		fmt.Fprintln(stderr, "vimpclient: "+warning)
	}
	return 0
}
