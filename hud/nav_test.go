package hud

import (
	"encoding/json"
	"strings"
	"testing"

	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/testkit/capturetest"
)

func TestAuthKeyboardNavigation(t *testing.T) {
	h := New("h:1", "g", nil)
	h.Handle(authForm(t), 0)
	f := h.Auth
	// Visible: name(0), color radio(2), tag(3), mode select(5), then Start.
	h.AuthType([]rune("Ann"))
	h.AuthKey(9, false) // Tab -> radio
	h.AuthKey(39, false)
	if f.Fields[2].Value != "blue" {
		t.Fatalf("radio %q", f.Fields[2].Value)
	}
	h.AuthKey(40, false) // Down -> tag
	h.AuthType([]rune("abc"))
	h.AuthKey(8, false)
	if f.Fields[3].Value != "ab" {
		t.Fatalf("tag %q", f.Fields[3].Value)
	}
	h.AuthType([]rune("c"))
	h.AuthKey(9, true) // Shift+Tab back to the radio
	if f.FocusedField() != &f.Fields[2] {
		t.Fatal("shift+tab")
	}
	h.AuthKey(9, false)
	h.AuthKey(9, false) // select
	h.AuthKey(37, false)
	if f.Fields[5].Value != "b" {
		t.Fatalf("select %q", f.Fields[5].Value)
	}
	h.AuthKey(9, false)
	if !f.StartFocused() {
		t.Fatal("start not focused")
	}
	h.AuthKey(9, false) // wraps to the first field
	if f.FocusedField() != &f.Fields[0] {
		t.Fatal("no wrap")
	}
	h.AuthKey(13, false)
	out := h.Outgoing()
	if len(out) != 1 {
		t.Fatalf("enter sent %q (errors %v)", out, f.Errors)
	}
	var env []json.RawMessage
	var sent map[string]string
	if json.Unmarshal(out[0].Msg, &env) != nil || json.Unmarshal(env[1], &sent) != nil || sent["name"] != "Ann" || sent["color"] != "blue" || sent["tag"] != "abc" || sent["mode"] != "b" {
		t.Fatalf("sent %s", out[0].Msg)
	}
	h.AuthType([]rune("x")) // no editing while the answer is outstanding
	if f.Fields[0].Value != "Ann" {
		t.Fatal("edited while sent")
	}
	h.Handle(protocol.AuthVerdict{OK: true}, 1)
	if h.AuthOpen() {
		t.Fatal("form still open after acceptance")
	}
}

func TestAuthMouseNavigation(t *testing.T) {
	h := New("h:1", "g", nil)
	h.Handle(authForm(t), 0)
	f := h.Auth
	const w, ht = 1280, 800
	g := f.Layout(w, ht)
	center := func(r Rect) (float64, float64) { return r.X + r.W/2, r.Y + r.H/2 }
	// Click the tag field's row, type, click the first radio option, then
	// the select's right part, then Start.
	x, y := center(g.Rows[0].Label)
	h.AuthClick(w, ht, x, y)
	h.AuthType([]rune("Ann"))
	x, y = center(g.Rows[2].Control)
	h.AuthClick(w, ht, x, y)
	if f.FocusedField() != &f.Fields[3] {
		t.Fatal("click did not focus")
	}
	h.AuthType([]rune("xyz"))
	x, y = center(g.Rows[1].Choices[1])
	h.AuthClick(w, ht, x, y)
	if f.Fields[2].Value != "blue" || f.FocusedField() != &f.Fields[2] {
		t.Fatalf("radio %q", f.Fields[2].Value)
	}
	c := g.Rows[3].Control
	h.AuthClick(w, ht, c.X+c.W-5, c.Y+5)
	if f.Fields[5].Value != "a" {
		t.Fatalf("select %q", f.Fields[5].Value)
	}
	h.AuthClick(w, ht, 1, 1) // outside: nothing
	x, y = center(g.Start)
	h.AuthClick(w, ht, x, y)
	if len(h.Outgoing()) != 1 {
		t.Fatalf("start: errors %v", f.Errors)
	}
}

