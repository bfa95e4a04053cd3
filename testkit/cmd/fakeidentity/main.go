// Command fakeidentity runs the stand-in identity service of the tests on
// a loopback address, for trying the client against a lobby master started
// with VIMP_AUTH_SERVICE_URL pointing at it:
//
//	go run ./testkit/cmd/fakeidentity -addr 127.0.0.1:3010
//
// It serves the sign-in page (/oauth/github/start?returnUrl=), its form's
// return with ?token=, /dev/login?nick=&returnUrl= and /jwks, with a key
// made at start.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"vimpclient/testkit/fakemaster"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:3010", "loopback address to listen on")
	flag.Parse()
	if host, _, err := net.SplitHostPort(*addr); err != nil || !(host == "127.0.0.1" || host == "localhost" || strings.HasPrefix(host, "::1")) {
		fmt.Fprintln(os.Stderr, "fakeidentity: -addr must be a loopback host:port")
		os.Exit(2)
	}
	keys, err := fakemaster.NewKeys("fake-identity")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: fakemaster.NewIdentity(keys).Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	slog.Info("fake identity service", "url", "http://"+ln.Addr().String())
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
