// Command vimpclient is a native desktop client for vimp game hosts.
//
//	vimpclient [flags]                              play against the embedded host (started in-process)
//	vimpclient [flags] ADDRESS                      join a host (http://host:port or ws://host:port/path)
//	vimpclient serve [-addr HOST:PORT] [-bots N]    run the embedded host alone, for LAN play
//	vimpclient serve -master MASTER -name NAME      ... and list it as a room of a lobby master
//	vimpclient servers [-json] [-search S] MASTER   list a lobby master's rooms
//	vimpclient login -auth URL MASTER               sign in for a lobby master's rooms
//	vimpclient replay [flags] FILE                  play a recording back
//	vimpclient frames -schema SCHEMA.json FILE...   decode raw snapshot frames
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	setMemoryLimit(os.Args[1:])
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "frames":
			return runFrames(args[1:], stdout, stderr)
		case "replay":
			return runReplay(args[1:], stdout, stderr)
		case "serve":
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runServe(ctx, args[1:], stdout, stderr)
		case "servers", "login":
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if args[0] == "servers" {
				return runServers(ctx, args[1:], stdout, stderr)
			}
			return runLogin(ctx, args[1:], os.Stdin, stdout, stderr)
		}
	}
	return runPlay(args, stdout, stderr)
}
