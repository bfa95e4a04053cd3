package hud

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"vimpclient/internal/version"
	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

func TestVotePaginationAndAnswer(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.Receive(voteMsg(t, `{"name":"many","params":["one"]}`), 0)
	w := v.Cur
	if w == nil || w.Title != "Pick one" || len(w.PageOptions()) != 7 || w.HasBack() || !w.HasMore() {
		t.Fatalf("window %+v", w)
	}
	v.Key(57, 100) // 9: more
	if w.Page != 1 || !reflect.DeepEqual(w.PageOptions(), []string{"h", "i", "j"}) || !w.HasBack() || w.HasMore() {
		t.Fatalf("page 1 %+v", w)
	}
	v.Key(57, 200) // no more pages: nothing
	v.Key(53, 300) // 5: no such option on this page
	if v.Cur == nil || len(v.Outgoing()) != 0 {
		t.Fatal("acted on a missing option")
	}
	v.Key(56, 400)   // 8: back
	v.Key(96+2, 450) // numpad 2: not accepted
	v.Key(50, 500)   // 2 -> "b"
	if out := v.Outgoing(); len(out) != 1 || string(out[0].Msg) != `[7,["many","b"]]` || v.Open() {
		t.Fatalf("out %q open %v", out, v.Open())
	}
}

func TestVoteTimerAndTimeOff(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.Receive(voteMsg(t, `{"name":"mapChangeByUser","params":["Alice","arena"]}`), 0)
	if v.Cur.Title != "Alice suggested the map: arena" {
		t.Fatalf("title %q", v.Cur.Title)
	}
	v.Update(9999)
	v.Key(57, 5000) // no more pages: timer not restarted
	v.Update(10000)
	if v.Open() || len(v.Outgoing()) != 0 {
		t.Fatal("vote did not expire silently")
	}
	v.Receive(voteMsg(t, `{"name":"teamChange"}`), 20000)
	if out := v.Outgoing(); len(out) != 1 || string(out[0].Msg) != `[7,"teams"]` || v.Open() || !v.Waiting() {
		t.Fatalf("request %q", out)
	}
	v.Receive(voteMsg(t, `{"name":"mapChangeByUser","params":["x","y"]}`), 20010) // ignored while waiting
	v.Receive(voteMsg(t, `["team1","spectators"]`), 20020)
	v.Update(1e9) // timeOff: never expires
	if !v.Open() || v.Cur.Name != "teamChange" || !reflect.DeepEqual(v.Cur.Options, []string{"team1", "spectators"}) {
		t.Fatalf("team vote %+v", v.Cur)
	}
	v.Receive(voteMsg(t, `["late"]`), 1e9) // nobody waits
	v.Receive(voteMsg(t, `{"name":"nosuch"}`), 1e9)
	if v.Ignored != 2 {
		t.Fatalf("ignored %d", v.Ignored)
	}
}

func TestVoteMenuAndEngineQueue(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.OpenMenu(0)
	// The title names the running build, as -version does.
	if v.Cur.Title != "Menu · vimpclient "+version.Get().Label() || !reflect.DeepEqual(v.Cur.Options, []string{"Switch team", "Suggest map"}) {
		t.Fatalf("menu %+v", v.Cur)
	}
	v.EngineVote(EngineVoteWindow{Name: "@changeHost", Title: "Change host?", Options: []string{"Yes", "No"},
		Answers: []string{"yes", "no"}}, 10) // queued behind the menu
	if v.Cur.Menu != true {
		t.Fatal("engine vote replaced the menu")
	}
	v.Key(50, 20) // Suggest map: the menu completes, the engine vote shows, the request goes out
	if out := v.Outgoing(); len(out) != 1 || string(out[0].Msg) != `[7,"maps"]` {
		t.Fatalf("out %q", out)
	}
	if v.Cur == nil || !v.Cur.Engine {
		t.Fatalf("engine vote not shown: %+v", v.Cur)
	}
	v.Receive(voteMsg(t, `["garden","dunes"]`), 30) // host list: queued behind the engine vote
	v.Key(49, 40)                                   // Yes: to the platform, not port 7
	out := v.Outgoing()
	if len(out) != 1 || out[0].Kind != OutEngineAnswer || out[0].Vote != "@changeHost" || out[0].Text != "yes" || out[0].Msg != nil {
		t.Fatalf("engine answer %+v", out)
	}
	if v.Cur == nil || v.Cur.Name != "mapChange" || len(v.Cur.Options) != 2 {
		t.Fatalf("queued host vote %+v", v.Cur)
	}
	v.Key(48, 50) // 0: exit
	if v.Open() {
		t.Fatal("still open")
	}
}

