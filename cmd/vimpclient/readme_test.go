package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

// readmeCommand is one command line of the README: its text and its
// arguments after the program's name, placeholders as written.
type readmeCommand struct {
	line string
	args []string
}

// readmeCommands reads the command lines (those starting with
// bin/vimpclient) of the code blocks in the README's "Using it" section,
// its subsections included, with their comments cut off.
func readmeCommands(path string) ([]readmeCommand, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []readmeCommand
	in, code := false, false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Using it"
			continue
		case strings.HasPrefix(line, "```"):
			code = !code
			continue
		}
		cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "bin/vimpclient")
		if !in || !code || !ok {
			continue
		}
		args, err := shellWords(cmd)
		if err != nil {
			return nil, fmt.Errorf("README: %q: %w", line, err)
		}
		out = append(out, readmeCommand{line: strings.TrimSpace(line), args: args})
	}
	return out, sc.Err()
}

// shellWords splits a command line as a shell would for the README's
// lines: words apart by spaces, double quotes keeping a word together, a
// "#" starting a word the comment. Optional parts ("[-json]") are taken,
// and a trailing "..." (more of the same) is dropped.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	flush := func() {
		if inWord {
			w := strings.TrimSuffix(strings.Trim(cur.String(), "[]"), "...")
			words = append(words, w)
		}
		cur.Reset()
		inWord = false
	}
	for _, r := range s {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case quoted:
			cur.WriteRune(r)
		case r == ' ' || r == '\t':
			flush()
		case r == '#' && !inWord:
			return words, nil
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote")
	}
	flush()
	return words, nil
}

