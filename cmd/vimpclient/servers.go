package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"vimpclient/lobby"
	"vimpclient/logs"
	"vimpclient/session"
)

// runServers lists a master's rooms: `vimpclient servers [-json] [-search S]
// [-region R] MASTER`. Every page is fetched; each room's latency is
// measured through the master's signaling within -ping (null when not
// measured).
func runServers(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagSet("servers", stderr)
	asJSON := fs.Bool("json", false, `print {"total": N, "servers": [...]}: each room as the master gives it, plus latencyMs`)
	search := fs.String("search", "", "only rooms whose name contains this (or gameId/name)")
	region := fs.String("region", "", "only rooms of this region (masters with many rooms)")
	origin := fs.String("origin", "", "Origin for the master's signaling (default: https://host[:port])")
	ca := fs.String("ca", "", "PEM file with an extra CA to trust for an https master")
	pingFor := fs.Duration("ping", 3*time.Second, "how long to measure latencies (0: do not)")
	verbose := fs.Bool("v", false, "log details to stderr")
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: vimpclient servers [-json] [-search S] [-region R] MASTER")
		return 2
	}
	client, err := session.HTTPClient(*ca)
	if err != nil {
		fmt.Fprintf(stderr, "servers: %v\n", err)
		return 2
	}
	t, err := session.Resolve(ctx, client, fs.Arg(0), *origin)
	if err != nil {
		fmt.Fprintf(stderr, "servers: %v\n", err)
		return 1
	}
	if !t.Lobby {
		fmt.Fprintf(stderr, "servers: %s is a dedicated host, not a lobby master: join it directly\n", fs.Arg(0))
		return 1
	}
	m, err := lobby.NewMaster(t.Master, client)
	if err != nil {
		fmt.Fprintf(stderr, "servers: %v\n", err)
		return 2
	}
	list, err := m.AllServers(ctx, lobby.Query{Search: *search, Region: *region})
	if err != nil {
		fmt.Fprintf(stderr, "servers: %v\n", err)
		return 1
	}
	latency := map[string]time.Duration{}
	if *pingFor > 0 && len(list.Servers) > 0 {
		cfg := lobby.SignalConfig{URL: m.SignalURL(), Origin: t.Origin, HTTP: client, Log: logs.NewQuiet(stderr, *verbose)}
		latency = lobby.MeasureLatencies(ctx, cfg, list.Servers, *pingFor)
	}
	if *asJSON {
		if err := lobby.WriteRoomsJSON(stdout, list, latency); err != nil {
			fmt.Fprintf(stderr, "servers: %v\n", err)
			return 1
		}
		return 0
	}
	lobby.PrintRooms(stdout, list, latency)
	return 0
}
