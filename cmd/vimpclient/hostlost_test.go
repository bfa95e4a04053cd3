package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

// serveChildEnv makes the test binary run `vimpclient serve` with the
// arguments in it (one per line) instead of the tests: a host process a
// test can kill -9.
const serveChildEnv = "VIMPCLIENT_TEST_SERVE_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(serveChildEnv); args != "" {
		os.Exit(runServe(context.Background(), strings.Split(args, "\n"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The room's host process killed mid-match: the headless run gives the
// host up within 3 s of its last message, finds the room gone from the
// master's list, exits 1 naming why, and its summary tells the story.
func TestHostProcessKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a host process")
	}
	keys := browsertest.Home(t)
	fm := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer fm.Close()

	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), serveChildEnv+"="+strings.Join([]string{"-addr", "127.0.0.1:0", "-bots", "1",
		"-master", fm.URL(), "-name", "Doomed Room", "-token", keys.Token("1", "Hoster")}, "\n"))
	child.Stdout, child.Stderr = io.Discard, io.Discard
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = child.Process.Kill()
		_ = child.Wait()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatalf("the host process registered no room: %v", err)
	}

	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	var out, errOut bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"-headless", "-for", "40s", "-summary", "-record", rec, "-token", keys.Token("2", "Alice"),
			"-room", "Doomed Room", fm.URL()}, &out, &errOut)
	}()
	// The host is killed once its frames reach the client: the recording
	// is the only window on that from here, so it is read until one shows.
	for {
		b, _ := os.ReadFile(rec)
		if bytes.Contains(b, []byte(`"kind":"binary"`)) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("no frame reached the client")
		case c := <-code:
			t.Fatalf("the run ended first (%d):\n%s", c, errOut.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var status int
	select {
	case status = <-code:
	case <-ctx.Done():
		t.Fatal("the run went on after its host died")
	}
	if status != 1 || !strings.Contains(errOut.String(), "Room gone: the host of “Doomed Room” stopped responding") {
		t.Fatalf("exit %d:\n%s", status, errOut.String())
	}
	var sum gameloop.Summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out.String())
	}
	ls := sum.Lobby
	if ls == nil || ls.Room != "Doomed Room" || ls.Master != fm.URL() || ls.JoinMs == nil || ls.HostLostMs == nil {
		t.Fatalf("lobby summary %+v", ls)
	}
	// Given up at 2.5 s of silence, checked every 0.1 s: a loaded machine
	// may check late, which the bound allows for without hiding a watch
	// that waits for ICE (10 s).
	if ms := *ls.HostLostMs; ms < 2500 || ms > 4000 {
		t.Errorf("hostLostMs %d, want 2500 and a little more", ms)
	}
	t.Logf("joinMs %d, hostLostMs %d", *ls.JoinMs, *ls.HostLostMs)
}
