package hud

import (
	"encoding/json"
	"fmt"
	"image/color"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

func captureUIConfig(t *testing.T) UIConfig {
	t.Helper()
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	pc, err := protocol.ParseConfig(capturetest.First(t, lines, "A", protocol.ConfigData))
	if err != nil {
		t.Fatal(err)
	}
	u := UIConfigFrom(pc)
	if len(u.Problems) > 0 {
		t.Fatalf("problems %v", u.Problems)
	}
	return u
}

func TestUIConfigFromCapture(t *testing.T) {
	u := captureUIConfig(t)
	if u.Chat.ListLimit != 5 || u.Chat.LineTime != 15000 || u.Chat.CacheMin != 200 || u.Chat.CacheMax != 300 {
		t.Fatalf("chat %+v", u.Chat)
	}
	if len(u.Panel.Fields) != 2 || u.Panel.Fields[0].Blocks != 10 || u.Panel.Keys["h"] != "energy" {
		t.Fatalf("panel %+v", u.Panel)
	}
	if !reflect.DeepEqual(u.Stat.Bodies, []StatBodyDef{{1, "team1"}, {2, "spectators"}}) || u.Stat.Heads[1] != "team1" ||
		!reflect.DeepEqual(u.Stat.Sort["team1"], []SortKey{{2, true}, {3, false}}) {
		t.Fatalf("stat %+v", u.Stat)
	}
	if u.Vote.Time != 10000 || len(u.Vote.Menu) != 2 || u.Vote.Menu[1].Vote != "mapChange" || protocol.ListRequest(u.Vote.Menu[1].Template.Values) != "maps" {
		t.Fatalf("vote %+v", u.Vote)
	}
	if u.Game[1] != "ROUND START!" || u.Tech[2] != "Loading..." {
		t.Fatalf("informs %v %v", u.Game, u.Tech)
	}
}

func chatParams() ChatParams {
	return ChatParams{ListLimit: 3, LineTime: 1000, CacheMin: 4, CacheMax: 6, Messages: map[string][]*string{"s": {ptr("game s0 {0}")}, "g": {ptr("{0} spawned {1}")}}}
}

func ptr(s string) *string {
	return &s
}

func TestChatLimitsLifetimeAndFade(t *testing.T) {
	p := chatParams()
	p.LineTime = 5000
	c := NewChat(p)
	for i := 0; i < 4; i++ {
		c.Receive(protocol.Chat{Kind: protocol.ChatPlayer, Text: fmt.Sprint("m", i), Author: "A", Team: 1}, float64(i*100))
	}
	// Four lines with a limit of three: the oldest fades, still drawn.
	ls := c.Lines()
	if len(ls) != 4 || !ls[3].Fading || ls[3].Text != "m0" || ls[0].Text != "m1" {
		t.Fatalf("lines %+v", ls)
	}
	c.Update(300 + ChatFadeMs)
	if len(c.Lines()) != 3 {
		t.Fatalf("faded line kept: %+v", c.Lines())
	}
	c.Update(5100) // m1's timer (added at 100) fired
	if ls := c.Lines(); ls[0].Text != "m2" || !ls[2].Fading || ls[2].Text != "m1" {
		t.Fatalf("after expiry %+v", ls)
	}
	if a := c.Lines()[2].Alpha(5100 + ChatFadeMs/2); a < 0.49 || a > 0.51 {
		t.Fatalf("alpha %v", a)
	}
	c.Update(20000)
	c.Update(20000 + ChatFadeMs)
	if len(c.Lines()) != 0 {
		t.Fatalf("lines left %+v", c.Lines())
	}
	for i := 0; i < 10; i++ {
		c.Receive(protocol.Chat{Kind: protocol.ChatSystem, Text: "x"}, 30000)
	}
	if n := len(c.History()); n > 6 || n < 4 {
		t.Fatalf("history %d", n)
	}
}

func TestChatTemplates(t *testing.T) {
	p := chatParams()
	p.CacheMin, p.CacheMax = 200, 300
	c := NewChat(p)
	for _, raw := range []string{`"s:0:x"`, `"s:2:team1"`, `"g:0:Bob,2"`, `"c:0"`, `"v:4"`, `"n:0"`, `"g:5"`, `"m:0"`, `["plain\u0007 sys"]`, `["hi\nthere","Bo\tb",2]`,
		`["\u001b[2J\u001b[Hcleared \u001b]0;title\u0007screen\u009b31m"]`} {
		m, err := protocol.ParseChat(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		c.Receive(m, 0)
	}
	want := []string{
		"System: game s0 x",
		"System: Your new team: team1", // engine default per entry: the game lists only s:0
		"System: Bob spawned 2",
		"System: Command not found",
		"System: Vote passed",
		"System: That name cannot be used", // the client's own text of an engine code
		// g:5 has no text: dropped
		"System: Current map: {0}", // a placeholder without a parameter stays
		"System: plain sys",
		"Bob: hithere",
		"System: cleared screen", // escape sequences go whole, not only their ESC
	}
	if got := chatTexts(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
	if c.Dropped != 1 {
		t.Fatalf("dropped %d", c.Dropped)
	}
}

func TestChatCommandLine(t *testing.T) {
	c := NewChat(chatParams())
	c.Type([]rune("ignored while closed"))
	c.OpenInput()
	c.Type([]rune("a\x01b"))
	c.Type([]rune(strings.Repeat("x", 100)))
	if n := len([]rune(c.Input())); n != ChatMaxInput || !strings.HasPrefix(c.Input(), "abx") {
		t.Fatalf("input %q", c.Input())
	}
	c.Backspace()
	text, msg := c.Enter()
	if c.Open() || !strings.HasPrefix(text, "abx") || !strings.HasPrefix(string(msg), `[6,"abx`) || len([]rune(string(msg))) != ChatMaxInput-1+6 {
		t.Fatalf("sent %s open %v", msg, c.Open())
	}
	c.OpenInput()
	if _, m := c.Enter(); c.Input() != "" || m != nil {
		t.Fatal("empty line sent")
	}
	c.OpenInput()
	c.Type([]rune("/spawn 2"))
	c.Escape()
	if _, m := c.Enter(); c.Open() || m != nil {
		t.Fatal("escape sent")
	}
}

func panelFor(t *testing.T) *Panel {
	return NewPanel(PanelSchema{
		Keys: map[string]string{"t": "time", "h": "health", "wa": "activeWeapon", "w1": "bullet", "w2": "bomb", "s": "score"},
		Fields: []PanelField{
			{Name: "health", Type: "bar", Max: 100, Blocks: 30},
			{Name: "bullet", Type: "weapon"}, {Name: "bomb", Type: "weapon"},
			{Name: "score", Type: "value"}, {Name: "time", Type: "time"},
		},
	})
}

func pcells(t *testing.T, raw string) []protocol.PanelCell {
	t.Helper()
	p, err := protocol.ParsePanel(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPanelCells(t *testing.T) {
	p := panelFor(t)
	for _, c := range p.Cells {
		if c.Shown {
			t.Fatal("cell shown before any value")
		}
	}
	p.Apply(pcells(t, `["t:97","h:47","w1:200","w2:100","wa:w2","s:abc","zz:1"]`), 0)
	if p.Cells[4].Text != "1:37" || !p.Cells[0].Shown || p.Cells[1].Text != "200" || !p.Cells[2].Active || p.Cells[1].Active || p.Cells[3].Text != "abc" {
		t.Fatalf("cells %+v", p.Cells)
	}
	if p.Unknown != 1 {
		t.Fatalf("unknown %d", p.Unknown)
	}
	if n, blink := p.Cells[0].Bar(0); n != 15 || !blink {
		t.Fatalf("bar %d %v", n, blink)
	}
	p.Apply(pcells(t, `["t:-1","h","w1"]`), 0)
	if p.Cells[4].Text != "0:00" || p.Cells[0].Shown || p.Cells[1].Shown {
		t.Fatalf("cells %+v", p.Cells)
	}
	for v, want := range map[float64]string{5: "0:05", 60: "1:00", 600: "10:00", 119: "1:59"} {
		if FormatTime(v) != want {
			t.Errorf("FormatTime(%v) = %s", v, FormatTime(v))
		}
	}
	if BarColor(0, 30) != [3]uint8{255, 50, 50} || BarColor(29, 30) != [3]uint8{0, 220, 220} || BarColor(0, 1) != [3]uint8{255, 50, 50} {
		t.Fatal("bar colours")
	}
	if c := BarColor(5, 11); c != [3]uint8{255, 255, 0} {
		t.Fatalf("middle %v", c)
	}
}

func TestPanelRoundStartFill(t *testing.T) {
	p := panelFor(t)
	p.Apply(pcells(t, `["h:100"]`), 0)
	p.RoundStart(1000)
	p.Apply(pcells(t, `["h:50"]`), 1100) // remembered, not painted
	if n, _ := p.Cells[0].Bar(1200); n != 0 {
		t.Fatalf("painted during the wait: %d", n)
	}
	// 15 blocks over 500 ms from 1500: block j at j*33.3 ms.
	if n, _ := p.Cells[0].Bar(1500); n != 1 {
		t.Fatalf("at fill start %d", n)
	}
	if n, _ := p.Cells[0].Bar(1750); n != 8 {
		t.Fatalf("mid fill %d", n)
	}
	p.Update(2000)
	if n, _ := p.Cells[0].Bar(2000); n != 15 {
		t.Fatalf("after fill %d", n)
	}
	p.RoundStart(3000) // nothing new arrives: the bar refills to the value it had
	if n, _ := p.Cells[0].Bar(3400); n != 0 {
		t.Fatalf("painted during the wait: %d", n)
	}
	p.Update(4000)
	if n, _ := p.Cells[0].Bar(4000); n != 15 {
		t.Fatalf("after a refill with no new value: %d", n)
	}
	p.Apply(pcells(t, `["h:100"]`), 4100)
	if n, _ := p.Cells[0].Bar(4100); n != 30 {
		t.Fatalf("direct paint %d", n)
	}
	if !(p.WaveStart == 3000) {
		t.Fatalf("wave %v", p.WaveStart)
	}
}

// The host sends the round's panel just before the round start: the bar
// refills to that value and keeps it, with no further health update.
func TestPanelValueJustBeforeRoundStart(t *testing.T) {
	h := New("h", "g", nil)
	h.Panel = panelFor(t)
	h.Handle(protocol.Panel(pcells(t, `["h:20"]`)), 500) // the end of the last round
	h.Handle(protocol.Panel(pcells(t, `["h:100"]`)), 1000)
	h.Handle(protocol.Inform{Code: 1}, 1000)
	h.Update(1200)
	if n, _ := h.Panel.Cells[0].Bar(1200); n != 0 {
		t.Fatalf("painted during the wait: %d", n)
	}
	if n, _ := h.Panel.Cells[0].Bar(1750); n == 0 || n == 30 {
		t.Fatalf("mid refill %d blocks", n)
	}
	for _, now := range []float64{1500, 2000, 5000} {
		h.Update(now)
	}
	if n, _ := h.Panel.Cells[0].Bar(5000); n != 30 {
		t.Fatalf("after the refill the bar shows %d of 30 blocks", n)
	}
	// A bar that never had a value stays empty and paints the next one.
	p := panelFor(t)
	p.RoundStart(0)
	p.Update(600)
	if n, _ := p.Cells[0].Bar(600); n != 0 || p.Cells[0].filling {
		t.Fatalf("an empty bar: %d blocks, filling %v", n, p.Cells[0].filling)
	}
	p.Apply(pcells(t, `["h:50"]`), 700)
	if n, _ := p.Cells[0].Bar(700); n != 15 {
		t.Fatalf("direct paint %d", n)
	}
}

func TestPanelReducedMotion(t *testing.T) {
	p := panelFor(t)
	p.ReducedMotion = true
	p.RoundStart(1000)
	p.Apply(pcells(t, `["h:50"]`), 1100)
	if n, _ := p.Cells[0].Bar(1100); n != 15 || p.WaveStart == p.WaveStart {
		t.Fatalf("bar %d wave %v", n, p.WaveStart)
	}
}

func stat(t *testing.T, raw string) *protocol.Stat {
	t.Helper()
	s, err := protocol.ParseStat(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func rowNames(tb StatTable) string {
	var out []string
	for _, r := range tb.Rows {
		out = append(out, r.Cells[0])
	}
	return strings.Join(out, ",")
}

func TestStatDeltasAndSorting(t *testing.T) {
	s := NewStat(captureUIConfig(t).Stat)
	s.Apply(stat(t, `[[["0",1,["A","",5,1]],["1",1,["B","",3,0]],["2",2,["S","",0,0]],["9",7,["X"]]],[[1,["2","",8,1]],[2,["x"]]],true]`))
	if rowNames(s.Tables[0]) != "A,B" || rowNames(s.Tables[1]) != "S" || s.Dropped != 2 {
		t.Fatalf("tables %+v dropped %d", s.Tables, s.Dropped)
	}
	if s.Tables[0].Head[0] != "2" {
		t.Fatalf("head %v", s.Tables[0].Head)
	}
	// B's score becomes 5 with deaths 0: equal score, fewer deaths -> above A.
	s.Apply(stat(t, `[[["1",1,["B","",5,0]]],[]]`))
	if rowNames(s.Tables[0]) != "B,A" {
		t.Fatalf("order %s", rowNames(s.Tables[0]))
	}
	// A scores 9: moves up. A null cell keeps the shown value, "" clears.
	s.Apply(stat(t, `[[["0",1,[null,"dead",9,null,12]]],[]]`))
	if rowNames(s.Tables[0]) != "A,B" || !reflect.DeepEqual(s.Tables[0].Rows[0].Cells, []string{"A", "dead", "9", "1", "12"}) {
		t.Fatalf("rows %+v", s.Tables[0].Rows)
	}
	s.Apply(stat(t, `[[["0",1,["A",""]]],[]]`))
	if s.Tables[0].Rows[0].Cells[1] != "" {
		t.Fatal("empty string did not clear")
	}
	// Moving team: removal plus insertion; a new low row sorts down.
	s.Apply(stat(t, `[[["0",1,null],["0",2,["A","",0,0]],["3",1,["C","",1,9]]],[]]`))
	if rowNames(s.Tables[0]) != "B,C" || rowNames(s.Tables[1]) != "S,A" {
		t.Fatalf("tables %s / %s", rowNames(s.Tables[0]), rowNames(s.Tables[1]))
	}
	// Spectators are not sorted: arrival order. Full resets the bodies.
	s.Apply(stat(t, `[[["5",2,["Z"]]],[],true]`))
	if rowNames(s.Tables[0]) != "" || rowNames(s.Tables[1]) != "Z" || s.Tables[0].Head[0] != "2" {
		t.Fatalf("after full %+v", s.Tables)
	}
}

func voteSchema(t *testing.T) VoteSchema {
	v := captureUIConfig(t).Vote
	v.Templates["many"] = protocol.VoteTemplate{Title: "Pick {0}", Values: json.RawMessage(`["a","b","c","d","e","f","g","h","i","j"]`)}
	return v
}

func voteMsg(t *testing.T, raw string) protocol.Vote {
	t.Helper()
	v, err := protocol.ParseVote(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestInformers(t *testing.T) {
	u := captureUIConfig(t)
	g := NewGameInform(u.Game)
	g.Receive(protocol.Inform{Code: 0, Params: []string{"team1"}}, 0)
	if g.Text != "TEAM1 WINS!" || !g.Shown {
		t.Fatalf("%+v", g)
	}
	g.Receive(protocol.Inform{Code: 1}, 2000)
	g.Update(4000) // the second message restarted the timer
	if !g.Shown || g.Text != "ROUND START!" {
		t.Fatalf("%+v", g)
	}
	g.Update(5000)
	if g.Shown {
		t.Fatal("not hidden")
	}
	g.Receive(protocol.Inform{Code: 9}, 0)
	if g.Text != "" || !g.Shown {
		t.Fatal("missing text")
	}

	tech := NewTechInform()
	tech.Receive(protocol.TechInform{Inform: protocol.Inform{Code: 6, Params: []string{"1"}}}) // before CONFIG_DATA
	if tech.Text != "Room is full! Max players: 1. Try again later." {
		t.Fatalf("%q", tech.Text)
	}
	tech.Disconnected("The room is full. Try again later.") // terminal text stays
	if !strings.HasPrefix(tech.Text, "Room is full!") {
		t.Fatal("terminal text replaced")
	}
	tech.Reset()
	tech.SetList(u.Tech)
	tech.Receive(protocol.TechInform{Inform: protocol.Inform{Code: 0, Params: []string{"30", "2"}}})
	if tech.Text != "Server is full! Please wait or try again later.\nMax players: 30\nYou are #2 in the queue." {
		t.Fatalf("%q", tech.Text)
	}
	tech.Receive(protocol.TechInform{Inform: protocol.Inform{Code: 2}})
	tech.Disconnected("closed") // loading is not terminal
	if tech.Text != "closed" {
		t.Fatalf("%q", tech.Text)
	}
	tech.Receive(protocol.TechInform{Hide: true})
	tech.Receive(protocol.TechInform{Inform: protocol.Inform{Code: 42}})
	if tech.Text != "Unknown error" {
		t.Fatalf("%q", tech.Text)
	}
}

func TestHUDModesForInput(t *testing.T) {
	var _ input.UI = (*HUD)(nil)
	h := New("h", "g", nil)
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	for _, port := range []int{protocol.ConfigData, protocol.AuthData} {
		v, err := protocol.DecodePayload(port, capturetest.First(t, lines, "A", port))
		if err != nil {
			t.Fatal(err)
		}
		h.Handle(v, 0)
	}
	if h.Panel.Title != "Mini Game Fixture" || h.Auth == nil {
		t.Fatal("auth data not applied")
	}
	h.OpenMode(input.ModeVote, 0)
	h.OpenMode(input.ModeStat, 0)
	if !h.ModeOpen(input.ModeVote) || !h.ModeOpen(input.ModeStat) || h.ModeOpen(input.ModeChat) {
		t.Fatal("modes")
	}
	h.CloseStat()
	h.VoteKey(48, 1)
	if h.ModeOpen(input.ModeVote) || h.ModeOpen(input.ModeStat) {
		t.Fatal("modes not closed")
	}
}

// BenchmarkModelsSteady runs a frame's model work with nothing arriving:
// the overlay timers only.
func BenchmarkModelsSteady(b *testing.B) {
	h := New("h", "g", nil)
	for i := 0; i < 5; i++ {
		h.Chat.Receive(protocol.Chat{Kind: protocol.ChatPlayer, Text: "hello", Author: "A", Team: 1}, 0)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.Update(1000)
	}
}

// TestAuthLabelledChoices: {value, label} options show their labels and
// submit their values; unit "s" marks the label.
func TestAuthLabelledChoices(t *testing.T) {
	form, err := protocol.ParseAuthData([]byte(`{"params":[
		{"name":"model","value":"m2","options":{"control":"select","label":"Model","options":[{"value":"m1","label":"Light tank"},{"value":"m2","label":"Heavy tank"},"m3"]}},
		{"name":"side","value":"","options":{"control":"radio","options":[{"value":"n","label":"North"},{"value":"s"}]}},
		{"name":"delay","value":"500","options":{"control":"text","unit":"s","label":"Respawn"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f := NewAuthForm(form, "h:1", "g", nil)
	model, side, delay := &f.Fields[0], &f.Fields[1], &f.Fields[2]
	if model.ValueLabel() != "Heavy tank" || !reflect.DeepEqual(model.ChoiceLabels, []string{"Light tank", "Heavy tank", "m3"}) {
		t.Fatalf("select: %q %v", model.ValueLabel(), model.ChoiceLabels)
	}
	if !reflect.DeepEqual(side.Choices, []string{"n", "s"}) || !reflect.DeepEqual(side.ChoiceLabels, []string{"North", "s"}) {
		t.Fatalf("radio: %v %v", side.Choices, side.ChoiceLabels)
	}
	if delay.Label != "Respawn (s)" {
		t.Errorf("unit label %q", delay.Label)
	}
	if f.Submit() == nil {
		t.Fatalf("submit refused: %v", f.Errors)
	}
	if got := f.Submitted()["model"]; got != "m2" {
		t.Errorf("submitted %q, want the value m2", got)
	}
}

// A player's nick is found by the game ID its stat row carries, in any
// table; an unknown ID has none.
func TestStatNameByID(t *testing.T) {
	s := NewStat(captureUIConfig(t).Stat)
	s.Apply(stat(t, `[[["4",1,["Alice","",5,1]],["7",2,["Bolt","dead",3,0]]],[],true]`))
	for id, want := range map[string]string{"4": "Alice", "7": "Bolt", "9": ""} {
		if got, ok := s.Name(id); got != want || ok != (want != "") {
			t.Errorf("Name(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
}

// A scoreboard of the leaderboard mode declares no tables (snakes 0.15),
// yet the names of the room's table its host sends with the first shot
// still name the players: by id, through EachName, until a row goes or a
// full table replaces them. A cell left as it was names nobody anew.
func TestStatNamesWithoutTables(t *testing.T) {
	s := NewStat(StatSchema{Columns: []string{"#", "snake", "score"}, Mode: "leaderboard"})
	s.Apply(stat(t, `[[["1",1,["Viper","",0,"BOT"]],["3",2,["Probe","",0,null]],["5",1,[null,"",0,1]]],[[1,[2,"",0]]],true]`))
	got := map[string]string{}
	s.EachName(func(id, n string) { got[id] = n })
	if len(got) != 2 || got["1"] != "Viper" || got["3"] != "Probe" {
		t.Fatalf("names %v", got)
	}
	if n, ok := s.Name("3"); !ok || n != "Probe" {
		t.Errorf("Name(3) = %q, %v", n, ok)
	}
	s.Apply(stat(t, `[[["1",1,null]],[],false]`))
	if _, ok := s.Name("1"); ok {
		t.Error("a removed row still names its player")
	}
	s.Apply(stat(t, `[[["8",1,["Asp","",0,"BOT"]]],[],true]`))
	if _, ok := s.Name("3"); ok {
		t.Error("a full table kept an old name")
	}
	if n, _ := s.Name("8"); n != "Asp" {
		t.Errorf("Name(8) = %q", n)
	}
}

// A player's chat line with a name colour teaches the scoreboard that
// name's colour; a line without one, or a system line, teaches nothing.
func TestChatTeachesNameColours(t *testing.T) {
	h := New("h", "g", nil)
	h.Handle(protocol.Chat{Kind: protocol.ChatPlayer, Text: "hi", Author: "Ann", Team: 1, NameColor: "#3ab7ff"}, 0)
	h.Handle(protocol.Chat{Kind: protocol.ChatPlayer, Text: "hi", Author: "Bob", Team: 1}, 0)
	if c, ok := h.Stat.NameColour("Ann"); !ok || c != (color.RGBA{0x3a, 0xb7, 0xff, 255}) {
		t.Fatalf("Ann: %v %v", c, ok)
	}
	if _, ok := h.Stat.NameColour("Bob"); ok {
		t.Fatal("Bob has a colour his line did not give")
	}
	for i := range maxNameColours + 5 {
		h.Stat.NoteNameColour(strconv.Itoa(i), color.RGBA{A: 255})
	}
	if len(h.Stat.nameColours) > maxNameColours {
		t.Fatalf("%d colours kept", len(h.Stat.nameColours))
	}
}
