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
// started without one) it plays against the embedded host. A link is
// anyone's to write: its master gets no token of -token, -token-file or
// VIMP_TOKEN unless -token-master names it.
func runOpen(args []string, stdout, stderr io.Writer) int {
	play, fromLink, code := openArgs(args, stderr)
	if code >= 0 {
		return code
	}
	return playArgs(play, fromLink, stdout, stderr)
}

// openArgs turns open's arguments into the play command's: the link's
// room and master become -room and the address. code >= 0 when the
// program stops there with that status.
func openArgs(args []string, stderr io.Writer) (play []string, fromLink bool, code int) {
	if len(args) == 0 || strings.HasPrefix(args[len(args)-1], "-") {
		return args, false, -1
	}
	link, err := lobby.ParseJoinLink(args[len(args)-1])
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return nil, false, 2
	}
	return append(args[:len(args)-1:len(args)-1], "-room", link.Room, link.Master), true, -1
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