// FuzzHUD feeds arbitrary CONFIG_DATA and then arbitrary messages on every
// port; nothing may panic and the overlays stay bounded.
func FuzzHUD(f *testing.F) {
	f.Add([]byte(`{"modules":{"chat":{"params":{"listLimit":2,"messages":{"s":["{0}{1}"]}}},"panel":{"keys":{"h":"hp","wa":"activeWeapon"},"fields":[{"name":"hp","type":"bar","blocks":0,"max":-1}]},"stat":{"params":{"columns":["a"],"bodies":{"1":"t"},"sortList":{"t":[[0,true],[99,false]]}}},"vote":{"params":{"templates":{"x":["{0}",["a"]]},"menu":[["x",["X","maps"]]]}}}}`), 14, []byte(`[[["1",1,["9","8"]],["1",1,null]],[[1,["x"]]],true]`))
	f.Add([]byte(`{}`), 16, []byte(`{"name":"x","params":["p"],"values":["1","2","3","4","5","6","7","8"]}`))
	f.Add([]byte(`{"modules":{"vote":{"params":{"menu":[["a",["A","teams"]],[1,2],null]}}}}`), 15, []byte(`"s:0:a,b,c"`))
	f.Add([]byte(`{"techInformList":["{0}{9999999999}"]}`), 8, []byte(`[0,["\u0000"]]`))
	f.Add([]byte(`null`), 13, []byte(`["h:1e308","wa:h","h","t:-5"]`))
	f.Add([]byte(`{}`), 1, []byte(`{"params":[{"name":"n","value":"v","options":{"control":"radio","options":["v",{"a":1}],"regExp":"(","maxlength":-3}}],"texts":{"sections":[{"lines":[{"separator":true},{"keys":1}]}]}}`))
	f.Fuzz(func(t *testing.T, config []byte, port int, payload []byte) {
		h := New("h", "g", nil)
		if pc, err := protocol.ParseConfig(config); err == nil {
			h.Handle(pc, 0)
		}
		for i := 0; i < 3; i++ {
			v, err := protocol.DecodePayload(port, payload)
			if err != nil {
				return
			}
			now := float64(i * 4000)
			h.Handle(v, now)
			for code := 48; code <= 57; code++ {
				h.OpenMode(2, now) // the vote menu
				h.VoteKey(code, now)
			}
			h.AuthKey(13, false)
			h.AuthClick(800, 600, 400, 300)
			h.Update(now)
			_ = h.Outgoing()
		}
		if len(h.Chat.Lines()) > h.Config.Chat.ListLimit*2+2 {
			t.Fatalf("%d chat lines", len(h.Chat.Lines()))
		}
	})
}

func TestSessionCooperation(t *testing.T) {
	var _ Store = (*session.AuthStore)(nil)
	h := New("h:1", "g", nil)
	h.HostListsRequested(true) // set before CONFIG_DATA, as the wiring does on open
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	for _, port := range []int{protocol.ConfigData, protocol.AuthData} {
		v, err := protocol.DecodePayload(port, capturetest.First(t, lines, "A", port))
		if err != nil {
			t.Fatal(err)
		}
		h.Handle(v, 0)
	}
	// The session answered the form from -nick: no form on screen.
	h.DismissAuth(map[string]string{"name": "A"})
	if h.AuthOpen() {
		t.Fatal("form shown")
	}
	verdict, _ := protocol.ParseAuthResult(json.RawMessage(`[{"name":"name","error":"not valid"}]`))
	h.Handle(verdict, 1)
	if !h.AuthOpen() || h.Auth.Fields[0].Error != "not valid" {
		t.Fatal("rejected automatic answer did not bring the form back")
	}
	// The rejected name is in its field, with the host's reason, for the
	// player to correct rather than type again.
	if got := h.Auth.Fields[0].Value; h.Auth.Fields[0].Name != "name" || got != "A" {
		t.Fatalf("field %q holds %q, want the rejected %q", h.Auth.Fields[0].Name, got, "A")
	}
	h.Handle(protocol.AuthVerdict{OK: true}, 2)

	// The session requests the list of a host vote itself; the menu's own
	// requests still come from the overlay, as typed actions.
	h.Handle(protocol.Vote{Open: &protocol.VoteOpen{Name: "teamChange"}}, 3)
	if out := h.Outgoing(); len(out) != 0 {
		t.Fatalf("duplicate request %+v", out)
	}
	h.Handle(protocol.Vote{IsList: true, List: []string{"team1", "spectators"}}, 4)
	h.VoteKey(49, 5)
	out := h.Outgoing()
	if len(out) != 1 || out[0].Kind != OutVoteAnswer || out[0].Vote != "teamChange" || out[0].Text != "team1" {
		t.Fatalf("answer %+v", out)
	}
	h.OpenMode(2, 6) // input.ModeVote: the menu
	h.VoteKey(50, 6)
	out = h.Outgoing()
	if len(out) != 1 || out[0].Kind != OutVoteRequest || out[0].Vote != "mapChange" || out[0].Text != "maps" {
		t.Fatalf("menu request %+v", out)
	}
	h.OpenMode(1, 7) // input.ModeChat
	h.ChatText([]rune("gg"))
	h.ChatCommand(1, 7) // input.CmdEnter
	out = h.Outgoing()
	if len(out) != 1 || out[0].Kind != OutChat || out[0].Text != "gg" || string(out[0].Msg) != `[6,"gg"]` {
		t.Fatalf("chat %+v", out)
	}
}

func TestRevealAfterAcceptance(t *testing.T) {
	h := New("h", "g", nil)
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	v, err := protocol.DecodePayload(protocol.ConfigData, capturetest.First(t, lines, "A", protocol.ConfigData))
	if err != nil {
		t.Fatal(err)
	}
	h.Handle(v, 0)
	if h.Reveals("panel") || h.Reveals("chat") {
		t.Fatal("game UI shown before the form was accepted")
	}
	h.Handle(protocol.AuthVerdict{OK: true}, 1)
	if !h.Reveals("panel") || !h.Reveals("chat") || h.Reveals("radar") { // the fixture lists vimp, panel, chat
		t.Fatalf("reveal %v", h.Config.InitIDs)
	}
}

