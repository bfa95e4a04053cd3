package main

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"

	"vimpclient/lobby"
)

// quickplayFlag is -quickplay [GAME]: with no game (as the flag has
// always been written) it plays at once, against the embedded host when
// no address is given; with a game, the embedded host plays that game, and
// a lobby master's fullest room of that game with space is joined.
type quickplayFlag struct {
	on   bool
	game string
}

func (q *quickplayFlag) String() string {
	if q == nil || !q.on {
		return "false"
	}
	if q.game == "" {
		return "true"
	}
	return q.game
}

// Set takes -quickplay (true), -quickplay=false, or -quickplay=GAME.
func (q *quickplayFlag) Set(v string) error {
	if b, err := strconv.ParseBool(v); err == nil {
		q.on, q.game = b, ""
		return nil
	}
	if !gameName.MatchString(v) {
		return fmt.Errorf("-quickplay wants a game id (tanks, snakes, …), got %q", v)
	}
	q.on, q.game = true, v
	return nil
}

// IsBoolFlag lets -quickplay stand alone.
func (q *quickplayFlag) IsBoolFlag() bool { return true }

// gameName is the shape of a game id: no address has it (an address has
// a ':', '.' or '/').
var gameName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// joinQuickplayArg rewrites "-quickplay GAME" as "-quickplay=GAME" so the
// flags after it still parse: a bare -quickplay takes no value, and the
// flag package would stop at GAME. Only a game id's shape is taken, so
// "-quickplay http://master" keeps its address.
func joinQuickplayArg(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-quickplay" || a == "--quickplay") && i+1 < len(args) && gameName.MatchString(args[i+1]) {
			out = append(out, "-quickplay="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// quickplayRoom picks the room -quickplay joins on a master: the newer
// master's choice for the game, else the fullest room with space.
func quickplayRoom(ctx context.Context, m *lobby.Master, game string, log *slog.Logger) (lobby.Room, error) {
	r, err := m.QuickPlay(ctx, game)
	if err != nil {
		return lobby.Room{}, fmt.Errorf("-quickplay on %s: %w", m.URL(), err)
	}
	log.Info("quick play", "room", r.Name, "id", r.ID, "game", r.GameID, "players", r.CurrentPlayers, "max", r.MaxPlayers)
	return r, nil
}
