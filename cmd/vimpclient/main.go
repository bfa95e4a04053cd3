// Command vimpclient is a native desktop client for vimp game hosts.
//
//	vimpclient frames -schema SCHEMA.json FILE...   decode raw snapshot frames
package main

import (
	"fmt"
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
		}
	}
	fmt.Fprintln(stderr, "usage: vimpclient frames -schema SCHEMA.json FILE...")
	return 2
}
