package main

import (
	"context"
	"fmt"
	"io"

	"vimpclient/internal/desktop"
	"vimpclient/lobby"
	"vimpclient/session"
)

// runLogin signs in for a master: `vimpclient login [-auth URL] [-port N]
// MASTER`. The identity service is the one the master publishes (its
// /config, its Content-Security-Policy) unless -auth names another. The
// browser opens on the service's sign-in, which returns to
// http://127.0.0.1:PORT/callback (the port operators allow-list, 53682 by
// default); a pasted token works too. The token is stored for the master.
func runLogin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flagSet("login", stderr)
	auth := fs.String("auth", "", "the identity service's URL (default: the one the master names)")
	port := fs.Int("port", lobby.LoginPort, "loopback port the sign-in returns to (the identity service must allow http://127.0.0.1:PORT)")
	noBrowser := fs.Bool("no-browser", false, "do not open a browser: print the address, and accept a pasted token")
	ca := fs.String("ca", "", "PEM file with an extra CA to trust")
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: vimpclient login [-auth URL] [-port N] [-no-browser] MASTER")
		return 2
	}
	if *port <= 0 || *port > 65535 {
		fmt.Fprintln(stderr, "login: -port must be a TCP port")
		return 2
	}
	client, err := session.HTTPClient(*ca)
	if err != nil {
		fmt.Fprintf(stderr, "login: %v\n", err)
		return 2
	}
	m, err := lobby.NewMaster(fs.Arg(0), client)
	if err != nil {
		fmt.Fprintf(stderr, "login: %v\n", err)
		return 2
	}
	store, err := lobby.DefaultTokenStore()
	if err != nil {
		fmt.Fprintf(stderr, "login: %v\n", err)
		return 1
	}
	service, err := lobby.FindAuthService(ctx, m, *auth, store.AuthURL(m.Key()))
	if err != nil {
		fmt.Fprintf(stderr, "login: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Identity service: %s (from %s)\n", service.URL, service.From)
	l := &lobby.Login{Auth: service.URL, Port: *port, HTTP: client, Lines: lobby.ScanLines(ctx, stdin), Out: stdout}
	if !*noBrowser {
		l.Open = desktop.OpenURL
	}
	token, err := l.Run(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "login: %v\n", err)
		return 1
	}
	if err := store.Save(m, token, service.URL); err != nil {
		fmt.Fprintf(stderr, "login: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Sign-in stored for %s.\n", m.URL())
	return 0
}
