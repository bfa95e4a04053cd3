// Command vimpclient is a native desktop client for vimp game hosts.
//
//	vimpclient [flags] ADDRESS                      join a host (http://host:port or ws://host:port/path)
//	vimpclient replay [flags] FILE                  play a recording back
//	vimpclient frames -schema SCHEMA.json FILE...   decode raw snapshot frames
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "frames":
			return runFrames(args[1:], stdout, stderr)
		case "replay":
			return runReplay(args[1:], stdout, stderr)
		}
	}
	return runPlay(args, stdout, stderr)
}