func authForm(t *testing.T) *protocol.AuthForm {
	t.Helper()
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	raw := capturetest.First(t, lines, "A", protocol.AuthData)
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	// The fixture's two fields plus one of each other control.
	params := obj["params"].([]any)
	params = append(params,
		map[string]any{"name": "color", "value": "red", "options": map[string]any{"control": "radio", "options": []any{"red", "blue"}, "storage": "color"}},
		map[string]any{"name": "tag", "value": "", "options": map[string]any{"control": "text", "regExp": "[a-z]{3}", "maxlength": 5}},
		map[string]any{"name": "secret", "value": "k", "options": map[string]any{"control": "text", "hidden": true}},
		map[string]any{"name": "mode", "value": "zz", "options": map[string]any{"control": "select", "options": []any{"a", "b"}, "label": "Mode"}},
	)
	obj["params"] = params
	b, _ := json.Marshal(obj)
	f, err := protocol.ParseAuthData(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAuthFormBuildValidateSubmit(t *testing.T) {
	store := &memStore{}
	_ = store.Save("h:1", "g", map[string]string{"playerName": "Remembered", "color": "blue"})
	_ = store.Save("h:1", "other", map[string]string{"playerName": "Wrong"})
	f := NewAuthForm(authForm(t), "h:1", "g", store)
	if f.Title != "Mini Game Fixture" || len(f.Sections) != 1 || f.Sections[0].Heading != "Controls" || f.Sections[0].Lines[0].Keys != "W, S" {
		t.Fatalf("texts %+v", f)
	}
	if got := f.Focusables(); !reflect.DeepEqual(got, []int{0, 2, 3, 5}) { // model has no control, secret is hidden
		t.Fatalf("focusables %v", got)
	}
	if f.Fields[0].Value != "Remembered" || f.Fields[2].Value != "blue" || f.Fields[5].Value != "" {
		t.Fatalf("values %+v", f.Fields)
	}
	f.Fields[0].Value = ""
	f.FocusField(0)
	if f.Submit() != nil || !strings.Contains(f.Errors[0], "Name") {
		t.Fatalf("required: %v", f.Errors)
	}
	f.Type([]rune("9bad\x02 name that is far too long"))
	if f.Fields[0].Value != "9bad name that " { // maxlength 15, control removed
		t.Fatalf("typed %q", f.Fields[0].Value)
	}
	f.Next() // radio
	f.Step(1)
	f.Next() // tag
	f.Type([]rune("AB"))
	if f.Submit() != nil || f.Fields[3].Error == "" {
		t.Fatalf("pattern: %v", f.Errors)
	}
	f.Backspace()
	f.Backspace()
	f.Type([]rune("abc"))
	f.Next() // select
	f.Step(-1)
	// A rejected name says the rule the field's descriptor names.
	if f.Submit() != nil || f.Errors[0] != "Name: not valid — 2–15 letters, digits, _, # or spaces; a letter first, no space or # last" {
		t.Fatalf("validator: %v", f.Errors)
	}
	f.Fields[0].Value = "Ann #2"
	msg := f.Submit()
	var env []json.RawMessage
	var sent map[string]string
	if msg == nil || json.Unmarshal(msg, &env) != nil || json.Unmarshal(env[1], &sent) != nil {
		t.Fatalf("submit %s %v", msg, f.Errors)
	}
	want := map[string]string{"name": "Ann #2", "model": "m1", "color": "red", "tag": "abc", "secret": "k", "mode": "b"}
	if !reflect.DeepEqual(sent, want) {
		t.Fatalf("sent %v", sent)
	}
	if f.Submit() != nil {
		t.Fatal("second submit before AUTH_RESULT")
	}
	verdict, _ := protocol.ParseAuthResult(json.RawMessage(`[{"name":"name","error":"not valid"},{"name":"model","error":""}]`))
	if err := f.Result(verdict); err != nil {
		t.Fatal(err)
	}
	if f.Fields[0].Error != "not valid" || !reflect.DeepEqual(f.Errors, []string{"Name: not valid — 2–15 letters, digits, _, # or spaces; a letter first, no space or # last", "model: not correct"}) {
		t.Fatalf("errors %v / %q", f.Errors, f.Fields[0].Error)
	}
	f.Step(1) // any change clears the error area
	f.Step(1)
	if f.Errors != nil {
		t.Fatal("errors kept after a change")
	}
	if f.Submit() == nil {
		t.Fatal("resubmit refused")
	}
	if err := f.Result(protocol.AuthVerdict{OK: true}); err != nil || !f.Done {
		t.Fatal(err)
	}
	if got := store.Load("h:1", "g"); got["playerName"] != "Ann #2" || got["model"] != "m1" || got["color"] != "red" {
		t.Fatalf("stored %v", got)
	}
	if got := store.Load("h:1", "other"); got["playerName"] != "Wrong" {
		t.Fatal("other game's values touched")
	}
}

func TestAuthCheckboxIsNotAString(t *testing.T) {
	f := NewAuthForm(&protocol.AuthForm{Params: []protocol.AuthParam{{Name: "agree", Options: protocol.AuthOptions{Control: "checkbox"}}}}, "h", "g", nil)
	f.Step(0)
	if !f.Fields[0].Checked || f.Submit() != nil || f.Errors[0] != "agree: Property must be a string" {
		t.Fatalf("%+v %v", f.Fields[0], f.Errors)
	}
}
