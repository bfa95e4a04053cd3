package lobby

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"text/tabwriter"
	"time"

	"vimpclient/termtext"
)

// maxPinged bounds the rooms one listing measures.
const maxPinged = 50

// MeasureLatencies pings the rooms through the master's signaling at
// cfg.URL (under its rate limit) for at most d: the round trip of each
// room that answered, by id.
func MeasureLatencies(ctx context.Context, cfg SignalConfig, rooms []Room, d time.Duration) map[string]time.Duration {
	out := map[string]time.Duration{}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	sig, err := DialSignal(ctx, cfg)
	if err != nil {
		if cfg.Log != nil {
			cfg.Log.Debug("latencies not measured", "err", err)
		}
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

// WriteRoomsJSON prints every room as the master sent it, with latencyMs
// added (null when not measured). The JSON means exactly what the master
// sent, but the runes that would steer a terminal (DEL, C1 controls, bidi
// marks) are written as \u escapes, as encoding/json writes the C0 ones.
func WriteRoomsJSON(w io.Writer, list ServerPage, latency map[string]time.Duration) error {
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

// PrintRooms prints the rooms as a table. Every text the master gave is
// escaped and cut to a name's length, and its rating printed in bounded
// form: a name cannot clear the screen, overwrite a row, start another
// or reorder the line.
func PrintRooms(w io.Writer, list ServerPage, latency map[string]time.Duration) {
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