// A slow frame can carry the chat key, text and Enter together: the line
// gets the text without the opening 'c', and the Enter sends all of it.
func TestSlowFramesKeepTypedText(t *testing.T) {
	h := New("h", "g", nil)
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	for _, port := range []int{protocol.ConfigData, protocol.AuthData} {
		v, err := protocol.DecodePayload(port, capturetest.First(t, lines, "A", port))
		if err != nil {
			t.Fatal(err)
		}
		h.Handle(v, 0)
	}
	h.AuthInput([]int{13}, false, false, []rune("Ann"), false) // the nick's last letters and Enter in one frame
	out := h.Outgoing()
	if len(out) != 1 || out[0].Values["name"] != "Ann" {
		t.Fatalf("auth %+v errors %v", out, h.Auth.Errors)
	}
	h.Handle(protocol.AuthVerdict{OK: true}, 1)

	pc, _ := protocol.ParseConfig(capturetest.First(t, lines, "A", protocol.ConfigData))
	cfg, _ := input.ConfigFrom(pc)
	c := input.NewController(cfg, h, nil, nil)
	c.SetEnabled(true, 0)
	c.Frame(&input.Frame{Pressed: []int{67}, Chars: []rune("chel")}, h.Modes(), h, 10)
	c.Frame(&input.Frame{Chars: []rune("lx"), Backspace: true}, h.Modes(), h, 20)
	c.Frame(&input.Frame{Pressed: []int{13}, Chars: []rune("o!")}, h.Modes(), h, 30)
	out = h.Outgoing()
	if len(out) != 1 || out[0].Text != "hello!" {
		t.Fatalf("chat %+v", out)
	}
	// With the chat closed, typed text goes nowhere and game keys act.
	c.SetKeySet(1, 40)
	c.Frame(&input.Frame{Pressed: []int{87}, Chars: []rune("w")}, h.Modes(), h, 50)
	if h.Chat.Open() || len(h.Outgoing()) != 0 || len(c.Drain()) != 1 {
		t.Fatal("closed chat took text or the key was lost")
	}
}

// The Name form does not take Esc: with it on screen Esc leaves the match,
// while an open chat line still takes Esc itself.
func TestAuthFormLeftWithEscape(t *testing.T) {
	h := New("h:1", "g", nil)
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	for _, port := range []int{protocol.ConfigData, protocol.AuthData} {
		v, err := protocol.DecodePayload(port, capturetest.First(t, lines, "A", port))
		if err != nil {
			t.Fatal(err)
		}
		h.Handle(v, 0)
	}
	if !h.AuthOpen() {
		t.Fatal("no form")
	}
	if !h.EscapeFree() {
		t.Fatal("Esc does not leave the Name form")
	}
	h.Chat.OpenInput()
	if h.EscapeFree() {
		t.Fatal("Esc leaves with the chat line open")
	}
}

// splitRule wraps a line before its rule, as a narrow card would.
type splitRule struct{}

func (splitRule) WrapAuthError(line string, _ float64) []string {
	if i := strings.Index(line, " — "); i >= 0 {
		return []string{line[:i], line[i+len(" — "):]}
	}
	return []string{line}
}

// A rejection line too long for the card is wrapped, not cut: the layout
// gives each wrapped line a row and the fields move down under them.
func TestAuthErrorsWrapInLayout(t *testing.T) {
	h := New("h:1", "g", nil)
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	v, err := protocol.DecodePayload(protocol.AuthData, capturetest.First(t, lines, "A", protocol.AuthData))
	if err != nil {
		t.Fatal(err)
	}
	h.Handle(v, 0)
	h.Auth.Type([]rune("A"))
	h.SubmitAuth()
	if len(h.Auth.Errors) != 1 || !strings.Contains(h.Auth.Errors[0], "no space or # last") {
		t.Fatalf("errors %q", h.Auth.Errors)
	}
	one := h.Auth.Layout(1280, 720)
	h.Auth.WrapErrors(splitRule{}, 1280)
	two := h.Auth.Layout(1280, 720)
	if got := h.Auth.ErrorLines(); len(got) != 2 || !strings.HasSuffix(got[1], "no space or # last") {
		t.Fatalf("wrapped lines %q", got)
	}
	if two.Errors.H != 2*AuthErrorH || (two.Rows[0].Row.Y-two.Card.Y)-(one.Rows[0].Row.Y-one.Card.Y) != AuthErrorH {
		t.Fatalf("error area %v, row at %v (was %v)", two.Errors, two.Rows[0].Row, one.Rows[0].Row)
	}
	if two.Card.H-one.Card.H != AuthErrorH {
		t.Fatalf("card %v, was %v: the second line has no room", two.Card, one.Card)
	}
	// Errors changed since the wrap: one line each until wrapped again.
	h.Auth.Type([]rune("b"))
	if got := h.Auth.ErrorLines(); len(got) != len(h.Auth.Errors) {
		t.Fatalf("stale wrapped lines %q for %q", got, h.Auth.Errors)
	}
}
