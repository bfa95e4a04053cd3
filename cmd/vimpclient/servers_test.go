package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"vimpclient/termtext"
	"vimpclient/testkit/fakemaster"
)

// hostile holds what a lying master puts in a room's texts: screen
// clears, a title change, carriage returns and backspaces that overwrite,
// a newline that forges a row, bidi overrides and isolates, C1 controls,
// DEL and bytes that are not UTF-8.
var hostile = []fakemaster.Listed{
	{Name: "\x1b[2J\x1b[HFree \x1b]0;pwned\x07Gold", Region: "eu\rOFFICIAL", GameID: "tanks\b\b\b\b\bsnake",
		MapName: "arena\nforged-row\ttanks\tarena\t1/8", Players: 1, MaxPlayers: 8, Rating: -1e300},
	{ID: "id-\x1b[31m-\u202e", Name: "\u202eexe.moor\u202c \u2066isolated\u2069 \u200e\u200f\u061c", Region: "\u0085\u009b2J\x7f",
		MapName: "bad \xff\xfe utf8", Players: 2, MaxPlayers: 4},
	{Name: strings.Repeat("long\x1b[5m", 300), Region: "us", Players: 0, MaxPlayers: 2, Rating: 4.5},
}

// hasRaw reports the first rune of s that steers a terminal (a newline
// ends a line and is allowed), or a byte that is not UTF-8.
func hasRaw(s string) (rune, bool) {
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd") {
			return r, true
		}
		if termtext.Unsafe(r) && r != '\n' {
			return r, true
		}
	}
	return 0, false
}

// `servers` against a master whose room texts hold escapes, controls and
// bidi marks prints none of them: one row per room, each text escaped
// visibly and cut to a name's length, the rating in bounded form.
func TestServersPrintsNoRawText(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{})
	defer fm.Close()
	for _, l := range hostile {
		fm.AddRoom(l)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"servers", "-ping", "0", fm.URL()}, &out, &errOut); code != 0 {
		t.Fatalf("servers: %d\n%s", code, errOut.String())
	}
	text := out.String()
	if r, raw := hasRaw(text + errOut.String()); raw {
		t.Fatalf("raw %U reached the terminal:\n%q", r, text)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 1+len(hostile) {
		t.Fatalf("%d lines for %d rooms and a header (a newline split a row):\n%s", len(lines), len(hostile), text)
	}
	for _, want := range []string{`\x1b[2J\x1b[HFree \x1b]0;pwned\aGold`, `eu\rOFFICIAL`, `tanks\b\b\b\b\bsnake`,
		`arena\nforged-row\ttanks\tarena\t1/8`, `\u202eexe.moor\u202c \u2066isolated\u2069 \u200e\u200f\u061c`,
		`\u0085\u009b2J\x7f`, "bad \ufffd\ufffd utf8", // JSON gives a byte that is not UTF-8 as U+FFFD
		`id-\x1b[31m-\u202e`, "-1e+300", "4.5"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q is not shown:\n%s", want, text)
		}
	}
	if strings.Contains(text, "00000000000000000000") {
		t.Error("the rating -1e300 printed in full")
	}
	// The table's widest cell is a name: 80 runes, cut with an ellipsis.
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 8*(termtext.NameMax+2) {
			t.Errorf("a row of %d runes", n)
		}
	}
	if !strings.Contains(lines[3], "…") || strings.Count(lines[3], "long") > termtext.NameMax/4 {
		t.Errorf("the long name was not cut: %s", lines[3])
	}
}

