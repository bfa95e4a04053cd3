package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"vimpclient/host"
	"vimpclient/host/match"
	"vimpclient/host/snakesmatch"
	"vimpclient/host/sounds"
	"vimpclient/logs"
	"vimpclient/play"
)

// runServe runs the embedded host alone: `vimpclient serve -addr HOST:PORT
// -bots N [-bot-skill SKILL] [-game GAME] [-map NAME] [-data DIR]`. It listens on loopback unless the user names another
// address, prints the URL clients join, and stops when ctx ends. With
// -master NAME the same match is also a room of that lobby master.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagSet("serve", stderr)
	addr := fs.String("addr", "127.0.0.1:3002", "listen address HOST:PORT (loopback by default; 0.0.0.0:PORT for a LAN)")
	bots := fs.Int("bots", 5, "number of bots in the match")
	botSkill := fs.String("bot-skill", "easy", "the bots' `skill`: easy, normal or hard (tanks)")
	game := fs.String("game", "", "the `game` to host: "+play.GameList()+" (default "+host.DefaultGame+")")
	mapName := fs.String("map", "", "play only this `map` of the game (no rotation)")
	dialect := fs.String("dialect", "", "the game's `version` the host speaks (default the newest): tanks "+strings.Join(match.Dialects(), " or ")+
		", snakes "+strings.Join(snakesmatch.Dialects(), " or ")+" (the older ones for older clients and tests)")
	dataDir := fs.String("data", "", "play a game's own data from `DIR` (config-data.json, auth-data.json, maps/NAME.json), sent as a real host of it sends it; -game says which game it is")
	maxPlayers := fs.Int("max-players", 30, "maximum number of human players")
	verbose := fs.Bool("v", false, "log debug messages")
	var lf lobbyServeFlags
	lf.register(fs)
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	if err := lf.check(); err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *bots < 0 || *bots > 200 {
		fmt.Fprintln(stderr, "serve: -bots must be between 0 and 200")
		return 2
	}
	if err := host.CheckDialect(*game, *dialect); err != nil {
		fmt.Fprintf(stderr, "serve: -dialect: %v\n", err)
		return 2
	}
	if err := host.CheckBotSkill(*botSkill); err != nil {
		fmt.Fprintf(stderr, "serve: -bot-skill: %v\n", err)
		return 2
	}
	if *dataDir == "" { // a game's own data brings its own maps, checked when they are read
		if err := host.CheckMap(*game, *mapName); err != nil {
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return 2
		}
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := logs.NewText(stderr, level)
	hc := host.Config{Addr: *addr, Game: *game, Bots: *bots, BotSkill: *botSkill, Map: *mapName, Dialect: *dialect, MaxPlayers: *maxPlayers, Sound: sounds.File, Log: log}
	if *dataDir != "" {
		var err error
		if hc.Data, hc.AuthData, err = host.LoadGameData(*dataDir); err != nil {
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return 1
		}
	}
	srv, err := host.Start(ctx, hc)
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "vimpclient host: %s (%s, bots %d, %s)\n", srv.URL(), srv.GameID(), *bots, *botSkill)
	if lf.master != "" {
		roomDone, err := serveLobby(ctx, srv, &lf, *maxPlayers, log, stdout, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return 1
		}
		defer func() { <-roomDone }()
	}
	<-srv.Done()
	return 0
}
