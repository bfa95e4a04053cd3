// Command vimpclient is a native desktop client for vimp game hosts.
//
//	vimpclient [flags]                              the start screen (-quickplay: a match against the embedded host)
//	vimpclient [flags] ADDRESS                      join a host (http://host:port or ws://host:port/path)
//	vimpclient serve [-addr HOST:PORT] [-bots N]    run the embedded host alone, for LAN play
//	vimpclient serve -master MASTER -name NAME      ... and list it as a room of a lobby master
//	vimpclient servers [-json] [-search S] MASTER   list a lobby master's rooms
//	vimpclient login [-auth URL] MASTER             sign in for a lobby master's rooms
//	vimpclient replay [flags] FILE                  play a recording back
//	vimpclient frames -schema SCHEMA.json FILE...   decode raw snapshot frames
//	vimpclient open [flags] vimp://MASTER/ROOM      join a lobby room from a link (or https://MASTER/rooms/ID)
//	vimpclient install-desktop [-uninstall]         register the program and its vimp:// links with the desktop
//	vimpclient -version                             print the version, commit, build date and Go version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"vimpclient/logs"
	"vimpclient/termtext"
)

func main() {
	setMemoryLimit(os.Args[1:])
	// A package that was given no logger logs through slog's default: it
	// too makes every text safe for the terminal.
	slog.SetDefault(logs.NewText(termtext.NewWriter(os.Stderr), slog.LevelInfo))
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	// Whatever a host or master said and reached an error or a log line,
	// stderr shows it escaped (see termtext).
	stderr = termtext.NewWriter(stderr)
	if len(args) > 0 {
		switch args[0] {
		case "help":
			usageCommands(stdout)
			return 0
		case "frames":
			return runFrames(args[1:], stdout, stderr)
		case "replay", "demo":
			return runReplay(args[1:], stdout, stderr)
		case "open":
			return runOpen(args[1:], stdout, stderr)
		case "install-desktop", "serve", "servers", "login":
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			switch args[0] {
			case "install-desktop":
				return runInstallDesktop(ctx, args[1:], stdout, stderr)
			case "serve":
				return runServe(ctx, args[1:], stdout, stderr)
			case "servers":
				return runServers(ctx, args[1:], stdout, stderr)
			}
			return runLogin(ctx, args[1:], os.Stdin, stdout, stderr)
		}
	}
	return runPlay(args, stdout, stderr)
}

// commands are the program's subcommands, one line each, for -h.
var commands = [][2]string{
	{"vimpclient [flags]", "the start screen (or, with -quickplay, a match against the embedded host)"},
	{"vimpclient [flags] ADDRESS", "join a host (http://host:port, or ws://host:port/path) or a lobby master's server browser"},
	{"vimpclient -room NAME|ID MASTER", "join a lobby room by name or id"},
	{"vimpclient open [flags] LINK", "join a lobby room from a vimp://MASTER/ROOM link or https://MASTER/rooms/ID"},
	{"vimpclient servers [-json] MASTER", "list a lobby master's rooms with their latencies"},
	{"vimpclient login [-auth URL] MASTER", "sign in for a lobby master's rooms (-auth: another identity service than the one it names)"},
	{"vimpclient serve [flags]", "run the embedded host alone (with -master, as a lobby room)"},
	{"vimpclient replay [flags] FILE", "watch a -record recording (also: demo FILE)"},
	{"vimpclient frames -schema S FILE...", "decode raw snapshot frames to JSON"},
	{"vimpclient install-desktop [-uninstall]", "register the program and its vimp:// links with the desktop"},
	{"vimpclient -version", "print the version, commit, build date and Go version"},
	{"vimpclient help", "this list; COMMAND -h lists a command's flags"},
}

// usageCommands lists every subcommand with what it does.
func usageCommands(w io.Writer) {
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-40s %s\n", c[0], c[1])
	}
}

// parseStatus is the exit status after a command's flags failed to parse:
// 0 when the player asked for help (-h), 2 for a usage error.
func parseStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// flagSet is a subcommand's flags: a bad flag is returned as an error, not
// an exit, and the usage goes to stderr.
func flagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}
