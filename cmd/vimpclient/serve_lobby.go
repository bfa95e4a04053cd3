package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"vimpclient/host"
	"vimpclient/host/lobbyroom"
	"vimpclient/lobby"
	"vimpclient/session"
)

// lobbyServeFlags list the embedded match as a lobby room too.
type lobbyServeFlags struct {
	master    string
	name      string
	token     string
	tokenFile string
	tokenFor  string
	origin    string
	ca        string
}

func (l *lobbyServeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.master, "master", "", "also list the match as a room of this lobby master (players join over WebRTC)")
	fs.StringVar(&l.name, "name", "", "the room's name in the master's list (with -master)")
	fs.StringVar(&l.token, "token", "", "the hoster's identity token, for the -master (default: -token-file, $VIMP_TOKEN, then the stored sign-in)")
	fs.StringVar(&l.tokenFile, "token-file", "", "read the hoster's identity token from this file")
	fs.StringVar(&l.tokenFor, "token-master", "", "the lobby master `URL` that -token, -token-file and $VIMP_TOKEN are for (default: -token's the -master; $VIMP_TOKEN's $VIMP_TOKEN_MASTER)")
	fs.StringVar(&l.origin, "origin", "", "Origin for the master's signaling (default: https://host[:port])")
	fs.StringVar(&l.ca, "ca", "", "PEM file with an extra CA to trust for an https master")
}

func (l *lobbyServeFlags) check() error {
	if l.master == "" {
		if l.name != "" || l.token != "" || l.tokenFile != "" {
			return fmt.Errorf("-name, -token and -token-file need -master")
		}
		return nil
	}
	if l.name == "" {
		return fmt.Errorf("-master needs -name NAME for the room")
	}
	return nil
}

// serveLobby registers srv's match with the master and serves its joiners
// until ctx ends (the room then leaves the list at once). The returned
// channel is closed when the room is gone.
func serveLobby(ctx context.Context, srv *host.Server, l *lobbyServeFlags, maxPlayers int, log *slog.Logger, stdout, stderr io.Writer) (<-chan struct{}, error) {
	client, err := session.HTTPClient(l.ca)
	if err != nil {
		return nil, err
	}
	m, err := lobby.NewMaster(l.master, client)
	if err != nil {
		return nil, err
	}
	token, err := lobby.DefaultTokenSources(lobby.TokenFlags{Token: l.token, File: l.tokenFile, Master: l.tokenFor, Named: l.master}).For(m)
	if errors.Is(err, lobby.ErrNoToken) {
		return nil, fmt.Errorf("hosting a room needs a sign-in: vimpclient login %s, or -token: %w", m.URL(), err)
	}
	if err != nil {
		return nil, fmt.Errorf("hosting a room: %w", err)
	}
	room, err := lobbyroom.Open(ctx, srv, lobbyroom.Config{Master: m.URL(), Origin: l.origin, Name: l.name,
		MaxPlayers: maxPlayers, Token: token.Value, TokenHome: token.Home, HTTP: client, Log: log})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "vimpclient room: %q on %s (room %s)\n", l.name, m.URL(), room.ID())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := room.Run(ctx); err != nil {
			fmt.Fprintf(stderr, "serve: %v\n", err)
		}
	}()
	return done, nil
}
