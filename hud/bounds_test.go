package hud

import (
	"fmt"
	"strings"
	"testing"

	"vimpclient/protocol"
)

// flood is a text of n bytes of four-byte runes (each its own rune, so
// nothing is cut for being a control character), different for every i.
func flood(i, n int) string {
	head := fmt.Sprint(i, "-")
	return head + strings.Repeat("😀", (n-len(head))/4)
}

// A chat flood keeps what its bound says, however many lines the game asks
// the history to keep and however long each is: 24000 lines of the longest
// texts and names leave at most maxChatHistoryBytes of them in the history,
// the newest line last.
func TestChatFloodKeepsItsBound(t *testing.T) {
	c := NewChat(ChatParams{ListLimit: 100, LineTime: 1e9, CacheMin: 9999, CacheMax: 10000})
	const lines = 12000
	for i := range lines {
		// What the protocol hands on: texts and names of MaxText bytes.
		c.Receive(protocol.Chat{Kind: protocol.ChatPlayer, Text: flood(i, protocol.MaxText), Author: flood(i, protocol.MaxText), Team: 1}, float64(i))
		c.Receive(protocol.Chat{Kind: protocol.ChatSystem, Text: flood(i, 4*protocol.MaxText)}, float64(i))
	}
	h := c.History()
	kept := 0
	for i := range h {
		kept += len(h[i].Name) + len(h[i].Prefix) + len(h[i].Text)
	}
	t.Logf("%d lines in the history, %d bytes of text", len(h), kept)
	if kept > maxChatHistoryBytes {
		t.Errorf("the history keeps %d bytes of text in %d lines, want at most %d", kept, len(h), maxChatHistoryBytes)
	}
	if len(h) == 0 || !strings.HasPrefix(h[len(h)-1].Text, fmt.Sprint(lines-1, "-")) {
		t.Errorf("the newest line is not the last kept")
	}
	// Lines faded out faster than they fade are not held either: the
	// listed ones and as many fading ones as the box has room for.
	if n := len(c.Lines()); n > 3*100 {
		t.Errorf("%d lines to draw, want at most %d", n, 3*100)
	}
	// The dropped lines are not held past the history's end either.
	for _, l := range h[len(h):cap(h)] {
		if l.Text != "" || l.Name != "" {
			t.Fatalf("a dropped line is still held past the history's end")
		}
	}
}

// A scoreboard flood keeps what its bounds say: rows naming new players in
// every table stop at maxStatRows for all tables together, cells at
// maxStatCellText runes, and a schema of more tables than maxStatTables
// makes only that many.
func TestStatFloodKeepsItsBound(t *testing.T) {
	schema := StatSchema{Heads: map[int]string{}}
	for c := range maxStatCells {
		schema.Columns = append(schema.Columns, fmt.Sprint("c", c))
	}
	for team := range 2 * maxStatTables {
		schema.Bodies = append(schema.Bodies, StatBodyDef{Team: team + 1, Name: fmt.Sprint("team", team+1)})
	}
	s := NewStat(schema)
	if len(s.Tables) != maxStatTables {
		t.Errorf("%d tables for a schema of %d, want %d", len(s.Tables), len(schema.Bodies), maxStatTables)
	}
	id := 0
	for m := range 200 {
		msg := &protocol.Stat{}
		for range 8 {
			id++
			b := protocol.StatBody{ID: fmt.Sprint("p", id), Team: 1 + m%maxStatTables}
			for c := range maxStatCells {
				b.Cells = append(b.Cells, protocol.StatCell{Text: flood(id*100+c, protocol.MaxText)})
			}
			msg.Bodies = append(msg.Bodies, b)
		}
		s.Apply(msg)
	}
	rows, kept := 0, 0
	for _, tb := range s.Tables {
		rows += len(tb.Rows)
		for _, r := range tb.Rows {
			for _, c := range r.Cells {
				kept += len(c)
				if n := len([]rune(c)); n > maxStatCellText {
					t.Fatalf("a cell of %d runes kept", n)
				}
			}
		}
	}
	t.Logf("%d rows, %d bytes of cells", rows, kept)
	if rows > maxStatRows {
		t.Errorf("%d rows kept in all, want at most %d", rows, maxStatRows)
	}
	if max := maxStatRows * maxStatCells * maxStatCellText * 4; kept > max {
		t.Errorf("%d bytes of cells kept, want at most %d", kept, max)
	}
}