// TestReadmeCommandsRun runs every command line of the README's "Using it"
// section and fails when one errors: against the embedded host (HOST and
// the literal host address), a recording made here (FILE), the
// conformance set's schema and a frame (S.json, F.bin), an in-process
// lobby master (MASTER). Commands that open a window run the same command
// with -headless and a short -for (a window needs a display and a person
// to close it; what the window adds is tested in the window package);
// `serve` runs until it has said where it listens; `login` reads a pasted
// token (-no-browser: no browser in a test) on a free port.
func TestReadmeCommandsRun(t *testing.T) {
	cmds, err := readmeCommands(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	firsts := map[string]bool{}
	for _, c := range cmds {
		if len(c.args) > 0 {
			firsts[c.args[0]] = true
		}
	}
	for _, want := range []string{"serve", "replay", "frames", "servers", "login", "-headless"} {
		if !firsts[want] {
			t.Fatalf("no README command starts with %q: the section's commands were not all read (%d read)", want, len(cmds))
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, AuthService: "http://127.0.0.1:1"})
	defer fm.Close()
	dir := t.TempDir()
	rec := filepath.Join(dir, "match.jsonl")
	var setup bytes.Buffer
	if code := run([]string{"-headless", "-for", "3s", "-nick", "Recorder", "-record", rec, srv.URL()}, io.Discard, &setup); code != 0 {
		t.Fatalf("recording for FILE: exit %d\n%s", code, setup.String())
	}
	conf := conformanceDir(t)
	subst := map[string]string{
		"HOST": srv.URL(), "http://127.0.0.1:3002": srv.URL(), "FILE": rec, "MASTER": fm.URL(),
		"S.json": filepath.Join(conf, "schemas", "tanks.json"), "F.bin": filepath.Join(conf, "frames", "tanks", "0000.bin"),
		"S": "Native", "AUTH_URL": "http://127.0.0.1:1/auth",
		"0.0.0.0:3002":   "127.0.0.1:0", // loopback only, on a free port
		"127.0.0.1:3003": "127.0.0.1:0",
	}

	// login comes first (the rooms need its sign-in), then the hosting
	// `serve -master` in the background (the others list and join its
	// room), then the rest in the README's order.
	slices.SortStableFunc(cmds, func(a, b readmeCommand) int { return readmeRank(a) - readmeRank(b) })
	var hosting sync.WaitGroup
	defer hosting.Wait()
	hostCtx, stopHosting := context.WithCancel(ctx)
	defer stopHosting()
	for _, c := range cmds {
		args := make([]string, len(c.args))
		for i, a := range c.args {
			if s, ok := subst[a]; ok {
				a = s
			}
			if strings.HasPrefix(a, "testdata/") {
				a = filepath.Join("..", "..", a) // the README's commands run from the module root
			}
			args[i] = a
		}
		var out, errb bytes.Buffer
		code := 0
		switch {
		case len(args) > 0 && args[0] == "login":
			token := keys.Token("7", "Reader")
			code = runLogin(ctx, append([]string{"-no-browser", "-port", browsertest.FreePort(t)}, args[1:]...), strings.NewReader(token+"\n"), &out, &errb)
		case len(args) > 0 && args[0] == "serve":
			// A room's host stays up for the commands after it; the LAN
			// host is stopped once it listens.
			room := slices.Contains(args, "-master")
			sctx, stop := context.WithCancel(hostCtx)
			serveUntilListening(t, sctx, c.line, args[1:], &hosting, room)
			if !room {
				stop()
			}
			defer stop()
			continue
		case len(args) > 0 && args[0] == "replay":
			if !slices.Contains(args, "-headless") {
				args = append([]string{"replay", "-headless"}, args[1:]...)
			}
			code = run(args, &out, &errb)
		case len(args) > 0 && !strings.HasPrefix(args[0], "-") && !strings.Contains(args[0], "://"):
			code = run(args, &out, &errb) // frames, servers: as written
		default:
			args = headlessArgs(args)
			code = run(args, &out, &errb)
		}
		if code != 0 {
			t.Errorf("%s\n\tran as %q: exit %d\n%s%s", c.line, args, code, out.String(), errb.String())
		}
	}
}

// readmeRank orders the README's commands so each finds what it needs.
func readmeRank(c readmeCommand) int {
	switch {
	case len(c.args) > 0 && c.args[0] == "login":
		return 0
	case len(c.args) > 0 && c.args[0] == "serve" && slices.Contains(c.args, "-master"):
		return 1
	}
	return 2
}

// headlessArgs is a play command as the test runs it: without a window
// (-headless added when the README's line opens one) and for 3 s (-for
// shortened or added).
func headlessArgs(args []string) []string {
	out := []string{"-headless"}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-headless":
			continue
		case "-for":
			i++ // the README's duration is replaced
			continue
		}
		out = append(out, args[i])
	}
	// Flags go before the address.
	last := len(out)
	if last > 1 && !strings.HasPrefix(out[last-1], "-") && strings.Contains(out[last-1], "://") {
		return append(append(out[:last-1:last-1], "-for", "3s"), out[last-1])
	}
	return append(out, "-for", "3s")
}

// serveUntilListening starts a serve command and waits until it has said
// where it listens (and, hosting for a master, that its room is listed);
// a command listing a room keeps running in the background until the
// test's hosting context ends. A command that ends before it listened
// fails the test.
func serveUntilListening(t *testing.T, ctx context.Context, line string, args []string, hosting *sync.WaitGroup, room bool) {
	t.Helper()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb syncBuffer
	hosting.Add(1)
	go func() {
		defer hosting.Done()
		done <- runServe(ctx, args, pw, &errb)
		pw.Close()
	}()
	rd := bufio.NewReader(pr)
	want := 1
	if room {
		want = 2 // the address, then the room
	}
	for range want {
		if _, err := rd.ReadString('\n'); err != nil {
			t.Errorf("%s: ended before it listened: exit %d\n%s", line, <-done, errb.String())
			return
		}
	}
	go io.Copy(io.Discard, rd)
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader on two
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestShellWords(t *testing.T) {
	for in, want := range map[string][]string{
		` -room "Native Room" MASTER               # join`: {"-room", "Native Room", "MASTER"},
		` servers [-json] [-search S] MASTER`:              {"servers", "-json", "-search", "S", "MASTER"},
		` frames -schema S.json F.bin...   # x`:            {"frames", "-schema", "S.json", "F.bin"},
		`                                   # only`:        nil,
		` a#b`: {"a#b"},
	} {
		got, err := shellWords(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := shellWords(` -room "open`); err == nil {
		t.Error("an unterminated quote was accepted")
	}
}
