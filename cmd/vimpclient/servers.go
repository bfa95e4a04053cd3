package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"text/tabwriter"
	"time"

	"vimpclient/lobby"
	"vimpclient/session"
	"vimpclient/termtext"
)

// maxPinged bounds the rooms one listing measures.
const maxPinged = 50

// runServers lists a master's rooms: `vimpclient servers [-json] [-search S]
// [-region R] MASTER`. Every page is fetched; each room's latency is
// measured through the master's signaling within -ping (null when not
// measured).
func runServers(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servers", flag.ContinueOnError)
	fs.SetOutput(stderr)
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
		latency = measure(ctx, m, client, t.Origin, list.Servers, *pingFor, hostLogger(stderr, *verbose))
	}
	if *asJSON {
		if err := writeRoomsJSON(stdout, list, latency); err != nil {
			fmt.Fprintf(stderr, "servers: %v\n", err)
			return 1
		}
		return 0
	}
	printRooms(stdout, list, latency)
	return 0
}

// measure pings the rooms through the master's signaling (under its rate
// limit) for at most d.
func measure(ctx context.Context, m *lobby.Master, client *http.Client, origin string, rooms []lobby.Room, d time.Duration, log *slog.Logger) map[string]time.Duration {
	out := map[string]time.Duration{}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	sig, err := lobby.DialSignal(ctx, lobby.SignalConfig{URL: m.SignalURL(), Origin: origin, HTTP: client, Log: log})
	if err != nil {
		log.Debug("latencies not measured", "err", err)
		return out
	}
	defer sig.Close()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, r := range rooms {
		if i == maxPinged {
			break
		}
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			if rtt, err := sig.Ping(ctx, id); err == nil {
				mu.Lock()
				out[id] = rtt
				mu.Unlock()
			}
		}(r.ID)
	}
	wg.Wait()
	return out
}

func latencyMs(latency map[string]time.Duration, id string) *float64 {
	d, ok := latency[id]
	if !ok {
		return nil
	}
	ms := float64(d.Microseconds()) / 1000
	return &ms
}

// writeRoomsJSON prints every room as the master sent it, with latencyMs
// added (null when not measured). The JSON means exactly what the master
// sent, but the runes that would steer a terminal (DEL, C1 controls, bidi
// marks) are written as \u escapes, as encoding/json writes the C0 ones.
func writeRoomsJSON(w io.Writer, list lobby.ServerPage, latency map[string]time.Duration) error {
	var b bytes.Buffer
	b.WriteString(`{"total":` + strconv.Itoa(list.Total) + `,"servers":[`)
	for i, r := range list.Servers {
		if i > 0 {
			b.WriteByte(',')
		}
		raw := bytes.TrimSpace(r.Raw)
		lat, _ := json.Marshal(latencyMs(latency, r.ID))
		body := bytes.TrimSpace(raw[1 : len(raw)-1])
		b.WriteByte('{')
		b.Write(body)
		if len(body) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"latencyMs":`)
		b.Write(lat)
		b.WriteByte('}')
	}
	b.WriteString("]}")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b.Bytes(), "", "  "); err != nil {
		return fmt.Errorf("room list: %w", err)
	}
	pretty.WriteByte('\n')
	_, err := w.Write(termtext.EscapeJSON(pretty.Bytes()))
	return err
}

// printRooms prints the rooms as a table. Every text the master gave is
// escaped and cut to a name's length, and its rating printed in bounded
// form: a name cannot clear the screen, overwrite a row, start another
// or reorder the line.
func printRooms(w io.Writer, list lobby.ServerPage, latency map[string]time.Duration) {
	if len(list.Servers) == 0 {
		if why := list.Shortfall(); why != "" {
			fmt.Fprintf(w, "no rooms shown (%s)\n", why)
			return
		}
		fmt.Fprintln(w, "no rooms")
		return
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tGAME\tMAP\tPLAYERS\tREGION\tRATING\tLATENCY\tID")
	cell := func(s string) string { return termtext.Cell(s, termtext.NameMax) }
	for _, r := range list.Servers {
		rating, lat := "-", "-"
		if r.Rating != nil {
			rating = termtext.Number(*r.Rating)
		}
		if ms := latencyMs(latency, r.ID); ms != nil {
			lat = strconv.FormatFloat(*ms, 'f', 0, 64) + " ms"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\t%s\n", cell(r.Name), cell(r.GameID), cell(r.MapName),
			r.CurrentPlayers, r.MaxPlayers, cell(r.Region), rating, lat, cell(r.ID))
	}
	_ = tw.Flush()
	if why := list.Shortfall(); why != "" {
		fmt.Fprintf(w, "(%s)\n", why)
	}
}
