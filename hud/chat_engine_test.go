package hud

import (
	"encoding/json"
	"image/color"
	"testing"

	"vimpclient/protocol"
)

// A game that names only the older engine codes still shows a newer
// engine's notices in the client's words; a code the game silences with
// "" shows nothing, one it leaves null shows the client's text.
func TestChatEngineCodesAndSilence(t *testing.T) {
	cfg, err := protocol.ParseConfig(json.RawMessage(`{"modules":{"chat":{"params":{"messages":{
		"s":["T{0}","Y{0}","N{0}","spec","{0} k {1}","{0} j","{0} l"],
		"v":["a","b","c","d","e","f","",null]}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := NewChat(ChatParams{ListLimit: 10, LineTime: 1000, CacheMin: 4, CacheMax: 8, Messages: cfg.ChatMessages})
	for _, code := range []string{`"s:4:Ann,Bob"`, `"s:7"`, `"s:11"`, `"v:6"`, `"v:7"`, `"v:13:3,4"`, `"v:16"`} {
		m, err := protocol.ParseChat(json.RawMessage(code))
		if err != nil {
			t.Fatal(err)
		}
		c.Receive(m, 0)
	}
	var got []string
	for _, l := range c.Lines() {
		got = append(got, l.Text)
	}
	want := []string{"Ann k Bob", "The room has a new host", "The room has a new host: the previous one's connection was poor",
		"You are the host: hand the room over from the room menu", "The vote for a new host passed (3 of 4)"}
	if len(got) != len(want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, got[i], want[i])
		}
	}
	if c.Silenced != 1 || c.Dropped != 1 {
		t.Fatalf("silenced %d (want v:6), dropped %d (want v:16)", c.Silenced, c.Dropped)
	}
}

// A player line's fourth element colours the author's name; a colour the
// client cannot read leaves the team's.
func TestChatNameColour(t *testing.T) {
	p := chatParams()
	p.ListLimit = 10
	c := NewChat(p)
	for _, raw := range []string{`["hi","Ann",1,"#e05a2a"]`, `["yo","Bob",2,"plaid"]`, `["ok","Cid",1]`, `["x","Dee",1,7]`} {
		m, err := protocol.ParseChat(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		c.Receive(m, 0)
	}
	ls := c.Lines()
	if !ls[0].HasNameColor || ls[0].NameColor != (color.RGBA{0xe0, 0x5a, 0x2a, 255}) {
		t.Fatalf("Ann's name: %+v", ls[0])
	}
	for _, l := range ls[1:] {
		if l.HasNameColor {
			t.Errorf("%s's name coloured %v", l.Name, l.NameColor)
		}
	}
}
