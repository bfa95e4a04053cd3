// Command vimpclient is the native vimp client. This entry point is a
// placeholder that only dispatches `serve`; the client's own main replaces
// it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Exit(runServe(ctx, os.Args[2:], os.Stdout, os.Stderr))
	}
	fmt.Fprintln(os.Stderr, "usage: vimpclient serve [-addr HOST:PORT] [-bots N]")
	os.Exit(2)
}
