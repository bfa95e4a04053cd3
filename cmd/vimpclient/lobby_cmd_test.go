package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/hostlist"
	"vimpclient/lobby"
	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

// The lobby from the terminal: `serve -master` lists the embedded match on
// a master, `servers -json` shows it with its latency, a headless client
// joins it by name over WebRTC and plays, a headless run without -room
// lists the rooms and fails, and the room leaves the list when serve stops.
func TestLobbyFromTheTerminal(t *testing.T) {
	keys := browsertest.Home(t)
	fm := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer fm.Close()
	fm.AddListed("Other Room", "eu", 1, 8)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	serveDone := make(chan int, 1)
	go func() {
		serveDone <- runServe(ctx, []string{"-addr", "127.0.0.1:0", "-bots", "2", "-master", fm.URL(),
			"-name", "Native Room", "-token", keys.Token("1", "Hoster")}, pw, io.Discard)
		pw.Close()
	}()
	rd := bufio.NewReader(pr)
	for range 2 {
		if _, err := rd.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	go io.Copy(io.Discard, rd)

	var out, errOut bytes.Buffer
	if code := runServers(ctx, []string{"-json", "-ping", "2s", fm.URL()}, &out, &errOut); code != 0 {
		t.Fatalf("servers: %d %s", code, errOut.String())
	}
	var list struct {
		Total   int              `json:"total"`
		Servers []map[string]any `json:"servers"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil || list.Total != 2 || len(list.Servers) != 2 {
		t.Fatalf("servers -json: %v\n%s", err, out.String())
	}
	for _, s := range list.Servers {
		lat, has := s["latencyMs"]
		if !has || s["hostId"] == nil || s["rating"] == nil {
			t.Errorf("room fields lost: %v", s)
		}
		switch s["name"] {
		case "Native Room":
			if ms, ok := lat.(float64); !ok || ms <= 0 {
				t.Errorf("hosted room latency %v", lat)
			}
		case "Other Room":
			if lat != nil {
				t.Errorf("a room with no host measured %v", lat)
			}
		}
	}

	token := keys.Token("2", "Alice")
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	out.Reset()
	errOut.Reset()
	start := time.Now()
	code := run([]string{"-headless", "-for", "3s", "-summary", "-record", rec, "-nick", "Ignored", "-token", token, "-room", "native room", fm.URL()}, &out, &errOut)
	if code != 0 {
		t.Fatalf("headless join: %d\n%s", code, errOut.String())
	}
	var sum gameloop.Summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out.String())
	}
	if sum.State != "playing" || sum.Frames.Decoded == 0 || sum.Frames.Dropped != 0 || sum.Pings == 0 {
		t.Errorf("summary %+v", sum)
	}
	if !strings.Contains(errOut.String(), "-nick is ignored") {
		t.Errorf("no word on -nick:\n%s", errOut.String())
	}
	b, _ := os.ReadFile(rec)
	if strings.Contains(string(b), token) || strings.Contains(errOut.String(), token) || strings.Contains(out.String(), token) {
		t.Error("the token leaked into the recording, the log or the summary")
	}
	if !strings.Contains(string(b), `"token":"[redacted]"`) {
		t.Error("the recording has no redacted AUTH_RESPONSE token")
	}
	path, _ := hostlist.DefaultPath()
	if l, err := hostlist.Load(path); err != nil || len(l.Entries) != 1 || l.Entries[0].Kind != hostlist.Lobby || l.Entries[0].Name != "Native Room" {
		t.Errorf("recent hosts %+v %v", l, err)
	}
	t.Logf("headless lobby run: %v", time.Since(start))

	// A join the host refuses (a token the master's keys did not sign) is
	// not kept among the recent hosts.
	before, err := hostlist.Load(path)
	if err != nil || len(before.Entries) != 1 {
		t.Fatalf("recent hosts %+v %v", before, err)
	}
	joined := before.Entries[0].LastJoined
	other, err := fakemaster.NewKeys("other")
	if err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if code := run([]string{"-headless", "-for", "3s", "-token", other.Token("2", "Mallory"), "-room", "Native Room", fm.URL()}, io.Discard, &errOut); code == 0 {
		t.Errorf("a refused token played:\n%s", errOut.String())
	}
	if l, err := hostlist.Load(path); err != nil || len(l.Entries) != 1 || !l.Entries[0].LastJoined.Equal(joined) {
		t.Errorf("the refused join touched the recent hosts: %+v %v", l, err)
	}

	errOut.Reset()
	if code := run([]string{"-headless", "-token", token, fm.URL()}, io.Discard, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "choose a room") || !strings.Contains(errOut.String(), "Native Room") {
		t.Errorf("no -room: %d\n%s", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"-headless", "-token", token, "-room", "nope", fm.URL()}, io.Discard, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), `no room "nope"`) {
		t.Errorf("unknown room: %d\n%s", code, errOut.String())
	}

	hosted := fm.RoomIDs()[1]
	cancel()
	if code := <-serveDone; code != 0 {
		t.Errorf("serve ended with %d", code)
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := fm.WaitGone(wctx, hosted); err != nil {
		t.Errorf("the room stayed listed after serve stopped: %v", fm.RoomIDs())
	}
}

// `login` with a pasted token stores it for the master, where a later
// lobby join finds it.
func TestLoginStoresPastedToken(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	token := keys.Token("4", "Neo")
	var out, errOut bytes.Buffer
	code := runLogin(context.Background(), []string{"-no-browser", "-port", "0", "-auth", "http://127.0.0.1:1", "http://127.0.0.1:3002"},
		strings.NewReader(token+"\n"), &out, &errOut)
	if code != 2 {
		t.Fatalf("port 0 accepted: %d", code)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	code = runLogin(context.Background(), []string{"-no-browser", "-port", port, "-auth", "http://127.0.0.1:1", "http://127.0.0.1:3002"},
		strings.NewReader(token+"\n"), &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "Signed in as Neo") {
		t.Fatalf("login: %d\n%s%s", code, out.String(), errOut.String())
	}
	m, err := lobby.NewMaster("http://127.0.0.1:3002", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, from, err := lobby.DefaultTokenSources(lobby.TokenFlags{}).Token(m)
	if err != nil || got != token || from != "the stored sign-in" {
		t.Errorf("stored token: %q %q %v", got, from, err)
	}
}
