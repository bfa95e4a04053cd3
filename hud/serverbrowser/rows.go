package serverbrowser

import (
	"strconv"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud/plaintext"
)

// The browser's lines in words, built once when their data arrives.

// roomRow is a listed room's line.
func roomRow(r Room) Row {
	row := Row{room: r}
	row.Cells[ColName] = plaintext.Clean(r.Name)
	if row.Cells[ColName] == "" {
		row.Cells[ColName] = r.ID
	}
	row.Cells[ColGame] = plaintext.Clean(r.GameID)
	row.Cells[ColMap] = plaintext.Clean(r.MapName)
	row.Cells[ColPlayers] = strconv.Itoa(r.Players) + "/" + strconv.Itoa(r.MaxPlayers)
	row.Cells[ColRegion] = plaintext.Clean(r.Region)
	if r.Rating != nil {
		row.Cells[ColRating] = strconv.FormatFloat(*r.Rating, 'f', -1, 64)
	}
	row.Cells[ColLatency] = "–"
	return row
}

// latencyText is a latency in ms: tenths under 10 ms (loopback and LAN
// rooms differ there), whole ms above.
func latencyText(d time.Duration) string {
	ms := float64(max(0, d)) / float64(time.Millisecond)
	if ms < 10 {
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
}

// hostRow is a recent or favourite host's line.
func hostRow(e hostlist.Entry) Row {
	row := Row{entry: e, Favourite: e.Favourite}
	name := plaintext.Clean(e.Name)
	if name == "" {
		name = plaintext.Clean(e.Address)
		if e.Room != "" {
			name = e.Room
		}
	}
	row.Cells[ColName] = name
	row.Cells[ColGame] = plaintext.Clean(e.GameID)
	row.Cells[ColMap] = "host"
	if e.Kind == hostlist.Lobby {
		row.Cells[ColMap] = "room"
	}
	if !e.LastJoined.IsZero() {
		row.Cells[ColRating] = e.LastJoined.Local().Format("Jan 2 15:04")
	}
	row.Cells[ColLatency] = plaintext.Clean(e.Address)
	return row
}