// `servers -json` stays exact JSON: its rooms mean what the master sent
// (read here straight from the master), with latencyMs added, and yet no
// rune of it steers a terminal.
func TestServersJSONStaysExact(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{})
	defer fm.Close()
	for _, l := range hostile {
		fm.AddRoom(l)
	}
	resp, err := http.Get(fm.URL() + "/servers")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var sent struct {
		Total   int              `json:"total"`
		Servers []map[string]any `json:"servers"`
	}
	if err := json.Unmarshal(body, &sent); err != nil || len(sent.Servers) != len(hostile) {
		t.Fatalf("the master's list: %v\n%s", err, body)
	}
	if _, raw := hasRaw(string(body)); !raw {
		t.Fatal("the master's answer carries no raw rune: the test tests nothing")
	}

	var out, errOut bytes.Buffer
	if code := run([]string{"servers", "-json", "-ping", "0", fm.URL()}, &out, &errOut); code != 0 {
		t.Fatalf("servers -json: %d\n%s", code, errOut.String())
	}
	if r, raw := hasRaw(out.String()); raw {
		t.Fatalf("raw %U in the JSON:\n%q", r, out.String())
	}
	if !json.Valid(out.Bytes()) {
		t.Fatalf("not JSON:\n%s", out.String())
	}
	var got struct {
		Total   int              `json:"total"`
		Servers []map[string]any `json:"servers"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, s := range sent.Servers {
		s["latencyMs"] = nil
	}
	if got.Total != sent.Total || !reflect.DeepEqual(got.Servers, sent.Servers) {
		t.Errorf("the rooms changed meaning:\n got %v\nsent %v", got.Servers, sent.Servers)
	}
}

// A master that closes the room with a reason of 5,000 characters full of
// escapes: the headless run ends, and neither stderr nor the summary's
// errors carry the reason raw or whole.
func TestRoomClosedReasonIsEscapedAndBounded(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, Dialect: fakemaster.Newer})
	defer fm.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serveDone := make(chan int, 1)
	go func() {
		serveDone <- runServe(ctx, []string{"-addr", "127.0.0.1:0", "-bots", "0", "-master", fm.URL(),
			"-name", "Room", "-token", keys.Token("1", "Hoster")}, io.Discard, io.Discard)
	}()
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	if err := fm.WaitRooms(wctx, 1); err != nil {
		t.Fatalf("no room registered: %v", err)
	}
	room := fm.RoomIDs()[0]
	reason := strings.Repeat("\x1b[2J\x1b]0;t\x07\r\n\u202e", 5000/12+1)[:5000]
	go func() {
		if fm.WaitMembers(wctx, room, 1) == nil {
			fm.CloseRoom(room, reason)
		}
	}()
	var out, errOut bytes.Buffer
	code := run([]string{"-headless", "-for", "20s", "-summary", "-token", keys.Token("2", "Alice"), "-room", "Room", fm.URL()}, &out, &errOut)
	if code == 0 {
		t.Errorf("a closed room ended the run with 0:\n%s", errOut.String())
	}
	stderr := errOut.String()
	if r, raw := hasRaw(stderr); raw {
		t.Fatalf("raw %U on stderr:\n%q", r, stderr)
	}
	var closed string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "closed (4901)") {
			closed = l
		}
	}
	if !strings.Contains(closed, `The room was closed (\x1b[2J\x1b]0;t\a\r\n\u202e`) || utf8.RuneCountInString(closed) > termtext.ReasonMax+40 {
		t.Fatalf("the close line (%d runes): %q\nstderr:\n%s", utf8.RuneCountInString(closed), closed, stderr)
	}
	var sum struct {
		Errors []string `json:"errors"`
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out.String())
	}
	if r, raw := hasRaw(out.String()); raw {
		t.Errorf("raw %U in the summary", r)
	}
	found := false
	for _, e := range sum.Errors {
		if strings.Contains(e, "The room was closed") {
			found = true
		}
		if r, raw := hasRaw(e); raw || strings.ContainsRune(e, '\n') || utf8.RuneCountInString(e) > termtext.MessageMax {
			t.Errorf("summary error (%U) of %d runes: %.300q", r, utf8.RuneCountInString(e), e)
		}
	}
	if !found {
		t.Errorf("the closed room is not among the summary's errors: %q", sum.Errors)
	}
	cancel()
	<-serveDone
}
